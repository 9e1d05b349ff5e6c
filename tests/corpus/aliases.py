"""Aliases: plain assignments, TypeAlias, TypeAliasType (generic too)."""

from __future__ import annotations

from typing import TypeAlias, TypeVar, Union

from typing_extensions import TypeAliasType

import toolcall

T = TypeVar("T")

Tags = list[str]
Scores: TypeAlias = dict[str, float]
Id = TypeAliasType("Id", Union[int, str])
Pair = TypeAliasType("Pair", tuple[T, T], type_params=(T,))
Matrix = list[list[T]]


@toolcall.tool
def annotate(tags: Tags, scores: Scores, item: Id) -> None:
    """Annotate an item with tags and scores."""


@toolcall.tool
def measure(span: Pair[int], grid: Matrix[float]) -> float:
    """Measure a span on a grid."""
    return 0.0
