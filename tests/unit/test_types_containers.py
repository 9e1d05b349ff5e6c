"""Lists, sequences, tuples, sets and mappings."""

from __future__ import annotations

from tests.corpus import containers, introspected
from toolcall import _ir as ir

STR, INT, FLOAT = ir.Primitive("str"), ir.Primitive("int"), ir.Primitive("float")


def _types(fn: object) -> list[ir.TypeNode]:
    return [p.type for p in introspected(fn).tool.parameters]


def test_lists_and_sequences_are_lists() -> None:
    assert _types(containers.tag_photos) == [
        ir.ArrayType(INT),
        ir.ArrayType(STR),
        ir.ArrayType(STR),
        ir.ArrayType(ir.AnyType("any")),
    ]


def test_tuples_fixed_and_variadic() -> None:
    assert _types(containers.plot) == [
        ir.TupleType((FLOAT, FLOAT)),
        ir.ArrayType(INT, "tuple"),
        ir.TupleType((STR, INT)),
        ir.TupleType(()),
    ]


def test_sets_keep_their_container() -> None:
    assert _types(containers.dedupe) == [
        ir.ArrayType(STR, "set"),
        ir.ArrayType(INT, "frozenset"),
        ir.ArrayType(STR, "frozenset"),
        ir.ArrayType(STR, "frozenset"),
    ]


def test_str_keyed_mappings_are_maps() -> None:
    assert _types(containers.label) == [ir.MapType(STR), ir.MapType(INT), ir.MapType(FLOAT)]


def test_typing_generic_aliases() -> None:
    assert _types(containers.legacy_typing) == [ir.ArrayType(STR), ir.MapType(ir.ArrayType(FLOAT))]
