"""The rules checker rejects one known-bad schema per rule and accepts good ones."""

from __future__ import annotations

from typing import Any

import pytest

from tests.provider_rules import MODES, check_schema


def obj(properties: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A closed object whose properties are all required (good in every JSON mode)."""
    properties = properties or {}
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if properties:
        schema["required"] = list(properties)
    return {**schema, **extra}


def gobj(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A Gemini OBJECT."""
    return {"type": "OBJECT", "properties": properties, **extra}


GOOD_JSON = obj(
    {
        "city": {"type": "string", "description": "city"},
        "when": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "kind": {"type": "string", "enum": ["a", "b"]},
        "node": {"anyOf": [{"$ref": "#/$defs/Leaf"}], "description": "a leaf"},
    },
    **{"$defs": {"Leaf": obj({"label": {"type": "string"}})}},
)
GOOD_GEMINI = gobj(
    {
        "city": {"type": "STRING", "description": "city"},
        "when": {"type": "STRING", "format": "date-time", "nullable": True},
        "kind": {"type": "STRING", "format": "enum", "enum": ["a", "b"]},
        "tags": {"type": "ARRAY", "items": {"type": "INTEGER", "minimum": 0}, "maxItems": 3},
        "either": {"anyOf": [{"type": "INTEGER"}, {"type": "STRING"}]},
    },
    required=["city"],
)


@pytest.mark.parametrize("mode", [m for m in MODES if m != "gemini"])
def test_a_plain_closed_schema_passes_every_json_mode(mode: str) -> None:
    assert check_schema(mode, GOOD_JSON) == []


def test_a_good_gemini_schema_passes() -> None:
    assert check_schema("gemini", GOOD_GEMINI) == []


def test_an_unknown_mode_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown mode"):
        check_schema("bard", GOOD_JSON)


ROOT_BAD = [
    {"type": "array", "items": {"type": "string"}},
    {"anyOf": [obj(), obj()]},
]


@pytest.mark.parametrize("mode", [m for m in MODES if m != "gemini"])
@pytest.mark.parametrize("schema", ROOT_BAD)
def test_the_root_must_be_an_object(mode: str, schema: dict[str, Any]) -> None:
    assert check_schema(mode, schema)


@pytest.mark.parametrize("mode", ["openai", "openai-strict", "anthropic", "anthropic-strict"])
def test_a_root_combinator_beside_type_object_is_rejected(mode: str) -> None:
    assert any("at the root" in v for v in check_schema(mode, obj(anyOf=[obj(), obj()])))


@pytest.mark.parametrize("mode", [m for m in MODES if m != "gemini"])
def test_an_invalid_2020_12_document_is_rejected(mode: str) -> None:
    assert any("2020-12" in v for v in check_schema(mode, obj({"a": {"type": "strin"}})))


def test_openai_arrays_need_items_even_without_strict() -> None:
    assert check_schema("openai", obj({"a": {"type": "array"}})) == ["#/properties/a: array schema missing items"]
    assert check_schema("anthropic", obj({"a": {"type": "array"}})) == []


# Each row: a schema that breaks exactly one OpenAI strict rule, and a word of the violation.
OPENAI_STRICT_BAD = [
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, "additionalProperties"),
    (obj({"a": {"type": "object", "additionalProperties": {"type": "integer"}}}), "additionalProperties"),
    ({**obj({"a": {"type": "string"}}), "required": []}, "required"),
    (obj({"a": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "string"}}}), "prefixItems"),
    (obj({"a": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}), "uniqueItems"),
    (obj({"a": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}), "oneOf"),
    (obj({"a": {"allOf": [{"type": "string"}]}}), "allOf"),
    (obj({"a": {"type": "string", "not": {"const": "x"}}}), "not"),
    (obj({"a": {"type": "integer", "default": 3}}), "default"),
    (obj({"a": {"$ref": "#/$defs/X", "description": "d"}}, **{"$defs": {"X": {"type": "string"}}}), "$ref cannot"),
    (obj({"a": {"$ref": "https://example.com/s.json"}}), "$ref must"),
    (obj({"a": {"type": "string", "format": "uri"}}), "format"),
    (obj({"a": {"type": "array", "items": {}}}), "untyped"),
    (obj({"a": {}}), "'type' key"),
]


@pytest.mark.parametrize(("schema", "word"), OPENAI_STRICT_BAD)
def test_openai_strict_rejects(schema: dict[str, Any], word: str) -> None:
    violations = check_schema("openai-strict", schema)
    assert violations
    assert any(word in v for v in violations), violations


def test_openai_strict_limits() -> None:
    deep: dict[str, Any] = obj()
    for _ in range(10):
        deep = obj({"x": deep})
    assert any("levels" in v for v in check_schema("openai-strict", deep))
    many = obj({"e": {"type": "integer", "enum": list(range(1001))}})
    assert any("enum values" in v for v in check_schema("openai-strict", many))
    wide = obj({f"p{i}": {"type": "string"} for i in range(5001)})
    assert any("5000 properties" in v for v in check_schema("openai-strict", wide))


ANTHROPIC_STRICT_BAD = [
    ({"type": "object", "properties": {"a": {"type": "string"}}}, "additionalProperties"),
    (obj({"a": {"type": "object", "additionalProperties": True}}), "additionalProperties"),
    (obj({"a": {"$ref": "#/$defs/N"}}, **{"$defs": {"N": obj({"n": {"$ref": "#/$defs/N"}})}}), "recursive"),
    *[(obj({"a": {"type": "integer", k: 1}}), k) for k in ("minimum", "maximum", "exclusiveMinimum")],
    *[(obj({"a": {"type": "integer", k: 1}}), k) for k in ("exclusiveMaximum", "multipleOf")],
    *[(obj({"a": {"type": "string", k: 1}}), k) for k in ("minLength", "maxLength")],
    (obj({"a": {"type": "array", "items": {"type": "string"}, "maxItems": 3}}), "maxItems"),
    (obj({"a": {"type": "array", "items": {"type": "string"}, "minItems": 2}}), "minItems"),
    (obj({"a": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}), "uniqueItems"),
    (obj({"a": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "string"}}}), "prefixItems"),
    (obj({"a": {"type": "string", "format": "iri"}}), "format"),
    (obj({"a": {"type": "string", "pattern": "^(?=a)"}}), "pattern"),
    (obj({"a": {"type": "string", "pattern": r"(a)\1"}}), "pattern"),
    (obj({"a": {"type": "string", "pattern": r"\bword"}}), "pattern"),
    (obj({"a": {"enum": [{"x": 1}]}}), "complex enum"),
    (obj({"a": {"$ref": "https://example.com/s.json"}}), "external"),
]


@pytest.mark.parametrize(("schema", "word"), ANTHROPIC_STRICT_BAD)
def test_anthropic_strict_rejects(schema: dict[str, Any], word: str) -> None:
    violations = check_schema("anthropic-strict", schema)
    assert any(word in v for v in violations), violations


def test_anthropic_strict_accepts_what_openai_strict_does_not() -> None:
    schema = obj(
        {
            "a": {"type": "integer", "default": 3},
            "b": {"type": "string", "format": "uri", "pattern": r"^\\b[a-z]+$"},
            "c": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        }
    )
    schema["required"] = ["b"]  # optional fields are allowed
    assert check_schema("anthropic-strict", schema) == []
    assert check_schema("openai-strict", schema)


def test_mcp_only_needs_an_object_root_and_valid_json_schema() -> None:
    schema = obj({"a": {"type": "array", "prefixItems": [{"type": "string"}], "uniqueItems": True}})
    assert check_schema("mcp", {**schema, "additionalProperties": {"type": "string"}}) == []


GEMINI_BAD = [
    ({"type": "object", "properties": {"a": {"type": "STRING"}}}, "OBJECT"),
    (gobj({"a": {"type": ["STRING", "NULL"]}}), "type must be"),
    (gobj({"a": {"type": "string"}}), "type must be"),
    (gobj({"a": {"type": "INTEGER", "enum": [1, 2]}}), "enum"),
    (gobj({"a": {"type": "STRING", "const": "x"}}), "'const'"),
    (gobj({"a": {"type": "INTEGER", "exclusiveMinimum": 0}}), "'exclusiveMinimum'"),
    (gobj({"a": {"type": "OBJECT", "additionalProperties": {"type": "STRING"}}}), "'additionalProperties'"),
    (gobj({"a": {"$ref": "#/$defs/X"}}, **{"$defs": {"X": {"type": "STRING"}}}), "'$ref'"),
    (gobj({"a": {"type": "ARRAY", "items": {"type": "STRING"}, "prefixItems": []}}), "'prefixItems'"),
    (gobj({"a": {"type": "ARRAY", "items": {"type": "STRING"}, "uniqueItems": True}}), "'uniqueItems'"),
    (gobj({"a": {"type": "STRING", "format": "uuid"}}), "format"),
    (gobj({"a": {"type": "STRING", "nullable": "yes"}}), "nullable"),
    (gobj({"a-b": {"type": "STRING"}}), "property name"),
    (gobj({"a": {"type": "OBJECT", "properties": {}}}), "non-empty"),
    (gobj({"a": {"type": "STRING"}}, required=["b"]), "required"),
    (gobj({"a": {"type": "ARRAY"}}), "items"),
    ({**gobj({"a": {"type": "STRING"}}), "$schema": "x"}, "'$schema'"),
]


@pytest.mark.parametrize(("schema", "word"), GEMINI_BAD)
def test_gemini_rejects(schema: dict[str, Any], word: str) -> None:
    violations = check_schema("gemini", schema)
    assert any(word in v for v in violations), violations
