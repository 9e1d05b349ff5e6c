"""The canonical schema (``parameters_schema``): shapes per node kind, and what it accepts and rejects."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from tests import render_samples as s
from tests.provider_rules import assert_valid
from toolcall import _ir as ir
from toolcall._render.definitions import parameters_schema
from toolcall._wire import patterns

P = ir.Primitive


def prop(node: ir.TypeNode, **kwargs: Any) -> Any:
    """The schema of one parameter named ``x``."""
    return parameters_schema(s.tool("t", s.param("x", node, **kwargs)))["properties"]["x"]


def validator(tool: ir.Tool) -> jsonschema.Draft202012Validator:
    schema = parameters_schema(tool)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


@pytest.mark.parametrize("name", list(s.SAMPLES))
def test_every_sample_is_valid_json_schema_with_an_object_root(name: str) -> None:
    assert_valid("mcp", parameters_schema(s.SAMPLES[name]))


def test_the_weather_tool_matches_the_spec_example() -> None:
    assert parameters_schema(s.WEATHER) == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": 'city name, e.g. "Oslo"'},
            "days": {
                "type": "integer",
                "description": "how many days ahead (1-7)",
                "minimum": 1,
                "maximum": 7,
                "default": 3,
            },
        },
        "required": ["city"],
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("str", {"type": "string"}),
        ("int", {"type": "integer"}),
        ("float", {"type": "number"}),
        ("bool", {"type": "boolean"}),
        ("none", {"type": "null"}),
        ("datetime", {"type": "string", "format": "date-time"}),
        ("date", {"type": "string", "format": "date"}),
        ("time", {"type": "string", "format": "time"}),
        ("timedelta", {"type": "string", "format": "duration"}),
        ("uuid", {"type": "string", "format": "uuid"}),
        ("decimal", {"type": "string", "pattern": patterns.DECIMAL_PATTERN}),
        ("path", {"type": "string"}),
        ("string_integer", {"type": "string", "pattern": patterns.STRING_INTEGER_PATTERN}),
    ],
)
def test_primitives(name: str, expected: dict[str, Any]) -> None:
    assert prop(P(name)) == expected  # type: ignore[arg-type]


def test_enums_get_a_type_only_when_uniform() -> None:
    assert prop(ir.LiteralType(("a", "b"))) == {"type": "string", "enum": ["a", "b"]}
    assert prop(ir.LiteralType((1, True))) == {"enum": [1, True]}  # a bool is not an integer
    assert prop(ir.LiteralType((1, 2.5))) == {"type": "number", "enum": [1, 2.5]}
    assert prop(s.COLOR) == {"type": "string", "enum": ["red", "green"], "description": "A color."}


def test_a_parameter_description_replaces_the_node_description_and_empty_removes_it() -> None:
    assert prop(s.COLOR, description="paint")["description"] == "paint"
    assert "description" not in prop(s.COLOR, description="")


def test_containers() -> None:
    schema = parameters_schema(s.CONTAINERS)["properties"]
    assert schema["names"] == {"type": "array", "items": {"type": "string"}}
    assert schema["tags"] == {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
    assert schema["frozen"]["uniqueItems"] is True
    assert "uniqueItems" not in schema["many"]
    assert schema["pair"] == {
        "type": "array",
        "prefixItems": [{"type": "string"}, {"type": "integer"}],
        "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "minItems": 2,
        "maxItems": 2,
    }
    assert schema["same"]["items"] == {"type": "integer"}
    assert schema["nothing"] == {"type": "array", "items": {"type": "null"}, "maxItems": 0}


def test_maps_are_open_and_objects_closed_in_field_order() -> None:
    assert prop(ir.MapType(P("int"))) == {"type": "object", "additionalProperties": {"type": "integer"}}
    address = prop(s.ADDRESS)
    assert list(address["properties"]) == ["street", "zip", "country"]
    assert address["required"] == ["street"]
    assert address["additionalProperties"] is False
    assert address["properties"]["country"]["default"] == "NO"
    assert address["description"] == "A postal address."


def test_unions_nullable_and_flattened() -> None:
    assert prop(s.nullable(P("int"))) == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    nested = ir.UnionType((P("int"), ir.UnionType((P("str"), P("none")))))
    assert prop(nested) == {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]}
    assert prop(ir.UnionType((P("int"), P("int")))) == {"type": "integer"}


def test_recursive_types_use_defs_only_when_referenced() -> None:
    schema = parameters_schema(s.RECURSIVE)
    assert schema["properties"]["root"] == {"$ref": "#/$defs/Node", "description": "the root node"}
    assert schema["$defs"]["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    unused = s.tool("t", s.param("x", P("str")), defs=(ir.NamedType("Node", s.NODE),))
    assert "$defs" not in parameters_schema(unused)


def test_a_reference_to_an_unknown_definition_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown named type 'Gone'"):
        parameters_schema(s.tool("t", s.param("x", ir.RefType("Gone"))))


def test_injected_parameters_never_appear_and_kwargs_open_the_root() -> None:
    schema = parameters_schema(s.INJECTED)
    assert list(schema["properties"]) == ["query", "limit"]
    opened = parameters_schema(s.OPEN)
    assert opened["additionalProperties"] == {"type": "string", "description": "extra labels"}
    assert "extra" not in opened["properties"]


def test_a_tool_without_parameters_is_an_empty_closed_object() -> None:
    assert parameters_schema(s.NO_PARAMS) == {"type": "object", "properties": {}, "additionalProperties": False}


def test_constraints_go_on_the_type_that_carries_them() -> None:
    schema = parameters_schema(s.CONSTRAINED)["properties"]
    assert schema["score"] == {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}
    assert schema["code"] == {"type": "string", "minLength": 2, "maxLength": 8, "pattern": "^[A-Z]+$"}
    assert schema["items"]["minItems"] == 2
    assert schema["items"]["maxItems"] == 4
    assert schema["ratio"] == {"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}]}
    assert prop(s.constrained(ir.MapType(P("int")), max_length=3))["maxProperties"] == 3


def test_constraints_a_type_cannot_carry_become_description_text() -> None:
    schema = parameters_schema(s.CONSTRAINED)["properties"]
    assert "minimum" not in schema["big"]
    assert schema["big"]["description"] == f"Between 1 and {10**30}."
    assert schema["price"]["pattern"] == patterns.DECIMAL_PATTERN  # a second pattern cannot share the schema
    assert schema["price"]["description"] == "Matching the regular expression ^[0-9]+$."
    described = prop(s.constrained(P("string_integer"), ge=1, le=7), description="how many")
    assert described["description"] == "how many. Between 1 and 7."


def test_constraints_tighten_a_custom_schema_instead_of_overwriting() -> None:
    custom = ir.CustomType("m:C", ir.canonical_json({"type": "integer", "minimum": 5, "maximum": 10}))
    assert prop(s.constrained(custom, ge=0, le=8)) == {"type": "integer", "minimum": 5, "maximum": 8}


def test_custom_schemas_are_kept_as_they_are() -> None:
    assert parameters_schema(s.CUSTOM)["properties"]["amount"] == json.loads(s.MONEY.schema)


def test_output_is_deterministic_and_fresh() -> None:
    first = parameters_schema(s.OBJECTS)
    first["properties"]["order"]["properties"].clear()
    assert json.dumps(parameters_schema(s.OBJECTS)) == json.dumps(parameters_schema(s.OBJECTS))
    assert parameters_schema(s.OBJECTS)["properties"]["order"]["properties"]


# (tool, accepted arguments, rejected arguments)
SEMANTICS = [
    (s.WEATHER, [{"city": "Oslo"}, {"city": "Oslo", "days": 7}], [{}, {"days": 5}, {"city": "Oslo", "days": 1.5}]),
    (s.WEATHER, [], [{"city": "Oslo", "days": "5"}, {"city": "Oslo", "c": 1}, {"city": "Oslo", "days": 8}]),
    (
        s.CONTAINERS,
        [{"names": [], "tags": ["a"], "frozen": [1], "many": [1.5], "pair": ["a", 1], "same": [1, 2], "nothing": []}],
        [
            {
                "names": [],
                "tags": ["a", "a"],
                "frozen": [],
                "many": [],
                "pair": ["a", 1],
                "same": [1, 2],
                "nothing": [],
            },
            {"names": [], "tags": [], "frozen": [], "many": [], "pair": [1, "a"], "same": [1, 2], "nothing": []},
            {"names": [], "tags": [], "frozen": [], "many": [], "pair": ["a", 1, 2], "same": [1, 2], "nothing": []},
            {"names": [], "tags": [], "frozen": [], "many": [], "pair": ["a", 1], "same": [1, 2], "nothing": [None]},
        ],
    ),
    (
        s.CHOICES,
        [{"mode": "fast", "size": 2, "mixed": True, "color": "red", "level": 3, "maybe": None}],
        [{"mode": "fast", "size": 2, "mixed": 1, "color": "red", "level": 3}],  # 1 is not True in JSON
    ),
    (
        s.UNIONS,
        [{"id": 1, "when": None}, {"id": "a", "when": "2024-01-02", "limit": None}],
        [{"id": 1.5, "when": None}, {"id": 1, "when": 5}, {"id": 1}],
    ),
    (
        s.RECURSIVE,
        [{"root": {"label": "a", "children": [{"label": "b", "children": []}]}}],
        [{"root": {"label": "a", "children": [{"label": "b"}]}}],
    ),
    (s.OPEN, [{"counts": {"a": 1}, "anything": [None], "x": "y"}], [{"counts": {"a": "1"}, "anything": 1, "x": 2}]),
    (s.CONSTRAINED, [], [{"score": 0, "step": 5, "code": "AB", "items": [1, 2], "one_or_more": ["a"]}]),
]


@pytest.mark.parametrize(("tool", "accepted", "rejected"), SEMANTICS)
def test_the_schema_accepts_and_rejects_what_the_dispatcher_would(
    tool: ir.Tool, accepted: list[Any], rejected: list[Any]
) -> None:
    check = validator(tool)
    for args in accepted:
        assert check.is_valid(args), (args, [e.message for e in check.iter_errors(args)])
    for args in rejected:
        assert not check.is_valid(args), args


def test_objects_reject_unknown_and_missing_fields() -> None:
    check = validator(s.OBJECTS)
    good: dict[str, Any] = {
        "order": {"ship_to": {"street": "Main 1"}, "lines": [["apple", 2]], "note": None},
        "where": {"x": 1, "y": 2.5},
    }
    assert check.is_valid(good)
    assert not check.is_valid({**good, "where": {"x": 1}})
    assert not check.is_valid({**good, "where": {"x": 1, "y": 2, "z": 3}})
    assert not check.is_valid({**good, "order": {**good["order"], "lines": [["apple", 0]]}})  # qty >= 1
