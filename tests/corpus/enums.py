"""Enums: plain, str-mixin, int-mixin, descriptions and member defaults."""

from __future__ import annotations

import enum

import toolcall


class Unit(str, enum.Enum):
    """Temperature unit."""

    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Priority(enum.IntEnum):
    LOW = 1
    NORMAL = 2
    HIGH = 3


class Mood(enum.Enum):
    """How the user feels.

    Used to pick a tone for the answer.
    """

    HAPPY = "happy"
    SAD = "sad"
    MIXED = 0.5
    GLAD = "happy"  # noqa: PIE796 - an alias of HAPPY, not a value of its own


@toolcall.tool
def convert(value: float, unit: Unit = Unit.CELSIUS) -> float:
    """Convert a temperature."""
    return value


@toolcall.tool
def file_ticket(title: str, priority: Priority = Priority.NORMAL, mood: Mood | None = None) -> int:
    """File a support ticket.

    Args:
        title: one line summary
        priority: how urgent it is
    """
    return 1
