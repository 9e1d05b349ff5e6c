"""A tool with ``Injected`` parameters, and context factories for ``serve --context``: good ones and broken ones."""

from __future__ import annotations

import asyncio
import itertools
from typing import Annotated

import toolcall

#: How many contexts ``numbered`` has made: each call of a tool gets a fresh one.
_MADE = itertools.count(1)


@toolcall.tool
def whoami(greeting: str, user: Annotated[str, toolcall.Injected], call: Annotated[int, toolcall.Injected]) -> str:
    """Greet the user the server's context names.

    Args:
        greeting: how to greet
    """
    return f"{greeting}, {user} (context {call})"


def numbered() -> dict[str, object]:
    """A sync factory: a new context, numbered, for each call."""
    return {"user": "ada", "call": next(_MADE)}


async def awaited() -> dict[str, object]:
    """An async factory."""
    await asyncio.sleep(0)
    return {"user": "grace", "call": next(_MADE)}


def failing() -> dict[str, object]:
    """A factory that raises."""
    raise RuntimeError("the session store is down")


def listing() -> list[str]:
    """A factory that returns something other than a dict."""
    return ["ada"]


def partial() -> dict[str, object]:
    """A factory whose dict lacks one of the tool's Injected parameters."""
    return {"user": "ada"}


def needs_an_argument(request: object) -> dict[str, object]:
    """Not a factory: it takes an argument."""
    return {"user": str(request), "call": 0}


NOT_CALLABLE = {"user": "ada", "call": 0}
