"""Docstring styles: Google, NumPy, Sphinx; multi-paragraph descriptions; stray entries."""

from __future__ import annotations

import toolcall


@toolcall.tool
def google_style(city: str, days: int = 1) -> str:
    """Forecast, Google style.

    The forecast comes from the national
    weather service.

    Args:
        city: city name,
            as the post office spells it
        days: days ahead

    Returns:
        the forecast text
    """
    return city


@toolcall.tool
def numpy_style(city: str, days: int = 1) -> str:
    """Forecast, NumPy style.

    Parameters
    ----------
    city : str
        city name,
        as the post office spells it
    days : int
        days ahead

    Returns
    -------
    str
        the forecast text
    """
    return city


@toolcall.tool
def sphinx_style(city: str, days: int = 1) -> str:
    """Forecast, Sphinx style.

    :param city: city name,
        as the post office spells it
    :param int days: days ahead
    :returns: the forecast text
    """
    return city


@toolcall.tool(name="renamed", description="An explicit description wins.")
def overridden(city: str) -> str:
    """This docstring is not the description.

    Args:
        city: still documented
    """
    return city


@toolcall.tool
def stray_entry(city: str) -> str:
    """Documents a parameter that does not exist.

    Args:
        city: the city
        country: there is no such parameter
    """
    return city


@toolcall.tool
def undocumented(city: str) -> str:
    return city
