"""Dates, UUID, Decimal and paths are string-carried primitives."""

from __future__ import annotations

from tests.corpus import dates, introspected
from toolcall import _ir as ir


def test_date_family_uses_exact_classes() -> None:
    # datetime is a subclass of date: the exact class decides.
    names = [p.type.name for p in introspected(dates.schedule).tool.parameters]
    assert names == ["datetime", "date", "time", "timedelta", "uuid"]


def test_decimal_and_any_path_class() -> None:
    total, pdf, archive = introspected(dates.invoice).tool.parameters
    assert total.type == ir.Primitive("decimal")
    assert pdf.type == ir.Primitive("path")
    assert archive.type == ir.UnionType((ir.Primitive("path"), ir.Primitive("none")))
