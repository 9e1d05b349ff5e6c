"""Coercers for single wire values: strict JSON kinds, strings with a format.

Each function takes the wire value and returns what the function receives,
or raises ``Fail`` with a reason code . The generated coercers
(``toolcall._dispatch.coercers``) inline the common fast checks and call these only
for what is left.
"""

from __future__ import annotations

import decimal
import functools
import ipaddress
import math
import pathlib
import re
import uuid
from typing import Any, Final

from toolcall._wire import isotime
from toolcall._wire.patterns import DECIMAL_PATTERN, STRING_INTEGER_PATTERN, ecma_regex

__all__ = [
    "SCALARS",
    "Fail",
    "coerce_any",
    "coerce_bool",
    "coerce_float",
    "coerce_int",
    "coerce_none",
    "coerce_str",
    "int_bits",
    "int_bound",
]


class Fail(Exception):
    """A wire value was refused; ``rpath`` collects the JSON path from the inside out.

    ``accepted`` names the fields an object declares, for ``unknown_fields``.
    """

    __slots__ = ("accepted", "branches", "code", "detail", "rpath", "value")

    code: str
    value: Any
    detail: str
    branches: tuple[Fail, ...]
    accepted: tuple[str, ...]
    rpath: list[str | int]

    def __init__(
        self,
        code: str,
        value: Any,
        detail: str = "",
        branches: tuple[Fail, ...] = (),
        accepted: tuple[str, ...] = (),
    ) -> None:
        self.code = code
        self.value = value
        self.detail = detail
        self.branches = branches
        self.accepted = accepted
        self.rpath = []


def coerce_str(value: Any) -> str:
    """A JSON string without lone surrogates (a ``str`` subclass instance as its plain ``str``)."""
    return _string_of("expected_string", value)


def check_unicode(text: str) -> None:
    """Refuse a string with lone surrogates (it cannot be encoded as UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Fail("invalid_unicode", text) from None


def int_bound() -> int:
    """The least integer with more digits than the int-string limit allows (``0``: no limit)."""
    import sys

    digits = sys.get_int_max_str_digits()
    return _bound_of(digits) if digits else 0


def int_bits() -> int | float:
    """The most bits an integer can have and surely be within the int-string limit (``inf``: no limit)."""
    bound = int_bound()
    # 10**digits has this bit length, and every integer of fewer bits is below it.
    return bound.bit_length() - 1 if bound else math.inf


@functools.cache
def _bound_of(digits: int) -> int:
    bound: int = 10**digits
    return bound


def coerce_int(value: Any) -> int:
    """A JSON integer; an integral float such as ``5.0`` becomes ``5``.

    A subclass instance (an ``IntEnum`` member) is read through ``int`` or
    ``float`` and becomes a plain ``int``; ``bool`` is refused. An integer
    with more digits than the int-string limit is refused as ``too_long``,
    as it is when it comes in JSON text, which cannot be read into one.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        integer = int.__index__(value)
        bound = int_bound()
        if bound and not -bound < integer < bound:
            import sys

            raise Fail("too_long", integer, f"at most {sys.get_int_max_str_digits()} digits")
        return integer
    if isinstance(value, float) and float.is_integer(value):
        return int(float.__float__(value))
    raise Fail("expected_integer", value)


def coerce_float(value: Any) -> float:
    """A JSON number; an integer such as ``1`` becomes ``1.0`` (a subclass instance: a plain ``float``)."""
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(int.__index__(value))
        except OverflowError:
            raise Fail("expected_number", value, "too large for a float") from None
    raise Fail("expected_number", value)


def coerce_bool(value: Any) -> bool:
    """``true`` or ``false``; ``0`` and ``"true"`` are refused."""
    if value is True or value is False:
        return value
    raise Fail("expected_boolean", value)


def coerce_none(value: Any) -> None:
    """``null``."""
    if value is not None:
        raise Fail("expected_null", value)


def coerce_any(value: Any) -> Any:
    """Any value, passed as it is once no string in it (keys too) has a lone surrogate.

    Subclasses of the JSON types are read through their base type, and passed as they are.
    """
    if isinstance(value, str):
        if not str.isascii(value):
            check_unicode(str.__str__(value))
    elif isinstance(value, list):
        for index, item in enumerate(list.__iter__(value)):
            try:
                coerce_any(item)
            except Fail as fail:
                fail.rpath.append(index)
                raise
    elif isinstance(value, dict):
        for key, item in dict.items(value):
            try:
                if isinstance(key, str):
                    coerce_any(key)
                coerce_any(item)
            except Fail as fail:
                fail.rpath.append(key if isinstance(key, str) else repr(key))
                raise
    return value


def _string_of(code: str, value: Any) -> str:
    if type(value) is not str:
        if not isinstance(value, str):
            raise Fail(code, value)
        value = str.__str__(value)  # a subclass's own methods are not called
    text: str = value
    if not text.isascii():
        check_unicode(text)
    return text


#: The ``detail`` of a well-formed value that Python's type cannot hold (a
#: 10**9-day duration, a Decimal exponent beyond the context's limits).
OUT_OF_PYTHON_RANGE: Final = "beyond the range Python can represent"


def _parsed(code: str, parse: Any) -> Any:
    def coerce(value: Any) -> Any:
        text = _string_of(code, value)
        try:
            return parse(text)
        except ValueError:
            raise Fail(code, value) from None
        except ArithmeticError:  # well formed, but beyond what the Python type holds
            raise Fail(code, value, OUT_OF_PYTHON_RANGE) from None

    coerce.__name__ = f"coerce_{code.removeprefix('invalid_')}"
    return coerce


# The JSON Schema "uuid" format (RFC 4122): the dashed 36-character form of
# ASCII hex digits. ``uuid.UUID`` alone also takes braces, a "urn:uuid:"
# prefix, and (through ``int``) "+", "_", spaces and non-ASCII digits.
_UUID: Final = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"


@functools.cache
def _uuid_pattern() -> re.Pattern[str]:
    """``_UUID``, compiled on the first UUID parsed rather than at import."""
    return re.compile(_UUID)


def _parse_uuid(text: str) -> uuid.UUID:
    if _uuid_pattern().fullmatch(text) is None:
        raise ValueError("not a dashed UUID")
    return uuid.UUID(text)


def _parse_ipv6(text: str) -> ipaddress.IPv6Address:
    # The JSON Schema "ipv6" format is RFC 4291's address: without the zone
    # ("%eth0") that ``IPv6Address`` also takes (RFC 4007).
    address = ipaddress.IPv6Address(text)
    if address.scope_id:
        raise ValueError("an IPv6 address with a zone")
    return address


# Matched as ECMA 262 reads the schema's pattern: "12\n" is not a decimal
# (Python's ``$`` would let the newline through, and ``Decimal``/``int`` strip it).
_DECIMAL: Final = ecma_regex(DECIMAL_PATTERN)
_STRING_INTEGER: Final = ecma_regex(STRING_INTEGER_PATTERN)


def _parse_decimal(text: str) -> decimal.Decimal:
    if _DECIMAL.match(text) is None:
        raise ValueError("not a decimal")
    return decimal.Decimal(text)  # an exponent beyond the context's limits: InvalidOperation


def coerce_string_integer(value: Any) -> int:
    """An integer sent as a decimal string (``Param(wire="string_integer")``)."""
    text = _string_of("expected_integer", value)
    if _STRING_INTEGER.match(text) is None:
        raise Fail("expected_integer", value, 'as a decimal string such as "123"')
    try:
        return int(text)
    except ValueError:  # more digits than int() accepts
        raise Fail("expected_integer", value, "too many digits") from None


def coerce_path(value: Any) -> pathlib.Path:
    """A string, received as a ``Path``."""
    return pathlib.Path(coerce_str(value))


#: The coercer of each ``ir.Primitive`` name.
SCALARS: Final[dict[str, Any]] = {
    "str": coerce_str,
    "int": coerce_int,
    "float": coerce_float,
    "bool": coerce_bool,
    "none": coerce_none,
    "datetime": _parsed("invalid_datetime", isotime.parse_datetime),
    "date": _parsed("invalid_date", isotime.parse_date),
    "time": _parsed("invalid_time", isotime.parse_time),
    "timedelta": _parsed("invalid_duration", isotime.parse_duration),
    "uuid": _parsed("invalid_uuid", _parse_uuid),
    "ipv4": _parsed("invalid_ipv4", ipaddress.IPv4Address),
    "ipv6": _parsed("invalid_ipv6", _parse_ipv6),
    "decimal": _parsed("invalid_decimal", _parse_decimal),
    "path": coerce_path,
    "string_integer": coerce_string_integer,
}
