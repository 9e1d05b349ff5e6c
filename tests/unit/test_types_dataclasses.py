"""Dataclasses: init fields only, defaults and factories optional, inheritance."""

from __future__ import annotations

from tests.corpus import dataclasses_, introspected
from toolcall import _ir as ir

STR, INT, FLOAT, NONE = ir.Primitive("str"), ir.Primitive("int"), ir.Primitive("float"), ir.Primitive("none")
LINE_ITEM = ir.ObjectType(
    "tests.corpus.dataclasses_:LineItem",
    "dataclass",
    (
        ir.Field("sku", STR, description="Stock keeping unit."),
        ir.Field("qty", INT, False, ir.Default.of(1), "How many."),
        # A default_factory makes the field optional, but its value is not emitted.
        ir.Field("notes", ir.ArrayType(STR), False),
    ),
    "One line of an order.",
)
ORDER_FIELDS = (
    ir.Field("items", ir.ArrayType(LINE_ITEM), description="the lines of the order"),
    ir.Field("coupon", ir.UnionType((STR, NONE)), False, None, "a discount code"),
)


def test_init_false_fields_are_left_out() -> None:
    order = introspected(dataclasses_.place_order).tool.parameters[0]
    assert order.type == ir.ObjectType(
        "tests.corpus.dataclasses_:Order", "dataclass", ORDER_FIELDS, "An order to place."
    )
    assert order.description == "what to order"


def test_subclass_fields_follow_base_fields() -> None:
    result = introspected(dataclasses_.place_order)
    rush = result.tool.parameters[1]
    expected = ir.ObjectType(
        "tests.corpus.dataclasses_:RushOrder",
        "dataclass",
        (*ORDER_FIELDS, ir.Field("deadline_hour", INT, False, ir.Default.of(17))),
        "An order shipped today.",
    )
    assert rush.type == ir.UnionType((expected, NONE))
    # The declared class's docstring, through ``X | None``.
    assert rush.description == "An order shipped today."
    assert result.classes["tests.corpus.dataclasses_:LineItem"] is dataclasses_.LineItem


def test_generated_dataclass_doc_is_not_a_description() -> None:
    result = introspected(dataclasses_.move_to)
    point = ir.ObjectType("tests.corpus.dataclasses_:Point", "dataclass", (ir.Field("x", FLOAT), ir.Field("y", FLOAT)))
    assert result.tool.parameters[0].type == point
    assert result.tool.parameters[0].description is None
    assert result.tool.returns == point
