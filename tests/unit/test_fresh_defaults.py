"""A list, dict or set default is built anew for every call, on every dispatch path.

Python shares one default object between the calls of a function; a tool that
appends to its default would hand one model's (or one user's) data to the
next call. Each test runs a tool that changes its default and returns it,
twice, and expects the second call to start from the declared value again.
"""

from __future__ import annotations

import asyncio
import collections
import json
from typing import Any

import pytest

import toolcall
import toolcall.anthropic
import toolcall.openai
from toolcall import Ok, ToolcallWarning


@toolcall.tool
def tag(label: str, bag: list[str] = []) -> list[str]:  # noqa: B006 - the shared default is the point
    """Add a label to the bag.

    Args:
        label: The label to add.
        bag: Labels so far.
    """
    bag.append(label)
    return bag


@toolcall.tool
def count(key: str, counts: dict[str, int] = {"seed": 1}) -> dict[str, int]:  # noqa: B006
    """Count a key.

    Args:
        key: The key to count.
        counts: Counts so far.
    """
    counts[key] = counts.get(key, 0) + 1
    return counts


@toolcall.tool
def collect(item: int, seen: set[int] = set(), nested: list[list[int]] = [[0]]) -> list[Any]:  # noqa: B006
    """Collect an item.

    Args:
        item: The item.
        seen: Items seen so far.
        nested: A list whose inner list grows too.
    """
    seen.add(item)
    nested[0].append(item)
    return [sorted(seen), nested]


@toolcall.tool
async def atag(label: str, bag: list[str] = []) -> list[str]:  # noqa: B006
    """Add a label to the bag, asynchronously.

    Args:
        label: The label to add.
        bag: Labels so far.
    """
    bag.append(label)
    return bag


@toolcall.tool
def kinds(key: str, counts: dict[str, int] = collections.OrderedDict()) -> dict[str, int]:  # noqa: B006
    """Count a key in an OrderedDict default (a dict subclass: copied, its type kept).

    Args:
        key: The key to count.
        counts: Counts so far.
    """
    assert type(counts) is collections.OrderedDict
    counts[key] = counts.get(key, 0) + 1
    return dict(counts)


with pytest.warns(ToolcallWarning, match=r"collect\.seen: the default set\(\) \(a set\) is not JSON"):
    TOOLS = toolcall.Toolset(tag, count, collect, atag, kinds)  # a set default is left out of the schema


def values(*calls: tuple[str, dict[str, Any]]) -> list[Any]:
    results = [toolcall.run(TOOLS, name, args) for name, args in calls]
    assert all(isinstance(result, Ok) for result in results), results
    return [result.value for result in results if isinstance(result, Ok)]


def test_a_list_default_is_fresh_for_each_run() -> None:
    assert values(("tag", {"label": "a"}), ("tag", {"label": "b"})) == [["a"], ["b"]]


def test_a_dict_default_is_a_copy_of_the_declared_one() -> None:
    assert values(("count", {"key": "x"}), ("count", {"key": "x"})) == [{"seed": 1, "x": 1}, {"seed": 1, "x": 1}]
    assert count.__defaults__ == ({"seed": 1},)  # the function's own default is never handed out


def test_a_set_default_and_a_nested_list_are_copied_all_the_way_down() -> None:
    assert values(("collect", {"item": 1}), ("collect", {"item": 2})) == [[[1], [[0, 1]]], [[2], [[0, 2]]]]


def test_a_dict_subclass_default_keeps_its_type() -> None:
    assert values(("kinds", {"key": "k"}), ("kinds", {"key": "k"})) == [{"k": 1}, {"k": 1}]


def test_an_argument_sent_is_passed_as_sent() -> None:
    assert values(("tag", {"label": "b", "bag": ["a"]})) == [["a", "b"]]


def test_a_null_for_the_default_is_a_fresh_default_too() -> None:
    # A strict-mode schema makes every property required and the optional ones nullable: null means the default.
    assert values(("tag", {"label": "a", "bag": None}), ("tag", {"label": "b", "bag": None})) == [["a"], ["b"]]


def test_arun_gives_each_call_its_own_default() -> None:
    async def both() -> list[Any]:
        first = await toolcall.arun(TOOLS, "atag", {"label": "a"})
        second = await toolcall.arun(TOOLS, "tag", {"label": "b"})  # a sync tool through arun
        third = await toolcall.arun(TOOLS, "tag", {"label": "c"})
        return [first, second, third]

    results = asyncio.run(both())
    assert [result.value for result in results if isinstance(result, Ok)] == [["a"], ["b"], ["c"]]


def test_the_adapters_give_each_call_its_own_default() -> None:
    functions = [{"name": "tag", "arguments": json.dumps({"label": label})} for label in "ab"]
    calls = [{"id": f"call_{n}", "type": "function", "function": function} for n, function in enumerate(functions)]
    messages = toolcall.openai.tool_messages(TOOLS, {"role": "assistant", "tool_calls": calls})
    assert [message["content"] for message in messages] == ['["a"]', '["b"]']
    uses = [{"type": "tool_use", "id": f"toolu_{label}", "name": "tag", "input": {"label": label}} for label in "cd"]
    reply = toolcall.anthropic.tool_results(TOOLS, {"role": "assistant", "content": uses})
    assert reply is not None
    blocks: list[Any] = list(reply["content"])
    assert [block["content"] for block in blocks] == ['["c"]', '["d"]']
