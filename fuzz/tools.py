"""Rich-typed tools for the fuzz targets; each records a value that does not have its annotated type.

A tool cannot report a wrong value by raising (the dispatcher would turn
that into an error result), so each tool checks its own arguments against
its annotations with ``conforms`` and appends what is wrong to
``VIOLATIONS``; a target clears it before a call and asserts it is empty
after. ``awkward`` returns values JSON cannot carry, or raises.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import decimal
import enum
import types
import typing
import uuid
from typing import Annotated, Any, Literal, NamedTuple, NotRequired, Optional, Required, TypedDict, Union

import toolcall
from toolcall import Param

__all__ = ["VIOLATIONS", "conforms", "nested"]

#: What arrived with the wrong type: "tool.parameter: why". Appending is thread-safe.
VIOLATIONS: list[str] = []


class Color(enum.Enum):
    """A string enum."""

    RED = "red"
    GREEN = "green"


class Size(enum.IntEnum):
    """An int enum."""

    S = 1
    M = 2


@dataclasses.dataclass
class Point:
    """A point."""

    x: int
    y: float = 0.0


class Item(TypedDict):
    """An order line."""

    sku: str
    qty: Annotated[int, Param(ge=1)]
    tags: NotRequired[list[str]]


class Pair(NamedTuple):
    """A pair."""

    a: int
    b: str


def _received(tool: Any, arguments: dict[str, Any]) -> None:
    hints = typing.get_type_hints(tool, include_extras=True)
    for name, value in arguments.items():
        problem = conforms(value, hints[name])
        if problem is not None:
            VIOLATIONS.append(f"{tool.__name__}.{name}: {problem}")


@toolcall.tool
def shapes(
    point: Point,
    items: list[Item],
    color: Color = Color.RED,
    size: Size = Size.S,
    mode: Literal["a", "b", 3] = "a",
    pair: Pair | None = None,
) -> dict[str, Any]:
    """Objects, enums and literals."""
    _received(shapes, dict(locals()))
    return {"point": point, "items": items, "color": color, "size": size, "mode": mode, "pair": pair}


@toolcall.tool
def times(
    at: dt.datetime,
    day: dt.date,
    wait: dt.timedelta | None = None,
    ticket: uuid.UUID | None = None,
    price: decimal.Decimal = decimal.Decimal("1.50"),
    alarm: dt.time | None = None,
) -> list[Any]:
    """Dates, times, durations, UUIDs and Decimals."""
    _received(times, dict(locals()))
    return [at, day, wait, ticket, price, alarm]


@toolcall.tool
def nesting(
    grid: list[list[int]],
    table: dict[str, dict[str, float]],
    pair: tuple[int, str] = (1, "x"),
    tags: frozenset[str] | None = None,
    anything: Any = None,
    rest: tuple[float, ...] = (),
) -> dict[str, Any]:
    """Nested containers, tuples, sets and Any."""
    _received(nesting, dict(locals()))
    return {"grid": grid, "table": table, "pair": pair, "tags": tags, "anything": anything, "rest": rest}


@toolcall.tool
def unions(
    value: int | str | list[int],
    maybe: Optional[Point] = None,
    big: Annotated[int, Param(wire="string_integer")] = 0,
    bounded: Annotated[int, Param(ge=0, le=10)] = 5,
    text: Annotated[str, Param(max_length=20)] = "",
    flag: bool = False,
    ratio: float = 1.0,
) -> str:
    """Unions, Optional, bounds and wire forms."""
    _received(unions, dict(locals()))
    return f"{value!r} {maybe!r} {big.bit_length()} {bounded} {text!r} {flag} {ratio}"


@toolcall.tool
async def echo(text: str, count: Annotated[int, Param(ge=0, le=3)] = 1) -> list[str]:
    """An async tool."""
    _received(echo, dict(locals()))
    await asyncio.sleep(0)
    return [text] * count


def nested(depth: int) -> list[Any]:
    """A list nested ``depth`` levels deep."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


_LOOP: list[Any] = []
_LOOP.append(_LOOP)
_DEEP = nested(5000)


@toolcall.tool
def awkward(
    kind: Literal["nan", "surrogate", "huge", "huge_key", "loop", "deep", "object", "bytes", "raise", "exit", "ok"],
) -> Any:
    """A value JSON cannot carry, an exception, or a plain value, chosen by ``kind``."""
    _received(awkward, dict(locals()))
    if kind == "raise":
        raise ValueError("line one\nline two \u202e" + "x" * 5000)
    if kind == "exit":
        raise SystemExit(3)
    values: dict[str, Any] = {
        "nan": {"n": float("nan")},
        "surrogate": ["\udcff"],
        "huge": {"n": 10**5000},
        "huge_key": {10**5000: 1},
        "loop": _LOOP,
        "deep": _DEEP,
        "object": object(),
        "bytes": b"raw",
        "ok": {"ok": True},
    }
    return values[kind]


# -- checking a value against its annotation ---------------------------------------------------------------------

_EXACT: dict[Any, type] = {int: int, float: float, str: str, bool: bool, dt.date: dt.date}


def conforms(value: Any, annotation: Any) -> str | None:
    """Why ``value`` does not have type ``annotation`` (as the dispatcher promises it), or ``None``."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (Annotated, NotRequired, Required):
        return conforms(value, args[0])
    if annotation is Any or annotation is object:
        return None
    if origin in (Union, types.UnionType):
        problems = [conforms(value, option) for option in args]
        return None if None in problems else f"{value!r:.80} matches no option of {annotation}"
    if annotation is None or annotation is type(None):
        return None if value is None else f"{value!r:.80} is not None"
    if origin is Literal:
        return None if any(type(value) is type(a) and value == a for a in args) else f"{value!r:.80} not in {args}"
    if annotation in _EXACT:
        return None if type(value) is _EXACT[annotation] else f"{type(value).__name__} is not {annotation.__name__}"
    if origin is not None:
        return _container(value, origin, args)
    if typing.is_typeddict(annotation):
        return _typed_dict(value, annotation)
    if not isinstance(value, annotation):
        return f"{type(value).__name__} is not {annotation.__name__}"
    if dataclasses.is_dataclass(annotation):
        return _fields(value, typing.get_type_hints(annotation, include_extras=True))
    if isinstance(value, tuple) and hasattr(annotation, "_fields"):  # a NamedTuple
        return _fields(value, typing.get_type_hints(annotation, include_extras=True))
    return None


def _fields(value: Any, hints: dict[str, Any]) -> str | None:
    for name, hint in hints.items():
        problem = conforms(getattr(value, name), hint)
        if problem is not None:
            return f"{name}: {problem}"
    return None


def _typed_dict(value: Any, annotation: Any) -> str | None:
    if type(value) is not dict:
        return f"{type(value).__name__} is not a dict"
    hints = typing.get_type_hints(annotation, include_extras=True)
    # Read from the hints: with string annotations, ``__required_keys__`` cannot see ``NotRequired``.
    marked = {key: typing.get_origin(hint) for key, hint in hints.items()}
    required = {k for k, m in marked.items() if m is Required or (annotation.__total__ and m is not NotRequired)}
    missing = required - value.keys()
    if missing or not value.keys() <= hints.keys():
        return f"keys {sorted(value)} do not fit {sorted(hints)}"
    return _fields(_Attributes(value), {key: hints[key] for key in value})


class _Attributes:
    """A dict read as attributes, for ``_fields``."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def __getattr__(self, name: str) -> Any:
        return self.data[name]


def _container(value: Any, origin: Any, args: tuple[Any, ...]) -> str | None:
    if origin is dict:
        if type(value) is not dict:
            return f"{type(value).__name__} is not a dict"
        bad = next((k for k in value if type(k) is not str), None)
        if bad is not None:
            return f"key {bad!r:.80} is not a str"
        return next(filter(None, (conforms(item, args[1]) for item in value.values())), None)
    if type(value) is not origin:
        return f"{type(value).__name__} is not {origin.__name__}"
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        if len(value) != len(args):
            return f"{len(value)} items, not {len(args)}"
        return next(filter(None, (conforms(item, arg) for item, arg in zip(value, args, strict=True))), None)
    return next(filter(None, (conforms(item, args[0]) for item in value)), None)
