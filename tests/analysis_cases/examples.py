"""Docstring ``Examples:``: accepted ones kept, rejected and unreadable ones reported and left out, both sides alike."""

from __future__ import annotations

import dataclasses
import enum
from typing import Annotated, TypedDict

import toolcall


class Unit(enum.Enum):
    C = "c"
    F = "f"


class Stop(TypedDict):
    name: str
    minutes: int


@dataclasses.dataclass
class Window:
    start: int
    end: int = 0


@toolcall.tool
def trip(
    city: str,
    days: Annotated[int, toolcall.Param(ge=1, le=7)] = 3,
    unit: Unit = Unit.C,
    stops: list[Stop] | None = None,
    window: Window | None = None,
) -> str:
    """Plan a trip.

    Args:
        city: Where to.

    Examples:
        {"city": "Oslo"}
        {"window": {"start": 9}, "city": "Oslo", "unit": "f"}

        {
            "city": "Bergen",
            "stops": [{"name": "Fløyen", "minutes": 30}]
        }
        {"city": "Oslo", "days": 0}
        {"city": "Oslo", "unit": "k", "extra": true}
        {"stops": [{"name": "Fram"}]}
    """
    return city


@toolcall.tool
def counted(n: int, *, label: str = "") -> int:
    """Count, NumPy style.

    Parameters
    ----------
    n : int
        How many.

    Examples
    --------
    {"n": 1} {"n": 2, "label": "two"}
    {"n": 3,, }
    """
    return n


@toolcall.tool
def doctested(n: int) -> int:
    """A doctest is not argument examples.

    Examples:
        >>> doctested(1)
        1
    """
    return n
