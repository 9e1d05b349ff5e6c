"""Dataclasses, TypedDicts and NamedTuples: inheritance, InitVar, kw_only, generics, field metadata."""

from __future__ import annotations

import collections
import dataclasses
from dataclasses import InitVar, dataclass, field
from typing import Annotated, Generic, NamedTuple, TypeVar

from typing_extensions import NotRequired, Required, TypedDict  # generic TypedDicts before 3.11

import toolcall
from tests.analysis_cases.shared import Count, Level
from toolcall import Param

T = TypeVar("T")


@dataclass
class Base:
    """A base.

    Attributes:
        a: from the base docstring
        b: base b
    """

    a: int
    b: str = "base"
    tag: Annotated[str, Param(max_length=5)] = field(default="t")


@dataclass
class Child(Base):
    """A child.

    Attributes:
        b: child b
    """

    b: str = "child"
    c: InitVar[int] = 0
    d: list[int] = field(default_factory=list)
    e: int = field(default=7, init=False)
    level: Level = Level.LOW
    f: Count = dataclasses.field(default=2)


class Undecorated(Child):
    """A subclass without @dataclass: still a dataclass, with Child's fields."""


@dataclass(kw_only=True)
class Options:
    verbose: bool = False
    depth: int


@dataclass
class Holder(Generic[T]):
    """Holds a value."""

    value: T
    """The held value."""
    others: list[T] = field(default_factory=list)


class Base2(TypedDict, total=False):
    """Base TypedDict.

    Attributes:
        x: the x
    """

    x: Required[Annotated[int, Param(ge=0)]]
    y: str


class Sub(Base2):
    z: NotRequired[Annotated[str, Param(description="zed")]]
    """Not this one."""


class GBox(TypedDict, Generic[T]):
    item: T
    many: list[T]


class Point(NamedTuple):
    """A point."""

    x: Annotated[float, Param(ge=0)]
    y: float = 0.0
    level: Level = Level.HIGH


Pair = collections.namedtuple("Pair", ["left", "right"], defaults=[0])


@toolcall.tool
def use_structs(
    child: Child,
    options: Options,
    holder: Holder[Annotated[int, Param(ge=1)]],
    sub: Sub,
    gbox: GBox[str],
    point: Point,
    pair: Pair | None = None,
    undecorated: Undecorated | None = None,
) -> None:
    """Structured types.

    Args:
        options: how to run
    """
