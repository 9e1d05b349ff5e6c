"""Annotated: Param and annotated_types constraints, descriptions, string integers."""

from __future__ import annotations

from tests.corpus import annotated, introspected
from toolcall import _ir as ir

INT, STR, FLOAT = ir.Primitive("int"), ir.Primitive("str"), ir.Primitive("float")


def test_param_bounds_and_description() -> None:
    guests, name, discount, note = introspected(annotated.book_table).tool.parameters
    assert guests.type == ir.Constrained(INT, ir.Constraints(ge=1, le=12))
    assert guests.description == "number of guests"  # Param wins over the docstring
    assert name.type == ir.Constrained(STR, ir.Constraints(min_length=1, max_length=40, pattern=r"^[A-Za-z ]+$"))
    assert discount.type == ir.Constrained(FLOAT, ir.Constraints(ge=0, le=100))
    assert discount.default == ir.Default.of(0.0)
    # Param(description="") means none and stops the docstring fallback.
    assert note.description is None


def test_annotated_types_constraints() -> None:
    amount, account, memo, ratio, codes = introspected(annotated.transfer).tool.parameters
    assert amount.type == ir.Constrained(INT, ir.Constraints(gt=0, multiple_of=5))
    assert account.type == ir.Constrained(ir.Primitive("string_integer"), ir.Constraints(ge=0))
    # Bounds on ``X | None`` apply to X only.
    assert memo.type == ir.UnionType(
        (ir.Constrained(STR, ir.Constraints(min_length=2, max_length=80)), ir.Primitive("none"))
    )
    assert ratio.type == ir.Constrained(FLOAT, ir.Constraints(ge=0, lt=1))
    assert codes.type == ir.Constrained(
        ir.ArrayType(ir.Constrained(STR, ir.Constraints(max_length=4))), ir.Constraints(min_length=1)
    )
    assert codes.default == ir.Default.of(["ab"])
