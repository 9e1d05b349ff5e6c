"""Custom types: __toolcall_schema__ classes and TypeProviders."""

from __future__ import annotations

from fractions import Fraction

from tests.corpus import custom, introspected
from toolcall import _ir as ir


def test_self_described_class() -> None:
    result = introspected(custom.paint)
    color = result.tool.parameters[0]
    assert color.type == ir.CustomType(
        "tests.corpus.custom:Color", ir.canonical_json(custom.Color.__toolcall_schema__), None, coerce=True
    )
    assert result.classes["tests.corpus.custom:Color"] is custom.Color
    extra = result.tool.parameters[2]
    assert extra.type == ir.UnionType(
        (ir.CustomType("tests.corpus.custom:Opaque", '{"type":"object"}'), ir.Primitive("none"))
    )


def test_provider_described_class() -> None:
    result = introspected(custom.paint)
    share = result.tool.parameters[1]
    assert share.type == ir.CustomType(
        "fractions:Fraction",
        '{"pattern":"^-?[0-9]+/[0-9]+$","type":"string"}',
        provider="tests.corpus.custom:FractionTypes",
        coerce=True,
    )
    assert share.description == "how much of the wall"
    assert result.tool.providers == ("tests.corpus.custom:FractionTypes",)
    assert result.classes["fractions:Fraction"] is Fraction
    assert result.classes["tests.corpus.custom:FractionTypes"] is custom.FractionTypes
