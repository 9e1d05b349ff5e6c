"""The IR's one child visitor: ``child_types`` and ``replace_child_types`` for every node kind."""

from __future__ import annotations

import json

from toolcall import _ir as ir

STR = ir.Primitive("str")
INT = ir.Primitive("int")
BOUNDS = ir.Constraints(ge=1)

# Each node with children, and its children in order.
PARENTS: list[tuple[ir.TypeNode, tuple[ir.TypeNode, ...]]] = [
    (ir.ArrayType(STR, container="set"), (STR,)),
    (ir.MapType(INT), (INT,)),
    (ir.TupleType((STR, INT)), (STR, INT)),
    (ir.UnionType((INT, STR, ir.Primitive("none"))), (INT, STR, ir.Primitive("none"))),
    (ir.Constrained(INT, BOUNDS), (INT,)),
    (
        ir.ObjectType(
            "m:Point",
            "dataclass",
            (ir.Field("x", INT), ir.Field("label", STR, required=False, description="shown")),
            description="a point",
        ),
        (INT, STR),
    ),
]
LEAVES: list[ir.TypeNode] = [
    STR,
    ir.AnyType("object"),
    ir.LiteralType(("a", 1)),
    ir.EnumType("m:Color", ("red",)),
    ir.RefType("Json"),
    ir.CustomType("m:Money", '{"type":"string"}'),
]


def test_children_in_order() -> None:
    for node, children in PARENTS:
        assert ir.child_types(node) == children, node
    for leaf in LEAVES:
        assert ir.child_types(leaf) == (), leaf


def test_replacing_children_keeps_everything_else() -> None:
    swap = {STR: INT, INT: STR}
    for node, children in PARENTS:
        replaced = ir.replace_child_types(node, lambda child: swap.get(child, child))
        assert ir.child_types(replaced) == tuple(swap.get(c, c) for c in children)
        # Apart from the children, the node's JSON is the same (container, ref, descriptions, constraints).
        back = ir.replace_child_types(replaced, lambda child: swap.get(child, child))
        assert json.dumps(ir.to_json(back)) == json.dumps(ir.to_json(node))
    for leaf in LEAVES:
        assert ir.replace_child_types(leaf, lambda child: INT) is leaf
