"""Tools whose parameters name classes defined further down (Python 3.14 only: no ``__future__`` import)."""

import dataclasses
import enum
from typing import Annotated, NamedTuple, NotRequired, TypedDict

import toolcall
from toolcall import Param


@toolcall.tool
def plan_route(
    route: Route,
    stops: list[Stop],
    mode: Mode | None = None,
    *,
    start: Point | None = None,
    budget: Annotated[Money, Param(description="what the trip may cost")] | None = None,
) -> Itinerary:
    """Plan a route through some stops.

    Args:
        route: where the route goes
        stops: where to stop on the way
    """
    legs = [Leg(route["origin"], route["destination"])]
    return Itinerary(days=len(stops), legs=legs, note=f"{mode!r} {start!r} {budget!r}")


@toolcall.tool
def file_crate(crate: Crate, tags: Tags = ("new",)) -> str:
    """File a crate under some tags."""
    return f"{crate!r} {tags!r}"


@toolcall.tool
async def first_page(page: Page[Point]) -> Point | None:
    """The first point of a page."""
    return page.items[0] if page.items else None


class Route(TypedDict):
    """A route between two places."""

    origin: str
    """Where the route starts."""
    destination: str
    via: NotRequired[list[Stop]]


class Stop(TypedDict):
    place: str
    nights: int


class Mode(enum.Enum):
    """How to travel."""

    CAR = "car"
    TRAIN = "train"


class Point(NamedTuple):
    x: float
    """Metres east of the start."""
    y: float = 0.0
    """Metres north of the start."""


@dataclasses.dataclass
class Money:
    amount: float
    currency: Currency


class Currency(enum.StrEnum):
    EUR = "EUR"
    USD = "USD"


@dataclasses.dataclass
class Crate:
    # No docstring: @dataclass writes one from the signature, where Item, defined below, is not yet a class.
    label: str
    contents: list[Item]
    parent: Crate | None = None


@dataclasses.dataclass(frozen=True)
class Item:
    """One thing in a crate."""

    name: str
    """What the item is called."""
    weight: Annotated[float, Param(ge=0)] = 1.0


type Tags = tuple[str, ...]


@dataclasses.dataclass
class Page[T]:
    items: list[T]
    size: int = 10


class Itinerary(TypedDict):
    days: int
    legs: list[Leg]
    note: str


class Leg(NamedTuple):
    origin: str
    destination: str
