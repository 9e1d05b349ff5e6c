"""PEP 695 ``type`` statements and generic syntax (Python 3.12+ only)."""

from __future__ import annotations

from typing import Literal

import toolcall

type Level = Literal["debug", "info", "error"]
type Tree = int | list[Tree]
type Pair[T] = tuple[T, T]
type Forest[T] = list[Node[T]]
type Node[T] = T | list[Node[T]]


@toolcall.tool
def log(message: str, level: Level = "info") -> None:
    """Write a log line."""


@toolcall.tool
def total(tree: Tree, bounds: Pair[float] | None = None) -> int:
    """Sum a tree of ints."""
    return 0


@toolcall.tool
def plant(forest: Forest[str]) -> int:
    """Plant a forest of named trees."""
    return 0


@toolcall.tool
def first[S: str](items: list[S]) -> S:
    """The first item."""
    return items[0]
