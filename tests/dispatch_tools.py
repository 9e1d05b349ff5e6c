"""Tools the dispatch tests call (one module, so one toolset routes them all)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import pathlib
import uuid
from typing import Annotated, Any, Literal, NamedTuple, TypedDict

from typing_extensions import NotRequired

import toolcall
from toolcall import Injected, Param


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {"city": city, "days": days, "temp": 21.5}


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Line(TypedDict):
    sku: str
    qty: Annotated[int, Param(ge=1)]
    note: NotRequired[str]


@dataclasses.dataclass
class Box:
    width: float
    height: float = 1.0


class Pair(NamedTuple):
    left: int
    right: int = 0


@toolcall.tool
def echo(
    s: str = "",
    i: int = 0,
    f: float = 0.0,
    b: bool = False,
    n: None = None,
    lit: Literal["a", 1] = "a",
    color: Color = Color.RED,
    items: list[int] | None = None,
    pair: tuple[int, str] | None = None,
    tags: set[str] | None = None,
    scores: dict[str, float] | None = None,
    lines: list[Line] | None = None,
    box: Box | None = None,
    nt: Pair | None = None,
    when: dt.datetime | None = None,
    day: dt.date | None = None,
    at: dt.time | None = None,
    wait: dt.timedelta | None = None,
    key: uuid.UUID | None = None,
    price: decimal.Decimal | None = None,
    path: pathlib.Path | None = None,
    anything: Any = None,
    either: int | str = 0,
    short: Annotated[str, Param(min_length=2, max_length=4)] = "ab",
    code: Annotated[str, Param(pattern=r"^[A-Z]{3}$")] = "ABC",
    big: Annotated[int, Param(wire="string_integer")] = 0,
) -> dict[str, Any]:
    """Return what arrived, for the tests to inspect."""
    return dict(locals())


@toolcall.tool
def nullable(x: int | None, y: int | None = 5, z: int = 7) -> tuple[int | None, int | None, int]:
    """Required nullable, optional nullable, optional non-nullable."""
    return (x, y, z)


@toolcall.tool
def positional(a: int, b: int = 2, /, c: int = 3, *, d: int = 4) -> tuple[int, int, int, int]:
    """Positional-only, positional-or-keyword and keyword-only parameters."""
    return (a, b, c, d)


@toolcall.tool
def two_optional_positional(a: int = 1, b: int = 2, /) -> tuple[int, int]:
    """Two optional positional-only parameters."""
    return (a, b)


@toolcall.tool
def extras(name: str, **labels: int) -> dict[str, Any]:
    """Extra keyword arguments."""
    return {"name": name, "labels": labels}


@toolcall.tool
def query(sql: str, db: Annotated[object, Injected]) -> tuple[str, object]:
    """A tool with an injected connection."""
    return (sql, db)


@toolcall.tool
def fails(kind: str) -> None:
    """Raise what it is told to."""
    if kind == "value":
        raise ValueError("bad value")
    if kind == "exit":
        raise SystemExit(3)
    if kind == "interrupt":
        raise KeyboardInterrupt
    if kind == "recursion":
        fails(kind)


@toolcall.tool
async def slow_add(a: int, b: int) -> int:
    """An async tool."""
    return a + b


@toolcall.tool(thread=True)
def threaded(a: int) -> str:
    """A sync tool run in a worker thread by arun."""
    import threading

    return threading.current_thread().name


@dataclasses.dataclass
class Positive:
    value: int

    def __post_init__(self) -> None:
        if self.value <= 0:
            raise ValueError("must be positive")


@toolcall.tool
def take_positive(p: Positive) -> int:
    """A dataclass whose own checks refuse some values."""
    return p.value


class Row(TypedDict):
    name: str
    qty: int
    price: float
    done: bool
    gone: None
    note: NotRequired[int]


@toolcall.tool
def take_rows(rows: list[Row]) -> list[Row]:
    """A list of TypedDicts of plain scalars: items sent exactly right are passed through unchecked by a call."""
    return rows
