"""The shapes the order tools take: a TypedDict and a dataclass with described fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict


class Address(TypedDict):
    """Where an order goes.

    Attributes:
        street: street and house number
        city: the city, e.g. "Oslo"
        postcode: the postal code, digits only
    """

    street: str
    city: str
    postcode: str


@dataclass
class Line:
    """One line of an order."""

    sku: str
    """The article number, e.g. "A-100"."""
    quantity: int = 1
    """How many pieces to order."""
