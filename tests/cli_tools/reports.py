"""Tools whose values test what ``serve`` sends back: structured content, and values JSON cannot carry."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
from typing import NamedTuple, TypedDict

import toolcall


class Level(enum.Enum):
    LOW = "low"
    HIGH = "high"


class Summary(TypedDict):
    """A city's summary."""

    city: str
    level: Level
    seen: dt.date


@dataclasses.dataclass
class Point:
    x: float
    y: float


class Span(NamedTuple):
    start: int
    end: int


@toolcall.tool
def summarize(city: str) -> Summary:
    """Summarize the weather of a city.

    Args:
        city: city name
    """
    return {"city": city, "level": Level.HIGH, "seen": dt.date(2024, 5, 17)}


@toolcall.tool
def locate(name: str) -> Point:
    """Where a place is.

    Args:
        name: the place
    """
    return Point(1.5, -2.0)


@toolcall.tool
def measure(length: int) -> Span:
    """A span of the given length.

    Args:
        length: how long
    """
    return Span(0, length)


@toolcall.tool
def ratio(numerator: float, denominator: float) -> float:
    """Divide, with IEEE rules (0/0 is NaN).

    Args:
        numerator: the number divided
        denominator: the number it is divided by
    """
    if denominator == 0:
        return float("nan")
    return numerator / denominator


@toolcall.tool
def opaque() -> object:
    """Return an object JSON has no form for."""
    return object()


@toolcall.tool
def shout(text: str) -> str:
    """Print a text on stdout, and return it in capitals.

    Args:
        text: what to print
    """
    print(text)
    return text.upper()


@toolcall.tool
def mislabeled() -> dict[str, int]:
    """Promise an object and return a list: the tool breaks its own output schema."""
    return [1, 2]  # type: ignore[return-value]


@toolcall.tool
def nothing() -> None:
    """Do nothing: a tool without a return value has no output schema."""


@toolcall.tool
def miscounted() -> str:
    """Promise a string and return a number: the value breaks its wrapped output schema."""
    return 42  # type: ignore[return-value]


@toolcall.tool
def whole() -> int:
    """Return a float that is a whole number, which JSON Schema counts as an integer."""
    return 3.0  # type: ignore[return-value]
