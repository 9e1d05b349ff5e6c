"""OpenAI Structured Outputs rendering (``strict=True`` for openai, openai-responses and mcp)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests import corpus
from tests import render_samples as s
from tests.provider_rules import assert_valid
from tests.written_modules import imported_corpus, tool_declarations
from toolcall import _ir as ir
from toolcall._findings import Finding
from toolcall._introspect import introspect
from toolcall._render.canonical import canonical_schema
from toolcall._render.definitions import Rendered, render_tool
from toolcall._render.losses import Losses
from toolcall._render.profiles import ANTHROPIC_STRICT, GEMINI, OPENAI_STRICT, Profile, carry
from toolcall._render.strict import strict_schema

P = ir.Primitive


def strict(tool: ir.Tool) -> tuple[dict[str, Any], tuple[Finding, ...]]:
    """The strict parameters (asserting the tool stayed strict) and the findings."""
    rendered = render_tool(tool, "openai", strict=True)
    fn = rendered.definition["function"]
    assert fn.get("strict") is True, rendered.findings
    assert_valid("openai-strict", fn["parameters"])
    return fn["parameters"], rendered.findings


def one(node: ir.TypeNode, **kwargs: Any) -> tuple[dict[str, Any], tuple[Finding, ...]]:
    schema, findings = strict(s.tool("t", s.param("x", node, **kwargs)))
    return schema["properties"]["x"], findings


def fallback(tool: ir.Tool) -> Rendered:
    rendered = render_tool(tool, "openai", strict=True)
    assert "strict" not in rendered.definition["function"]
    return rendered


def test_every_property_is_required_and_optional_ones_become_nullable() -> None:
    schema, findings = strict(s.WEATHER)
    assert schema["required"] == ["city", "days"]
    assert schema["properties"]["days"] == {
        "anyOf": [{"type": "integer", "minimum": 1, "maximum": 7}, {"type": "null"}],
        "description": "how many days ahead (1-7). Default: 3.",
    }
    assert findings == ()  # a default moved to the text loses nothing: null still means "use the default"


def test_an_already_nullable_optional_value_is_not_wrapped_twice() -> None:
    schema, _ = strict(s.UNIONS)
    assert schema["properties"]["limit"] == {
        "anyOf": [{"type": "integer"}, {"type": "null"}],
        "description": "at most this many",
    }


def test_nested_objects_are_closed_and_all_required() -> None:
    schema, _ = strict(s.OBJECTS)
    address = schema["properties"]["order"]["properties"]["ship_to"]
    assert address["required"] == ["street", "zip", "country"]
    assert address["additionalProperties"] is False
    assert address["properties"]["zip"] == {"anyOf": [{"type": "string", "pattern": "^[0-9]{5}$"}, {"type": "null"}]}
    assert address["properties"]["country"]["description"] == 'Default: "NO".'


def test_no_default_survives_anywhere() -> None:
    for tool in s.SAMPLES.values():
        rendered = render_tool(tool, "openai", strict=True)
        if rendered.definition["function"].get("strict"):
            assert '"default"' not in str(rendered.definition).replace("'", '"')


def test_a_tuple_keeps_its_length_and_reports_the_lost_order() -> None:
    schema, findings = strict(s.CONTAINERS)
    pair = schema["properties"]["pair"]
    assert pair == {
        "type": "array",
        "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "minItems": 2,
        "maxItems": 2,
        "description": "Items in order: string, integer.",
    }
    by_parameter = {f.parameter: f for f in findings}
    assert "prefixItems" in by_parameter["pair"].message
    assert "same" not in by_parameter  # a tuple whose positions agree loses nothing
    assert schema["properties"]["same"] == {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}


def test_unique_items_moves_to_the_description() -> None:
    schema, findings = strict(s.CONTAINERS)
    assert schema["properties"]["tags"]["description"] == "Items must be unique."
    assert {f.parameter for f in findings if "uniqueItems" in f.message} == {"tags", "frozen"}


def test_a_ref_never_has_siblings() -> None:
    schema, _ = strict(s.RECURSIVE)
    assert schema["properties"]["root"] == {"anyOf": [{"$ref": "#/$defs/Node"}], "description": "the root node"}
    assert schema["$defs"]["Node"]["required"] == ["label", "children"]


def test_formats_outside_the_supported_nine_move_to_the_description() -> None:
    uri = ir.CustomType("m:Url", ir.canonical_json({"type": "string", "format": "uri"}))
    schema, (finding,) = one(uri)
    assert schema == {"type": "string", "description": "Format: uri."}
    assert finding.code == "toolcall-strict"
    assert finding.tool == "t"
    assert finding.parameter == "x"
    assert "format" in finding.message
    kept, findings = one(P("uuid"))
    assert kept == {"type": "string", "format": "uuid"}
    assert findings == ()


def test_one_of_becomes_any_of_and_untyped_enums_are_split_by_type() -> None:
    either = ir.CustomType("m:E", ir.canonical_json({"oneOf": [{"type": "string"}, {"type": "integer"}]}))
    schema, findings = one(either)
    assert schema == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert "oneOf" in findings[0].message
    mixed, findings = one(ir.LiteralType(("auto", 0, None)))
    assert mixed == {
        "anyOf": [{"type": "string", "enum": ["auto"]}, {"type": "integer", "enum": [0]}, {"type": "null"}]
    }
    assert findings == ()


def test_unsupported_keywords_of_custom_schemas_move_with_a_finding_and_annotations_drop() -> None:
    custom = ir.CustomType(
        "m:C",
        ir.canonical_json(
            {"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 1, "title": "C"}
        ),
    )
    schema, (finding,) = one(custom)
    assert "minProperties" not in schema
    assert "title" in schema
    assert schema["additionalProperties"] is False  # a custom object that names its keys is closed
    assert schema["description"] == "At least 1 properties."
    assert finding.parameter == "x"


def test_finding_paths_name_the_place_inside_the_parameter() -> None:
    _, findings = strict(s.OBJECTS)
    (finding,) = findings
    assert (finding.parameter, finding.path) == ("order", ("lines", "items"))
    assert str(finding).startswith("objects.order.lines.items: ")


@pytest.mark.parametrize(
    ("tool", "parameter", "words"),
    [
        (s.tool("t", s.param("m", ir.MapType(P("int")))), "m", "TypedDict"),
        (s.tool("t", s.param("a", ir.AnyType())), "a", "concrete type"),
        (s.tool("t", s.param("kw", P("int"), kind="var_keyword")), "kw", "**kwargs"),
        (s.tool("t", s.param("a", ir.ArrayType(ir.AnyType()))), "a", "concrete type"),
        (s.tool("t", s.param("a", ir.CustomType("m:A", ir.canonical_json({"type": "array"})))), "a", "item type"),
        (s.tool("t", s.param("o", ir.CustomType("m:O", ir.canonical_json({"type": "object"})))), "o", "open keys"),
    ],
)
def test_what_strict_cannot_express_falls_back_with_a_finding(tool: ir.Tool, parameter: str, words: str) -> None:
    rendered = fallback(tool)
    (finding,) = rendered.findings
    assert finding.parameter == parameter
    assert words in finding.message
    assert "without strict" in finding.message
    assert_valid("openai", rendered.definition["function"]["parameters"])


def test_a_fallback_reports_every_reason_and_only_those() -> None:
    rendered = fallback(s.OPEN)
    assert [f.parameter for f in rendered.findings] == ["extra", "counts", "anything"]


def test_the_strict_schema_accepts_nulls_for_optional_values_and_rejects_missing_keys() -> None:
    schema, _ = strict(s.WEATHER)
    check = jsonschema.Draft202012Validator(schema)
    assert check.is_valid({"city": "Oslo", "days": None})
    assert check.is_valid({"city": "Oslo", "days": 3})
    assert not check.is_valid({"city": "Oslo"})
    assert not check.is_valid({"city": "Oslo", "days": 9})


def falls_back(tool: ir.Tool, provider: str, over: str) -> None:
    """The variant is rendered without strict, with one error finding naming the budget."""
    rendered = render_tool(tool, provider, strict=True)
    assert not rendered.definition.get("strict", rendered.definition.get("function", {}).get("strict"))
    (finding,) = rendered.findings
    assert (finding.code, finding.severity, finding.parameter) == ("toolcall-strict", "error", None)
    assert over in finding.message
    assert finding.message.endswith("(the tool is rendered without strict)")


def test_depth_over_ten_falls_back_to_non_strict() -> None:
    node: ir.TypeNode = P("str")
    for depth in range(9):
        node = ir.ObjectType(f"m:L{depth}", "typeddict", (ir.Field("x", node),))
    strict(s.tool("t", s.param("x", node)))  # the root and 9 = 10 levels
    node = ir.ObjectType("m:L9", "typeddict", (ir.Field("x", node),))
    falls_back(s.tool("t", s.param("x", node)), "openai", "11 levels of object nesting, over the limit of 10")
    deeper = ir.ObjectType("m:top", "typeddict", (ir.Field("x", node),))
    falls_back(s.tool("t", s.param("x", deeper)), "openai-responses", "12 levels")
    assert render_tool(s.tool("t", s.param("x", deeper)), "anthropic", strict=True).definition["strict"] is True


def test_property_and_enum_budgets_fall_back_to_non_strict() -> None:
    falls_back(s.tool("t", *(s.param(f"p{i}", P("int")) for i in range(5001))), "mcp", "5001 object properties")
    falls_back(s.tool("t", s.param("e", ir.LiteralType(tuple(range(1001))))), "openai", "1001 enum values")
    long_enum = s.tool("t", s.param("e", ir.LiteralType(tuple(f"{i:060d}" for i in range(251)))))
    falls_back(long_enum, "openai", "enum of 251 strings")


def test_the_total_name_budget_falls_back_to_non_strict() -> None:
    names = s.tool("t", *(s.param(f"{i:061d}", P("int")) for i in range(2000)))  # 122,000 characters
    falls_back(names, "openai", "characters of names")
    assert render_tool(names, "anthropic", strict=True).definition["strict"] is True


def test_mcp_strict_uses_the_openai_subset_without_a_strict_key() -> None:
    mcp = render_tool(s.WEATHER, "mcp", strict=True).definition
    assert "strict" not in mcp
    chat = render_tool(s.WEATHER, "openai", strict=True).definition["function"]
    assert mcp["inputSchema"] == chat["parameters"]


class _NoItems(dict[str, Any]):
    """A schema whose keys cannot be gone through one by one: only a copy of it as a whole works."""

    def items(self) -> Any:
        raise AssertionError("carried key by key")


@pytest.mark.parametrize("profile", [OPENAI_STRICT, ANTHROPIC_STRICT, GEMINI])
def test_carry_copies_a_schema_of_plain_keywords_whole(profile: Profile) -> None:
    schema = _NoItems(type="object", properties={}, description="d")
    assert set(schema) <= profile.plain_keywords
    carried = carry(profile, schema, (), Losses(s.tool("t")))
    assert carried == dict(schema)
    assert type(carried) is dict


@pytest.mark.parametrize("profile", [OPENAI_STRICT, ANTHROPIC_STRICT, GEMINI])
def test_a_keyword_with_a_value_rule_is_checked_key_by_key(profile: Profile) -> None:
    assert profile.plain_keywords == profile.keywords - {"format", "minItems", "pattern"}
    losses = Losses(s.tool("t"))
    carried = carry(profile, {"type": "string", "format": "no-such-format"}, ("properties", "a"), losses)
    assert carried == {"type": "string", "description": "Format: no-such-format."}
    assert [f.parameter for f in losses.findings] == ["a"]


def test_a_typed_leaf_is_kept_as_the_whole_pass_would_keep_it(tmp_path: Path) -> None:
    """The pass's shortcut for a typed schema of only carried keywords gives what its steps give."""
    tools = [introspect(declaration).tool for declaration in tool_declarations(corpus.MODULES)]
    with imported_corpus(tmp_path, modules=40, seed=5) as written:
        tools += [introspect(declaration).tool for declaration in tool_declarations(list(written.modules))]
    tools += list(s.SAMPLES.values())
    typed_ref = '{"$ref":"#/$defs/Code","description":"A code.","type":"string"}'  # a $ref's siblings are moved
    tools.append(s.tool("typed_ref", s.param("code", ir.CustomType("samples:Code", typed_ref))))
    for profile in (OPENAI_STRICT, ANTHROPIC_STRICT):
        stepwise = dataclasses.replace(profile)
        object.__setattr__(stepwise, "leaf_keywords", frozenset())  # no shortcut: every node takes every step
        assert profile.leaf_keywords
        for tool in tools:
            canonical = canonical_schema(tool).schema
            taken, walked = Losses(tool), Losses(tool)
            fast = strict_schema(canonical, profile, taken)
            slow = strict_schema(canonical, stepwise, walked)
            assert json.dumps(fast) == json.dumps(slow), tool.name
            assert (taken.findings, taken.fallbacks) == (walked.findings, walked.fallbacks), tool.name
