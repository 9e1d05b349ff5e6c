"""Defaults the wire carries as strings: dates, times, durations, UUIDs and Decimals.

Every spelling the plugin reads: imported classes, module-qualified calls
through an alias, ``Final`` constants (also as a constructor's argument),
nesting in lists, tuples, dicts and TypedDict values, class fields, and
defaults both front ends drop. The two front ends must agree on each; the
tools return their arguments, so a test can see what a default sent back
arrives as.
"""

import datetime as dt
import decimal
import uuid
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Annotated, Any, Final, NamedTuple, Optional, TypedDict, Union
from uuid import UUID

import toolcall
from toolcall import Param

WINDOW: Final = timedelta(minutes=15)
LAUNCH: Final = dt.date(2024, 5, 1)
OFFSET_HOURS: Final = 2
HOLIDAYS: Final = [date(2024, 12, 25), date(2024, 12, 26)]


@toolcall.tool
def schedule(
    wait: timedelta = timedelta(hours=1),
    grace: dt.timedelta = dt.timedelta(minutes=-5),
    pause: timedelta = timedelta(seconds=90, microseconds=500000),
    window: timedelta = WINDOW,
    longest: timedelta = timedelta.max,
    day: date = date(2024, 5, 1),
    launch: date = LAUNCH,
    at: time = time(9, tzinfo=dt.UTC),
    lunch: dt.time = dt.time(12, 30, 15, 250000, tzinfo=dt.timezone(timedelta(hours=OFFSET_HOURS))),
    start: datetime = datetime(2024, 5, 1, 12, 30, tzinfo=dt.UTC),
    cest: datetime = datetime(2024, 5, 1, 12, 30, tzinfo=dt.timezone(timedelta(hours=OFFSET_HOURS))),
    until: Optional[datetime] = dt.datetime(
        2024, 12, 31, 23, 59, 59, tzinfo=dt.timezone(timedelta(hours=-5, minutes=-30))
    ),
    either: Union[datetime, date] = date(2024, 5, 1),
    or_text: Union[date, str] = date(2024, 5, 1),
) -> dict[str, object]:
    """Schedule something."""
    return dict(locals())


@toolcall.tool
def identify(
    ticket: UUID = UUID("123E4567-E89B-12D3-A456-426614174000"),  # noqa: B008
    other: uuid.UUID = uuid.UUID(int=1),  # noqa: B008
    price: Decimal = Decimal("12.50"),
    count: Decimal = Decimal(3),
    half: decimal.Decimal = decimal.Decimal(0.5),  # noqa: RUF032 (the float is exact)
    big: Decimal = Decimal("1E+2"),
    tip: Annotated[Decimal, Param(ge=0)] = Decimal("0.10"),
) -> dict[str, object]:
    """Identify something."""
    return dict(locals())


class Span(TypedDict):
    start: date
    length: timedelta


@toolcall.tool
def nested(
    days: list[date] = HOLIDAYS,
    pair: tuple[date, timedelta] = (date(2024, 1, 1), timedelta(days=1, hours=2)),
    named: dict[str, timedelta] = {"short": timedelta(minutes=1), "long": timedelta(weeks=2)},  # noqa: B006
    span: Span = {"start": date(2024, 2, 29), "length": timedelta(0)},  # noqa: B006
) -> dict[str, object]:
    """Defaults with wire strings inside."""
    return dict(locals())


@dataclass
class Reminder:
    """A reminder."""

    note: str
    before: timedelta = timedelta(minutes=10)
    on: date = date(2024, 6, 1)


class Slot(NamedTuple):
    """A slot."""

    at: time = time(8, 15, tzinfo=dt.UTC)
    key: UUID = UUID("00000000-0000-0000-0000-00000000002a")


@toolcall.tool
def remind(reminder: Reminder, slot: Slot) -> dict[str, object]:
    """Fields with wire-string defaults."""
    return dict(locals())


@toolcall.tool
def dropped(
    when: date = datetime(2024, 5, 1, 12, 30),
    amount: int = date(2024, 5, 1),  # type: ignore[assignment]
    label: str = timedelta(hours=1),  # type: ignore[assignment]
    anything: Any = date(2024, 5, 1),
    zone: Any = dt.UTC,
    broke: Annotated[Decimal, Param(ge=0)] = Decimal("-1"),
    odd: Decimal = Decimal("NaN"),
    text_first: Union[str, date] = date(2024, 5, 1),
    keyed: dict[str, int] = {date(2024, 1, 1): 1},  # type: ignore[dict-item]  # noqa: B006
    local_start: datetime = datetime(2024, 5, 1, 12, 30),
    local_at: time = time(9),
) -> str:
    """Defaults both front ends drop."""
    return ""


@toolcall.tool
def book(
    day: date = date(2024, 5, 1),
    wait: timedelta = timedelta(hours=1, minutes=30),
    ticket: Optional[UUID] = UUID("123e4567-e89b-12d3-a456-426614174000"),  # noqa: B008
    price: Decimal = Decimal("12.50"),
) -> dict[str, object]:
    """Book a table."""
    return dict(locals())
