"""``emit`` returns a fresh, plain, mutable list of plain dicts on every call.

Every provider variant: two calls give the same JSON text and share no
dict or list (with each other, with the shared form the internal readers
use, or within one result); changing every part of one result changes no
later one; the same holds when the tools come from a schema cache, when
threads race on the first use, and for schemas too deep or too big to be
spelled as one Python display (``toolcall._toolset.emit_copies``'s fallbacks).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict

import pytest

import toolcall
from tests.cached_package import run_python, write_cached_package
from toolcall import Param
from toolcall._toolset import emit_copies
from toolcall._toolset.toolset import as_toolset, fresh_definitions, shared_definitions

PROVIDERS = ("openai", "openai-responses", "anthropic", "mcp", "gemini")
VARIANTS = [(p, s) for p in PROVIDERS for s in (False, True) if not (p == "gemini" and s)]


class Unit(str, Enum):
    """A temperature unit."""

    C = "celsius"
    F = "fahrenheit"


class Stop(TypedDict):
    """One stop of a trip."""

    city: str
    nights: Annotated[int, Param(ge=1, le=30)]
    tags: list[str]


@toolcall.tool
def plan_trip(stops: list[Stop], unit: Unit = Unit.C, mode: Literal["car", "train"] | None = None) -> Stop:
    """Plan a trip through several cities.

    Args:
        stops: where to stay, in order
        unit: the unit for the forecasts
        mode: how to travel
    """
    return stops[0]


@toolcall.tool
def tally(counts: dict[str, int], note: str = "") -> int:
    """Add up named counts (an open map: strict modes fall back)."""
    return sum(counts.values())


@toolcall.tool
def ping() -> str:
    """No parameters at all."""
    return "pong"


def nested_schema(depth: int) -> dict[str, Any]:
    """An array of arrays ``depth`` levels deep: deeper than CPython's parser takes as one display."""
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
    return schema


class Deep:
    """A custom type whose schema nests 250 levels (500 brackets spelled as a display)."""

    __toolcall_schema__ = nested_schema(250)


@toolcall.tool
def deep(value: Deep, label: str = "\ud800 lone surrogate") -> str:
    """Take a deeply nested value."""
    return label


SOURCE = toolcall.Toolset(plan_trip, tally, ping)


def containers(value: Any) -> Iterator[Any]:
    """Every dict and list inside ``value`` (itself included), walked without recursion."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            yield node
            stack.extend(node)


def assert_fresh(first: Any, second: Any, shared: Any) -> None:
    """Equal JSON text, plain types, and no container shared between the three or repeated in one."""
    assert json.dumps(first) == json.dumps(second) == json.dumps(shared)
    mine, theirs = list(containers(first)), list(containers(second))
    assert all(type(node) in (dict, list) for node in mine + theirs)
    ids = {id(node) for node in mine}
    assert len(ids) == len(mine), "a container appears twice in one result"
    assert not ids & {id(node) for node in theirs}
    assert not ids & {id(node) for node in containers(shared)}


@pytest.mark.filterwarnings("ignore::toolcall.ToolcallWarning")
@pytest.mark.parametrize(("provider", "strict"), VARIANTS)
def test_every_call_gives_new_plain_containers_at_every_depth(provider: str, strict: bool) -> None:
    first = toolcall.emit(SOURCE, provider, strict=strict)
    second = toolcall.emit(SOURCE, provider, strict=strict)
    assert type(first) is list
    assert len(first) == 3
    assert_fresh(first, second, shared_definitions(as_toolset(SOURCE), provider, strict))


@pytest.mark.filterwarnings("ignore::toolcall.ToolcallWarning")
@pytest.mark.parametrize(("provider", "strict"), VARIANTS)
def test_changing_everything_in_a_result_changes_no_later_result(provider: str, strict: bool) -> None:
    first = toolcall.emit(SOURCE, provider, strict=strict)
    before = json.dumps(first)
    described = json.dumps(toolcall.describe(SOURCE))
    for node in list(containers(first)):
        if isinstance(node, dict):
            node["added"] = {"by": "the caller"}
            node.pop("type", None)
        else:
            node.append("added")
            node.reverse()
    assert json.dumps(toolcall.emit(SOURCE, provider, strict=strict)) == before
    assert json.dumps(shared_definitions(as_toolset(SOURCE), provider, strict)) == before
    assert json.dumps(toolcall.describe(SOURCE)) == described


def test_a_hosted_tool_and_cache_control_do_not_leak_into_the_next_request() -> None:
    tools = toolcall.emit(SOURCE, "anthropic")
    original = json.dumps(tools)
    tools.append({"type": "web_search_20250305", "name": "web_search", "max_uses": 3})
    tools[-1]["cache_control"] = {"type": "ephemeral"}
    tools[-2]["cache_control"] = {"type": "ephemeral"}
    again = toolcall.emit(SOURCE, "anthropic")
    assert json.dumps(again) == original
    assert len(again) == 3
    assert all("cache_control" not in tool for tool in again)


@pytest.mark.filterwarnings("ignore::toolcall.ToolcallWarning")
@pytest.mark.parametrize(("provider", "strict"), VARIANTS)
def test_a_schema_too_deep_for_one_display_is_copied(provider: str, strict: bool) -> None:
    first = toolcall.emit(deep, provider, strict=strict)
    second = toolcall.emit(deep, provider, strict=strict)
    assert_fresh(first, second, shared_definitions(as_toolset(deep), provider, strict))
    assert "\ud800 lone surrogate" in json.dumps(first, ensure_ascii=False)
    generated = as_toolset(deep)._copiers.values[(provider, strict)].__globals__["__source__"]
    assert "_copy(" in generated  # the part below MAX_LITERAL_DEPTH is copied at call time


def test_the_builder_spells_down_to_the_depth_limit_and_copies_below() -> None:
    limit = emit_copies.MAX_LITERAL_DEPTH
    shared = [nested_schema(limit * 3)]
    build = emit_copies.copier(shared)
    assert build.__globals__["__source__"].count("{") == limit  # only the spelled part is literal source
    first, second = build(), build()
    assert_fresh(first, second, shared)


def test_tools_past_the_node_budget_are_copied_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(300)}}
    small = {"name": "small", "parameters": {"type": "object"}}  # 4 nodes
    shared = [wide, small, wide]
    monkeypatch.setattr(emit_copies, "MAX_LITERAL_NODES", emit_copies.node_count(wide, 10**9) + 10)
    build = emit_copies.copier(shared)
    spelled = [line.strip() for line in build.__globals__["__source__"].splitlines()[2:5]]
    assert spelled[0].startswith("{'type': 'object'")
    assert spelled[1].startswith("{'name': 'small'")
    assert spelled[2].startswith("_copy(")  # the budget was spent on the first two
    assert_fresh(build(), build(), shared)


def test_node_count_stops_just_past_its_limit() -> None:
    assert emit_copies.node_count({"a": [1, 2, {"b": None}]}, 100) == 6
    assert emit_copies.node_count(nested_schema(10_000), 5) == 6


class Label(str):
    """A ``str`` subclass: not a plain scalar, so it is never spelled into source."""


def test_values_that_are_no_plain_literal_are_kept_as_they_are() -> None:
    huge = 10**5000  # repr refuses it (int_max_str_digits)
    label = Label("x")
    nan = float("nan")
    shared = [
        {"nan": nan, "inf": float("-inf"), "huge": huge, "label": label, "zero": -0.0, "flag": True, "none": None}
    ]
    (copy,) = emit_copies.copier(shared)()
    assert copy["nan"] is nan
    assert copy["huge"] is huge
    assert copy["label"] is label
    assert copy["inf"] == float("-inf")
    assert repr(copy["zero"]) == "-0.0"
    assert copy["flag"] is True
    assert copy["none"] is None
    assert list(copy) == list(shared[0])


def test_keys_and_strings_cannot_inject_code() -> None:
    hostile = "'] + __import__('os').getcwd() + ['"
    shared = [{hostile: [hostile, "\n\\", "\x00\u2028"], "x": {"')": "\"'''"}}]
    copy = emit_copies.copier(shared)()
    assert json.dumps(copy) == json.dumps(shared)


def test_the_shared_form_stays_read_only() -> None:
    shared = shared_definitions(as_toolset(SOURCE), "openai", False)
    assert shared is shared_definitions(as_toolset(SOURCE), "openai", False)
    with pytest.raises(TypeError, match="read-only"):
        shared[0]["function"]["name"] = "changed"
    with pytest.raises(TypeError, match="read-only"):
        toolcall.describe(SOURCE)[0]["parameters"]["properties"].clear()


FROM_CACHE = """
import json, sys
import toolcall
import pkg.tools as tools
from toolcall._toolset.toolset import as_toolset, loaded_tools, shared_definitions

first = toolcall.emit(tools, "anthropic")
before = json.dumps(first)
first[-1]["cache_control"] = {"type": "ephemeral"}
first[0]["input_schema"]["properties"].clear()
first.append({"type": "web_search_20250305", "name": "web_search"})
second = toolcall.emit(tools, "anthropic")

def ids(value):
    found = [value]
    for node in found:
        found.extend(node.values() if isinstance(node, dict) else node if isinstance(node, list) else ())
    return {id(node) for node in found if isinstance(node, (dict, list))}

print(json.dumps({
    "from_cache": [t.cached for t in loaded_tools(as_toolset(tools))],
    "introspected": "toolcall._introspect" in sys.modules,
    "plain": type(second) is list and all(type(tool) is dict for tool in second),
    "same_text": json.dumps(second) == before,
    "shared_with_first": bool(ids(first) & ids(second)),
    "shared_with_cache": bool(ids(second) & ids(shared_definitions(as_toolset(tools), "anthropic", False))),
}))
"""


def _python(cwd: Path, code: str) -> str:
    run = run_python(cwd, code)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_emitting_from_a_schema_cache_gives_fresh_lists(tmp_path: Path) -> None:
    write_cached_package(tmp_path)
    seen = json.loads(_python(tmp_path, FROM_CACHE))
    assert seen == {
        "from_cache": [True, True],
        "introspected": False,
        "plain": True,
        "same_text": True,
        "shared_with_first": False,
        "shared_with_cache": False,
    }


RACE = """
import json, sys, threading
sys.setswitchinterval(1e-6)
import toolcall
import toolcall._toolset.emit_copies
import first_use_fresh as mod

made = []
original = toolcall._toolset.emit_copies.copier

def counting(shared):
    made.append(1)
    return original(shared)

toolcall._toolset.emit_copies.copier = counting
THREADS = 16
barrier = threading.Barrier(THREADS)
results = [None] * THREADS

def worker(index):
    barrier.wait()
    results[index] = toolcall.emit(mod, "openai", strict=index % 2 == 0)

threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
for strict in (False, True):  # after the race, a copy of each variant is a repeated one: its copier exists
    toolcall.emit(mod, "openai", strict=strict)

def ids(value):
    found = [value]
    for node in found:
        found.extend(node.values() if isinstance(node, dict) else node if isinstance(node, list) else ())
    return [id(node) for node in found if isinstance(node, (dict, list))]

every = [i for result in results for i in ids(result)]
print(json.dumps({
    "builders_made": len(made),
    "texts": sorted({json.dumps(result) for result in results}),
    "distinct": len(every) == len(set(every)),
}))
"""

RACE_TOOLS = '''
from typing import TypedDict

import toolcall


class Item(TypedDict):
    sku: str
    qty: int


@toolcall.tool
def order(items: list[Item], note: str | None = None) -> int:
    """Place an order."""
    return len(items)


@toolcall.tool
def cancel(order_id: int) -> bool:
    """Cancel an order."""
    return True
'''


def test_threads_racing_on_first_use_build_once_and_get_fresh_lists(tmp_path: Path) -> None:
    (tmp_path / "first_use_fresh.py").write_text(textwrap.dedent(RACE_TOOLS))
    for _ in range(3):
        seen = json.loads(_python(tmp_path, RACE))
        assert seen["builders_made"] == 2  # one per variant: strict and not
        assert len(seen["texts"]) == 2
        assert seen["distinct"] is True


def test_the_first_emit_of_a_variant_compiles_no_copier_and_a_later_one_does() -> None:
    toolset = toolcall.Toolset(plan_trip, tally)  # a toolset of its own: nothing emitted from it yet
    first = fresh_definitions(toolset, "anthropic", True)
    assert ("anthropic", True) not in toolset._copiers.values
    second = fresh_definitions(toolset, "anthropic", True)
    assert ("anthropic", True) in toolset._copiers.values
    assert_fresh(first, second, shared_definitions(toolset, "anthropic", True))
    assert json.dumps(first) == json.dumps(second) == json.dumps(toolcall.emit(toolset, "anthropic", strict=True))
