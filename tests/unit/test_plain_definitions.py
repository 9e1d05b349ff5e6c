"""A framework bridge's definitions are rendered for their caller alone: the same, warned once, nothing shared.

A bridge takes each definition once (``plain_definitions``,
``LoadedTool.plain_definition``), so they are rendered with their own
copies instead of copying a shared read-only form that no one else may ask
for. They must equal what the shared form gives (as ordered JSON text),
belong to their caller alone, and warn each finding once, whichever way
comes first; ``emit`` still keeps the shared form it copies again.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest

import toolcall
from toolcall import Toolset
from toolcall._toolset.toolset import fresh_definitions, loaded_tools, plain_definitions, shared_definitions
from toolcall._warning import ToolcallWarning

VARIANTS = [("openai", False), ("openai", True), ("anthropic", True), ("mcp", False), ("gemini", False)]


def make_toolset() -> Toolset:
    @toolcall.tool
    def price(items: list[dict[str, int]], coupon: str | None = None) -> float:
        """Price an order.

        Args:
            items: the order lines, item name to quantity
            coupon: a discount code
        """
        return 0.0

    @toolcall.tool(name="9lives")
    def lives(count: int = 9) -> int:
        """Count lives; Gemini refuses the name."""
        return count

    return Toolset(price, lives)


def text(value: Any) -> str:
    return json.dumps(value)


def warned(call: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(w.message) for w in caught if issubclass(w.category, ToolcallWarning)]


@pytest.mark.parametrize(("provider", "strict"), VARIANTS)
def test_plain_definitions_equal_the_shared_form_and_are_the_callers_own(provider: str, strict: bool) -> None:
    first_toolset, other = make_toolset(), make_toolset()
    first, first_warnings = warned(lambda: plain_definitions(first_toolset, provider, strict))
    shared, shared_warnings = warned(lambda: shared_definitions(other, provider, strict))
    assert text(first) == text(shared)
    assert first_warnings == shared_warnings
    assert first_toolset._shared.values == {}  # no shared form was made for it
    first[0]["changed"] = True
    first[0][next(iter(first[0]))] = "changed"
    assert text(plain_definitions(first_toolset, provider, strict)) == text(shared)
    assert text(fresh_definitions(first_toolset, provider, strict)) == text(shared)  # emit keeps its shared form
    assert list(first_toolset._shared.values) == [(provider, strict)]
    again = plain_definitions(first_toolset, provider, strict)  # now a copy of it
    again[0].clear()
    assert text(plain_definitions(first_toolset, provider, strict)) == text(shared)


@pytest.mark.parametrize("shared_first", [False, True])
@pytest.mark.parametrize(("provider", "strict"), VARIANTS)
def test_each_finding_is_warned_once_whichever_comes_first(provider: str, strict: bool, shared_first: bool) -> None:
    toolset = make_toolset()
    calls = [
        lambda: plain_definitions(toolset, provider, strict),
        lambda: shared_definitions(toolset, provider, strict),
        lambda: plain_definitions(toolset, provider, strict),
        lambda: toolcall.emit(toolset, provider, strict=strict),
    ]
    messages = [message for call in (calls[::-1] if shared_first else calls) for message in warned(call)[1]]
    assert len(messages) == len(set(messages))
    if provider == "gemini" or strict:
        assert messages, "the variant has findings to warn"


@pytest.mark.parametrize(("provider", "strict"), VARIANTS[:4])
def test_a_plain_definition_is_rendered_alone_then_copied_from_the_shared_form(provider: str, strict: bool) -> None:
    tool = loaded_tools(make_toolset())[0]
    plain, first_warnings = warned(lambda: tool.plain_definition(provider, strict))
    assert tool._definitions.values == {}  # rendered for its caller alone
    shared, shared_warnings = warned(lambda: tool.definition(provider, strict))
    assert text(plain) == text(shared)
    assert bool(first_warnings) is strict  # the strict variants cannot carry the dict keys' type
    assert shared_warnings == []  # warned once: by the first
    plain.clear()
    copied, again = warned(lambda: tool.plain_definition(provider, strict))
    assert text(copied) == text(shared)
    assert again == []
    copied.clear()
    assert text(tool.plain_definition(provider, strict)) == text(shared)
