"""Postponed annotations and forward references to classes defined later in the module."""

from __future__ import annotations

from tests.corpus import future_annotations, introspected
from toolcall import _ir as ir


def test_forward_references_resolve_on_first_use() -> None:
    result = introspected(future_annotations.plan_trip)
    route, stops, budget = result.tool.parameters
    stop = ir.ObjectType(
        "tests.corpus.future_annotations:Stop",
        "typeddict",
        (ir.Field("place", ir.Primitive("str")), ir.Field("nights", ir.Primitive("int"))),
        "A stop on the way.",
    )
    assert route.type == ir.ObjectType(
        "tests.corpus.future_annotations:Route",
        "typeddict",
        (ir.Field("origin", ir.Primitive("str")), ir.Field("destination", stop)),
        "A route from one place to another.",
    )
    assert route.description == "where to go"
    assert stops.type == ir.ArrayType(stop)
    assert isinstance(budget.type, ir.UnionType)
    assert result.tool.returns == ir.ObjectType(
        "tests.corpus.future_annotations:Itinerary", "typeddict", (ir.Field("days", ir.Primitive("int")),)
    )
