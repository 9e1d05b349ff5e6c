"""The error vocabulary of dispatch: what ``run`` returns inside ``Err``.

Each error is a frozen dataclass with ``__str__`` (one line a model can act
on) and ``to_json()`` (a JSON-safe dict whose ``"error"`` key is the
snake_case class name, with the full data).

``str(error)`` is one line of valid UTF-8 of at most ``MAX_MESSAGE_LENGTH``
characters, built only when asked for. Keys and values from the model are
shown as JSON writes them (a newline as ``\\n``, a number unquoted, ``NaN``
included), with every control, format and separator character escaped too
(``\\u009b``, ``\\u202e``, ``\\u2028``, a lone surrogate as ``\\udcff``) so
nothing the model sent can break, reorder or hide part of the line; other
non-ASCII text is shown as is. A long value is cut with its size, a long
list with how many items were left out. ``to_json()`` echoes the model's
values JSON-safe: lone surrogates escaped and non-JSON objects as their
``repr``.

The exceptions toolcall raises to the programmer (a type without a schema,
an unsafe tool name, an unknown provider, ...) are here too; each subclasses
the builtin exception it refines.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Union

from toolcall._exceptions import (
    CacheRequiredError,
    MissingInjectedError,
    ProviderError,
    SchemaError,
    ToolNameError,
    UnknownProviderError,
)
from toolcall._long_integer import LongInteger

__all__ = [
    "MAX_MESSAGE_LENGTH",
    "ArgumentErrors",
    "ArgumentGap",
    "CacheRequiredError",
    "Exited",
    "InvalidArgument",
    "InvalidArguments",
    "MalformedArguments",
    "MissingArgument",
    "MissingInjectedError",
    "NonStringArguments",
    "ProviderError",
    "Raised",
    "Reason",
    "SchemaError",
    "ToolError",
    "ToolNameError",
    "UnknownArguments",
    "UnknownProviderError",
    "UnknownTool",
    "json_safe",
]

# What each reason code asks of the model (the start of the message).
_EXPECTATIONS: dict[str, str] = {
    "expected_string": "expected a string",
    "expected_integer": "expected an integer",
    "expected_number": "expected a number",
    "expected_boolean": "expected true or false",
    "expected_null": "expected null",
    "expected_array": "expected an array",
    "expected_object": "expected an object",
    "invalid_unicode": "the string contains a lone surrogate (invalid Unicode)",
    "not_in_enum": "not one of the allowed values",
    "wrong_length": "wrong number of items",
    "duplicate_items": "items must be unique",
    "missing_field": "a required field is missing",
    "unknown_fields": "unknown fields",
    "invalid_datetime": "expected an ISO 8601 date-time such as 2024-05-01T12:30:00Z",
    "invalid_date": "expected an ISO 8601 date such as 2024-05-01",
    "invalid_time": "expected an ISO 8601 time such as 12:30:00",
    "invalid_duration": "expected an ISO 8601 duration such as P1DT2H30M",
    "invalid_uuid": "expected a UUID such as 123e4567-e89b-12d3-a456-426614174000",
    "invalid_ipv4": "expected an IPv4 address such as 192.0.2.1",
    "invalid_ipv6": "expected an IPv6 address such as 2001:db8::1",
    "invalid_decimal": 'expected a decimal number as a string, such as "12.50"',
    "no_match": "matches none of the allowed types",
    "out_of_range": "out of range",
    "too_short": "too short",
    "too_long": "too long",
    "pattern_mismatch": "does not match the required pattern",
    "invalid_value": "not a valid value",
    "too_deep": "nested too deeply",
}


#: Reason codes whose ``value`` is not something the model sent (nothing was sent,
#: or the input was too deep to keep), so the message does not say "got ...".
_NO_VALUE = frozenset({"missing_field", "too_deep"})

#: The most characters ``str(error)`` has, whatever the model sent.
MAX_MESSAGE_LENGTH = 1000
#: Characters of one value the model sent, before it is cut (with its size).
_VALUE_LIMIT = 80
#: Characters of a list of names or keys, before the rest is counted.
_LIST_LIMIT = 400
#: Characters of free text (a detail, the tool's own exception message).
_TEXT_LIMIT = 300
#: Characters of a JSON path inside an argument; a longer one keeps its innermost steps.
_PATH_LIMIT = 160
#: Characters of the problems ``ArgumentErrors`` lists, before the rest are counted.
_PROBLEMS_LIMIT = 900
#: The fewest characters one of those problems is given before it is cut.
_PROBLEM_MIN = 120

#: Integers longer than this are shown by size: ``str()`` refuses more than 4300 digits by default.
_MAX_INT_BITS = 14_000


def json_safe(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data: lone surrogates escaped, other objects as their ``repr``.

    Whatever the value does, the result is plain JSON data that ``json.dumps``
    accepts: subclasses of the JSON types are read through their base type
    (their own ``__eq__``, ``__str__`` or ``__iter__`` are not called), an
    integer too long for ``str()`` is shown by its size, and an object whose
    ``repr`` raises is shown by its type name.
    """
    if value is None or value is True or value is False:
        return value
    if isinstance(value, int):
        integer = int.__index__(value)
        return integer if integer.bit_length() <= _MAX_INT_BITS else _huge_integer(integer)
    if isinstance(value, float):
        number = float.__float__(value)
        return number if math.isfinite(number) else repr(number)
    if isinstance(value, str):
        return _escape_surrogates(str.__str__(value))
    if depth > 50:
        return "..."
    items = _items(value)
    if items is not None:
        return [json_safe(item, depth + 1) for item in items]
    if isinstance(value, dict):
        return {_key(k): json_safe(v, depth + 1) for k, v in dict.items(value)}
    return _escape_surrogates(_repr(value))


def _items(value: object) -> Iterator[Any] | None:
    """The items of a list or tuple (a subclass's too, read through the base type), or ``None``."""
    if isinstance(value, list):
        return list.__iter__(value)
    return tuple.__iter__(value) if isinstance(value, tuple) else None


def _huge_integer(integer: int) -> str:
    """An integer too long for ``str()``, by its number of digits (found without ``str()``)."""
    size = abs(integer)
    digits = int(math.log10(size)) + 1
    if size < 10 ** (digits - 1):  # log10 rounded up across a power of ten
        digits -= 1
    return f"<an integer of {digits} digits>"


def _key(key: object) -> str:
    return _escape_surrogates(str.__str__(key) if isinstance(key, str) else _repr(key))


def _repr(value: object) -> str:
    try:
        return str.__str__(repr(value))
    except Exception:  # a hostile or broken __repr__, a container of huge ints, a cycle too deep
        return f"<{type(value).__name__} object>"


_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_surrogates(text: str) -> str:
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# -- one-line messages ------------------------------------------------------------------------------
#
# Every message is assembled from pieces that are each one line of valid UTF-8:
# text is escaped character by character (so a cut never splits an escape) and
# read only as far as the message can show, so a huge value costs no more than
# a small one.

#: The Unicode categories a message never shows raw, wherever it echoes text:
#: controls (Cc: C0, DEL, C1 such as the terminal's CSI U+009B), format
#: characters (Cf: bidi embeddings, overrides, isolates and marks, zero-width
#: characters, the BOM, tag characters), line and paragraph separators (Zl, Zp)
#: and lone surrogates (Cs). Each could break, reorder or hide part of the line.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: The short escapes JSON has for some ASCII controls (the others are ``\\uXXXX``).
_LINE_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
#: What JSON escapes in a string, plus the above.
_JSON_ESCAPES = {**_LINE_ESCAPES, '"': '\\"', "\\": "\\\\"}


def _escaped(char: str, table: dict[str, str]) -> str:
    """``char`` as it may appear in a message: its escape in ``table``, a hidden character as ``\\uXXXX``."""
    escape = table.get(char)
    if escape is not None:
        return escape
    if " " <= char < "\x7f" or (char > "\x9f" and unicodedata.category(char) not in _HIDDEN_CATEGORIES):
        return char
    return _unicode_escape(ord(char))


def _unicode_escape(code: int) -> str:
    """JSON's escape of a code point: ``\\u009b``, or a surrogate pair beyond U+FFFF."""
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _take(pieces: Iterator[str], limit: int) -> tuple[str, bool]:
    """The pieces that fit in ``limit`` characters, and whether any were left out."""
    out: list[str] = []
    room = limit
    for piece in pieces:
        room -= len(piece)
        if room < 0:
            return "".join(out), True
        out.append(piece)
    return "".join(out), False


def _pieces(value: Any) -> Iterator[str]:
    """``value`` as compact JSON text, in pieces a message may end after.

    A number is never quoted: ``NaN``, ``Infinity`` and ``-Infinity`` as
    Python's ``json`` writes them, an integer too long for ``str()`` by its
    size. Subclasses of the JSON types are read through their base type.
    """
    items = _items(value)
    if items is not None:
        yield "["
        for index, item in enumerate(items):
            if index:
                yield ", "
            yield from _pieces(item)
        yield "]"
    elif isinstance(value, dict):
        yield "{"
        for index, (key, item) in enumerate(dict.items(value)):
            if index:
                yield ", "
            yield from _string_pieces(str.__str__(key) if isinstance(key, str) else _repr(key))
            yield ": "
            yield from _pieces(item)
        yield "}"
    elif isinstance(value, str):
        yield from _string_pieces(str.__str__(value))
    elif value is None or value is True or value is False:
        yield json.dumps(value)
    elif isinstance(value, int):
        integer = int.__index__(value)
        yield from str(integer) if integer.bit_length() <= _MAX_INT_BITS else (_huge_integer(integer),)
    elif isinstance(value, float):
        yield json.dumps(float.__float__(value))
    elif type(value) is LongInteger:  # a number, so unquoted
        yield repr(value)
    else:
        yield from _string_pieces(_repr(value))


def _string_pieces(text: str) -> Iterator[str]:
    yield '"'
    for char in text:
        yield _escaped(char, _JSON_ESCAPES)
    yield '"'


def _size(value: Any) -> str:
    """How big a cut value was, in the words a model reads."""
    if isinstance(value, str):
        return _count(str.__len__(value), "character")
    if isinstance(value, list):
        return _count(list.__len__(value), "item")
    if isinstance(value, tuple):
        return _count(tuple.__len__(value), "item")
    if isinstance(value, dict):
        return _count(dict.__len__(value), "key")
    if isinstance(value, int) and not isinstance(value, bool):
        return _count(len(str(abs(int.__index__(value)))), "digit")  # cut, so within str()'s limit
    return ""


def _count(number: int, noun: str) -> str:
    return f" ({number} {noun}{'' if number == 1 else 's'})"


def _show(value: Any, limit: int = _VALUE_LIMIT) -> str:
    """A model-sent value as one line of JSON text, cut after ``limit`` characters with its size."""
    text, cut = _take(_pieces(value), limit)
    return f"{text}…{_size(value)}" if cut else text


def _plain(text: object, limit: int = _TEXT_LIMIT) -> str:
    """Free text (a detail, an exception message) on one line, cut after ``limit`` characters."""
    line = str.__str__(text) if isinstance(text, str) else _repr(text)
    shown, cut = _take((_escaped(char, _LINE_ESCAPES) for char in line), limit)
    return f"{shown}…{_count(len(line), 'character')}" if cut else shown


def _listed(items: Sequence[Any], show: Callable[[Any], str], separator: str = ", ", limit: int = _LIST_LIMIT) -> str:
    """``show`` of each item while they fit in ``limit`` characters, then how many are left."""
    out: list[str] = []
    room = limit
    for item in items:
        piece = show(item)
        room -= len(piece) + len(separator)
        if out and room < 0:
            break
        out.append(piece)
    left = len(items) - len(out)
    return separator.join(out) + (f"{separator}… and {left} more" if left else "")


def _clipped(message: str, limit: int) -> str:
    """A finished message cut to about ``limit`` characters, never inside one of its escapes."""
    if len(message) <= limit:
        return message
    end = 0
    while end < limit - 1:
        # A backslash is taken to start an escape (``\uXXXX`` or two characters): at worst the cut comes early.
        step = (6 if message[end + 1 : end + 2] == "u" else 2) if message[end] == "\\" else 1
        if end + step > limit - 1:
            break
        end += step
    return message[:end] + "…"


def _line(text: str) -> str:
    """``text`` cut to ``MAX_MESSAGE_LENGTH`` (a last guard: its pieces are bounded already)."""
    return text if len(text) <= MAX_MESSAGE_LENGTH else text[: MAX_MESSAGE_LENGTH - 1] + "…"


_IDENTIFIER = re.compile("[A-Za-z_][A-Za-z0-9_]*")


def _step(part: object, first: bool) -> str:
    """One step of a JSON path: ``[3]``, ``.qty``, or ``["a b"]`` for a key that is not a plain name."""
    if isinstance(part, int) and not isinstance(part, bool):
        return f"[{_show(part, 24)}]"
    if isinstance(part, str) and _IDENTIFIER.fullmatch(part):
        return str.__str__(part) if first else "." + str.__str__(part)
    return f"[{_show(part, 40)}]"


def _path_text(path: tuple[str | int, ...]) -> str:
    steps = [_step(part, index == 0) for index, part in enumerate(path)]
    tail: list[str] = []
    room = _PATH_LIMIT
    for step in reversed(steps):
        room -= len(step)
        if room < 0:  # the innermost steps say where the value is; the outer ones are left out
            return "…" + "".join(reversed(tail))
        tail.append(step)
    return "".join(steps)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a value failed coercion.

    ``code`` is one of the reason codes  (plus ``invalid_value``
    when a custom coercion rejects a value and ``too_deep`` for input nested
    beyond the interpreter's recursion limit); ``value`` the offending wire
    value; ``path`` the JSON path inside the argument, e.g.
    ``("items", 3, "qty")``; ``detail`` more words (the bound that was
    broken, the allowed values); ``branches`` each union branch's reason,
    for ``no_match``; ``accepted`` the field names the object declares, in
    declaration order, for ``unknown_fields``.

    ``detail`` and ``accepted`` describe the tool, not the value, so they
    take no part in ``==``: ``Reason("unknown_fields", ["x"])`` equals the
    reason ``run`` returns.
    """

    code: str
    value: Any = None
    path: tuple[str | int, ...] = ()
    detail: str = field(default="", compare=False)
    branches: tuple[Reason, ...] = ()
    accepted: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        _as_tuple(self, "path")
        _as_tuple(self, "branches")
        _as_tuple(self, "accepted")

    def __str__(self) -> str:
        expected = _EXPECTATIONS.get(self.code) or _plain(self.code.replace("_", " "), 60)
        text = expected
        if self.detail and self.detail != expected:
            text += f" ({_plain(self.detail)})"
        if self.code not in _NO_VALUE:
            text += f", got {_show(self.value)}"
        if self.accepted:
            text += f"; the accepted fields are {_listed(self.accepted, _show)}"
        if self.branches:
            options = list(enumerate(self.branches, 1))
            text += "; " + _listed(options, lambda option: f"as option {option[0]}: {option[1]}", "; ")
        return _line(text)

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict of this reason."""
        out: dict[str, Any] = {"code": self.code, "value": json_safe(self.value), "path": json_safe(self.path)}
        if self.detail:
            out["detail"] = self.detail
        if self.branches:
            out["branches"] = [b.to_json() for b in self.branches]
        if self.accepted:
            out["accepted"] = json_safe(self.accepted)
        return out


class _ErrorBase:
    """``to_json`` for the error dataclasses: the snake_case name plus the fields."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict whose ``"error"`` key is the snake_case error name."""
        out: dict[str, Any] = {"error": _snake(type(self).__name__)}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = value.to_json() if isinstance(value, Reason) else json_safe(value)
        return out


def _as_tuple(error: object, name: str) -> None:
    # Lists are accepted where tuples are stored, so ``UnknownArguments(["c"])``
    # equals the error ``run`` returns.
    value = getattr(error, name)
    if isinstance(value, list):
        object.__setattr__(error, name, tuple(value))


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclass(frozen=True, slots=True)
class UnknownTool(_ErrorBase):
    """No tool with that name in the source."""

    name: str
    known: tuple[str, ...]

    def __post_init__(self) -> None:
        _as_tuple(self, "known")

    def __str__(self) -> str:
        known = _listed(self.known, lambda name: _plain(name, _VALUE_LIMIT)) or "(none)"
        return _line(f"unknown tool {_show(self.name)}; the tools are: {known}")


@dataclass(frozen=True, slots=True)
class UnknownArguments(_ErrorBase):
    """Keys the schema does not declare.

    ``accepted`` holds the names the tool does take, in declaration order
    (``run`` fills it in). It describes the tool, not the call, so it takes
    no part in ``==``: ``UnknownArguments(["c"])`` equals what ``run``
    returns for ``{"city": "Oslo", "c": 1}``.
    """

    names: tuple[str, ...]
    accepted: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        _as_tuple(self, "names")
        _as_tuple(self, "accepted")

    def __str__(self) -> str:
        text = f"unknown arguments {_listed(self.names, _show)}: send only the parameters the tool declares"
        if self.accepted:
            text += f"; the accepted arguments are {_listed(self.accepted, _show)}"
        return _line(text)


@dataclass(frozen=True, slots=True)
class NonStringArguments(_ErrorBase):
    """Keys that are not strings."""

    keys: tuple[Any, ...]

    def __post_init__(self) -> None:
        _as_tuple(self, "keys")

    def __str__(self) -> str:
        return _line(f"argument names must be strings, got {_listed(self.keys, _show)}")


@dataclass(frozen=True, slots=True)
class InvalidArguments(_ErrorBase):
    """The arguments are not a JSON object (a list, a scalar, null)."""

    args: Any

    def __str__(self) -> str:
        return _line(f"the arguments must be a JSON object of named parameters, got {_show(self.args)}")


@dataclass(frozen=True, slots=True)
class MalformedArguments(_ErrorBase):
    """The model's arguments string is not valid JSON (adapters that decode it themselves return this).

    ``text`` is the string as the model sent it; ``message`` what is wrong,
    and ``position`` where, as an index into ``text``. Built from a
    ``json.JSONDecodeError`` as ``MalformedArguments(text, exc.msg,
    exc.pos)``; from a ``RecursionError`` (JSON nested beyond the
    interpreter's limit), which has no place in the text, as
    ``MalformedArguments(text, "nested too deeply", -1)``: a negative
    ``position`` means the error has no place, and the message names none.
    Otherwise the message gives the line and column, counted as ``json``
    counts them.
    """

    text: str
    message: str
    position: int

    def __str__(self) -> str:
        where = _place(self.text, self.position)
        return _line(
            f"the arguments are not valid JSON: {_plain(self.message)}{where}; send one JSON object of named parameters"
        )


def _place(text: object, position: object) -> str:
    """`` at line L, column C (position P)`` for a place in ``text``, or nothing when there is none."""
    if not isinstance(position, int) or isinstance(position, bool) or position < 0:
        return ""
    index = int.__index__(position)
    if not isinstance(text, str):
        return f" (position {index})"
    line = str.count(text, "\n", 0, index) + 1
    column = index - str.rfind(text, "\n", 0, index)
    return f" at line {line}, column {column} (position {index})"


@dataclass(frozen=True, slots=True)
class MissingArgument(_ErrorBase):
    """A required argument is absent."""

    name: str

    def __str__(self) -> str:
        return _line(f"missing required argument {_show(self.name)}")


@dataclass(frozen=True, slots=True)
class ArgumentGap(_ErrorBase):
    """An optional positional-only parameter was left out while later ones were sent.

    The later values would shift into the wrong positions, so the call is
    refused: send ``missing`` too, or leave out ``dropped``.
    """

    missing: str
    dropped: tuple[str, ...]

    def __post_init__(self) -> None:
        _as_tuple(self, "dropped")

    def __str__(self) -> str:
        later = _listed(self.dropped, _show)
        return _line(f"argument {_show(self.missing)} must be sent when {later} is sent (they are positional)")


@dataclass(frozen=True, slots=True)
class InvalidArgument(_ErrorBase):
    """An argument failed coercion; ``reason`` says why and where."""

    name: str
    reason: Reason

    def __str__(self) -> str:
        where = _show(self.name) + (f" at {_path_text(self.reason.path)}" if self.reason.path else "")
        return _line(f"invalid argument {where}: {self.reason}")


@dataclass(frozen=True, slots=True)
class ArgumentErrors(_ErrorBase):
    """More than one problem with a call's arguments, every one reported at once.

    ``errors`` holds each problem as the error it would be alone
    (``NonStringArguments``, ``UnknownArguments``, ``MissingArgument``,
    ``InvalidArgument``, ``ArgumentGap``) in this order: non-string keys,
    unknown keys, the parameters in declaration order, the extra
    ``**kwargs`` values in the order they were sent, then gaps. A call with
    a single problem gets that error alone, so the model can fix the whole
    call in one retry either way.
    """

    errors: tuple[ToolError, ...]

    def __post_init__(self) -> None:
        _as_tuple(self, "errors")

    def __str__(self) -> str:
        count = len(self.errors)
        # Each problem gets a fair share of the line; what does not fit is counted.
        share = max(_PROBLEM_MIN, _PROBLEMS_LIMIT // max(count, 1))
        problems = _listed(self.errors, lambda error: _clipped(_problem_text(error), share), "; ", _PROBLEMS_LIMIT)
        return _line(f"{count} problem{'' if count == 1 else 's'} with the arguments: {problems}")

    def to_json(self) -> dict[str, Any]:
        """``{"error": "argument_errors", "errors": [...]}``, each problem as its own ``to_json()``."""
        return {
            "error": "argument_errors",
            "errors": [e.to_json() if isinstance(e, _ErrorBase) else json_safe(e) for e in self.errors],
        }


def _problem_text(error: object) -> str:
    return str(error) if isinstance(error, _ErrorBase) else _plain(error)


@dataclass(frozen=True, slots=True)
class Raised(_ErrorBase):
    """The tool raised an ``Exception`` (logged with its traceback on logger ``toolcall``)."""

    type: str
    message: str

    def __str__(self) -> str:
        failed = f"the tool failed with {_plain(self.type, _VALUE_LIMIT)}"
        return _line(f"{failed}: {_plain(self.message)}" if self.message else failed)


@dataclass(frozen=True, slots=True)
class Exited(_ErrorBase):
    """The tool raised ``SystemExit``."""

    code: Any

    def __str__(self) -> str:
        return _line(f"the tool exited with code {_show(self.code)}")


#: Any error ``Err`` can hold.
ToolError = Union[
    UnknownTool,
    UnknownArguments,
    NonStringArguments,
    InvalidArguments,
    MalformedArguments,
    MissingArgument,
    ArgumentGap,
    InvalidArgument,
    ArgumentErrors,
    Raised,
    Exited,
]
