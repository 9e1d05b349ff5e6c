"""Annotated through aliases and unions, literal shapes, defaults from other modules."""

from __future__ import annotations

import enum
from typing import Annotated, Literal, Optional, Union

import annotated_types as at

import toolcall
from tests.analysis_cases import shared
from tests.analysis_cases.shared import LIMIT, TAGS, Box, Count, Level, Mode, Name
from toolcall import Param

NonNegative = Annotated[int, at.Ge(0)]
Alias2 = NonNegative


class Shade(enum.Enum):
    """A shade."""

    DARK = "dark"
    LIGHT = "light"


@toolcall.tool
def aliased(
    count: Count,
    name: Name | None = None,
    other: Optional[shared.Count] = None,
    chained: Alias2 = 0,
    level: Level = shared.Level.HIGH,
    limit: int = LIMIT,
    tags: list[str] = TAGS,
    negative: int = shared.NEGATIVE,
    box: Box | None = None,
) -> None:
    """Aliases from another module carry their metadata."""


@toolcall.tool
def literal_shapes(
    a: Literal["x", None],
    b: Literal["x"] | Literal["y"],
    c: Optional[Literal["p", "q"]],
    d: Literal[Mode, "stop"] = "stop",
    e: Literal[Shade.DARK, 3, "s"] = 3,
    f: Union[Literal[1, 2], None, str] = None,  # noqa: RUF036 - None in the middle is the case
    g: Literal[True] = True,
) -> None:
    """Literal forms."""


@toolcall.tool
def nested_metadata(
    a: Annotated[int | str, Param(max_length=3)] | None,
    b: tuple[Annotated[int, Param(le=9)], ...],
    c: dict[str, Annotated[float, at.Lt(1)]],
    d: Annotated[Annotated[int, Param(ge=1, description="inner")], Param(le=5, description="outer")],
    e: "Annotated[str, Param(pattern='^a')]",  # noqa: UP037 - a string annotation is the case
    f: Annotated[list[Count], at.MaxLen(3)] = [1],  # noqa: B006
    g: Annotated[int, Param(description="")] = 1,
) -> None:
    """Metadata at every depth.

    Args:
        d: loses to Param
        g: loses to Param(description="")
    """


@toolcall.tool
def computed_defaults(
    shift: int = 1 << 10,
    power: int = 10**3,
    neg: float = -2.5,
    ratio: float = 3 / 4,
    joined: str = "a" + "b",
    nested: dict[str, list[int]] = {"k": [1, -2]},  # noqa: B006
    pair: tuple[str, int] = ("a", 1),
    empty: list[int] = [],  # noqa: B006
    big: Annotated[int, Param(wire="string_integer", ge=0)] = 2**60,
    inf: float = float("inf"),
    bad_key: dict[str, int] = {1: 2},  # type: ignore[dict-item]  # noqa: B006
) -> None:
    """Defaults the plugin folds."""


@toolcall.tool
def positional(a: int, /, b: str = "x", *, c: bool = False, **rest: float) -> None:
    """Parameter kinds.

    Args:
        rest: extra numbers
    """


@toolcall.tool(name="async-tool")
async def async_tool(x: int) -> list[int]:
    """An async tool; its return type is what it awaits to."""
    return [x]
