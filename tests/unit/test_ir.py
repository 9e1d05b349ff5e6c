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
            [["lat", "float", "Latitude."], ["name", "str", None, False, '"here"']],
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
    assert through_json(parameter) == ["p", encoded]
    assert ir.from_json(through_json(parameter), ir.Parameter) == parameter
    tool = ir.Tool("t", "m", "t", "", (parameter,), (ir.NamedType("N", node),), node)
    assert ir.from_json(through_json(tool)) == tool


def test_a_primitive_is_its_name_and_a_default_its_json_text() -> None:
    assert ir.to_json(ir.Primitive("uuid")) == "uuid"
    assert ir.to_json(ir.Default.of({"b": [1, None], "a": "x"})) == '{"a":"x","b":[1,null]}'
    parameter = ir.Parameter("n", "keyword_only", ir.Primitive("int"), False, ir.Default.of(None))
    assert through_json(parameter) == ["n", "int", None, "keyword_only", False, "null"]
    assert ir.from_json(["n", "int", None, "keyword_only", False, "null"], ir.Parameter) == parameter
    assert ir.from_json(["n", "int", None, "keyword_only", False, None], ir.Parameter).default is None  # no default


@pytest.mark.parametrize(
    "text", ["3", "-0.0", "0.0", "1.0", "true", "null", '"celsius"', "1e400", "12345678901234567890"]
)
def test_a_scalar_default_is_its_json_text_decoded(text: str) -> None:
    for _ in range(2):  # the second time from the decoded scalars kept
        value = ir.Default(text).value
        assert json.dumps(value) == json.dumps(json.loads(text))
        assert type(value) is type(json.loads(text))


def test_a_list_or_object_default_is_fresh_each_time() -> None:
    for text in ('["a", ["b"]]', '{"k": {"n": 1}}'):
        default = ir.Default(text)
        first = default.value
        assert isinstance(first, (list, dict))
        first.clear()
        assert json.dumps(default.value) == json.dumps(json.loads(text))


#: Records with their fields set, and their encodings (in encoding order: the fields most often at their
#: defaults last): the trailing defaults left out, the middle ones written.
RECORDS: list[tuple[Any, Any]] = [
    (ir.Tool("t", "", "C.t", "Do it.", ()), ["t", "C.t", "Do it.", []]),
    (ir.Tool("t", "m", "t", "", ()), ["t", "t", "", [], [], None, [], [], "m"]),  # the module last: a file names it
    (
        ir.Tool("t", "", "t", "", (), examples=('{"b":1,"a":[]}',)),
        ["t", "t", "", [], [], None, [], ['{"b":1,"a":[]}']],
    ),
    (
        ir.Tool("t", "", "t", "", (), providers=("m:Types",)),
        ["t", "t", "", [], [], None, ["m:Types"]],
    ),
    (
        ir.Tool("t", "", "t", "", (), returns=ir.Primitive("none")),
        ["t", "t", "", [], [], "none"],
    ),
    (
        ir.Tool("t", "", "t", "", (), (ir.NamedType("N", ir.RefType("N")),)),
        ["t", "t", "", [], [["N", ["ref", "N"]]]],
    ),
    (ir.Parameter("a", "positional_only", ir.AnyType()), ["a", ["any"], None, "positional_only"]),
    (ir.Parameter("a", "positional_or_keyword", ir.AnyType(), description="A."), ["a", ["any"], "A."]),
    (
        ir.Parameter("a", "var_keyword", ir.Primitive("str"), injected=True),
        ["a", "str", None, "var_keyword", True, None, True],
    ),
    (
        ir.Parameter("a", "keyword_only", ir.Primitive("int"), False, ir.Default.of(3), "How many."),
        ["a", "int", "How many.", "keyword_only", False, "3"],
    ),
    (ir.Field("x", ir.Primitive("int"), False), ["x", "int", None, False]),
    (ir.Field("x", ir.Primitive("int"), description="X."), ["x", "int", "X."]),
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
    tool = ir.Tool("t", "", "t", "", (ir.Parameter("a", "keyword_only", ir.ArrayType(ir.Primitive("int"))),))
    written = ["t", "t", "", [["a", ["array", "int", "list"], None, "keyword_only", True, None, False]], [], None, []]
    assert ir.from_json([*written, [], ""]) == tool
    assert ir.from_json(written) == tool
    assert ir.from_json(["t", "t", "", [["a", ["array", "int"], None, "positional_or_keyword"]]]) == (
        ir.from_json(["t", "t", "", [["a", ["array", "int"]]]])
    ), "a kind left out is positional-or-keyword"


# ---------------------------------------------------------------- what decoding refuses

TOOL = ["t", "t", "", []]
PARAMETER = ["a", "int", None, "keyword_only"]
REFUSED: list[tuple[str, Any, type[Any]]] = [
    # An array longer than the record's fields.
    ("a tool with a tenth field", [*TOOL, [], None, [], [], "", "extra"], ir.Tool),
    ("a parameter with an eighth field", [*PARAMETER, True, None, False, "extra"], ir.Parameter),
    ("a constraints with a ninth field", [None] * 9, ir.Constraints),
    ("a field with a sixth field", ["x", "int", None, True, None, "extra"], ir.Field),
    ("a node with a field more", [*TOOL[:3], [["a", ["array", "int", "list", "extra"]]]], ir.Tool),
    ("a primitive node with a field more", [*TOOL[:3], [["a", ["primitive", "int", 1]]]], ir.Tool),
    # An unknown kind, or none.
    ("an unknown kind", [*TOOL[:3], [["a", ["spaceship", "int"]]]], ir.Tool),
    ("a kind that is not a string", [*TOOL[:3], [["a", [1, "int"]]]], ir.Tool),
    ("a node without a kind", [*TOOL[:3], [["a", []]]], ir.Tool),
    ("a node a number", [*TOOL[:3], [["a", 5]]], ir.Tool),
    # A record that is not an array.
    ("a tool a string", "t", ir.Tool),
    ("a tool null", None, ir.Tool),
    ("a parameter a string", [*TOOL[:3], ["a"]], ir.Tool),
    ("parameters an object", [*TOOL[:3], {"a": PARAMETER}], ir.Tool),
    ("a named type a string", [*TOOL, ["N"]], ir.Tool),
    ("constraints a number", [*TOOL[:3], [["a", ["constrained", "int", 5]]]], ir.Tool),
    ("a default a number", [*PARAMETER, False, 3], ir.Parameter),
    # The old encoding: records and nodes as objects.
    ("a tool an object", {"name": "t", "module": "m", "qualname": "t", "description": "", "parameters": []}, ir.Tool),
    ("a parameter an object", [*TOOL[:3], [{"name": "a", "kind": "keyword_only", "type": "int"}]], ir.Tool),
    ("a node an object", [*TOOL[:3], [["a", {"kind": "primitive", "name": "int"}]]], ir.Tool),
    ("constraints an object", [*TOOL[:3], [["a", ["constrained", "int", {"ge": 1}]]]], ir.Tool),
    # A required field missing.
    ("a tool without its parameters", TOOL[:3], ir.Tool),
    ("a parameter without its type", [*TOOL[:3], [["a"]]], ir.Tool),
    ("an array node without its items", [*TOOL[:3], [["a", ["array"]]]], ir.Tool),
]


def test_the_refused_cases_differ_from_a_valid_ir_only_where_they_say() -> None:
    assert ir.from_json(TOOL) == ir.Tool("t", "", "t", "", ())
    assert ir.from_json([*TOOL[:3], [PARAMETER]]) == ir.Tool(
        "t", "", "t", "", (ir.Parameter("a", "keyword_only", ir.Primitive("int")),)
    )
    assert ir.from_json([*TOOL, [], None, [], [], ""]) == ir.from_json(TOOL)  # nine fields: the most a tool has
    assert ir.from_json([*PARAMETER, True, None, False], ir.Parameter).injected is False
    assert ir.from_json([None] * 8, ir.Constraints) == ir.Constraints()
    assert ir.from_json(["x", "int", None, True, None], ir.Field) == ir.Field("x", ir.Primitive("int"))
    assert ir.from_json([*TOOL[:3], [["a", ["array", "int", "list"]]]]).parameters[0].type == (
        ir.ArrayType(ir.Primitive("int"))
    )
    assert ir.from_json([*TOOL[:3], [["a", ["primitive", "int"]]]]).parameters[0].type == ir.Primitive("int")
    assert ir.from_json([*TOOL[:3], [["a", ["constrained", "int", [1]]]]]).parameters[0].type == (
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
        ir.from_json(["t", "t", "", "nope"])
    with pytest.raises(ValueError, match=r"cannot decode \['t'\] as Tool: .*missing 3 required"):
        ir.from_json(["t"])
    with pytest.raises(ValueError, match="cannot decode"):
        ir.from_json([1, 2])
    with pytest.raises(ValueError, match=r"cannot decode \['spaceship'\] as a type node"):
        ir.from_json(["t", "t", "", [["a", ["spaceship"]]]])
    with pytest.raises(ValueError, match=r"cannot decode \{'name': 't'\} as Tool"):
        ir.from_json({"name": "t"})


def test_the_records_cover_every_record_class() -> None:
    """Every IR class that is not a type node has its encodings above (a ``Default``: its JSON text)."""
    nodes = set(typing.get_args(ir.TypeNode))
    records = {cls for cls in vars(ir).values() if isinstance(cls, type) and dataclasses.is_dataclass(cls)} - nodes
    assert records == {ir.Tool, ir.Parameter, ir.Field, ir.NamedType, ir.Constraints, ir.Default}
    assert {type(record) for record, _ in RECORDS} == records - {ir.Default}


# ---------------------------------------------------------------- classes shared between tools

POINT = ir.ObjectType("m:Point", "typeddict", (ir.Field("x", ir.Primitive("int")),), "A point.")
PATH = ir.ObjectType("m:Path", "dataclass", (ir.Field("start", POINT), ir.Field("end", POINT)))


def test_shared_types_are_written_once_nested_first_and_named_by_position() -> None:
    shared = ir.SharedTypes()
    first = ir.Tool("a", "", "a", "", (ir.Parameter("p", "positional_or_keyword", PATH),))
    second = ir.Tool("b", "", "b", "", (ir.Parameter("q", "positional_or_keyword", ir.ArrayType(POINT)),))
    encoded = [json.loads(json.dumps(ir.to_json(tool, shared))) for tool in (first, second)]
    assert shared.items[0] == ["object", "m:Point", "typeddict", [["x", "int"]], "A point."], "the nested class first"
    assert shared.items[1] == ["object", "m:Path", "dataclass", [["start", 0], ["end", 0]]]
    assert len(shared.items) == 2, "each class once"
    assert encoded == [["a", "a", "", [["p", 1]]], ["b", "b", "", [["q", ["array", 0]]]]]
    decoded = ir.decode_shared(json.loads(json.dumps(shared.items)))
    assert decoded == (POINT, PATH)
    assert [ir.from_json(data, ir.Tool, decoded) for data in encoded] == [first, second]


NUMBERS = ir.ArrayType(ir.Primitive("int"))
CHOICE = ir.LiteralType(("a", "b"))


def counted_file(*tools: ir.Tool) -> tuple[list[Any], list[Any]]:
    """The tools encoded as one file encodes them (``SharedTypes.counted``), as JSON data, and the file's types."""
    shared = ir.SharedTypes.counted(tools)
    encoded = [json.loads(json.dumps(ir.to_json(tool, shared))) for tool in tools]
    return encoded, shared.items


def tool_of(name: str, *types: ir.TypeNode) -> ir.Tool:
    parameters = tuple(ir.Parameter(f"p{i}", "positional_or_keyword", t) for i, t in enumerate(types))
    return ir.Tool(name, "", name, "", parameters)


def test_a_node_the_file_holds_twice_is_shared_and_one_it_holds_once_stays_in_place() -> None:
    tools = (tool_of("a", NUMBERS, CHOICE), tool_of("b", ir.ArrayType(ir.Primitive("int"))))  # an equal node
    encoded, items = counted_file(*tools)
    assert items == [["array", "int"]]
    assert encoded == [["a", "a", "", [["p0", 0], ["p1", ["literal", ["a", "b"]]]]], ["b", "b", "", [["p0", 0]]]]
    decoded = ir.decode_shared(items)
    again = [ir.from_json(data, ir.Tool, decoded) for data in encoded]
    assert again == list(tools)
    assert again[0].parameters[0].type is again[1].parameters[0].type  # one node object for the tools that share it


def test_what_a_shared_node_holds_is_counted_once() -> None:
    # The list of choices is in both tools: the file holds it once, and the choices inside it once, in place.
    listed = ir.ArrayType(CHOICE)
    encoded, items = counted_file(tool_of("a", listed), tool_of("b", listed))
    assert items == [["array", ["literal", ["a", "b"]]]]
    assert encoded == [["a", "a", "", [["p0", 0]]], ["b", "b", "", [["p0", 0]]]]
    # Inside a class the tools share, likewise: held once, in the class.
    point = ir.ObjectType("m:P", "typeddict", (ir.Field("x", NUMBERS),))
    encoded, items = counted_file(tool_of("a", point), tool_of("b", point))
    assert items == [["object", "m:P", "typeddict", [["x", ["array", "int"]]]]]
    # Held twice in one class's first use, it is shared.
    pair = ir.ObjectType("m:Pair", "typeddict", (ir.Field("x", NUMBERS), ir.Field("y", NUMBERS)))
    encoded, items = counted_file(tool_of("a", pair), tool_of("b", pair))
    assert items == [["array", "int"], ["object", "m:Pair", "typeddict", [["x", 0], ["y", 0]]]]


def test_equal_in_python_but_not_in_json_is_not_shared() -> None:
    ones, trues = ir.LiteralType((1, 0)), ir.LiteralType((True, False))
    encoded, items = counted_file(tool_of("a", ones, trues), tool_of("b", trues))
    assert items == [["literal", [True, False]]]
    assert encoded[0][3] == [["p0", ["literal", [1, 0]]], ["p1", 0]]


def test_classes_equal_in_python_but_not_in_json_are_not_shared() -> None:
    shared = ir.SharedTypes()
    ones, bools = ir.EnumType("m:E", (1, 0)), ir.EnumType("m:E", (True, False))
    assert ones == bools  # 1 == True: a dict keyed by the nodes would merge them
    assert [ir.to_json(node, shared) for node in (ones, bools)] == [0, 1]
    assert ir.decode_shared(shared.items)[1].values == (True, False)


def test_a_position_names_only_an_earlier_type() -> None:
    with pytest.raises(ValueError, match="cannot decode 0 as a shared type: there are 0 before it"):
        ir.decode_shared([["object", "m:A", "typeddict", [["x", 0]]]])
    with pytest.raises(ValueError, match="cannot decode 1 as a shared type"):
        ir.decode_shared([["enum", "m:E", [1]], ["object", "m:A", "typeddict", [["x", 1]]]])
    for kept_in_place in (["ref", "A"], ["custom", "m:A", "{}"], "int"):
        with pytest.raises(ValueError, match="as a shared type"):
            ir.decode_shared([kept_in_place])
    with pytest.raises(ValueError, match="as shared types"):
        ir.decode_shared({"0": []})
    with pytest.raises(ValueError, match="cannot decode 3 as a shared type"):
        ir.from_json(["t", "t", "", [["p", 3]]], ir.Tool, ir.decode_shared([["enum", "m:E", [1]]]))
