"""Type-checked only (tests/plugin/test_sdk_typing.py): each call below must be an error in both checkers.

MCP's plain dicts are no Anthropic ``ToolParam``, and an Anthropic tool is
no Chat Completions tool.
"""

from __future__ import annotations

import anthropic
import openai

import toolcall


@toolcall.tool
def get_weather(city: str) -> str:
    """Get the forecast for a city."""
    return city


def mcp_to_anthropic(client: anthropic.Anthropic) -> None:
    client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": "Weather in Oslo?"}],
        tools=toolcall.emit(get_weather, "mcp"),  # error: mcp
    )


def anthropic_to_openai(client: openai.OpenAI) -> None:
    client.chat.completions.create(
        model="gpt-4.1",
        messages=[{"role": "user", "content": "Weather in Oslo?"}],
        tools=toolcall.emit(get_weather, "anthropic"),  # error: anthropic
    )
