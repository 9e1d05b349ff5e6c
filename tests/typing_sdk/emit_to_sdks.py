# pyright: strict
"""Type-checked only (tests/plugin/test_sdk_typing.py): emit's results go to the SDKs' ``tools=`` without a cast.

Nothing here runs: the checkers must accept every call, the mutation of a
result included, with no error.
"""

from __future__ import annotations

from typing import Any

import anthropic
import openai
from anthropic.types import ToolUnionParam

import toolcall


@toolcall.tool
def get_weather(city: str, days: int = 3) -> str:
    """Get the forecast for a city."""
    return f"{city}: sunny for {days} days"


def chat_completions(client: openai.OpenAI) -> None:
    client.chat.completions.create(
        model="gpt-4.1",
        messages=[{"role": "user", "content": "Weather in Oslo?"}],
        tools=toolcall.emit(get_weather, "openai"),
    )


def responses(client: openai.OpenAI) -> None:
    tools = toolcall.emit(get_weather, "openai-responses", strict=True)
    tools[0]["description"] = "Get the forecast."
    client.responses.create(model="gpt-4.1", input="Weather in Oslo?", tools=tools)


def messages(client: anthropic.Anthropic) -> None:
    tools = toolcall.emit(get_weather, "anthropic")
    tools[-1]["cache_control"] = {"type": "ephemeral"}
    client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": "Weather in Oslo?"}],
        tools=tools,
    )


def messages_with_a_hosted_tool(client: anthropic.Anthropic) -> None:
    tools: list[ToolUnionParam] = [
        *toolcall.emit(get_weather, "anthropic", strict=True),
        {"type": "web_search_20250305", "name": "web_search"},
    ]
    client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=[], tools=tools)


def other_providers(provider: str) -> list[dict[str, Any]]:
    mcp = toolcall.emit(get_weather, "mcp")
    mcp[0]["title"] = "Weather"
    return mcp + toolcall.emit(get_weather, provider)
