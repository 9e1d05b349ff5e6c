"""Enums: auto(), StrEnum, Flag, aliases, and custom types inherited from a base."""

from __future__ import annotations

import enum
from typing import Any, Literal

import toolcall


class Auto(enum.Enum):
    ONE = enum.auto()
    TWO = enum.auto()
    TEN = 10
    ELEVEN = enum.auto()


class Bits(enum.IntFlag):
    """Permission bits."""

    R = enum.auto()
    W = enum.auto()
    X = enum.auto()


class Aliased(enum.Enum):
    A = 1
    B = 2
    C = 1  # noqa: PIE796 - an alias of A


class Described:
    """Has a schema of its own."""

    __toolcall_schema__ = {"type": "string", "format": "email"}


class Inherits(Described):
    """Inherits the schema."""

    @classmethod
    def __toolcall_coerce__(cls, value: Any) -> Inherits:
        return cls()


@toolcall.tool
def enum_forms(auto: Auto, bits: Bits, aliased: Aliased = Aliased.C, lit: Literal[Aliased.B] = Aliased.B) -> None:
    """Enum forms."""


@toolcall.tool
def custom_forms(email: Described, other: Inherits | None = None) -> None:
    """Custom schemas."""


class Color(enum.StrEnum):
    RED = enum.auto()
    DARK_BLUE = enum.auto()


@toolcall.tool
def strenum(color: Color = Color.RED) -> None:
    """A StrEnum with auto values."""
