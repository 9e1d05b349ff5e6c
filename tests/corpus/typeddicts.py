"""TypedDicts: totality, Required/NotRequired, inheritance and field descriptions."""

from __future__ import annotations

from typing import TypedDict

import typing_extensions
from typing_extensions import NotRequired, Required

import toolcall


class Address(TypedDict):
    """A postal address."""

    street: str
    """Street and number."""
    city: str
    zip: NotRequired[str]
    """Postal code, if known."""


class Contact(TypedDict, total=False):
    """How to reach someone.

    Attributes:
        email: an email address
        phone: a phone number
            with country code
    """

    email: Required[str]
    phone: str
    """Phone in E.164 form."""


class Customer(Contact):
    """A customer with a contact and an address."""

    name: str
    address: Address


class Tag(typing_extensions.TypedDict):
    label: str
    color: NotRequired[str]


@toolcall.tool
def create_customer(customer: Customer, tags: list[Tag]) -> str:
    """Create a customer record.

    Args:
        customer: the new customer
    """
    return customer["name"]


@toolcall.tool
def ship(to: Address, express: bool = False) -> str:
    """Ship a parcel.

    Args:
        express: next-day delivery
    """
    return to["city"]
