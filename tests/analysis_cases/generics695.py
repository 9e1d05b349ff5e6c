"""PEP 695 aliases and generics (Python 3.12+): metadata inside type statements, recursive generic aliases."""

from __future__ import annotations

from typing import Annotated, Literal

import toolcall
from toolcall import Param

type Small = Annotated[int, Param(le=10)]
type Pair[T] = tuple[T, T]
type Tree[T] = T | list[Tree[T]]
type Choice = Literal["a", "b"] | None


@toolcall.tool
def generic_aliases(
    small: Small, pair: Pair[Annotated[str, Param(min_length=1)]], tree: Tree[int], choice: Choice = None
) -> None:
    """PEP 695 aliases."""


@toolcall.tool
def generic_function[N: (int, str)](value: N, items: list[N] | None = None) -> N:
    """A constrained type parameter."""
    return value
