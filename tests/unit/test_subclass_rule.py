"""Subclasses of the JSON kinds, from Python callers: accepted as their kind, received as the annotated type.

A ``str``, ``int``, ``float``, ``list`` or ``dict`` subclass instance is
accepted wherever a value of its kind is, read through the base type (its
own methods are not called), and the tool receives the exact annotated
type: a ``str`` subclass for a ``str`` parameter arrives as a plain ``str``,
an ``IntEnum`` member for an ``int`` parameter as a plain ``int``, an
``OrderedDict`` for a TypedDict as a plain ``dict``. An ``IntEnum`` or
``StrEnum`` member for an enum or ``Literal`` parameter is read as its value.
``bool`` stays apart from ``int``, and an object that is not a JSON kind (a
plain ``Enum`` member, a tuple) is refused as before.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import datetime
import enum
import json
from typing import Annotated, Any, Literal, TypedDict

import pytest

import toolcall
from toolcall import Err, Ok, Param


class Text(str):
    """A str subclass, as a Python caller might pass one."""


class Number(int):
    """An int subclass."""


class Real(float):
    """A float subclass."""


class Items(list):  # type: ignore[type-arg]
    """A list subclass."""


class Mapping(dict):  # type: ignore[type-arg]
    """A dict subclass."""


def _hostile(*_: object) -> Any:
    raise RuntimeError("a method of the subclass was called")


class SealedList(list):  # type: ignore[type-arg]
    """A list subclass whose own methods raise: it must be read through ``list``."""

    __iter__ = __len__ = __getitem__ = __repr__ = copy = _hostile  # type: ignore[assignment]


class SealedDict(dict):  # type: ignore[type-arg]
    """A dict subclass whose own methods raise: it must be read through ``dict``."""

    __iter__ = __len__ = __getitem__ = __contains__ = keys = items = values = get = copy = _hostile  # type: ignore[assignment]


class SealedText(str):
    """A str subclass whose own methods raise (its hash is str's, so it can be a key)."""

    __str__ = __len__ = __iter__ = __getitem__ = encode = isascii = strip = split = _hostile  # type: ignore[assignment]
    __hash__ = str.__hash__


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class OtherLevel(enum.IntEnum):
    ONE = 1


class Mode(enum.StrEnum):
    FAST = "fast"
    SLOW = "slow"


class Shade(enum.Enum):
    DARK = 1


class Row(TypedDict):
    name: str
    qty: int


@dataclasses.dataclass
class Point:
    x: int
    y: float


@toolcall.tool
def take(
    text: str = "",
    count: int = 0,
    ratio: float = 0.0,
    flag: bool = False,
    names: list[str] | None = None,
    scores: dict[str, int] | None = None,
    row: Row | None = None,
    point: Point | None = None,
    pair: tuple[int, str] | None = None,
    tags: set[str] | None = None,
    level: Level | None = None,
    mode: Mode | None = None,
    pick: Literal["a", 1] | None = None,
    either: float | int | None = None,
    word_or_number: int | str | None = None,
    short: Annotated[str, Param(max_length=3)] = "",
    few: Annotated[list[int], Param(max_length=2)] | None = None,
    when: datetime.date | None = None,
    anything: Any = None,
    **extra: int,
) -> dict[str, Any]:
    """Return what was received."""
    return {k: v for k, v in locals().items() if k != "extra"} | {"extra": extra}


def received(args: Any) -> dict[str, Any]:
    """What ``take`` received for ``args`` (through ``run``, and the same through ``arun``)."""
    result = toolcall.run(take, "take", args)
    assert isinstance(result, Ok), result
    again = asyncio.run(toolcall.arun(take, "take", args))
    assert isinstance(again, Ok)
    assert shape(again.value) == shape(result.value)
    return result.value  # type: ignore[no-any-return]


def shape(value: Any) -> Any:
    """``value`` with every container and scalar tagged by its exact type, to compare types as well as values."""
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(map(shape, value), key=repr) if isinstance(value, (set, frozenset)) else map(shape, value)
        return [type(value).__name__, *items]
    if isinstance(value, dict):
        return [type(value).__name__, *([shape(k), shape(v)] for k, v in value.items())]
    return [type(value).__name__, repr(value)]


def same(got: Any, expected: Any) -> None:
    assert json.dumps(shape(got)) == json.dumps(shape(expected))


def refused(args: Any) -> str:
    """The reason code ``run`` refuses ``args`` with."""
    result = toolcall.run(take, "take", args)
    assert isinstance(result, Err), result
    return result.error.to_json()["reason"]["code"]  # type: ignore[no-any-return]


# -- scalars ---------------------------------------------------------------------------------------------

SCALARS = [
    ("text", Text("oslo"), "oslo"),
    ("text", SealedText("oslo"), "oslo"),
    ("text", Mode.FAST, "fast"),
    ("count", Number(7), 7),
    ("count", Level.HIGH, 2),
    ("count", Real(3.0), 3),
    ("ratio", Real(1.5), 1.5),
    ("ratio", Number(2), 2.0),
    ("ratio", Level.LOW, 1.0),
    ("short", Text("abc"), "abc"),
    ("when", Text("2024-05-01"), datetime.date(2024, 5, 1)),
]


@pytest.mark.parametrize(("name", "sent", "expected"), SCALARS, ids=[f"{n}-{type(s).__name__}" for n, s, _ in SCALARS])
def test_a_scalar_subclass_arrives_as_the_annotated_type(name: str, sent: Any, expected: Any) -> None:
    same(received({name: sent})[name], expected)


def test_bool_stays_apart_from_int() -> None:
    assert refused({"count": True}) == "expected_integer"
    assert refused({"ratio": False}) == "expected_number"
    assert refused({"flag": 1}) == "expected_boolean"


def test_an_object_of_no_json_kind_is_refused() -> None:
    assert refused({"count": Shade.DARK}) == "expected_integer"
    assert refused({"names": ("a",)}) == "expected_array"
    assert refused({"level": Shade.DARK}) == "not_in_enum"


def test_a_subclass_is_checked_like_its_kind() -> None:
    assert refused({"short": Text("abcd")}) == "too_long"
    assert refused({"few": Items([1, 2, 3])}) == "too_long"
    assert refused({"count": Real(1.5)}) == "expected_integer"
    assert refused({"level": Number(3)}) == "not_in_enum"


# -- enums and literals ---------------------------------------------------------------------------------


def test_an_enum_parameter_takes_its_value_from_any_kind_of_that_value() -> None:
    assert received({"level": Level.HIGH})["level"] is Level.HIGH
    assert received({"level": Number(2)})["level"] is Level.HIGH
    assert received({"level": OtherLevel.ONE})["level"] is Level.LOW
    assert received({"mode": Mode.SLOW})["mode"] is Mode.SLOW
    assert received({"mode": Text("fast")})["mode"] is Mode.FAST
    same(received({"pick": Text("a")})["pick"], "a")
    same(received({"pick": Level.LOW})["pick"], 1)


def test_a_union_reads_a_subclass_as_its_kind() -> None:
    same(received({"either": Level.HIGH})["either"], 2)
    same(received({"either": Real(2.0)})["either"], 2.0)
    same(received({"word_or_number": Text("x")})["word_or_number"], "x")
    same(received({"word_or_number": Mode.FAST})["word_or_number"], "fast")


# -- containers -----------------------------------------------------------------------------------------


def test_a_list_subclass_arrives_as_a_list_of_the_item_type() -> None:
    same(received({"names": Items([Text("a"), "b"])})["names"], ["a", "b"])
    same(received({"names": SealedList(["a"])})["names"], ["a"])
    same(received({"pair": Items([Number(1), Text("x")])})["pair"], (1, "x"))
    same(received({"tags": Items(["a", Text("b")])})["tags"], {"a", "b"})


def test_a_dict_subclass_arrives_as_a_dict() -> None:
    ordered = collections.OrderedDict([(Text("a"), Number(1)), ("b", Level.HIGH)])
    same(received({"scores": ordered})["scores"], {"a": 1, "b": 2})
    same(received({"scores": SealedDict(a=1)})["scores"], {"a": 1})
    same(received({"row": Mapping(name=Text("x"), qty=Number(2))})["row"], {"name": "x", "qty": 2})
    same(received({"row": collections.OrderedDict(name="x", qty=2)})["row"], {"name": "x", "qty": 2})
    point = received({"point": SealedDict(x=Level.LOW, y=Number(2))})["point"]
    assert point == Point(1, 2.0)
    same([point.x, point.y], [1, 2.0])


def test_the_arguments_may_be_a_dict_subclass() -> None:
    counts = collections.defaultdict(lambda: 99, {"count": 3})  # its default must not invent arguments
    got = received(counts)
    same([got["count"], got["text"], got["extra"]], [3, "", {}])
    same(received(SealedDict(text="a"))["text"], "a")


def test_string_subclass_keys_arrive_as_str() -> None:
    same(received({Text("count"): 1, Text("more"): Number(2)})["extra"], {"more": 2})
    same(received({"scores": {SealedText("k"): 1}})["scores"], {"k": 1})


def test_any_receives_the_value_as_sent() -> None:
    value = Items([Text("a")])
    assert received({"anything": value})["anything"] is value


def test_an_error_shows_a_subclass_as_its_kind() -> None:
    result = toolcall.run(take, "take", {"count": SealedList([Real("nan"), SealedText("x")])})
    assert isinstance(result, Err)
    assert str(result.error) == 'invalid argument "count": expected an integer, got [NaN, "x"]'
