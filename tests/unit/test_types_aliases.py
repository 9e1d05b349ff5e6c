"""Aliases: plain, TypeAlias, TypeAliasType and generic aliases resolve in place."""

from __future__ import annotations

from tests.corpus import aliases, introspected
from toolcall import _ir as ir


def test_aliases_resolve_inline() -> None:
    tool = introspected(aliases.annotate).tool
    assert [p.type for p in tool.parameters] == [
        ir.ArrayType(ir.Primitive("str")),
        ir.MapType(ir.Primitive("float")),
        ir.UnionType((ir.Primitive("int"), ir.Primitive("str"))),
    ]
    assert tool.defs == ()  # nothing recursive, nothing in $defs


def test_generic_aliases_substitute_their_arguments() -> None:
    result = introspected(aliases.measure)
    span, grid = result.tool.parameters
    assert span.type == ir.TupleType((ir.Primitive("int"), ir.Primitive("int")))
    assert grid.type == ir.ArrayType(ir.ArrayType(ir.Primitive("float")))
    assert result.findings == ()
