"""TypeVars: bound, constraints, unbounded (with a finding)."""

from __future__ import annotations

from tests.corpus import introspected, typevars
from toolcall import _ir as ir
from toolcall._findings import TYPE


def test_constrained_typevar_is_a_union() -> None:
    result = introspected(typevars.scale)
    number = ir.UnionType((ir.Primitive("int"), ir.Primitive("float")))
    assert [p.type for p in result.tool.parameters] == [number, number]
    assert result.tool.returns == number
    assert result.findings == ()


def test_bound_typevar_is_its_bound() -> None:
    assert introspected(typevars.shout).tool.parameters[0].type == ir.Primitive("str")


def test_unbounded_typevar_is_any_with_a_finding() -> None:
    result = introspected(typevars.echo)
    assert result.tool.parameters[0].type == ir.AnyType("typevar")
    (finding,) = result.findings  # the return type's TypeVar is not reported
    assert (finding.code, finding.tool, finding.parameter) == (TYPE, "echo", "value")
    assert "TypeVar T" in finding.message
