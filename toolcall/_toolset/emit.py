"""``emit``, ``describe`` and ``tool_names``: tool definitions for a source.

Each toolset renders a provider variant once and keeps it in one shared,
read-only form (``shared_definitions``), which toolcall's own readers
(``toolcall export``, ``toolcall serve``, the adapters) use as it is; so is
``describe``'s result, which ``describe`` returns shared. ``emit`` returns a
fresh plain copy on every call, so a caller may change it freely;
the copy is built by a function generated once per variant
(``toolcall._toolset.emit_copies``).

``emit``'s overloads give TypedDicts for ``"openai"``, ``"openai-responses"``
and ``"anthropic"`` that copy the provider SDKs' own tool types
(``toolcall._toolset.sdk_tool_params``), so the result passes to their
``tools=`` without a cast, and a type checker never has to analyse an SDK
the project does not import.
"""

from __future__ import annotations

from toolcall._toolset.toolset import as_toolset, descriptions, fresh_definitions

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if not TYPE_CHECKING:

    def overload(function: object) -> object:
        """``typing.overload`` without importing typing: the implementation below replaces the overloads."""
        return function


if TYPE_CHECKING:
    from typing import Any, Literal, overload

    from toolcall._toolset.sdk_tool_params import AnthropicTool, OpenAIChatTool, OpenAIResponsesTool
    from toolcall._toolset.toolset import Source


__all__ = ["describe", "emit", "tool_names"]


# A name typed only as ``str`` may hold "openai" too: the fallback's plain dicts
# describe the same data, so the overlap mypy reports is deliberate (as for
# ``open``'s modes in typeshed).
@overload
def emit(source: Source, provider: Literal["openai"], *, strict: bool = False) -> list[OpenAIChatTool]: ...  # type: ignore[overload-overlap]
@overload
def emit(  # type: ignore[overload-overlap]
    source: Source, provider: Literal["openai-responses"], *, strict: bool = False
) -> list[OpenAIResponsesTool]: ...
@overload
def emit(source: Source, provider: Literal["anthropic"], *, strict: bool = False) -> list[AnthropicTool]: ...  # type: ignore[overload-overlap]
@overload
def emit(source: Source, provider: str, *, strict: bool = False) -> list[dict[str, Any]]: ...
def emit(source: Source, provider: str, *, strict: bool = False) -> list[Any]:
    """The tool definitions of ``source`` for ``provider``, in declaration order.

    Providers: ``"openai"``, ``"openai-responses"``, ``"anthropic"``, ``"mcp"``,
    ``"gemini"``. Every call returns a new plain ``list`` of plain ``dict``\\ s,
    sharing no container with any other result: append a provider-hosted
    tool, set ``cache_control`` on the last Anthropic tool, change anything.
    """
    return fresh_definitions(as_toolset(source), provider, strict)


def describe(source: Source) -> list[dict[str, Any]]:
    """``{module, name, description, parameters}`` for each tool, with no provider envelope.

    The result is shared between callers and read-only (mutation raises
    ``TypeError``); ``copy.deepcopy`` it to change it.
    """
    described: list[dict[str, Any]] = descriptions(as_toolset(source))
    return described


def tool_names(source: Source) -> list[str]:
    """The names of the tools of ``source``, in declaration order (shared and read-only)."""
    return as_toolset(source).names
