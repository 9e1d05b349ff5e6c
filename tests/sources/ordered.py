"""Three tools, declared out of alphabetical order, plus a helper that is no tool."""

from __future__ import annotations

import toolcall


@toolcall.tool
def zeta(a: int) -> int:
    """Last by name, first by declaration."""
    return a


def helper(x: int) -> int:
    return x


@toolcall.tool(name="alpha-tool", description="Overridden description.")
def alpha(b: str) -> str:
    """This docstring is overridden."""
    return b


@toolcall.tool
def middle(c: Later) -> str:
    """Uses a class defined below the tool (a forward reference)."""
    return c["x"]


from typing import TypedDict  # noqa: E402


class Later(TypedDict):
    x: str
