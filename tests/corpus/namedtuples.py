"""NamedTuples: fields, defaults, descriptions."""

from __future__ import annotations

from typing import NamedTuple

import toolcall


class Coordinate(NamedTuple):
    """A position on Earth.

    Attributes:
        lat: latitude in degrees
        lon: longitude in degrees
    """

    lat: float
    lon: float
    label: str = ""
    """A name for the place."""


class Span(NamedTuple):
    start: int
    end: int


@toolcall.tool
def nearest_station(where: Coordinate, within: Span | None = None) -> str:
    """Find the nearest weather station."""
    return "OSL"
