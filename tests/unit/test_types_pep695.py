"""PEP 695 ``type`` statements and generic functions (Python 3.12+)."""

from __future__ import annotations

import importlib

import pytest

from tests import corpus
from tests.corpus import introspected
from toolcall import _ir as ir

if "tests.corpus.pep695" not in corpus.MODULES:
    pytest.skip("PEP 695 syntax needs Python 3.12", allow_module_level=True)

# Imported by name, so that neither Python 3.10 nor a 3.10-targeted mypy parses it.
pep695 = importlib.import_module("tests.corpus.pep695")

INT, STR = ir.Primitive("int"), ir.Primitive("str")


def test_plain_type_statement() -> None:
    tool = introspected(pep695.log).tool
    assert tool.parameters[1].type == ir.LiteralType(("debug", "info", "error"))
    assert tool.defs == ()


def test_recursive_type_statement_and_generic_alias() -> None:
    tool = introspected(pep695.total).tool
    tree, bounds = tool.parameters
    assert tree.type == ir.RefType("Tree")
    assert tool.defs == (ir.NamedType("Tree", ir.UnionType((INT, ir.ArrayType(ir.RefType("Tree"))))),)
    float_ = ir.Primitive("float")
    assert bounds.type == ir.UnionType((ir.TupleType((float_, float_)), ir.Primitive("none")))


def test_generic_recursive_alias_through_another_alias() -> None:
    tool = introspected(pep695.plant).tool
    assert tool.parameters[0].type == ir.ArrayType(ir.RefType("Node"))
    assert tool.defs == (ir.NamedType("Node", ir.UnionType((STR, ir.ArrayType(ir.RefType("Node"))))),)


def test_generic_function_with_a_bound() -> None:
    result = introspected(pep695.first)
    assert result.tool.parameters[0].type == ir.ArrayType(STR)
    assert result.tool.returns == STR
    assert result.findings == ()
