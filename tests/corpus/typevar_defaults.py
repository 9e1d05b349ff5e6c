"""TypeVars with defaults (PEP 696), from ``typing_extensions`` as code for Python 3.11 and 3.12 writes them.

A type parameter that nothing binds takes its default; a default may name an
earlier parameter of the same class.
"""

from __future__ import annotations

import dataclasses
from typing import Generic, TypedDict

from typing_extensions import TypeVar

import toolcall

Unit = TypeVar("Unit", default=str)
Left = TypeVar("Left")
Right = TypeVar("Right", default=Left)
Score = TypeVar("Score", bound=float, default=int)


@dataclasses.dataclass
class Reading(Generic[Unit]):
    """A measured value."""

    value: float
    unit: Unit


class Pair(TypedDict, Generic[Left, Right]):
    left: Left
    right: Right


@toolcall.tool
def record(reading: Reading, precise: Reading[float]) -> None:
    """Record readings: bare, the unit is a string."""


@toolcall.tool
def match(pair: Pair[int], named: Pair[str, bool]) -> None:
    """Match pairs: bare, the right takes the left's type."""


@toolcall.tool
def rate(score: Score, unit: Unit | None = None) -> Score:
    """Unbound TypeVars with defaults."""
    return score
