"""Defaults: emitted, dropped (not JSON or out of domain) and imprecise."""

from __future__ import annotations

import datetime
import enum
from ipaddress import IPv4Address
from typing import Annotated, Final, Literal

import toolcall
from toolcall import Param

PAGE_SIZE: Final = 20


class Sort(str, enum.Enum):
    NEWEST = "newest"
    OLDEST = "oldest"


@toolcall.tool
def list_posts(
    tag: str = "news",
    page_size: int = PAGE_SIZE,
    ratio: float = 0.5,
    drafts: bool = False,
    authors: list[str] = ["ann", "bob"],  # noqa: B006
    window: tuple[int, int] = (0, 10),
    filters: dict[str, list[int]] = {"year": [2024]},  # noqa: B006
    sort: Sort = Sort.NEWEST,
    cursor: str | None = None,
) -> list[str]:
    """List posts."""
    return []


@toolcall.tool
def dropped_defaults(
    since: datetime.datetime = datetime.datetime(2024, 1, 1),
    seen: frozenset[int] = frozenset({1}),
    threshold: float = float("nan"),
    level: Literal[1, 2, 3] = 4,  # type: ignore[assignment]
    count: Annotated[int, Param(ge=1)] = 0,
    flag: int = True,
    name: int = "x",  # type: ignore[assignment]
    host: IPv4Address = IPv4Address("127.0.0.1"),  # noqa: B008
) -> None:
    """Defaults the schema cannot show."""


@toolcall.tool
def big_numbers(
    seed: int = 2**60,
    big_id: Annotated[int, Param(wire="string_integer")] = 2**60,
) -> None:
    """Integers beyond JavaScript's safe range."""
