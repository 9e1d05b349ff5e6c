"""Scalars: str, int, float, bool, None, Any and object."""

from __future__ import annotations

from typing import Any

import toolcall


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {"city": city, "days": days, "temp": 21.5}


@toolcall.tool
def set_thermostat(celsius: float, eco: bool, note: None = None) -> str:
    """Set the thermostat.

    Args:
        celsius: the target temperature
        eco: save energy when nobody is home
        note: always null
    """
    return f"{celsius} eco={eco}"


@toolcall.tool
def store_anything(key: str, value: Any, extra: object) -> bool:
    """Store any JSON value under a key.

    Args:
        key: where to store it
        value: the value
        extra: anything else
    """
    return True


@toolcall.tool
def ping() -> None:
    """Check that the service answers."""
