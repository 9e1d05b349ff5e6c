"""The ``openai`` variant (Chat Completions): envelope, non-strict rules, limits, API errors."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests import corpus
from tests import render_samples as s
from tests.provider_rules import assert_valid
from tests.written_modules import imported_corpus, tool_declarations
from toolcall import _ir as ir
from toolcall._introspect import introspect
from toolcall._render import definitions
from toolcall._render.canonical import canonical_schema
from toolcall._render.definitions import PROVIDER_NAMES, Rendered, check_request, parameters_schema, render_tool
from toolcall._render.openai import changes_with_items, with_items


def function(tool: ir.Tool, strict: bool = False) -> dict[str, Any]:
    rendered = render_tool(tool, "openai", strict=strict)
    assert rendered.definition["type"] == "function"
    assert set(rendered.definition) == {"type", "function"}
    return rendered.definition["function"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", list(s.SAMPLES))
def test_every_sample_passes_the_openai_rules(name: str) -> None:
    tool = s.SAMPLES[name]
    fn = function(tool)
    assert "strict" not in fn
    assert_valid("openai", fn["parameters"])
    strict = function(tool, strict=True)
    assert_valid("openai-strict" if strict.get("strict") else "openai", strict["parameters"])


def test_the_envelope() -> None:
    assert function(s.WEATHER) == {
        "name": "get_weather",
        "description": "Get the forecast for a city.",
        "parameters": parameters_schema(s.WEATHER),
    }
    assert function(s.WEATHER, strict=True)["strict"] is True


def test_an_empty_description_is_left_out() -> None:
    assert "description" not in function(s.NO_PARAMS)


def test_a_custom_array_without_items_gets_items() -> None:
    bare = ir.CustomType("m:Bag", ir.canonical_json({"type": "array"}))
    fn = function(s.tool("t", s.param("bag", bare)))
    assert fn["parameters"]["properties"]["bag"] == {"type": "array", "items": {}}
    # The canonical schema (describe()) keeps the custom schema as written.
    assert parameters_schema(s.tool("t", s.param("bag", bare)))["properties"]["bag"] == {"type": "array"}


@pytest.mark.parametrize("strict", [False, True])
def test_a_description_over_1024_characters_is_cut_with_a_note(strict: bool) -> None:
    long = s.tool("t", description="word " * 300)
    rendered = render_tool(long, "openai", strict=strict)
    description = rendered.definition["function"]["description"]
    assert description == ("word " * 300)[:1021] + "..."  # 1024 characters
    mode = "openai:strict" if strict else "openai"
    assert [(f.code, f.severity, f.modes) for f in rendered.findings] == [("toolcall-doc", "note", (mode,))]
    assert "1500 characters" in rendered.findings[0].message
    assert function(s.tool("t", description="x" * 1024))["description"] == "x" * 1024
    assert render_tool(long, "openai-responses", strict=strict).definition["description"] == "word " * 300


def test_unknown_providers_list_the_known_ones() -> None:
    with pytest.raises(ValueError, match="known providers: openai, openai-responses, anthropic, mcp, gemini"):
        render_tool(s.WEATHER, "bard")
    assert PROVIDER_NAMES == ("openai", "openai-responses", "anthropic", "mcp", "gemini")


def test_the_result_is_fresh_plain_json_with_no_shared_parts() -> None:
    first = render_tool(s.CONTAINERS, "openai")
    pair = first.definition["function"]["parameters"]["properties"]["pair"]
    pair["items"]["anyOf"].append({"type": "boolean"})
    assert pair["prefixItems"] == [{"type": "string"}, {"type": "integer"}]  # not the same dicts
    again = render_tool(s.CONTAINERS, "openai")
    assert len(again.definition["function"]["parameters"]["properties"]["pair"]["items"]["anyOf"]) == 2
    assert json.loads(json.dumps(again.definition)) == again.definition


def test_rendering_is_deterministic() -> None:
    for tool in s.SAMPLES.values():
        for strict in (False, True):
            a, b = (json.dumps(render_tool(tool, "openai", strict=strict).definition) for _ in range(2))
            assert a == b


def test_more_than_128_tools_is_a_finding_not_an_error() -> None:
    tools = [s.tool(f"t{i}") for i in range(129)]
    rendered = [render_tool(t, "openai") for t in tools]
    definitions = [r.definition for r in rendered]
    (finding,) = check_request(definitions, "openai", False)
    assert finding.code == "toolcall-strict"
    assert "129 tools" in finding.message
    assert check_request(definitions[:128], "openai", False) == ()


def test_check_request_refuses_unknown_providers() -> None:
    with pytest.raises(ValueError, match="known providers"):
        check_request([render_tool(s.WEATHER, "openai").definition], "bard", False)


def test_rendered_is_frozen() -> None:
    rendered = render_tool(s.WEATHER, "openai")
    assert isinstance(rendered, Rendered)
    with pytest.raises(AttributeError):
        rendered.findings = ()  # type: ignore[misc]


def test_a_schema_whose_arrays_all_have_items_skips_the_items_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pass(schema: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("the items pass ran")

    monkeypatch.setattr(definitions, "with_items", no_pass)
    for tool in (s.WEATHER, s.CONTAINERS, s.OBJECTS, s.RECURSIVE, s.CUSTOM):
        assert render_tool(tool, "openai").definition["function"]["parameters"] == parameters_schema(tool)


CHANGED_BY_THE_ITEMS_PASS: list[Any] = [
    {"type": "array"},
    {"type": ["array", "null"]},
    {"anyOf": [{"type": "string"}, {"type": "array"}]},
    {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "array"}}}}},
    {"type": "object", "properties": {"a": True}},  # as_schema makes a boolean schema a dict
    {"anyOf": [False]},
    {"anyOf": [1]},  # no schema: with_items refuses it
]
UNCHANGED_BY_THE_ITEMS_PASS: list[Any] = [
    {"type": "array", "items": {"type": "array", "items": {}}},
    {"type": "object", "additionalProperties": False, "propertyNames": {"pattern": "^a"}},
    {"$defs": {"A": {"type": "array", "prefixItems": [{}], "items": {"type": "null"}}}, "$ref": "#/$defs/A"},
    {"enum": [[1], {"type": "array"}]},  # values, not subschemas
]


@pytest.mark.parametrize("schema", CHANGED_BY_THE_ITEMS_PASS)
def test_changes_with_items_sees_every_change_the_items_pass_makes(schema: dict[str, Any]) -> None:
    assert changes_with_items(schema)
    with contextlib.suppress(ValueError):  # a value that is no schema: with_items refuses it
        assert with_items(schema) != schema


@pytest.mark.parametrize("schema", UNCHANGED_BY_THE_ITEMS_PASS)
def test_changes_with_items_is_false_only_when_the_pass_copies_the_schema(schema: dict[str, Any]) -> None:
    assert not changes_with_items(schema)
    assert with_items(schema) == schema


def test_only_a_custom_schema_can_leave_an_array_without_items(tmp_path: Path) -> None:
    tools = [introspect(declaration).tool for declaration in tool_declarations(corpus.MODULES)]
    with imported_corpus(tmp_path, modules=40, seed=3) as written:
        tools += [introspect(declaration).tool for declaration in tool_declarations(list(written.modules))]
    customs = 0
    for tool in tools:
        canonical = canonical_schema(tool)
        customs += canonical.custom
        assert canonical.custom or not changes_with_items(canonical.schema), tool.name
    assert 0 < customs < len(tools)  # both kinds are there


def test_a_tool_without_custom_types_is_not_walked_for_items(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_walk(schema: dict[str, Any]) -> bool:
        raise AssertionError("walked")

    monkeypatch.setattr(definitions, "changes_with_items", no_walk)
    for tool in (s.WEATHER, s.CONTAINERS, s.OBJECTS, s.RECURSIVE):
        render_tool(tool, "openai")
    with pytest.raises(AssertionError, match="walked"):
        render_tool(s.CUSTOM, "openai")
