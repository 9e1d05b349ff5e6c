"""A module with no tools."""

from __future__ import annotations


def helper() -> int:
    """Not a tool."""
    return 1
