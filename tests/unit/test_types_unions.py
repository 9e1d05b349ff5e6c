"""Unions: Optional, X | None, flattening and de-duplication."""

from __future__ import annotations

from tests.corpus import introspected, unions
from toolcall import _ir as ir

INT, STR, NONE = ir.Primitive("int"), ir.Primitive("str"), ir.Primitive("none")


def test_optional_spellings_agree() -> None:
    _, limit, page = introspected(unions.search).tool.parameters
    assert limit.type == page.type == ir.UnionType((INT, NONE))
    assert not limit.required


def test_nested_unions_flatten_and_dedupe() -> None:
    key, fallback = introspected(unions.lookup).tool.parameters
    assert key.type == ir.UnionType((INT, STR))
    assert fallback.type == ir.UnionType((INT, STR, NONE))
