"""The ``anthropic`` variant, non-strict and strict, and Anthropic's request-level strict limits."""

from __future__ import annotations

from typing import Any

import pytest

from tests import render_samples as s
from tests.provider_rules import assert_valid
from toolcall import _ir as ir
from toolcall._findings import Finding
from toolcall._render.definitions import Rendered, check_request, parameters_schema, render_tool

P = ir.Primitive


def defs(rendered: list[Rendered]) -> list[dict[str, Any]]:
    return [r.definition for r in rendered]


def strict(tool: ir.Tool) -> tuple[dict[str, Any], tuple[Finding, ...]]:
    """The strict input_schema (asserting the tool stayed strict) and the findings."""
    rendered = render_tool(tool, "anthropic", strict=True)
    assert rendered.definition.get("strict") is True, rendered.findings
    assert_valid("anthropic-strict", rendered.definition["input_schema"])
    return rendered.definition["input_schema"], rendered.findings


def by_parameter(findings: tuple[Finding, ...]) -> dict[str | None, str]:
    return {f.parameter: f.message for f in findings}


@pytest.mark.parametrize("name", list(s.SAMPLES))
def test_every_sample_passes_the_anthropic_rules(name: str) -> None:
    plain = render_tool(s.SAMPLES[name], "anthropic").definition
    assert "strict" not in plain
    assert_valid("anthropic", plain["input_schema"])
    rendered = render_tool(s.SAMPLES[name], "anthropic", strict=True).definition
    assert_valid("anthropic-strict" if rendered.get("strict") else "anthropic", rendered["input_schema"])


def test_the_envelope_carries_the_canonical_schema() -> None:
    assert render_tool(s.WEATHER, "anthropic").definition == {
        "name": "get_weather",
        "description": "Get the forecast for a city.",
        "input_schema": parameters_schema(s.WEATHER),
    }
    assert "description" not in render_tool(s.NO_PARAMS, "anthropic").definition


def test_strict_keeps_optional_fields_and_defaults() -> None:
    schema, _ = strict(s.OBJECTS)
    address = schema["properties"]["order"]["properties"]["ship_to"]
    assert address["required"] == ["street"]
    assert address["properties"]["country"]["default"] == "NO"
    assert schema["required"] == ["order", "where"]


def test_strict_moves_bounds_and_lengths_into_the_description() -> None:
    schema, findings = strict(s.WEATHER)
    assert schema["properties"]["days"] == {
        "type": "integer",
        "description": "how many days ahead (1-7). Between 1 and 7.",
        "default": 3,
    }
    assert "minimum, maximum" in by_parameter(findings)["days"]
    schema, findings = strict(s.CONSTRAINED)
    props = schema["properties"]
    assert props["score"]["description"] == "Greater than 0 and less than 1."
    assert props["step"]["description"] == "At least 0; a multiple of 5."
    assert props["code"] == {"type": "string", "pattern": "^[A-Z]+$", "description": "2 to 8 characters."}
    assert props["items"]["description"] == "2 to 4 items."
    assert props["one_or_more"]["minItems"] == 1  # 0 or 1 is allowed
    assert set(by_parameter(findings)) == {"score", "step", "code", "items", "ratio"}


def test_strict_tuples_lose_prefix_items_and_max_items() -> None:
    schema, findings = strict(s.CONTAINERS)
    pair = schema["properties"]["pair"]
    assert "prefixItems" not in pair
    assert "maxItems" not in pair
    assert "minItems" not in pair
    assert pair["description"] == "Items in order: string, integer. Exactly 2 items."
    assert "uniqueItems" in by_parameter(findings)["tags"]


def test_strict_keeps_uri_and_moves_formats_it_lacks() -> None:
    uri = ir.CustomType("m:U", ir.canonical_json({"type": "string", "format": "uri"}))
    iri = ir.CustomType("m:I", ir.canonical_json({"type": "string", "format": "iri"}))
    schema, findings = strict(s.tool("t", s.param("u", uri), s.param("i", iri)))
    assert schema["properties"]["u"] == {"type": "string", "format": "uri"}
    assert schema["properties"]["i"] == {"type": "string", "description": "Format: iri."}
    assert list(by_parameter(findings)) == ["i"]


@pytest.mark.parametrize(
    ("pattern", "kept"),
    [
        (r"^[a-z]+$", True),
        (r"^(?=.*\d)", False),
        (r"(a)\1", False),
        (r"\bword", False),
        (r"^\\b$", True),
        (r"\(?=", True),
    ],
)
def test_strict_keeps_only_simple_patterns(pattern: str, kept: bool) -> None:
    schema, findings = strict(s.tool("t", s.param("x", s.constrained(P("str"), pattern=pattern))))
    assert ("pattern" in schema["properties"]["x"]) is kept
    assert bool(findings) is not kept


@pytest.mark.parametrize("tool", [s.RECURSIVE, s.OPEN])
def test_strict_falls_back_for_recursion_and_open_values(tool: ir.Tool) -> None:
    rendered = render_tool(tool, "anthropic", strict=True)
    assert "strict" not in rendered.definition
    assert rendered.definition["input_schema"] == parameters_schema(tool)
    assert rendered.findings
    assert all("without strict" in f.message for f in rendered.findings)


def test_the_recursion_finding_names_the_definition() -> None:
    (finding,) = render_tool(s.RECURSIVE, "anthropic", strict=True).findings
    assert finding.path == ("$defs", "Node")
    assert "recursive" in finding.message


def test_at_most_20_strict_tools_per_request() -> None:
    tools = [s.tool(f"t{i}", s.param("a", P("str"))) for i in range(21)]
    rendered = [render_tool(t, "anthropic", strict=True) for t in tools]
    with pytest.raises(ValueError, match="21 strict tools"):
        check_request(defs(rendered), "anthropic", True)
    assert check_request(defs(rendered[:20]), "anthropic", True) == ()
    # Tools that fell back to non-strict do not count.
    assert check_request(defs([*rendered[:20], render_tool(s.OPEN, "anthropic", strict=True)]), "anthropic", True) == ()


def test_at_most_24_optional_parameters_per_request() -> None:
    tools = [s.tool(f"t{i}", *(s.optional(f"o{j}", P("str"), "x") for j in range(5))) for i in range(5)]
    rendered = [render_tool(t, "anthropic", strict=True) for t in tools]
    with pytest.raises(ValueError, match="25 optional parameters"):
        check_request(defs(rendered), "anthropic", True)
    check_request(defs([render_tool(t, "anthropic") for t in tools]), "anthropic", False)  # non-strict: no limit


def test_at_most_16_union_parameters_per_request() -> None:
    tools = [s.tool(f"t{i}", *(s.param(f"u{j}", s.nullable(P("int"))) for j in range(6))) for i in range(3)]
    rendered = [render_tool(t, "anthropic", strict=True) for t in tools]
    with pytest.raises(ValueError, match="18 parameters using anyOf"):
        check_request(defs(rendered), "anthropic", True)
    assert check_request(defs(rendered[:2]), "anthropic", True) == ()
