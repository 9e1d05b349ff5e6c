"""Tools the provider adapters' tests call: plain and async tools, and every kind of return value."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import decimal
import enum
import pathlib
import uuid
from typing import Annotated, Any, NamedTuple, TypedDict

import toolcall
from toolcall import Injected


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {"city": city, "days": days, "temp": 21.5}


@toolcall.tool
def greet(name: str) -> str:
    """A plain string result: sent as it is, not as JSON."""
    return f"Hello, {name}!"


@toolcall.tool
def now() -> str:
    """A tool without parameters."""
    return "12:00"


class Mood(enum.Enum):
    CALM = "calm"
    STORMY = "stormy"


class Point(NamedTuple):
    x: int
    y: int


class Stats(TypedDict):
    count: int
    mean: float


@dataclasses.dataclass
class Report:
    mood: Mood
    at: dt.datetime
    day: dt.date
    alarm: dt.time
    wait: dt.timedelta
    ticket: uuid.UUID
    price: decimal.Decimal
    where: pathlib.PurePosixPath
    point: Point
    tags: frozenset[str]
    pair: tuple[int, str]
    stats: Stats


#: What ``report`` returns: one value of each kind the encoding table names.
REPORT = Report(
    mood=Mood.STORMY,
    at=dt.datetime(2024, 5, 1, 12, 30, tzinfo=dt.UTC),
    day=dt.date(2024, 5, 1),
    alarm=dt.time(7, 15),
    wait=dt.timedelta(hours=1, minutes=30),
    ticket=uuid.UUID("123e4567-e89b-12d3-a456-426614174000"),
    price=decimal.Decimal("12.50"),
    where=pathlib.PurePosixPath("/srv/data"),
    point=Point(3, 4),
    tags=frozenset({"wind"}),
    pair=(1, "one"),
    stats={"count": 2, "mean": 1.5},
)


@toolcall.tool
def report() -> Report:
    """Every kind of value the encoding table names, in one dataclass."""
    return REPORT


@toolcall.tool
def opaque(kind: str) -> Any:
    """Values JSON cannot carry, chosen by ``kind``."""
    values: dict[str, Any] = {
        "object": object(),
        "nan": float("nan"),
        "surrogate": "\udcff",
        "key": {(1, 2): "tuple key"},
        "bytes": b"raw",
    }
    return values[kind]


@toolcall.tool
def fail(message: str) -> None:
    """Raise ``ValueError(message)``."""
    raise ValueError(message)


@toolcall.tool
def whoami(user: Annotated[str, Injected]) -> str:
    """An injected parameter, supplied by ``context``."""
    return user


#: Set by ``release``; ``wait_for_release`` waits on it (made in the test's event loop).
RELEASED: list[asyncio.Event] = []


@toolcall.tool
async def wait_for_release(label: str) -> str:
    """Finish only after ``release`` ran: proves the calls of one turn run concurrently."""
    await RELEASED[0].wait()
    return f"waited {label}"


@toolcall.tool
async def release(label: str) -> str:
    """Let ``wait_for_release`` finish."""
    RELEASED[0].set()
    return f"released {label}"
