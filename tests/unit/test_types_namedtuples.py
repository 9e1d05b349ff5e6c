"""NamedTuples: fields, defaults, attribute entries."""

from __future__ import annotations

from tests.corpus import introspected, namedtuples
from toolcall import _ir as ir

FLOAT, INT, STR = ir.Primitive("float"), ir.Primitive("int"), ir.Primitive("str")


def test_namedtuple_fields_and_defaults() -> None:
    where, within = introspected(namedtuples.nearest_station).tool.parameters
    assert where.type == ir.ObjectType(
        "tests.corpus.namedtuples:Coordinate",
        "namedtuple",
        (
            ir.Field("lat", FLOAT, description="latitude in degrees"),
            ir.Field("lon", FLOAT, description="longitude in degrees"),
            ir.Field("label", STR, False, ir.Default.of(""), "A name for the place."),
        ),
        "A position on Earth.",
    )
    assert where.description == "A position on Earth."
    span = ir.ObjectType("tests.corpus.namedtuples:Span", "namedtuple", (ir.Field("start", INT), ir.Field("end", INT)))
    assert within.type == ir.UnionType((span, ir.Primitive("none")))
    # The generated namedtuple docstring ("Span(start, end)") is no description.
    assert within.description is None
