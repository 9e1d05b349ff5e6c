"""A tool's return value as plain JSON data, as its schema describes it (SPEC §2), for ``serve``.

Plain types pass as they are, after checks JSON needs (finite numbers,
valid Unicode, string keys); dataclasses, NamedTuples, Enums, dates, times,
durations, UUIDs, IP addresses, paths and Decimals become the JSON their
output schema describes. Anything else raises ``NotJSON``, whose message
names what it was.
"""

from __future__ import annotations

from typing import Any

__all__ = ["NotJSON", "kind_of", "plain"]


class NotJSON(Exception):
    """A value (or part of one) JSON cannot carry; the message says what it was."""


def plain(value: Any) -> Any:
    """``value`` as plain JSON data (dict, list, str, int, float, bool, None), or ``NotJSON``.

    The plain types are checked first and cost one ``type()`` each; the rest
    turn into what the tool's output schema describes (``_converted``).
    """
    kind = type(value)
    if kind is str:
        return _text(value)
    if kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return _finite(value)
    if kind is dict:
        return {_key(key): plain(item) for key, item in value.items()}
    if kind is list:
        return [plain(item) for item in value]
    return _converted(value)


def _converted(value: Any) -> Any:
    """A value of any other type as JSON data, as its schema describes it (SPEC §2), or ``NotJSON``."""
    import dataclasses
    import datetime as dt
    import decimal
    import enum
    import ipaddress
    import pathlib
    import uuid
    from collections.abc import Mapping

    if isinstance(value, enum.Enum):  # before str and int: an IntEnum is sent as its value
        return plain(value.value)
    if isinstance(value, str):  # subclasses of the plain types; bool cannot be subclassed
        return _text(str(value))
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return _finite(float(value))
    if isinstance(value, Mapping):
        return {_key(key): plain(item) for key, item in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):  # a NamedTuple is an object
        return {_key(key): plain(item) for key, item in value._asdict().items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, (dt.date, dt.time)):  # datetime is a date
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return _duration(value)
    if isinstance(value, decimal.Decimal) and value.is_finite():
        return str(value)
    if isinstance(value, (uuid.UUID, ipaddress.IPv4Address, ipaddress.IPv6Address, pathlib.PurePath)):
        return str(value)
    raise NotJSON(kind_of(value))


def _text(value: str) -> str:
    # A lone surrogate cannot be written as UTF-8: it would break the SDK's writer, not just this call.
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise NotJSON("a string that is not valid Unicode (a lone surrogate)") from None
    return value


def _finite(value: float) -> float:
    if value - value != 0:  # NaN and the infinities (x - x is NaN for them): not JSON numbers
        raise NotJSON(f"the number {value!r}")
    return value


def _key(key: Any) -> str:
    """An object key: a string, as ``json.dumps`` also makes of an integer or a string-valued Enum."""
    import enum

    if isinstance(key, enum.Enum):
        key = key.value
    if isinstance(key, str):
        return _text(str(key))
    if isinstance(key, int) and not isinstance(key, bool):
        return str(int(key))
    raise NotJSON(f"a dict key of type {type(key).__qualname__}")


def _duration(value: Any) -> str:
    """A ``timedelta`` as the ISO 8601 duration toolcall reads (``P1DT2H``, ``-PT30S``)."""
    sign = "-" if value.days < 0 else ""
    value = -value if sign else value
    seconds = f"{value.seconds}.{value.microseconds:06d}".rstrip("0").rstrip(".")
    return f"{sign}P{value.days}DT{seconds}S"


def kind_of(value: Any) -> str:
    """How a message names a value's type: ``an object of type Foo``."""
    return f"an object of type {type(value).__qualname__}"
