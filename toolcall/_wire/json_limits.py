"""JSON text that holds what Python cannot: where each such value is, for an argument error.

JSON has no limits of its own, but Python has two: an integer longer than
the int-string limit (``sys.get_int_max_str_digits()``, 4300 digits by
default) cannot be read from text, and nesting deeper than the recursion
limit cannot be decoded. When ``json.loads`` refuses a text for either,
these functions decode it again to find each such value, so the caller
answers with an argument error naming it instead of a wrong value (never a
float, never a cut integer) or an exception.
"""

from __future__ import annotations

import json
import sys
from json.decoder import scanstring as _scanstring  # type: ignore[attr-defined]  # untyped, public
from typing import Any

from toolcall._long_integer import LongInteger
from toolcall.errors import ArgumentErrors, InvalidArgument, Reason, ToolError

__all__ = [
    "BeyondLimits",
    "LongInteger",
    "Place",
    "TooDeep",
    "argument_errors",
    "long_integers",
    "places_of",
    "too_deep",
]


class TooDeep:
    """A stand-in for a value nested deeper than the decoder can go; never passed to a tool."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<a value nested too deeply>"


#: Where a value Python cannot hold is: the path from the top of the data, and a reason code.
Place = tuple[tuple[str | int, ...], str, Any]


class BeyondLimits(ValueError):
    """JSON text holding values Python cannot hold; ``places`` says where each is.

    Each place is ``(path, code, value)``: ``"too_long"`` with a
    ``LongInteger`` for an integer past the int-string limit, ``"too_deep"``
    (value ``None``) for nesting past the recursion limit, whose path ends at
    the top-level member that holds it (the decoder cannot say more).
    ``data`` is the text decoded with each long integer as a ``LongInteger``,
    or ``None`` when it nests too deeply to decode.
    """

    def __init__(self, places: list[Place], data: Any = None) -> None:
        super().__init__(f"{len(places)} values beyond Python's limits")
        self.places = places
        self.data = data


def _integer(text: str) -> int | LongInteger:
    try:
        return int(text)
    except ValueError:  # past the limit: refused before any quadratic work
        return LongInteger(text)


def long_integers(text: str) -> BeyondLimits:
    """The long integers of ``text``, each with its path; ``JSONDecodeError`` if it is not JSON after all."""
    try:
        data = json.JSONDecoder(parse_int=_integer).decode(text)
    except RecursionError:
        return too_deep(text)
    return BeyondLimits(places_of(data), data)


def places_of(data: Any) -> list[Place]:
    """Each ``LongInteger`` and ``TooDeep`` stand-in in decoded ``data``, with its path, in the text's order."""
    places: list[Place] = []
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
    while stack:  # no recursion: the data may be nested nearly as deep as the recursion limit
        path, value = stack.pop()
        if type(value) is LongInteger:
            places.append((path, "too_long", value))
        elif type(value) is TooDeep:  # said of its top-level member, as the dispatcher says it of a deep argument
            places.append((path[:1], "too_deep", None))
        elif type(value) is dict:
            stack.extend(((*path, key), item) for key, item in reversed(value.items()))
        elif type(value) is list:
            stack.extend(((*path, index), item) for index, item in reversed(list(enumerate(value))))
    return places


def argument_errors(places: list[Place]) -> ToolError:
    """The argument errors of ``places`` (each path starts at an argument's name), as the dispatcher words them."""
    problems: list[ToolError] = []
    for path, code, value in places:
        detail = f"at most {sys.get_int_max_str_digits()} digits" if code == "too_long" else ""
        name, *inside = path
        problems.append(InvalidArgument(str(name), Reason(code, value, tuple(inside), detail)))
    return problems[0] if len(problems) == 1 else ArgumentErrors(tuple(problems))


def too_deep(text: str) -> BeyondLimits:
    """Where ``text`` nests too deeply: the first top-level member that does, or the whole text.

    The members before it are decoded one by one, so text that is not JSON
    there still raises ``JSONDecodeError`` naming the position.
    """
    decoder = json.JSONDecoder(parse_int=_integer)
    index = _skip_space(text, 0)
    if not text.startswith("{", index):
        return BeyondLimits([((), "too_deep", None)])
    index = _skip_space(text, index + 1)
    while text.startswith('"', index):
        key, index = _scanstring(text, index + 1)
        index = _skip_space(text, index)
        if not text.startswith(":", index):
            raise json.JSONDecodeError("Expecting ':' delimiter", text, index)
        try:
            _, index = decoder.raw_decode(text, _skip_space(text, index + 1))
        except RecursionError:
            return BeyondLimits([((key,), "too_deep", None)])
        index = _skip_space(text, index)
        if not text.startswith(",", index):
            break
        index = _skip_space(text, index + 1)
    return BeyondLimits([((), "too_deep", None)])


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\n\r":
        index += 1
    return index
