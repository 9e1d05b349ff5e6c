"""A tool's return value as plain JSON data, as its schema describes it: for the adapters and ``serve``.

Plain types pass as they are, after checks JSON needs (finite numbers,
integers no longer than the int-string limit Python writes, valid Unicode,
string keys); dataclasses, NamedTuples, Enums, dates, times,
durations, UUIDs, IP addresses, paths and Decimals become the JSON their
output schema describes. Anything else raises ``NotJSON``, whose message
names what it was.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Final

__all__ = ["NotJSON", "json_text", "kind_of", "plain"]


class NotJSON(Exception):
    """A value (or part of one) JSON cannot carry; the message says what it was."""


#: Integers strictly between -this and this have at most 640 digits, the lowest int-string limit Python allows
#: (``sys.set_int_max_str_digits``): they are written without asking.
_SHORT_INT: Final = 10**640


def plain(value: Any) -> Any:
    """``value`` as plain JSON data (dict, list, str, int, float, bool, None), or ``NotJSON``.

    The plain types are checked first and cost one ``type()`` each; the rest
    turn into what the tool's output schema describes (``_converted``).
    """
    kind = type(value)
    if kind is str:
        return _text(value)
    if kind is bool or value is None:
        return value
    if kind is int:
        return value if -_SHORT_INT < value < _SHORT_INT else _long_int(value)
    if kind is float:
        return _finite(value)
    if kind is dict:
        return _object(value)
    if kind is list:
        return [plain(item) for item in value]
    return _converted(value)


def _object(value: dict[Any, Any]) -> dict[str, Any]:
    """A dict as a JSON object: itself when it already is one of ASCII keys and plain scalars (checked, no copy)."""
    for key, item in value.items():
        kind = type(item)
        # Anything but an ASCII str key and a plain scalar (ASCII text, a finite number: x - x is NaN for
        # NaN and the infinities) needs converting or checking, and then the whole dict is rebuilt.
        if (
            type(key) is not str
            or not key.isascii()
            or not (
                (kind is int and -_SHORT_INT < item < _SHORT_INT)
                or kind is bool
                or item is None
                or (kind is str and item.isascii())
                or (kind is float and item - item == 0)
            )
        ):
            return {_key(key): plain(item) for key, item in value.items()}
    return value


#: CPython's C encoder maker: the encoder is made once here, where ``JSONEncoder`` makes one per call.
_make_encoder: Any = getattr(json.encoder, "c_make_encoder", None)
if _make_encoder is not None:
    _chunks = _make_encoder(None, None, json.encoder.encode_basestring, None, ": ", ", ", False, False, False)

    def json_text(data: Any) -> str:
        """Plain JSON data (``plain``'s result) as JSON text: UTF-8 as is, no NaN, ``json.dumps``'s spacing."""
        return "".join(_chunks(data, 0))

else:  # pragma: no cover - interpreters without the C accelerator
    _encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False).encode

    def json_text(data: Any) -> str:
        """Plain JSON data (``plain``'s result) as JSON text: UTF-8 as is, no NaN, ``json.dumps``'s spacing."""
        return _encode(data)


def _converted(value: Any) -> Any:
    """A value of any other type as JSON data, as its schema describes it, or ``NotJSON``."""
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
        return plain(int(value))
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
        from toolcall._wire.isotime import format_duration

        return format_duration(value)
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


def _long_int(value: int) -> int:
    """A long integer, if Python can write it: ``json`` cannot write one longer than the int-string limit."""
    try:
        str(value)  # bounded work: Python refuses an integer past the limit
    except ValueError:
        raise NotJSON(f"an integer of more than {sys.get_int_max_str_digits()} digits") from None
    return value


def _finite(value: float) -> float:
    if value - value != 0:  # NaN and the infinities (x - x is NaN for them): not JSON numbers
        raise NotJSON(f"the number {value!r}")
    return value


def _key(key: Any) -> str:
    """An object key: a string, as ``json.dumps`` also makes of an integer or a string-valued Enum."""
    if type(key) is str:
        return _text(key)
    import enum

    if isinstance(key, enum.Enum):
        key = key.value
    if isinstance(key, str):
        return _text(str(key))
    if isinstance(key, int) and not isinstance(key, bool):
        return str(_long_int(int(key)))
    raise NotJSON(f"a dict key of type {type(key).__qualname__}")


def kind_of(value: Any) -> str:
    """How a message names a value's type: ``an object of type Foo``."""
    return f"an object of type {type(value).__qualname__}"
