"""The ``mcp`` variant: ``inputSchema``, ``outputSchema`` from the return type, and strict."""

from __future__ import annotations

import dataclasses
import json

import pytest

from tests import render_samples as s
from tests.provider_rules import assert_valid
from toolcall import _ir as ir
from toolcall._render.definitions import parameters_schema, render_tool

P = ir.Primitive


def returning(node: ir.TypeNode | None, **kwargs: object) -> ir.Tool:
    return dataclasses.replace(s.WEATHER, returns=node, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(s.SAMPLES))
@pytest.mark.parametrize("strict", [False, True])
def test_every_sample_passes_the_mcp_rules(name: str, strict: bool) -> None:
    rendered = render_tool(s.SAMPLES[name], "mcp", strict=strict)
    assert "strict" not in rendered.definition
    kept_strict = strict and not any("without strict" in f.message for f in rendered.findings)
    assert_valid("openai-strict" if kept_strict else "mcp", rendered.definition["inputSchema"])


def test_the_envelope_has_the_canonical_input_schema() -> None:
    assert render_tool(s.WEATHER, "mcp").definition == {
        "name": "get_weather",
        "description": "Get the forecast for a city.",
        "inputSchema": parameters_schema(s.WEATHER),
    }
    assert render_tool(s.NO_PARAMS, "mcp").definition == {
        "name": "ping",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    }


@pytest.mark.parametrize(
    "node", [s.ADDRESS, s.POINT, ir.MapType(P("int")), s.constrained(ir.MapType(P("int")), min_length=1)]
)
def test_an_object_return_type_gives_an_output_schema(node: ir.TypeNode) -> None:
    output = render_tool(returning(node), "mcp").definition["outputSchema"]
    assert output["type"] == "object"
    assert_valid("mcp", output)


@pytest.mark.parametrize("node", [None, ir.AnyType()])
def test_no_return_type_and_any_give_no_output_schema(node: ir.TypeNode | None) -> None:
    assert "outputSchema" not in render_tool(returning(node), "mcp").definition


@pytest.mark.parametrize(
    ("node", "result"),
    [
        (P("str"), {"type": "string"}),
        (ir.ArrayType(P("int")), {"type": "array", "items": {"type": "integer"}}),
        (s.nullable(P("int")), {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
        (ir.TupleType((P("int"),)), None),
    ],
)
def test_other_return_types_are_wrapped_in_an_object(node: ir.TypeNode, result: dict[str, object] | None) -> None:
    output = render_tool(returning(node), "mcp").definition["outputSchema"]
    assert list(output) == ["type", "properties", "required", "additionalProperties"]
    assert (output["type"], list(output["properties"]), output["required"]) == ("object", ["result"], ["result"])
    assert output["additionalProperties"] is False
    if result is not None:
        assert json.dumps(output["properties"]["result"]) == json.dumps(result)
    assert_valid("mcp", output)


def test_a_wrapped_reference_keeps_its_definitions_at_the_root() -> None:
    tool = returning(ir.ArrayType(ir.RefType("Node")), defs=(ir.NamedType("Node", s.NODE),))
    output = render_tool(tool, "mcp").definition["outputSchema"]
    assert output["properties"]["result"] == {"type": "array", "items": {"$ref": "#/$defs/Node"}}
    assert list(output["$defs"]) == ["Node"]
    assert_valid("mcp", output)


def test_a_recursive_return_type_renders_its_definition_at_the_root() -> None:
    tool = returning(ir.RefType("Node"), defs=(ir.NamedType("Node", s.NODE),))
    output = render_tool(tool, "mcp").definition["outputSchema"]
    assert output["type"] == "object"
    assert output["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert list(output["$defs"]) == ["Node"]
    assert_valid("mcp", output)


def test_the_output_schema_is_canonical_even_when_strict() -> None:
    output = render_tool(returning(s.ADDRESS), "mcp", strict=True).definition["outputSchema"]
    assert output["required"] == ["street"]  # the server's output, not model input: no strict rewrite


def test_strict_falls_back_to_the_canonical_schema() -> None:
    rendered = render_tool(s.OPEN, "mcp", strict=True)
    assert rendered.definition["inputSchema"] == parameters_schema(s.OPEN)
    assert {f.parameter for f in rendered.findings} == {"extra", "counts", "anything"}
