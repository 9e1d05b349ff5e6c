"""The implementations each benchmark case compares: toolcall and its peers.

Every ``*_impls()`` returns ``{name: zero-argument callable}``; each callable
does one full dispatch (validate the model's arguments, call the tool) or
one ``emit``. Peers that are not installed are left out.
"""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path
from typing import Any

from typing_extensions import TypedDict

import toolcall

HERE = Path(__file__).resolve().parent
WEATHER_ARGS: dict[str, Any] = {"city": "Oslo", "days": 5}


class Item(TypedDict):
    """An order line."""

    sku: str
    qty: int
    price: float


ITEMS_ARGS: dict[str, Any] = {"items": [{"sku": f"sku-{i}", "qty": i + 1, "price": 2.5 * i} for i in range(10)]}


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
    """Add items to an order."""
    return len(items)


def _plain_weather(city: str, days: int = 3) -> dict[str, object]:
    return {"city": city, "days": days, "temp": 21.5}


def _plain_items(items: list[Item]) -> int:
    return len(items)


def _hand_weather(args: dict[str, Any]) -> dict[str, object]:
    # What a careful person writes by hand for this one tool.
    if type(args) is not dict or not args.keys() <= {"city", "days"}:
        raise ValueError("bad arguments")
    city = args["city"]
    if type(city) is not str:
        raise ValueError("city")
    days = args.get("days", 3)
    if type(days) is not int:
        raise ValueError("days")
    return _plain_weather(city, days)


def _hand_items(args: dict[str, Any]) -> int:
    items = args["items"]
    if type(items) is not list:
        raise ValueError("items")
    for item in items:
        if type(item) is not dict or item.keys() != {"sku", "qty", "price"}:
            raise ValueError("item")
        if type(item["sku"]) is not str or type(item["qty"]) is not int or type(item["price"]) not in (int, float):
            raise ValueError("item field")
    return _plain_items(items)


def _peers(plain: Any, args: dict[str, Any]) -> dict[str, Any]:
    """pydantic, the MCP SDK and the anthropic SDK, each validating ``args`` and calling ``plain``."""
    found: dict[str, Any] = {}
    if importlib.util.find_spec("pydantic"):
        from pydantic import TypeAdapter, validate_call
        from pydantic_core import ArgsKwargs

        adapter = TypeAdapter(plain)  # a function's TypeAdapter validates its arguments and calls it
        call_args = ArgsKwargs((), args)
        found["pydantic TypeAdapter"] = lambda: adapter.validate_python(call_args)
        validated = validate_call(plain)
        found["pydantic validate_call"] = lambda: validated(**args)
    if importlib.util.find_spec("mcp"):
        from mcp.server.mcpserver.utilities.func_metadata import func_metadata

        meta = func_metadata(plain)
        # The SDK's own path, minus its hop to a worker thread for sync tools.
        found["mcp SDK"] = lambda: plain(**meta.validate_arguments(args))
    if importlib.util.find_spec("anthropic"):
        from anthropic.lib.tools import beta_tool

        anthropic_tool = beta_tool(plain)
        found["anthropic SDK"] = lambda: anthropic_tool.call(args)
    return found


def weather_impls() -> dict[str, Any]:
    """(a): the weather tool."""
    table = {"get_weather": _plain_weather}
    module = _self()
    return {
        "toolcall": lambda: toolcall.run(module, "get_weather", WEATHER_ARGS),
        "floor": lambda: table["get_weather"](**WEATHER_ARGS),
        "hand-written": lambda: _hand_weather(WEATHER_ARGS),
        **_peers(_plain_weather, WEATHER_ARGS),
    }


def items_impls() -> dict[str, Any]:
    """(b): a list of 10 TypedDicts of 3 fields."""
    table = {"add_items": _plain_items}
    module = _self()
    return {
        "toolcall": lambda: toolcall.run(module, "add_items", ITEMS_ARGS),
        "floor": lambda: table["add_items"](**ITEMS_ARGS),
        "hand-written": lambda: _hand_items(ITEMS_ARGS),
        **_peers(_plain_items, ITEMS_ARGS),
    }


def emit_impls() -> dict[str, Any]:
    """(c): emit for the 20-tool module; the deep copy shows what a copy per call would cost."""
    import tools20

    first = toolcall.emit(tools20, "openai")
    return {
        "toolcall": lambda: toolcall.emit(tools20, "openai"),
        "deepcopy per call": lambda: copy.deepcopy(first),
    }


def define_impls() -> dict[str, Any]:
    """(d): executing the 20-tool module's code, with and without ``@toolcall.tool``."""
    source = (HERE / "tools20.py").read_text()
    decorated = compile(source, "tools20_fresh", "exec")
    undecorated = compile(source.replace("@toolcall.tool\n", ""), "tools20_plain", "exec")

    def run(code: Any) -> None:
        exec(code, {"__name__": "tools20_fresh"})

    return {"toolcall": lambda: run(decorated), "plain functions": lambda: run(undecorated)}


def _self() -> Any:
    import sys

    return sys.modules[__name__]
