"""An agent loop on OpenAI's Chat Completions API, with the tools of weather.py.

The model asks for tools; toolcall runs them and writes the tool messages; the
loop goes on until the model answers in text. A call with bad arguments comes
back as an ``Error: ...`` message the model can correct on its next turn. The
client reads ``OPENAI_API_KEY`` (and ``OPENAI_BASE_URL``, if set)::

    python examples/openai_agent.py "Do I need a coat in Oslo tomorrow?"
"""

from __future__ import annotations

import sys

import weather
from openai import OpenAI
from openai.types.chat import ChatCompletionAssistantMessageParam, ChatCompletionMessage, ChatCompletionMessageParam

import toolcall
import toolcall.openai

MODEL = "gpt-4.1-mini"
QUESTION = "What is the weather in Oslo and in Paris, and hour by hour in Oslo (59.91 N, 10.75 E) for 6 hours?"


def assistant_turn(message: ChatCompletionMessage) -> ChatCompletionAssistantMessageParam:
    """The model's turn as the request's message: the API needs its tool calls before their results."""
    return {
        "role": "assistant",
        "content": message.content,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.function.name, "arguments": call.function.arguments},
            }
            for call in message.tool_calls or ()
            if call.type == "function"
        ],
    }


def ask(question: str, max_turns: int = 10) -> str:
    """The model's answer to ``question``, after running the tool calls it makes."""
    client = OpenAI()
    tools = toolcall.emit(weather, "openai")
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": question}]
    for _ in range(max_turns):
        completion = client.chat.completions.create(model=MODEL, messages=messages, tools=tools)
        message = completion.choices[0].message
        results = toolcall.openai.tool_messages(weather, message)
        if not results:  # no tool call: the model has answered
            return message.content or ""
        messages.append(assistant_turn(message))
        messages += results
    raise RuntimeError(f"no answer after {max_turns} turns")


if __name__ == "__main__":
    print(ask(" ".join(sys.argv[1:]) or QUESTION))
