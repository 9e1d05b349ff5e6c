"""A second ``get_weather``: serving it beside ``weather`` is refused."""

from __future__ import annotations

import toolcall


@toolcall.tool
def get_weather(city: str) -> str:
    """Another forecast.

    Args:
        city: city name
    """
    return city
