"""The ``gemini`` variant: a function declaration whose ``parameters`` are Gemini's OpenAPI subset.

That form is not JSON Schema, so it is checked with the rules checker only.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import render_samples as s
from tests.provider_rules import assert_valid
from toolcall import _ir as ir
from toolcall._findings import Finding
from toolcall._render.definitions import check_request, render_tool

P = ir.Primitive


def declaration(tool: ir.Tool) -> tuple[dict[str, Any], tuple[Finding, ...]]:
    rendered = render_tool(tool, "gemini")
    if "parameters" in rendered.definition:
        assert_valid("gemini", rendered.definition["parameters"])
    return rendered.definition, rendered.findings


def one(node: ir.TypeNode, **kwargs: Any) -> tuple[dict[str, Any], tuple[Finding, ...]]:
    definition, findings = declaration(s.tool("t", s.param("x", node, **kwargs)))
    return definition["parameters"]["properties"]["x"], findings


@pytest.mark.parametrize("name", list(s.SAMPLES))
def test_every_sample_passes_the_gemini_rules(name: str) -> None:
    declaration(s.SAMPLES[name])


def test_the_declaration() -> None:
    definition, findings = declaration(s.WEATHER)
    assert definition == {
        "name": "get_weather",
        "description": "Get the forecast for a city.",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "city": {"type": "STRING", "description": 'city name, e.g. "Oslo"'},
                "days": {
                    "type": "INTEGER",
                    "description": "how many days ahead (1-7)",
                    "minimum": 1,
                    "maximum": 7,
                    "default": 3,
                },
            },
            "required": ["city"],
        },
    }
    assert findings == ()


def test_a_tool_without_parameters_has_no_parameters_key() -> None:
    definition, _ = declaration(s.NO_PARAMS)
    assert definition == {"name": "ping"}


def test_strict_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no strict mode"):
        render_tool(s.WEATHER, "gemini", strict=True)


@pytest.mark.parametrize("name", ["a-b", "1st", "ünï", "x" * 65])
def test_property_names_must_be_identifiers(name: str) -> None:
    with pytest.raises(ValueError, match="property name"):
        render_tool(s.tool("t", s.param(name, P("str"))), "gemini")
    nested = ir.ObjectType("m:N", "typeddict", (ir.Field(name, P("str")),))
    with pytest.raises(ValueError, match="property name"):
        render_tool(s.tool("t", s.param("x", nested)), "gemini")


def test_function_names_must_start_with_a_letter_or_underscore() -> None:
    with pytest.raises(ValueError, match="start with a letter"):
        render_tool(s.tool("1tool"), "gemini")
    assert render_tool(s.tool("_tool-1"), "gemini").definition["name"] == "_tool-1"


def test_nullable_instead_of_a_null_branch() -> None:
    assert one(s.nullable(P("int")), description="d")[0] == {"type": "INTEGER", "description": "d", "nullable": True}
    union, _ = one(ir.UnionType((P("int"), P("str"), P("none"))))
    assert union == {"anyOf": [{"type": "INTEGER", "nullable": True}, {"type": "STRING", "nullable": True}]}
    assert one(P("none"))[0] == {"type": "NULL"}


def test_string_enums_stay_and_colliding_values_move_to_the_description() -> None:
    assert one(ir.LiteralType(("a", "b")))[0] == {"type": "STRING", "format": "enum", "enum": ["a", "b"]}
    nullable, _ = one(ir.LiteralType(("a", None)))
    assert nullable == {"type": "STRING", "format": "enum", "enum": ["a"], "nullable": True}
    colliding, (finding,) = one(ir.LiteralType(("1", 1)))
    assert colliding["anyOf"][0] == {"type": "STRING", "format": "enum", "enum": ["1"]}
    assert colliding["anyOf"][1] == {"type": "INTEGER", "description": "One of: 1."}
    assert "strings only" in finding.message
    assert finding.parameter == "x"


def test_definitions_are_inlined() -> None:
    leaf = ir.ObjectType("m:Leaf", "typeddict", (ir.Field("v", P("int")),))
    tool = s.tool("t", s.param("a", ir.RefType("Leaf"), description="first"), defs=(ir.NamedType("Leaf", leaf),))
    definition, _ = declaration(tool)
    assert definition["parameters"]["properties"]["a"] == {
        "type": "OBJECT",
        "properties": {"v": {"type": "INTEGER"}},
        "required": ["v"],
        "description": "first",
    }
    assert "$defs" not in str(definition)


def test_tuples_maps_and_sets_keep_what_they_can() -> None:
    definition, findings = declaration(s.CONTAINERS)
    props = definition["parameters"]["properties"]
    assert props["pair"]["items"] == {"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]}
    assert (props["pair"]["minItems"], props["pair"]["maxItems"]) == (2, 2)
    assert props["pair"]["description"] == "Items in order: string, integer."
    assert props["tags"]["description"] == "Items must be unique."
    assert {f.parameter for f in findings} == {"pair", "tags", "frozen"}
    counts, (finding,) = one(ir.MapType(P("int")))
    assert counts == {"type": "OBJECT", "description": "An object with any string keys; values: integer."}
    assert "additionalProperties" in finding.message


def test_kwargs_are_dropped_with_a_finding() -> None:
    definition, findings = declaration(s.OPEN)
    assert "additionalProperties" not in definition["parameters"]
    assert [f.parameter for f in findings if "**kwargs" in f.message] == ["extra"]


def test_closed_objects_drop_additional_properties_silently() -> None:
    address, findings = one(s.ADDRESS)
    assert "additionalProperties" not in address
    assert findings == ()
    assert address["properties"]["country"]["default"] == "NO"


def test_keywords_outside_the_subset_move_to_the_description() -> None:
    definition, findings = declaration(s.CONSTRAINED)
    props = definition["parameters"]["properties"]
    assert props["score"] == {"type": "NUMBER", "description": "Greater than 0 and less than 1."}
    assert props["step"] == {"type": "INTEGER", "minimum": 0, "description": "A multiple of 5."}
    assert props["code"] == {"type": "STRING", "minLength": 2, "maxLength": 8, "pattern": "^[A-Z]+$"}
    assert {f.parameter for f in findings} == {"score", "step"}


def test_only_date_formats_are_kept() -> None:
    assert one(P("date"))[0] == {"type": "STRING", "format": "date"}
    assert one(P("datetime"))[0] == {"type": "STRING", "format": "date-time"}
    uuid, (finding,) = one(P("uuid"))
    assert uuid == {"type": "STRING", "description": "Format: uuid."}
    assert "format" in finding.message


def test_custom_schemas_are_converted_too() -> None:
    custom = ir.CustomType(
        "m:C", ir.canonical_json({"type": ["string", "null"], "const": "x", "title": "C", "$comment": "c"})
    )
    schema, _ = one(custom)
    assert schema == {"type": "STRING", "format": "enum", "enum": ["x"], "nullable": True}
    typed = ir.CustomType("m:T", ir.canonical_json({"type": ["string", "integer"], "minimum": 1}))
    assert one(typed)[0]["anyOf"][1] == {"type": "INTEGER", "minimum": 1}


def test_more_than_512_declarations_is_a_finding() -> None:
    tools = [s.tool(f"t{i}") for i in range(513)]
    (finding,) = check_request([render_tool(t, "gemini").definition for t in tools], "gemini", False)
    assert "513 tools" in finding.message
