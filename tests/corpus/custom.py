"""Custom types: __toolcall_schema__ classes and a TypeProvider."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import toolcall
from toolcall._ir import JsonValue


class Color:
    """An RGB color in hex notation."""

    __toolcall_schema__ = {"type": "string", "pattern": "^#[0-9a-f]{6}$"}

    def __init__(self, hex_value: str) -> None:
        self.hex = hex_value

    @classmethod
    def __toolcall_coerce__(cls, value: Any) -> Color:
        return cls(value)


class Opaque:
    """Described, but takes the wire value as is."""

    __toolcall_schema__ = {"type": "object"}


class FractionTypes(toolcall.TypeProvider):
    """Describes fractions.Fraction as a "p/q" string."""

    def resolve(self, fullname: str, args: tuple[str, ...]) -> dict[str, JsonValue] | None:
        if fullname == "fractions.Fraction":
            return {"type": "string", "pattern": "^-?[0-9]+/[0-9]+$"}
        return None

    def coerce(self, fullname: str, value: JsonValue) -> object:
        return Fraction(str(value))


toolcall.use_types(FractionTypes)


@toolcall.tool
def paint(color: Color, share: Fraction, extra: Opaque | None = None) -> str:
    """Paint a share of the wall.

    Args:
        color: the paint
        share: how much of the wall
    """
    return color.hex
