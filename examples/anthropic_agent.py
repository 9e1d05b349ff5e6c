"""An agent loop on Anthropic's Messages API, with the tools of weather.py.

The model asks for tools; toolcall runs them and writes the ``tool_result``
blocks; the loop goes on until the model answers in text. A call with bad
arguments comes back with ``is_error: true`` and what is wrong, so the model
can correct it. The client reads ``ANTHROPIC_API_KEY`` (and
``ANTHROPIC_BASE_URL``, if set)::

    python examples/anthropic_agent.py "Do I need a coat in Oslo tomorrow?"
"""

from __future__ import annotations

import sys

import weather
from anthropic import Anthropic
from anthropic.types import MessageParam

import toolcall
import toolcall.anthropic

MODEL = "claude-sonnet-4-5"
QUESTION = "What is the weather in Oslo and in Paris, and hour by hour in Oslo (59.91 N, 10.75 E) for 6 hours?"


def ask(question: str, max_turns: int = 10) -> str:
    """The model's answer to ``question``, after running the tool calls it makes."""
    client = Anthropic()
    tools = toolcall.emit(weather, "anthropic")
    messages: list[MessageParam] = [{"role": "user", "content": question}]
    for _ in range(max_turns):
        message = client.messages.create(model=MODEL, max_tokens=1024, messages=messages, tools=tools)
        messages.append({"role": "assistant", "content": message.content})
        results = toolcall.anthropic.tool_results(weather, message)
        if results is None:  # no tool_use block: the model has answered
            return "".join(block.text for block in message.content if block.type == "text")
        messages.append(results)
    raise RuntimeError(f"no answer after {max_turns} turns")


if __name__ == "__main__":
    print(ask(" ".join(sys.argv[1:]) or QUESTION))
