"""The cache check's one pass: a valid entry decoded and checked at once, never accepting what the steps refuse.

``shapes._tool`` first asks the one pass, which vouches for an entry or
gives up; the steps (decode, check each field, count the expansion) decide
every entry it gives up on. So checking an entry with the one pass must end
exactly as checking it with the steps alone: the same tool and node count,
or the same error. That is tested on every tool of the test corpus, and on
those entries mutated at random: a value replaced, an array cut short or
made longer.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import corpus
from toolcall import _ir as ir
from toolcall._cache import file_format, shapes
from toolcall._cache.constants import MalformedCacheError
from toolcall._declarations.tool import module_tools
from toolcall._introspect import introspect

MODULE = "pkg.tools"


@functools.cache
def corpus_content() -> str:
    """Every tool of the test corpus as the entries of one cache file (JSON text: each use parses it anew)."""
    entries = []
    for name in corpus.MODULES:
        importlib.import_module(name)
        for declaration in module_tools(name):
            try:
                tool = introspect(declaration).tool
            except TypeError:  # a tool the corpus keeps to show a refusal
                continue
            entries.append(file_format.tool_entry(tool, [MODULE]))
    content = file_format.module_content(MODULE, {MODULE: ["a" * 32, None, None]}, entries)
    return json.dumps(content)


def corpus_entries() -> tuple[list[Any], Any]:
    """The corpus entries' ``ir`` data and the file's shared classes, decoded and checked."""
    content = json.loads(corpus_content())
    return [entry["ir"] for entry in content["tools"]], shapes._shared_types(content["types"])


def outcome(data: Any, shared: Any, one_pass: bool) -> tuple[Any, ...]:
    """How checking ``data`` ends: ``("ok", tool, nodes)`` or ``("refused", reason)``."""
    try:
        if one_pass:
            tool, nodes = shapes._tool(data, "the entry", MODULE, shared)
        else:
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(shapes, "_one_pass", lambda *_: None)
                tool, nodes = shapes._tool(data, "the entry", MODULE, shared)
    except MalformedCacheError as exc:
        return ("refused", str(exc))
    return ("ok", tool, nodes)


def test_the_one_pass_vouches_for_every_valid_entry() -> None:
    entries, shared = corpus_entries()
    assert len(entries) > 40
    for data in entries:
        vouched = shapes._one_pass(data, MODULE, shared)
        assert vouched is not None, data
        assert ("ok", *vouched) == outcome(data, shared, one_pass=False)


def paths(value: Any, at: tuple[int, ...] = ()) -> Iterator[tuple[int, ...]]:
    """Every position inside nested arrays, the arrays themselves included."""
    yield at
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*at, index))


def replaced(value: Any, at: tuple[int, ...], new: Any) -> Any:
    if not at:
        return new
    copy = list(value)
    copy[at[0]] = replaced(value[at[0]], at[1:], new)
    return copy


def edited(value: Any, at: tuple[int, ...], edit: Any) -> Any:
    """``value`` with the array at ``at`` changed by ``edit`` (a function of the array)."""
    if not at:
        return edit(value) if isinstance(value, list) else value
    copy = list(value)
    copy[at[0]] = edited(value[at[0]], at[1:], edit)
    return copy


#: Values an entry holds somewhere: kinds, primitive names, defaults' texts, positions, flags.
WORDS = ["str", "int", "float", "bool", "none", "array", "object", "ref", "union", "literal", "enum", "map"]
WORDS += ["tuple", "custom", "constrained", "any", "typeddict", "positional_or_keyword", "keyword_only", ""]
WORDS += ['"x"', "3", "{}", "[]", "null", "{", "pkg.tools:Item", "#/$defs/Item"]
scalars = st.none() | st.booleans() | st.integers(-2, 6) | st.floats(allow_nan=False) | st.sampled_from(WORDS)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=6)


#: A fixed set of replacements, tried at every position of every entry.
REPLACEMENTS: list[Any] = [*WORDS, None, True, False, 0, 1, 5, -1, 1.5, [], ["str"], ["array", "int"], [[]], {}]


def test_every_position_of_every_entry_replaced_cut_and_extended() -> None:
    entries, shared = corpus_entries()
    tried = 0
    for entry in entries:
        for at in paths(entry):
            variants = [replaced(entry, at, new) for new in REPLACEMENTS]
            variants += [edited(entry, at, lambda array: array[:-1]), edited(entry, at, lambda array: [*array, 0])]
            for mutated in variants:
                assert outcome(mutated, shared, one_pass=True) == outcome(mutated, shared, one_pass=False), mutated
                tried += 1
    assert tried > 10_000


def test_a_tool_naming_a_module_or_holding_examples_ends_as_the_steps_end_it() -> None:
    entries, shared = corpus_entries()
    tool = ir.from_json(entries[0], ir.Tool, shared.nodes)
    cases = {
        "a module": dataclasses.replace(tool, module="elsewhere"),
        "an empty module, written out": dataclasses.replace(tool, module=""),
        "an example": dataclasses.replace(tool, examples=('{"city": "Oslo"}',)),
        "an example that is no object": dataclasses.replace(tool, examples=('{"city": "Oslo"}', "[1]")),
        "an example that is not JSON": dataclasses.replace(tool, examples=("{",)),
    }
    ends = {}
    for name, case in cases.items():
        data = ir.to_json(case)
        if name == "an empty module, written out":
            data = [*data, *[default for _, _, default in ir.ENCODED_FIELDS[ir.Tool][len(data) :]]]
        data = json.loads(json.dumps(data))  # as the loader parses it: arrays, not tuples
        ends[name] = outcome(data, shared, one_pass=True)
        assert ends[name] == outcome(data, shared, one_pass=False), name
    assert [name for name, end in ends.items() if end[0] == "ok"] == ["an empty module, written out", "an example"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_mutated_entry_ends_as_the_steps_end_it(data: st.DataObject) -> None:
    entries, shared = corpus_entries()
    entry = data.draw(st.sampled_from(entries), label="entry")
    at = data.draw(st.sampled_from(list(paths(entry))), label="at")
    how = data.draw(st.sampled_from(["replace", "cut", "extend"]), label="how")
    if how == "replace":
        mutated = replaced(entry, at, data.draw(values, label="value"))
    elif how == "cut":
        mutated = edited(entry, at, lambda array: array[:-1])
    else:
        mutated = edited(entry, at, lambda array: [*array, data.draw(values, label="value")])
    assert outcome(mutated, shared, one_pass=True) == outcome(mutated, shared, one_pass=False)


def nested_arrays(levels: int, inner: Any) -> Any:
    return inner if levels == 0 else ["array", nested_arrays(levels - 1, inner)]


def object_node(name: str, fields: list[Any]) -> list[Any]:
    return ["object", f"{MODULE}:{name}", "typeddict", fields]


def tool_taking(node: Any) -> list[Any]:
    return ["deep", "deep", "A tool.", [["value", node, "a value"]]]


@pytest.mark.parametrize("levels", [40, 60])
def test_types_nested_deep_through_a_shared_class(levels: int) -> None:
    # The class itself is 152 levels deep, within the limit; the tool nests it 40 or 60 more.
    shared = shapes._shared_types([object_node("Deep", [["x", nested_arrays(150, "int")]])])
    end = outcome(tool_taking(nested_arrays(levels, 0)), shared, one_pass=True)
    assert end == outcome(tool_taking(nested_arrays(levels, 0)), shared, one_pass=False)
    assert end[0] == ("ok" if levels == 40 else "refused")


@pytest.mark.parametrize("copies", [1, 2])
def test_types_expanding_to_too_many_nodes_through_shared_classes(copies: int) -> None:
    # Each class names the one before it twice: the last expands to about 2.1 million nodes.
    items = [object_node("N0", [["a", "int"], ["b", "int"]])]
    items += [object_node(f"N{k}", [["a", k - 1], ["b", k - 1]]) for k in range(1, 20)]
    shared = shapes._shared_types(items)
    data = tool_taking(["union", [19] * copies])
    end = outcome(data, shared, one_pass=True)
    assert end == outcome(data, shared, one_pass=False)
    assert end[0] == ("ok" if copies == 1 else "refused")


@pytest.mark.parametrize("defined", [True, False])
def test_a_reference_inside_a_shared_class(defined: bool) -> None:
    shared = shapes._shared_types([object_node("Holder", [["next", ["ref", "Node"]]])])
    data = tool_taking(0)
    if defined:
        data.append([["Node", object_node("Node", [["value", "int"]])]])
    end = outcome(data, shared, one_pass=True)
    assert end == outcome(data, shared, one_pass=False)
    assert end[0] == ("ok" if defined else "refused")
