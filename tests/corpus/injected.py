"""Injected parameters: supplied by ``run(..., context=...)``, never in a schema."""

from __future__ import annotations

import sqlite3
from typing import Annotated

import toolcall
from toolcall import Injected


@toolcall.tool
def count_rows(table: str, db: Annotated[sqlite3.Connection, Injected], user: Annotated[str, Injected] = "") -> int:
    """Count the rows of a table.

    Args:
        table: the table name
        db: the connection (injected)
    """
    return 0
