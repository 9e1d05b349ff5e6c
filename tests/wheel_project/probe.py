"""Print, as JSON, everything shopkit's tools give: schemas, descriptions and dispatched calls.

tests/packaging/test_wheels.py runs this with the installed (or zipped) package under
``python -OO`` and ``TOOLCALL_CACHE=require``, and in the dev environment
with introspection, and compares the two outputs as text. The first line
says where things were imported from; the second is the part to compare.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import toolcall
from toolcall._providers import PROVIDERS

MODULES = ("shopkit", "shopkit.orders", "shopkit.stock.levels")
OSLO = {"street": "Karl Johans gate 1", "city": "Oslo", "postcode": "0154"}
# (module, tool, arguments): good calls, then bad ones (wrong types, a missing field, unknown keys, a lone surrogate).
CALLS: tuple[tuple[str, str, object], ...] = (
    ("shopkit", "ping", {}),
    ("shopkit.orders", "place_order", {"lines": [{"sku": "A-100", "quantity": 2}, {"sku": "B-7"}], "ship_to": OSLO}),
    ("shopkit.orders", "order_status", {"order_id": 17, "detail": "full"}),
    ("shopkit.stock.levels", "stock_level", {"sku": "A-100", "warehouse": "south"}),
    (
        "shopkit.orders",
        "place_order",
        {"lines": [{"sku": "A-100", "quantity": "2"}], "ship_to": {"street": "x", "city": "Oslo"}, "rush": True},
    ),
    ("shopkit.orders", "order_status", {"order_id": 1.5, "detail": "\ud800"}),
    ("shopkit.stock.levels", "stock_level", {"warehouse": "east"}),
    ("shopkit.stock.levels", "stock_levels", {}),
    ("shopkit", "ping", ["not", "an", "object"]),
)


def variants(module: Any) -> dict[str, Any]:
    """Every provider's definitions of the module's tools, plain and strict."""
    found: dict[str, Any] = {}
    for name, provider in PROVIDERS.items():
        for strict in (False, True) if provider.strict else (False,):
            key = f"{name}/strict" if strict else name
            try:
                found[key] = toolcall.emit(module, name, strict=strict)
            except ValueError as exc:  # a provider that cannot take a tool: the same refusal on both sides
                found[key] = {"refused": str(exc)}
    return found


def outcome(module: Any, name: str, arguments: Any) -> dict[str, Any]:
    """What ``toolcall.run`` gives for a call: the value, or the error data and the text the model sees."""
    result = toolcall.run(module, name, arguments)
    if result.ok:
        return {"ok": True, "value": result.value}
    return {"ok": False, "error": result.to_json(), "text": str(result)}


def main() -> None:
    """Print the two lines."""
    modules = {name: importlib.import_module(name) for name in MODULES}
    where = {
        "optimize": sys.flags.optimize,
        "path": sys.path,
        "files": {name: module.__file__ for name, module in modules.items()},
        "toolcall": toolcall.__file__,
    }
    report = {
        "describe": {name: toolcall.describe(module) for name, module in modules.items()},
        "emit": {name: variants(module) for name, module in modules.items()},
        "calls": [outcome(modules[module], tool, arguments) for module, tool, arguments in CALLS],
    }
    print(json.dumps(where))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
