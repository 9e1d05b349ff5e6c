"""The IR round-trips losslessly through JSON (it is the cache format), in its positional encoding.

``ir.to_json`` writes a record as the array of its fields in declaration
order, the trailing ones at their defaults left out; a type node is that
array after its ``kind``; a ``Primitive`` is its name, a ``Default`` its JSON
text. ``ir.from_json`` reads that back and refuses anything else.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import typing
import warnings
from typing import Any

import pytest

import toolcall
from tests import corpus
from toolcall import _ir as ir
from toolcall._toolset.toolset import as_toolset, loaded_tools


def through_json(value: Any) -> Any:
    """``value`` encoded, as JSON text and back (tuples become lists, as in a file)."""
    return json.loads(json.dumps(ir.to_json(value)))


@pytest.mark.parametrize("module_name", corpus.MODULES)
def test_every_corpus_tool_round_trips_through_json(module_name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolcall.ToolcallWarning)
        tools = [loaded.ir for loaded in loaded_tools(as_toolset(importlib.import_module(module_name)))]
    for tool in tools:
        text = json.dumps(ir.to_json(tool), sort_keys=True)
        again = ir.from_json(json.loads(text))
        assert again == tool
        assert json.dumps(ir.to_json(again), sort_keys=True) == text


def test_empty_and_default_valued_fields_survive() -> None:
    tool = ir.Tool(
        name="t",
        module="m",
        qualname="t",
        description="",
        parameters=(
            ir.Parameter("a", "keyword_only", ir.TupleType(())),
            ir.Parameter("b", "positional_only", ir.LiteralType((False, 0, 0.0, "", None)), required=False),
        ),
    )
    assert ir.from_json(through_json(tool)) == tool


# ---------------------------------------------------------------- the encoding of each kind of node

#: A type node of every kind, each with its fields set, and the JSON ``to_json`` gives it.
NODES: list[tuple[ir.TypeNode, Any]] = [
    (ir.Primitive("str"), "str"),
    (ir.Primitive("string_integer"), "string_integer"),
    (ir.AnyType(), ["any"]),
    (ir.AnyType("typevar"), ["any", "typevar"]),
    (ir.LiteralType(("a", 1, 2.5, True, None)), ["literal", ["a", 1, 2.5, True, None]]),
    (ir.LiteralType(()), ["literal", []]),
    (ir.EnumType("m:Unit", ("c", "f")), ["enum", "m:Unit", ["c", "f"]]),
    (ir.EnumType("m:Level", (1, 2), "A level."), ["enum", "m:Level", [1, 2], "A level."]),
    (ir.ArrayType(ir.Primitive("int")), ["array", "int"]),
    (ir.ArrayType(ir.Primitive("int"), "frozenset"), ["array", "int", "frozenset"]),
    (ir.TupleType((ir.Primitive("int"), ir.AnyType())), ["tuple", ["int", ["any"]]]),
    (ir.MapType(ir.ArrayType(ir.Primitive("float"))), ["map", ["array", "float"]]),
    (
        ir.ObjectType("m:Point", "namedtuple", (ir.Field("x", ir.Primitive("int")),)),
        ["object", "m:Point", "namedtuple", [["x", "int"]]],
    ),
    (
        ir.ObjectType(
            "m:Place",
            "dataclass",
            (
                ir.Field("lat", ir.Primitive("float"), description="Latitude."),  # middle defaults written out
                ir.Field("name", ir.Primitive("str"), required=False, default=ir.Default.of("here")),
            ),
            "A place.",
        ),
        [
            "object",
            "m:Place",
            "dataclass",
            [["lat", "float", True, None, "Latitude."], ["name", "str", False, '"here"']],
            "A place.",
        ],
    ),
    (ir.UnionType((ir.Primitive("str"), ir.Primitive("none"))), ["union", ["str", "none"]]),
    (ir.RefType("Tree"), ["ref", "Tree"]),
    (ir.CustomType("m:Color", '{"type":"string"}'), ["custom", "m:Color", '{"type":"string"}']),
    (
        ir.CustomType("m:Money", '{"type":"string"}', "m:MoneyTypes", True, ("USD", "2")),
        ["custom", "m:Money", '{"type":"string"}', "m:MoneyTypes", True, ["USD", "2"]],
    ),
    (
        ir.CustomType("m:Color", "{}", coerce=True),  # provider left at None before a field that is not
        ["custom", "m:Color", "{}", None, True],
    ),
    (
        ir.Constrained(ir.Primitive("int"), ir.Constraints(le=7)),  # ge left at None before le
        ["constrained", "int", [None, 7]],
    ),
    (
        ir.Constrained(ir.Primitive("str"), ir.Constraints(min_length=1, pattern="^a")),
        ["constrained", "str", [None, None, None, None, None, 1, None, "^a"]],
    ),
    (ir.Constrained(ir.Primitive("float"), ir.Constraints()), ["constrained", "float", []]),
]


def test_the_nodes_cover_every_kind() -> None:
    kinds = {type(node) for node, _ in NODES}
    assert kinds == set(typing.get_args(ir.TypeNode))
    for cls in kinds - {ir.Primitive}:  # a record with its ``kind`` first
        assert any(type(node) is cls and encoded[0] == cls.kind for node, encoded in NODES)


@pytest.mark.parametrize(("node", "encoded"), NODES, ids=[repr(node)[:60] for node, _ in NODES])
def test_each_node_is_the_array_of_its_fields_after_its_kind(node: ir.TypeNode, encoded: Any) -> None:
    assert through_json(node) == encoded
    parameter = ir.Parameter("p", "positional_or_keyword", node)
    assert through_json(parameter) == ["p", "positional_or_keyword", encoded]
    assert ir.from_json(through_json(parameter), ir.Parameter) == parameter
    tool = ir.Tool("t", "m", "t", "", (parameter,), (ir.NamedType("N", node),), node)
    assert ir.from_json(through_json(tool)) == tool


def test_a_primitive_is_its_name_and_a_default_its_json_text() -> None:
    assert ir.to_json(ir.Primitive("uuid")) == "uuid"
    assert ir.to_json(ir.Default.of({"b": [1, None], "a": "x"})) == '{"a":"x","b":[1,null]}'
    parameter = ir.Parameter("n", "keyword_only", ir.Primitive("int"), False, ir.Default.of(None))
    assert through_json(parameter) == ["n", "keyword_only", "int", False, "null"]
    assert ir.from_json(["n", "keyword_only", "int", False, "null"], ir.Parameter) == parameter
    assert ir.from_json(["n", "keyword_only", "int", False, None], ir.Parameter).default is None  # no default


#: Records with their fields set, and their encodings: the trailing defaults left out, the middle ones written.
RECORDS: list[tuple[Any, Any]] = [
    (ir.Tool("t", "m", "C.t", "Do it.", ()), ["t", "m", "C.t", "Do it.", []]),
    (
        ir.Tool("t", "m", "t", "", (), providers=("m:Types",)),
        ["t", "m", "t", "", [], [], None, ["m:Types"]],
    ),
    (
        ir.Tool("t", "m", "t", "", (), returns=ir.Primitive("none")),
        ["t", "m", "t", "", [], [], "none"],
    ),
    (
        ir.Tool("t", "m", "t", "", (), (ir.NamedType("N", ir.RefType("N")),)),
        ["t", "m", "t", "", [], [["N", ["ref", "N"]]]],
    ),
    (ir.Parameter("a", "positional_only", ir.AnyType()), ["a", "positional_only", ["any"]]),
    (
        ir.Parameter("a", "var_keyword", ir.Primitive("str"), injected=True),
        ["a", "var_keyword", "str", True, None, None, True],
    ),
    (
        ir.Parameter("a", "keyword_only", ir.Primitive("int"), False, ir.Default.of(3), "How many."),
        ["a", "keyword_only", "int", False, "3", "How many."],
    ),
    (ir.Field("x", ir.Primitive("int"), False), ["x", "int", False]),
    (ir.NamedType("Tree", ir.MapType(ir.RefType("Tree"))), ["Tree", ["map", ["ref", "Tree"]]]),
    (ir.Constraints(ge=0, multiple_of=0.5), [0, None, None, None, 0.5]),
    (ir.Constraints(), []),
]


@pytest.mark.parametrize(("record", "encoded"), RECORDS, ids=[repr(record)[:60] for record, _ in RECORDS])
def test_each_record_is_the_array_of_its_fields(record: Any, encoded: Any) -> None:
    assert through_json(record) == encoded
    assert ir.from_json(encoded, type(record)) == record


def test_a_record_with_every_field_written_out_decodes_to_the_same() -> None:
    """Only the encoder leaves trailing defaults out: the decoder takes them written out too."""
    tool = ir.Tool("t", "m", "t", "", (ir.Parameter("a", "keyword_only", ir.ArrayType(ir.Primitive("int"))),))
    written = ["t", "m", "t", "", [["a", "keyword_only", ["array", "int", "list"], True, None, None, False]], [], None]
    assert ir.from_json([*written, []]) == tool
    assert ir.from_json(written) == tool


# ---------------------------------------------------------------- what decoding refuses

TOOL = ["t", "m", "t", "", []]
PARAMETER = ["a", "keyword_only", "int"]
REFUSED: list[tuple[str, Any, type[Any]]] = [
    # An array longer than the record's fields.
    ("a tool with a ninth field", [*TOOL, [], None, [], "extra"], ir.Tool),
    ("a parameter with an eighth field", [*PARAMETER, True, None, None, False, "extra"], ir.Parameter),
    ("a constraints with a ninth field", [None] * 9, ir.Constraints),
    ("a field with a sixth field", ["x", "int", True, None, None, "extra"], ir.Field),
    ("a node with a field more", [*TOOL[:4], [[*PARAMETER[:2], ["array", "int", "list", "extra"]]]], ir.Tool),
    ("a primitive node with a field more", [*TOOL[:4], [[*PARAMETER[:2], ["primitive", "int", 1]]]], ir.Tool),
    # An unknown kind, or none.
    ("an unknown kind", [*TOOL[:4], [[*PARAMETER[:2], ["spaceship", "int"]]]], ir.Tool),
    ("a kind that is not a string", [*TOOL[:4], [[*PARAMETER[:2], [1, "int"]]]], ir.Tool),
    ("a node without a kind", [*TOOL[:4], [[*PARAMETER[:2], []]]], ir.Tool),
    ("a node a number", [*TOOL[:4], [[*PARAMETER[:2], 5]]], ir.Tool),
    # A record that is not an array.
    ("a tool a string", "t", ir.Tool),
    ("a tool null", None, ir.Tool),
    ("a parameter a string", [*TOOL[:4], ["a"]], ir.Tool),
    ("parameters an object", [*TOOL[:4], {"a": PARAMETER}], ir.Tool),
    ("a named type a string", [*TOOL, ["N"]], ir.Tool),
    ("constraints a number", [*TOOL[:4], [[*PARAMETER[:2], ["constrained", "int", 5]]]], ir.Tool),
    ("a default a number", [*PARAMETER, False, 3], ir.Parameter),
    # The old encoding: records and nodes as objects.
    ("a tool an object", {"name": "t", "module": "m", "qualname": "t", "description": "", "parameters": []}, ir.Tool),
    ("a parameter an object", [*TOOL[:4], [{"name": "a", "kind": "keyword_only", "type": "int"}]], ir.Tool),
    ("a node an object", [*TOOL[:4], [[*PARAMETER[:2], {"kind": "primitive", "name": "int"}]]], ir.Tool),
    ("constraints an object", [*TOOL[:4], [[*PARAMETER[:2], ["constrained", "int", {"ge": 1}]]]], ir.Tool),
    # A required field missing.
    ("a tool without its parameters", TOOL[:4], ir.Tool),
    ("a parameter without its type", [*TOOL[:4], [PARAMETER[:2]]], ir.Tool),
    ("an array node without its items", [*TOOL[:4], [[*PARAMETER[:2], ["array"]]]], ir.Tool),
]


def test_the_refused_cases_differ_from_a_valid_ir_only_where_they_say() -> None:
    assert ir.from_json(TOOL) == ir.Tool("t", "m", "t", "", ())
    assert ir.from_json([*TOOL[:4], [PARAMETER]]) == ir.Tool(
        "t", "m", "t", "", (ir.Parameter("a", "keyword_only", ir.Primitive("int")),)
    )
    assert ir.from_json([*TOOL, [], None, []]) == ir.from_json(TOOL)  # eight fields: the most a tool has
    assert ir.from_json([*PARAMETER, True, None, None, False], ir.Parameter).injected is False
    assert ir.from_json([None] * 8, ir.Constraints) == ir.Constraints()
    assert ir.from_json(["x", "int", True, None, None], ir.Field) == ir.Field("x", ir.Primitive("int"))
    assert ir.from_json([*TOOL[:4], [[*PARAMETER[:2], ["array", "int", "list"]]]]).parameters[0].type == (
        ir.ArrayType(ir.Primitive("int"))
    )
    assert ir.from_json([*TOOL[:4], [[*PARAMETER[:2], ["primitive", "int"]]]]).parameters[0].type == (
        ir.Primitive("int")
    )
    assert ir.from_json([*TOOL[:4], [[*PARAMETER[:2], ["constrained", "int", [1]]]]]).parameters[0].type == (
        ir.Constrained(ir.Primitive("int"), ir.Constraints(ge=1))
    )
    assert ir.from_json([*PARAMETER, False, "3"], ir.Parameter).default == ir.Default("3")
    assert ir.from_json([*TOOL, [["N", "int"]]]).defs == (ir.NamedType("N", ir.Primitive("int")),)


@pytest.mark.parametrize(("data", "record"), [(d, r) for _, d, r in REFUSED], ids=[i for i, _, _ in REFUSED])
def test_decoding_refuses_what_is_not_the_encoding(data: Any, record: type[Any]) -> None:
    with pytest.raises(ValueError, match="cannot decode"):
        ir.from_json(data, record)


def test_decoding_rejects_junk_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="cannot decode 'nope' as a list of Parameter"):
        ir.from_json(["t", "m", "t", "", "nope"])
    with pytest.raises(ValueError, match=r"cannot decode \['t'\] as Tool: .*missing 4 required"):
        ir.from_json(["t"])
    with pytest.raises(ValueError, match="cannot decode"):
        ir.from_json([1, 2])
    with pytest.raises(ValueError, match=r"cannot decode \['spaceship'\] as a type node"):
        ir.from_json(["t", "m", "t", "", [["a", "keyword_only", ["spaceship"]]]])
    with pytest.raises(ValueError, match=r"cannot decode \{'name': 't'\} as Tool"):
        ir.from_json({"name": "t"})


def test_the_records_cover_every_record_class() -> None:
    """Every IR class that is not a type node has its encodings above (a ``Default``: its JSON text)."""
    nodes = set(typing.get_args(ir.TypeNode))
    records = {cls for cls in vars(ir).values() if isinstance(cls, type) and dataclasses.is_dataclass(cls)} - nodes
    assert records == {ir.Tool, ir.Parameter, ir.Field, ir.NamedType, ir.Constraints, ir.Default}
    assert {type(record) for record, _ in RECORDS} == records - {ir.Default}
