"""A small example toolset: weather and unit conversion tools."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal, TypedDict

import toolcall
from toolcall import Param


class Unit(str, Enum):
    """Temperature unit."""

    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Place(TypedDict):
    """A place on the map."""

    lat: Annotated[float, Param(ge=-90, le=90)]
    """Latitude in degrees."""
    lon: Annotated[float, Param(ge=-180, le=180)]
    """Longitude in degrees."""


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {"city": city, "days": days, "temp": 21.5}


@toolcall.tool
def forecast_at(
    place: Place,
    unit: Unit = Unit.CELSIUS,
    hours: Annotated[int, Param(ge=1, le=48)] = 24,
) -> list[float]:
    """Hourly temperatures at a point.

    Args:
        place: where to forecast
        unit: the unit of the temperatures
        hours: how many hours ahead
    """
    return [12.0] * hours


@toolcall.tool(name="convert-temperature")
def convert(value: float, to: Literal["celsius", "fahrenheit"]) -> float:
    """Convert a temperature given in the other unit."""
    return (value - 32) * 5 / 9 if to == "celsius" else value * 9 / 5 + 32
