"""Stock level tools in a subpackage."""

from __future__ import annotations

from enum import Enum

import toolcall


class Warehouse(str, Enum):
    """A warehouse the shop ships from."""

    NORTH = "north"
    SOUTH = "south"


@toolcall.tool
def stock_level(sku: str, warehouse: Warehouse = Warehouse.NORTH) -> int:
    """How many pieces of an article are in stock.

    Args:
        sku: the article number, e.g. "A-100"
        warehouse: the warehouse to count in
    """
    return len(sku) * (2 if warehouse is Warehouse.NORTH else 3)
