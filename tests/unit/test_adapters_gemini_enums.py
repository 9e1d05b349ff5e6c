"""``toolcall.gemini`` turns the enum texts Gemini sends back into the tool's values before dispatch."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest

import toolcall
import toolcall.gemini
from tests import gemini_enum_tools
from toolcall._toolset.toolset import as_toolset, find_tool
from toolcall._wire.gemini_enums import enum_restorer, string_forms


def answers(*calls: dict[str, Any]) -> str:
    """The ``response`` of each part, sync and async alike, as JSON text."""
    parts = [{"function_call": call} for call in calls]
    sync = toolcall.gemini.function_responses(gemini_enum_tools, parts)
    concurrent = asyncio.run(toolcall.gemini.afunction_responses(gemini_enum_tools, parts))
    assert json.dumps(sync) == json.dumps(concurrent)
    return json.dumps([part["function_response"]["response"] for part in sync])  # type: ignore[index]


def test_texts_become_the_values_at_every_stringified_place() -> None:
    args = {"level": "2", "lines": [{"sku": "a", "level": "1"}, {"sku": "2", "level": 2}], "maybe": "1", "flag": "7"}
    assert answers({"name": "levels", "args": args}) == json.dumps(
        [
            {
                "output": [
                    "<Level.HIGH: 2>",
                    "[{'sku': 'a', 'level': <Level.LOW: 1>}, {'sku': '2', 'level': <Level.HIGH: 2>}]",
                    "<Level.LOW: 1>",
                    "7",
                    "'none'",
                ]
            }
        ]
    )


def test_a_boolean_text_and_null_for_a_nullable_enum() -> None:
    args: dict[str, Any] = {"level": "1", "lines": [], "maybe": None, "flag": "true"}
    assert json.loads(answers({"name": "levels", "args": args}))[0]["output"][2:4] == ["None", "True"]


def test_a_union_with_a_string_branch_keeps_the_integers_and_its_strings() -> None:
    # ``Level | str`` declares Level as INTEGER (a text would be the string branch's): nothing to restore.
    for sent, received in ((2, "<Level.HIGH: 2>"), ("2", "'2'")):
        args: dict[str, Any] = {"level": "1", "lines": [], "either": sent}
        assert json.loads(answers({"name": "levels", "args": args}))[0]["output"][4] == received


def test_a_text_that_is_not_a_value_reaches_the_dispatcher_unchanged() -> None:
    assert answers({"name": "levels", "args": {"level": "3", "lines": []}}) == json.dumps(
        [{"error": 'invalid argument "level": not one of the allowed values (one of 1, 2), got "3"'}]
    )


def test_the_callers_arguments_are_not_changed() -> None:
    args: dict[str, Any] = {"level": "2", "lines": [{"sku": "a", "level": "1"}]}
    before = copy.deepcopy(args)
    answers({"name": "levels", "args": args})
    assert json.dumps(args) == json.dumps(before)


def test_recursive_places_are_restored_down_to_the_declared_depth() -> None:
    leaf: dict[str, Any] = {"priority": "3"}
    args = {
        "root": {"priority": "1", "children": [{"priority": "2", "children": [{"priority": "3", "children": [leaf]}]}]}
    }
    # Three levels are declared as string enums and restored; the fourth was declared as any value,
    # so its text is not the type's, and the dispatcher still checks the whole type.
    assert answers({"name": "tree", "args": args}) == json.dumps(
        [
            {
                "error": 'invalid argument "root" at children[0].children[0].children[0].priority: '
                'not one of the allowed values (one of 1, 2, 3), got "3"'
            }
        ]
    )
    leaf["priority"] = 3
    assert answers({"name": "tree", "args": args}) == json.dumps([{"output": ["1", "2", "3", "3"]}])


def test_the_dispatcher_still_refuses_a_wrong_value_below_the_depth() -> None:
    deep = {"priority": 1, "children": [{"priority": 1, "children": [{"priority": 1, "children": [{"priority": 9}]}]}]}
    result = toolcall.run(gemini_enum_tools, "tree", {"root": deep})
    assert isinstance(result, toolcall.Err)
    assert "not one of the allowed values" in str(result.error)
    assert toolcall.run(gemini_enum_tools, "tree", {"root": {"priority": 1, "children": []}}) == toolcall.Ok(["1"])


def test_unknown_tools_and_calls_without_args_are_answered_as_before() -> None:
    assert answers({"name": "nope", "args": {"level": "1"}}).startswith('[{"error": "unknown tool')
    assert answers({"name": "levels"}) == json.dumps(
        [
            {
                "error": "2 problems with the arguments: "
                + 'missing required argument "level"; missing required argument "lines"'
            }
        ]
    )


def test_string_forms() -> None:
    assert string_forms([1, 2.5, True, "a"]) == ["1", "2.5", "true", "a"]
    assert string_forms(["1", 1]) is None  # two values, one text
    assert string_forms([1, None]) is None
    assert string_forms([[1]]) is None
    assert string_forms([]) is None


@pytest.mark.parametrize(
    ("branches", "expected"),
    [
        pytest.param([{"type": "STRING", "format": "enum", "enum": ["x"]}], 1, id="a-string-enum-without-the-text"),
        pytest.param([{"type": "STRING", "format": "enum", "enum": ["1"]}], "1", id="a-string-enum-with-the-text"),
        pytest.param([{"type": "STRING"}], "1", id="a-plain-string"),
        pytest.param([{"description": "any value"}], "1", id="any-value"),
        pytest.param([{"type": "INTEGER"}], 1, id="an-integer"),
    ],
)
def test_a_union_restores_a_text_only_when_no_other_branch_takes_it(branches: list[Any], expected: Any) -> None:
    schema = {"type": "OBJECT", "properties": {"x": {"anyOf": [{"type": "STRING", "enum": ["1"]}, *branches]}}}
    restore = enum_restorer(schema, {("properties", "x", "anyOf", 0): {"1": 1}})
    restored = {"x": "1"} if restore is None else restore({"x": "1"})  # None: nothing to restore there
    assert json.dumps(restored) == json.dumps({"x": expected})


def test_a_union_restores_inside_the_one_object_branch_only() -> None:
    inner = {"type": "OBJECT", "properties": {"n": {"type": "STRING", "enum": ["1"]}}}
    one = {"type": "OBJECT", "properties": {"x": {"anyOf": [inner, {"type": "INTEGER"}]}}}
    restore = enum_restorer(one, {("properties", "x", "anyOf", 0, "properties", "n"): {"1": 1}})
    assert restore is not None
    assert json.dumps(restore({"x": {"n": "1"}})) == json.dumps({"x": {"n": 1}})
    two = {"type": "OBJECT", "properties": {"x": {"anyOf": [inner, {"type": "OBJECT", "properties": {"m": {}}}]}}}
    assert enum_restorer(two, {("properties", "x", "anyOf", 0, "properties", "n"): {"1": 1}}) is None


def test_no_restorer_without_a_stringified_place() -> None:
    assert enum_restorer({"type": "OBJECT", "properties": {"x": {"type": "STRING"}}}, {}) is None


def test_the_restorer_is_made_once_per_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    call = {"name": "levels", "args": {"level": "1", "lines": []}}
    first = answers(call)
    loaded = find_tool(as_toolset(gemini_enum_tools), "levels")
    assert loaded is not None
    assert loaded in toolcall.gemini._RESTORERS.values

    def render_again(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the Gemini declaration was rendered again for a call")

    monkeypatch.setattr("toolcall._render.gemini.gemini_parameters", render_again)
    assert answers(call) == first
