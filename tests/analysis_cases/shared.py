"""Types and constants other analysis modules import: aliases, metadata and Finals defined elsewhere."""

from __future__ import annotations

import enum
from typing import Annotated, Final, Literal, TypedDict

from toolcall import Param

LIMIT: Final = 50
TAGS: Final = ["a", "b"]
NEGATIVE: Final[int] = -3
POSITIVE = Param(ge=1, description="a positive count")
Count = Annotated[int, POSITIVE]
Name = Annotated[str, Param(min_length=1, description="a name")]
Mode = Literal["fast", "slow"]


class Level(enum.IntEnum):
    """How loud."""

    LOW = 1
    HIGH = 2


class Box(TypedDict):
    """A box."""

    size: Count
    """How big (this docstring loses to Param's description)."""
    label: Annotated[Name, Param(max_length=10)]


class Tree(TypedDict):
    """A tree of another module."""

    label: str
    children: list[Tree]
