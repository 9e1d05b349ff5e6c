"""Unions: Optional, X | None, nested unions and duplicates."""

from __future__ import annotations

from typing import Optional, Union

import toolcall


@toolcall.tool
def search(query: str, limit: int | None = None, page: Optional[int] = None) -> list[str]:
    """Search the catalogue.

    Args:
        query: free text
        limit: at most this many results
    """
    return []


@toolcall.tool
def lookup(
    key: Union[int, str],
    fallback: Union[int, Union[str, None], int] = None,  # noqa: RUF036 - the nesting and repeat are the test
) -> str:
    """Look up a key by id or name."""
    return str(key)
