"""Defaults JSON text cannot show are dropped with a warning, and the tool still runs.

An int longer than the int-string limit (Python cannot write it), a list
that contains itself, and a list nested thousands of levels deep used to
make ``emit`` raise ``ValueError`` or ``RecursionError``. Each is a default
that JSON cannot carry: the schema omits it, a ``ToolcallWarning`` in the
words of every other dropped default says so (``toolcall-default``), and a
call that leaves the argument out gets the default, copied for the call.
"""

from __future__ import annotations

import dataclasses
import sys
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import toolcall
from toolcall import ToolcallWarning
from toolcall._rules import messages
from toolcall._rules.type_rules import MAX_DEPTH
from toolcall.errors import MAX_MESSAGE_LENGTH

PROVIDERS = ["openai", "openai-responses", "anthropic", "mcp", "gemini"]
HUGE = 10**5000
TOO_LONG = f"<an int of more than {sys.get_int_max_str_digits()} digits>"


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def looped_list() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


def looped_dict() -> dict[str, Any]:
    loop: dict[str, Any] = {}
    loop["self"] = [loop]
    return loop


#: name → (a default, what the warning calls it).
HOSTILE: dict[str, tuple[Any, str]] = {
    "huge": (HUGE, TOO_LONG),
    "negative": (-HUGE, TOO_LONG),
    "in_a_list": ([1, HUGE], TOO_LONG),
    "in_a_dict": ({"a": {"b": HUGE}}, TOO_LONG),
    "as_a_key": ({HUGE: 1}, f"dict (its key {TOO_LONG} is not a str)"),
    "looped_list": (looped_list(), "<a list that contains itself>"),
    "looped_dict": (looped_dict(), "<a dict that contains itself>"),
    "deep": (nested(5000), f"<a value nested more than {MAX_DEPTH} levels deep>"),
    "just_too_deep": (nested(MAX_DEPTH + 1), f"<a value nested more than {MAX_DEPTH} levels deep>"),
}


def hostile_tool(default: Any) -> Callable[..., Any]:
    """A fresh tool whose one parameter has ``default``: it returns what it received, summarized."""

    @toolcall.tool
    def receive(x: Any = default) -> str:
        """Say what arrived."""
        return f"{type(x).__name__} {x is default} {x is not default and _same_shape(x, default)}"

    return receive


def _same_shape(got: Any, want: Any) -> bool:
    """A fresh copy of ``want``: equal without recursing into the loops (``==`` of a loop recurses forever)."""
    if isinstance(want, list) and want and want[0] is want:
        return isinstance(got, list) and len(got) == 1 and got[0] is got
    if isinstance(want, dict) and "self" in want:
        return isinstance(got, dict) and got["self"][0] is got
    if isinstance(want, list) and len(want) == 1 and isinstance(want[0], list):
        return True  # deeply nested: checked by the depth test
    return bool(got == want)


def keys(value: Any) -> set[str]:
    """Every key of every object in ``value``, at any depth."""
    if isinstance(value, dict):
        return set(value).union(*map(keys, value.values()))
    return set().union(*map(keys, value)) if isinstance(value, list) else set()


def emitted(tool: Callable[..., Any], provider: str) -> tuple[list[dict[str, Any]], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        schemas = toolcall.emit(tool, provider)  # type: ignore[call-overload]
    return schemas, [str(w.message) for w in caught if issubclass(w.category, ToolcallWarning)]


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_default_json_text_cannot_show_is_dropped_with_the_shared_warning(name: str) -> None:
    default, what = HOSTILE[name]
    tool = hostile_tool(default)
    expected = f"receive.x: {messages.default_not_json(what)} [toolcall-default]"
    for index, provider in enumerate(PROVIDERS):
        schemas, found = emitted(tool, provider)
        assert "default" not in keys(schemas)
        assert found == ([expected] if index == 0 else [])  # once per tool, on first use
        assert len(expected) <= MAX_MESSAGE_LENGTH


@dataclasses.dataclass
class Box:
    """A box; its size is an int too long to write unless given."""

    size: int = HUGE


def test_a_dataclass_field_default_json_text_cannot_show_is_dropped() -> None:
    @toolcall.tool
    def pack(box: Box) -> int:
        """Pack a box."""
        return 1 if box.size == HUGE else 0

    schemas, found = emitted(pack, "openai")
    assert "default" not in keys(schemas)
    assert [text.split(": ", 1)[1] for text in found] == [f"{messages.default_not_json(TOO_LONG)} [toolcall-default]"]
    assert toolcall.run(pack, "pack", {"box": {}}) == toolcall.Ok(1)


@pytest.mark.parametrize(
    "name", ["huge", "negative", "in_a_list", "in_a_dict", "as_a_key", "looped_list", "looped_dict"]
)
def test_a_call_without_the_argument_gets_the_default(name: str) -> None:
    default, _ = HOSTILE[name]
    tool = hostile_tool(default)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ToolcallWarning)
        result = toolcall.run(tool, "receive", {})
    mutable = isinstance(default, (list, dict))
    # A mutable default arrives as a copy made for the call (a loop stays a loop); an int as itself.
    assert result == toolcall.Ok(f"{type(default).__name__} {not mutable} {mutable}")


def test_a_default_nested_past_the_recursion_limit_is_passed_as_it_is() -> None:
    default = nested(5000)
    tool = hostile_tool(default)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ToolcallWarning)
        result = toolcall.run(tool, "receive", {})
    # No copy can be made of it: the call gets the tool's own object, as a plain Python call does.
    assert result == toolcall.Ok("list True False")
