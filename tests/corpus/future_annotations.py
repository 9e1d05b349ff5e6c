"""``from __future__ import annotations`` with forward references to classes defined later."""

from __future__ import annotations

from typing import TypedDict

import toolcall


@toolcall.tool
def plan_trip(route: Route, stops: list[Stop], budget: Money | None = None) -> Itinerary:
    """Plan a trip along a route.

    Args:
        route: where to go
    """
    return {"days": len(stops)}


class Stop(TypedDict):
    """A stop on the way."""

    place: str
    nights: int


class Route(TypedDict):
    """A route from one place to another."""

    origin: str
    destination: Stop


class Money(TypedDict):
    amount: float
    currency: str


class Itinerary(TypedDict):
    days: int
