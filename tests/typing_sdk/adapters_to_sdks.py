"""Type-checked only (tests/plugin/test_sdk_typing.py): the adapters' results go back to the SDKs without a cast.

Nothing here runs: the checkers must accept every call with no error. The
adapters return the SDKs' own message types, as do these loops' lists.
"""

from __future__ import annotations

import anthropic
import openai
from google import genai
from openai.types.chat import ChatCompletionMessageParam
from openai.types.responses import ResponseInputItemParam

import toolcall
import toolcall.anthropic
import toolcall.gemini
import toolcall.openai


@toolcall.tool
def get_weather(city: str, days: int = 3) -> str:
    """Get the forecast for a city."""
    return f"{city}: sunny for {days} days"


def chat_completions(client: openai.OpenAI) -> None:
    tools = toolcall.emit(get_weather, "openai")
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Weather in Oslo?"}]
    completion = client.chat.completions.create(model="gpt-4.1", messages=messages, tools=tools)
    messages += toolcall.openai.tool_messages(get_weather, completion)
    client.chat.completions.create(model="gpt-4.1", messages=messages, tools=tools)


def responses(client: openai.OpenAI) -> None:
    tools = toolcall.emit(get_weather, "openai-responses")
    items: list[ResponseInputItemParam] = [{"role": "user", "content": "Weather in Oslo?"}]
    response = client.responses.create(model="gpt-4.1", input=items, tools=tools)
    items += toolcall.openai.function_call_outputs(get_weather, response)
    client.responses.create(model="gpt-4.1", input=items, previous_response_id=response.id, tools=tools)


def messages(client: anthropic.Anthropic) -> None:
    tools = toolcall.emit(get_weather, "anthropic")
    message = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=[], tools=tools)
    results = toolcall.anthropic.tool_results(get_weather, message)
    if results is not None:
        client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=[results], tools=tools)


def gemini(client: genai.Client) -> None:
    response = client.models.generate_content(model="gemini-2.5-flash", contents="Weather in Oslo?")
    parts = toolcall.gemini.function_responses(get_weather, response)
    client.models.generate_content(model="gemini-2.5-flash", contents=[{"role": "user", "parts": parts}])
