"""``emit``, ``describe`` and ``tool_names``: tool definitions for a source.

Each result is computed once per toolset (and provider variant) and shared:
the containers are read-only (``toolcall.frozen``), so a caller cannot change
what the next caller gets, and a call costs a few dictionary lookups.
"""

from __future__ import annotations

from toolcall.toolset import as_toolset

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any

    from toolcall.toolset import Source

__all__ = ["describe", "emit", "tool_names"]


def emit(source: Source, provider: str, *, strict: bool = False) -> list[dict[str, Any]]:
    """The tool definitions of ``source`` for ``provider``, in declaration order.

    Providers: ``"openai"``, ``"openai-responses"``, ``"anthropic"``, ``"mcp"``,
    ``"gemini"``. The result is read-only; ``copy.deepcopy`` it to change it.
    """
    toolset = as_toolset(source)
    found = toolset._emitted.get((provider, strict))
    if found is None:
        found = toolset.emitted(provider, strict)
    return found


def describe(source: Source) -> list[dict[str, Any]]:
    """``{module, name, description, parameters}`` for each tool, with no provider envelope."""
    return as_toolset(source).described()


def tool_names(source: Source) -> list[str]:
    """The names of the tools of ``source``, in declaration order."""
    return as_toolset(source).names
