"""PEP 696 type parameter defaults in PEP 695 syntax (Python 3.13+ only).

A type parameter that nothing binds takes its default: a generic class or
alias written without arguments, and a generic function's own parameter.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import toolcall


@dataclasses.dataclass
class Box[T = int]:
    """A box of things."""

    item: T
    count: int = 1


class Span[N: float = int](NamedTuple):
    start: N
    end: N


type Items[V = float] = list[V]
type Tree[L = str] = L | list[Tree[L]]


@toolcall.tool
def store(box: Box, labelled: Box[str], span: Span) -> None:
    """Store a box: bare, it holds ints."""


@toolcall.tool
def tally(items: Items, names: Items[str], tree: Tree) -> int:
    """Count items and the leaves of a tree."""
    return len(items)


@toolcall.tool
def pick[W = bool](value: W, fallback: W | None = None) -> W:
    """A function's own type parameter with a default."""
    return value


@toolcall.tool
def measure[M: float = int, U: (str, bytes) = str](amount: M, unit: U) -> M:
    """A bound and a default; constraints and a default."""
    return amount
