"""Order tools: the package's main module of tools."""

from __future__ import annotations

from typing import Literal

import toolcall
from shopkit.models import Address, Line


@toolcall.tool
def place_order(lines: list[Line], ship_to: Address, express: bool = False) -> dict[str, object]:
    """Place an order for delivery.

    Args:
        lines: what to order, one entry per article
        ship_to: the delivery address
        express: ship by courier the same day
    """
    pieces = sum(line.quantity for line in lines)
    return {"pieces": pieces, "city": ship_to["city"], "express": express}


@toolcall.tool
def order_status(order_id: int, detail: Literal["short", "full"] = "short") -> str:
    """Look up where an order is.

    Args:
        order_id: the number on the order confirmation
        detail: how much of the history to include
    """
    return f"order {order_id}: shipped ({detail})"
