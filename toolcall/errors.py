"""The error vocabulary of dispatch: what ``run`` returns inside ``Err``.

Each error is a frozen dataclass with ``__str__`` (one line a model can act
on) and ``to_json()`` (a JSON-safe dict whose ``"error"`` key is the
snake_case class name). Values that came from the model are echoed back
JSON-safe: lone surrogates are escaped and non-JSON objects become their
``repr``.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, fields
from typing import Any, Union

__all__ = [
    "ArgumentGap",
    "Exited",
    "InvalidArgument",
    "InvalidArguments",
    "MissingArgument",
    "NonStringArguments",
    "Raised",
    "Reason",
    "ToolError",
    "UnknownArguments",
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
    "invalid_decimal": 'expected a decimal number as a string, such as "12.50"',
    "no_match": "matches none of the allowed types",
    "out_of_range": "out of range",
    "too_short": "too short",
    "too_long": "too long",
    "pattern_mismatch": "does not match the required pattern",
    "invalid_value": "not a valid value",
    "too_deep": "nested too deeply",
}


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
        return integer if integer.bit_length() <= _MAX_INT_BITS else f"<an integer of {integer.bit_length()} bits>"
    if isinstance(value, float):
        number = float.__float__(value)
        return number if math.isfinite(number) else repr(number)
    if isinstance(value, str):
        return _escape_surrogates(str.__str__(value))
    if depth > 50:
        return "..."
    if type(value) in (list, tuple):
        return [json_safe(item, depth + 1) for item in value]
    if type(value) is dict:
        return {_key(k): json_safe(v, depth + 1) for k, v in value.items()}
    return _repr(value)


def _key(key: object) -> str:
    return _escape_surrogates(str.__str__(key)) if isinstance(key, str) else _repr(key)


def _repr(value: object) -> str:
    try:
        text = str.__str__(repr(value))
    except Exception:  # a hostile or broken __repr__, a container of huge ints, a cycle too deep
        text = f"<{type(value).__name__} object>"
    return _escape_surrogates(text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_surrogates(text: str) -> str:
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _show(value: Any) -> str:
    """A short rendering of a model-sent value for a one-line message."""
    try:
        text = json.dumps(json_safe(value), ensure_ascii=False)
    except (TypeError, ValueError):  # pragma: no cover - json_safe output is always JSON
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _path_text(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a value failed coercion.

    ``code`` is one of the reason codes of SPEC §2 (plus ``invalid_value``
    when a custom coercion rejects a value and ``too_deep`` for input nested
    beyond the interpreter's recursion limit); ``value`` the offending wire
    value; ``path`` the JSON path inside the argument, e.g.
    ``("items", 3, "qty")``; ``detail`` more words (the bound that was
    broken, the allowed values); ``branches`` each union branch's reason,
    for ``no_match``.
    """

    code: str
    value: Any = None
    path: tuple[str | int, ...] = ()
    detail: str = field(default="", compare=False)
    branches: tuple[Reason, ...] = ()

    def __post_init__(self) -> None:
        _as_tuple(self, "path")
        _as_tuple(self, "branches")

    def __str__(self) -> str:
        text = _EXPECTATIONS.get(self.code, self.code.replace("_", " "))
        if self.detail:
            text = f"{text} ({self.detail})"
        text = f"{text}, got {_show(self.value)}"
        if self.branches:
            text += "; " + "; ".join(f"as option {i}: {b}" for i, b in enumerate(self.branches, 1))
        return text

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict of this reason."""
        out: dict[str, Any] = {"code": self.code, "value": json_safe(self.value), "path": json_safe(self.path)}
        if self.detail:
            out["detail"] = self.detail
        if self.branches:
            out["branches"] = [b.to_json() for b in self.branches]
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
        return f"unknown tool {_show(self.name)}; the tools are: {', '.join(self.known) or '(none)'}"


@dataclass(frozen=True, slots=True)
class UnknownArguments(_ErrorBase):
    """Keys the schema does not declare."""

    names: tuple[str, ...]

    def __post_init__(self) -> None:
        _as_tuple(self, "names")

    def __str__(self) -> str:
        shown = ", ".join(_show(n) for n in self.names)
        return f"unknown arguments {shown}: send only the parameters the tool declares"


@dataclass(frozen=True, slots=True)
class NonStringArguments(_ErrorBase):
    """Keys that are not strings."""

    keys: tuple[Any, ...]

    def __post_init__(self) -> None:
        _as_tuple(self, "keys")

    def __str__(self) -> str:
        return f"argument names must be strings, got {', '.join(_show(k) for k in self.keys)}"


@dataclass(frozen=True, slots=True)
class InvalidArguments(_ErrorBase):
    """The arguments are not a JSON object (a list, a scalar, null)."""

    args: Any

    def __str__(self) -> str:
        return f"the arguments must be a JSON object of named parameters, got {_show(self.args)}"


@dataclass(frozen=True, slots=True)
class MissingArgument(_ErrorBase):
    """A required argument is absent."""

    name: str

    def __str__(self) -> str:
        return f"missing required argument {_show(self.name)}"


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
        later = ", ".join(_show(d) for d in self.dropped)
        return f"argument {_show(self.missing)} must be sent when {later} is sent (they are positional)"


@dataclass(frozen=True, slots=True)
class InvalidArgument(_ErrorBase):
    """An argument failed coercion; ``reason`` says why and where."""

    name: str
    reason: Reason

    def __str__(self) -> str:
        where = _show(self.name) + (f" at {_path_text(self.reason.path)}" if self.reason.path else "")
        return f"invalid argument {where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Raised(_ErrorBase):
    """The tool raised an ``Exception`` (logged with its traceback on logger ``toolcall``)."""

    type: str
    message: str

    def __str__(self) -> str:
        return (
            f"the tool failed with {self.type}: {self.message}" if self.message else f"the tool failed with {self.type}"
        )


@dataclass(frozen=True, slots=True)
class Exited(_ErrorBase):
    """The tool raised ``SystemExit``."""

    code: Any

    def __str__(self) -> str:
        return f"the tool exited with code {_show(self.code)}"


#: Any error ``Err`` can hold.
ToolError = Union[
    UnknownTool,
    UnknownArguments,
    NonStringArguments,
    InvalidArguments,
    MissingArgument,
    ArgumentGap,
    InvalidArgument,
    Raised,
    Exited,
]
