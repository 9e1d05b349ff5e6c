"""The provider envelopes around a tool's schema.

An empty tool description is left out (every envelope has it optional), so
a provider never sees ``"description": ""``. Only Anthropic's envelope
carries a tool's argument examples (``input_examples``): no other provider's
tool definition has a place for them.
"""

from __future__ import annotations

import json
from typing import Any

from toolcall import _ir as ir
from toolcall._render.schema import Schema

__all__ = ["anthropic", "gemini", "mcp", "openai_chat", "openai_responses"]


def openai_chat(tool: ir.Tool, parameters: Schema, strict: bool) -> dict[str, Any]:
    """Chat Completions: ``{"type": "function", "function": {...}}``; ``strict`` only when true."""
    function = _named(tool)
    function["parameters"] = parameters
    if strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def openai_responses(tool: ir.Tool, parameters: Schema, strict: bool) -> dict[str, Any]:
    """Responses: flat, and ``strict`` always present (omitted, the API may make it strict itself)."""
    return {"type": "function", **_named(tool), "parameters": parameters, "strict": strict}


def anthropic(tool: ir.Tool, input_schema: Schema, strict: bool) -> dict[str, Any]:
    """Messages API tool: ``input_schema``, ``strict: true`` only when strict, then ``input_examples`` if any.

    The examples come last: the bulkiest part, after everything that says
    what the tool takes.
    """
    definition = {**_named(tool), "input_schema": input_schema}
    if strict:
        definition["strict"] = True
    if tool.examples:
        definition["input_examples"] = [json.loads(example) for example in tool.examples]
    return definition


def mcp(tool: ir.Tool, input_schema: Schema, output_schema: Schema | None) -> dict[str, Any]:
    """MCP ``Tool``: ``inputSchema`` and, for a tool with a return type, ``outputSchema``; no strict flag."""
    definition = {**_named(tool), "inputSchema": input_schema}
    if output_schema is not None:
        definition["outputSchema"] = output_schema
    return definition


def gemini(tool: ir.Tool, parameters: Schema | None) -> dict[str, Any]:
    """A Gemini function declaration; no ``parameters`` for a tool without any."""
    definition = _named(tool)
    if parameters is not None:
        definition["parameters"] = parameters
    return definition


def _named(tool: ir.Tool) -> dict[str, Any]:
    named: dict[str, Any] = {"name": tool.name}
    if tool.description:
        named["description"] = tool.description
    return named
