"""The two dispatch cases: the README's weather tool and a tool taking 10 TypedDicts.

Each tool has a hand-written validator beside it: what a careful person
writes for that one tool with explicit ``isinstance`` checks (bool is not an
int; an int is a float) before calling it.
"""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict  # pydantic refuses typing.TypedDict before Python 3.12

import toolcall

WEATHER_ARGS: dict[str, Any] = {"city": "Oslo", "days": 5}
WEATHER_RESULT: dict[str, object] = {"city": "Oslo", "days": 5, "temp": 21.5}


class Item(TypedDict):
    """An order line."""

    name: str
    qty: int
    price: float


ITEMS_ARGS: dict[str, Any] = {"items": [{"name": f"item-{i}", "qty": i + 1, "price": 2.5 * i} for i in range(10)]}
ITEMS_RESULT = 10


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {"city": city, "days": days, "temp": 21.5}


@toolcall.tool
def add_items(items: list[Item]) -> int:
    """Add items to the order.

    Args:
        items: the lines to add
    """
    return len(items)


WEATHER_KEYS = frozenset({"city", "days"})
ITEM_KEYS = frozenset({"name", "qty", "price"})


def hand_get_weather(args: Any) -> dict[str, object]:
    """``get_weather`` behind hand-written checks."""
    if not isinstance(args, dict) or not args.keys() <= WEATHER_KEYS:
        raise ValueError("expected an object with city and days")
    city = args.get("city")
    days = args.get("days", 3)
    if not isinstance(city, str):
        raise ValueError("city: expected a string")
    if not isinstance(days, int) or isinstance(days, bool):
        raise ValueError("days: expected an integer")
    return get_weather(city, days)


_new_outcome = tuple.__new__


def weather_bound(source: object, name: str, args: Any) -> Any:
    """The least pure-Python code that still keeps the contract for ``get_weather``.

    A lower bound, not an implementation: no lookup of ``source`` or
    ``name`` (the tool is fixed), no error values, no defaults. It makes only
    the checks every call needs (an exact dict, ``city`` an ASCII ``str``,
    ``days`` an ``int``, no extra keys), calls the tool and wraps the result
    in an ``Ok`` the way ``run`` does. Whatever ``run`` costs above this is
    toolcall's; what this costs above the floor is CPython's.
    """
    if type(args) is not dict or len(args) != 2:
        return None
    city, days = args["city"], args["days"]
    if type(city) is not str or not city.isascii() or type(days) is not int:
        return None
    return _new_outcome(toolcall.Ok, (get_weather(city, days),))


def hand_add_items(args: Any) -> int:
    """``add_items`` behind hand-written checks (the items are checked in place, not copied)."""
    if not isinstance(args, dict) or args.keys() != {"items"}:
        raise ValueError("expected an object with items")
    items = args["items"]
    if not isinstance(items, list):
        raise ValueError("items: expected an array")
    for item in items:
        if not isinstance(item, dict) or item.keys() != ITEM_KEYS:
            raise ValueError("item: expected an object with name, qty and price")
        name, qty, price = item["name"], item["qty"], item["price"]
        if not isinstance(name, str) or not isinstance(qty, int) or isinstance(qty, bool):
            raise ValueError("item: name must be a string, qty an integer")
        if not isinstance(price, (int, float)) or isinstance(price, bool):
            raise ValueError("item: price must be a number")
    return add_items(items)
