"""TypeVar defaults (PEP 696): a type parameter that nothing binds takes its default.

``typevar_defaults`` writes them with ``typing_extensions.TypeVar`` (every
Python); ``pep696`` in PEP 695 syntax (Python 3.13+). The plugin gives the
same IR for both (tests/plugin/test_plugin_analysis.py compares every corpus
tool), and the served cache the same schemas (test_cache_differential.py).
"""

from __future__ import annotations

import importlib

import pytest

from tests import corpus
from tests.corpus import introspected, typevar_defaults
from toolcall import _ir as ir

INT, STR, FLOAT, BOOL = (ir.Primitive(name) for name in ("int", "str", "float", "bool"))
NONE = ir.Primitive("none")


def _fields(node: ir.TypeNode) -> list[tuple[str, ir.TypeNode]]:
    assert isinstance(node, ir.ObjectType)
    return [(field.name, field.type) for field in node.fields]


def test_a_generic_class_written_bare_takes_the_default() -> None:
    result = introspected(typevar_defaults.record)
    reading, precise = result.tool.parameters
    assert _fields(reading.type) == [("value", FLOAT), ("unit", STR)]
    assert _fields(precise.type) == [("value", FLOAT), ("unit", FLOAT)]
    assert result.findings == ()


def test_a_default_naming_an_earlier_parameter_takes_what_that_one_is_bound_to() -> None:
    result = introspected(typevar_defaults.match)
    pair, named = result.tool.parameters
    assert _fields(pair.type) == [("left", INT), ("right", INT)]
    assert _fields(named.type) == [("left", STR), ("right", BOOL)]
    assert result.findings == ()


def test_an_unbound_typevar_takes_its_default_before_its_bound() -> None:
    result = introspected(typevar_defaults.rate)
    score, unit = result.tool.parameters
    assert score.type == INT  # bound=float, default=int
    assert unit.type == ir.UnionType((STR, NONE))
    assert result.tool.returns == INT
    assert result.findings == ()


needs_313 = pytest.mark.skipif(
    "tests.corpus.pep696" not in corpus.MODULES, reason="type parameter defaults in PEP 695 syntax need Python 3.13"
)


def _pep696() -> object:
    # Imported by name: Python 3.11 and 3.12 cannot parse it.
    return importlib.import_module("tests.corpus.pep696")


@needs_313
def test_pep695_classes_written_bare_take_their_defaults() -> None:
    result = introspected(_pep696().store)  # type: ignore[attr-defined]
    box, labelled, span = result.tool.parameters
    assert _fields(box.type) == [("item", INT), ("count", INT)]
    assert _fields(labelled.type) == [("item", STR), ("count", INT)]
    assert _fields(span.type) == [("start", INT), ("end", INT)]
    assert result.findings == ()


@needs_313
def test_pep695_aliases_written_bare_take_their_defaults() -> None:
    result = introspected(_pep696().tally)  # type: ignore[attr-defined]
    items, names, tree = result.tool.parameters
    assert (items.type, names.type) == (ir.ArrayType(FLOAT), ir.ArrayType(STR))
    assert tree.type == ir.RefType("Tree")
    assert result.tool.defs == (ir.NamedType("Tree", ir.UnionType((STR, ir.ArrayType(ir.RefType("Tree"))))),)
    assert result.findings == ()


@needs_313
def test_a_generic_function_s_own_parameter_takes_its_default() -> None:
    pep696 = _pep696()
    pick = introspected(pep696.pick)  # type: ignore[attr-defined]
    assert [p.type for p in pick.tool.parameters] == [BOOL, ir.UnionType((BOOL, NONE))]
    assert pick.tool.returns == BOOL
    assert pick.findings == ()  # no "TypeVar W has no bound": its default says what it is
    measure = introspected(pep696.measure)  # type: ignore[attr-defined]
    assert [p.type for p in measure.tool.parameters] == [INT, STR]  # the default over the bound and the constraints
