"""Annotated: Param bounds and descriptions, annotated_types, string integers."""

from __future__ import annotations

from typing import Annotated

import annotated_types as at

import toolcall
from toolcall import Param

Percent = Annotated[float, Param(ge=0, le=100)]


@toolcall.tool
def book_table(
    guests: Annotated[int, Param(ge=1, le=12, description="number of guests")],
    name: Annotated[str, Param(min_length=1, max_length=40, pattern=r"^[A-Za-z ]+$")],
    discount: Percent = 0.0,
    note: Annotated[str, Param(description="")] = "",
) -> str:
    """Book a table.

    Args:
        guests: ignored, Param wins
        note: ignored too: Param(description="") means none
    """
    return name


@toolcall.tool
def transfer(
    amount: Annotated[int, at.Gt(0), at.MultipleOf(5)],
    account: Annotated[int, Param(wire="string_integer", ge=0)],
    memo: Annotated[str, at.Len(2, 80)] | None = None,
    ratio: Annotated[float, at.Interval(ge=0, lt=1)] = 0.5,
    codes: Annotated[list[Annotated[str, at.MaxLen(4)]], at.MinLen(1)] = ["ab"],  # noqa: B006
) -> None:
    """Transfer money."""
