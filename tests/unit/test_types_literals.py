"""Literals: nested Literals flatten, enum members become a restricted EnumType."""

from __future__ import annotations

from tests.corpus import introspected, literals
from toolcall import _ir as ir


def test_literals_flatten_and_keep_order() -> None:
    size, fit, sleeves = introspected(literals.order_shirt).tool.parameters
    assert size.type == ir.LiteralType(("s", "m", "l"))
    assert fit.type == ir.LiteralType(("slim", "regular"))
    assert fit.default == ir.Default.of("regular")
    assert sleeves.type == ir.LiteralType(("s", "m", "l", "xl"))


def test_mixed_scalars_keep_their_kinds() -> None:
    choice, _ = introspected(literals.pick).tool.parameters
    values = choice.type.values
    assert values == (1, "one", True, None)
    assert [type(v) for v in values] == [int, str, bool, type(None)]


def test_literal_of_enum_members_lists_only_those_members() -> None:
    result = introspected(literals.pick)
    warm = result.tool.parameters[1]
    assert warm.type == ir.EnumType("tests.corpus.literals:Color", ("red", "green"), "A paint color.")
    assert result.classes["tests.corpus.literals:Color"] is literals.Color
