"""Dataclasses: init fields, defaults, default factories, inheritance."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import toolcall


@dataclass
class LineItem:
    """One line of an order."""

    sku: str
    """Stock keeping unit."""
    qty: int = 1
    """How many."""
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Order:
    """An order to place.

    Attributes:
        items: the lines of the order
        coupon: a discount code
    """

    items: list[LineItem]
    coupon: str | None = None
    internal_id: int = field(default=0, init=False)


@dataclass(frozen=True)
class RushOrder(Order):
    """An order shipped today."""

    deadline_hour: int = 17


@dataclass
class Point:
    x: float
    y: float


@toolcall.tool
def place_order(order: Order, rush: RushOrder | None = None) -> str:
    """Place an order.

    Args:
        order: what to order
    """
    return str(len(order.items))


@toolcall.tool
def move_to(target: Point, speed: float = 1.0) -> Point:
    """Move the robot to a point."""
    return dataclasses.replace(target)
