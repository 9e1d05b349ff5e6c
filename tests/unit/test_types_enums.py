"""Enums: values, descriptions, member defaults."""

from __future__ import annotations

from tests.corpus import enums, introspected
from toolcall import _ir as ir


def test_str_enum_with_member_default() -> None:
    result = introspected(enums.convert)
    unit = result.tool.parameters[1]
    assert unit.type == ir.EnumType("tests.corpus.enums:Unit", ("celsius", "fahrenheit"), "Temperature unit.")
    assert unit.default == ir.Default.of("celsius")
    assert unit.description == "Temperature unit."
    assert result.classes["tests.corpus.enums:Unit"] is enums.Unit


def test_int_enum_and_plain_enum_with_mixed_values() -> None:
    _, priority, mood = introspected(enums.file_ticket).tool.parameters
    assert priority.type == ir.EnumType("tests.corpus.enums:Priority", (1, 2, 3))
    assert priority.default == ir.Default.of(2)
    assert priority.description == "how urgent it is"
    mood_enum = ir.EnumType(
        "tests.corpus.enums:Mood",
        ("happy", "sad", 0.5),  # the alias GLAD adds no value
        "How the user feels.\n\nUsed to pick a tone for the answer.",
    )
    assert mood.type == ir.UnionType((mood_enum, ir.Primitive("none")))
    assert mood.description == mood_enum.description
