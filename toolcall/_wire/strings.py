"""Values the wire carries as strings: a default's Python value → the string the dispatcher parses back.

Constant defaults that are dates, datetimes, times, timedeltas, UUIDs and
Decimals are emitted as the wire strings of their primitives:

* ``date``, ``datetime``, ``time``: ``isoformat()`` (``"2024-05-01"``,
  ``"2024-05-01T12:30:00+00:00"``, ``"12:30:00-03:00"``); a naive datetime or
  time has none, as the schema's ``date-time`` and ``time`` formats (RFC 3339)
  require a UTC offset;
* ``timedelta``: its ISO 8601 duration (``isotime.format_duration``: ``"PT1H"``);
* ``UUID``: the canonical lowercase, dashed form;
* ``Decimal``: ``str()``, which keeps its exponent (``"12.50"``, ``"1E+2"``).

Only the exact classes count, as ``ir.PRIMITIVE_CLASSES`` matches
primitives. A value whose string the dispatcher would not read back to an
equal value (a NaN Decimal, a UTC offset with seconds) has none either.

Both front ends use this: the runtime on a live default
(``defaults.json_of``), the mypy plugin on the value it builds from a
constant constructor call (``toolcall_mypy._analysis.defaults``). The result is a
``WireString``: a ``str`` (JSON writes it as a string) that remembers the
primitive it spells and the value it stands for, so ``defaults.fit_default``
fits it to that primitive only and checks bounds on the value.
"""

from __future__ import annotations

import datetime as dt
import decimal
import uuid
from collections.abc import Callable
from typing import Any, Final

from toolcall import _ir as ir
from toolcall._wire import isotime
from toolcall._wire.scalars import SCALARS

__all__ = ["WIRE_STRING_CLASSES", "NoOffset", "NoWireString", "WireString", "wire_string"]

#: The classes whose constant values travel as strings, by full name (as mypy names them).
WIRE_STRING_CLASSES: Final[dict[str, type]] = {
    "datetime.datetime": dt.datetime,
    "datetime.date": dt.date,
    "datetime.time": dt.time,
    "datetime.timedelta": dt.timedelta,
    "uuid.UUID": uuid.UUID,
    "decimal.Decimal": decimal.Decimal,
}


class NoWireString(ValueError):
    """A value of a wire-string class that no string carries back to it; the text says why."""


class NoOffset(NoWireString):
    """A naive datetime or time: ``format_name`` (RFC 3339's ``date-time`` or ``time``) needs a UTC offset."""

    def __init__(self, format_name: str) -> None:
        super().__init__(f"no UTC offset, which the {format_name!r} format requires")
        self.format_name = format_name


class WireString(str):
    """The wire string of a value: ``kind`` is its ``ir.Primitive`` name, ``value`` the value it stands for.

    Its ``repr`` is the value's, so a message about the default shows what
    the developer wrote (``datetime.date(2024, 5, 1)``), not the string.
    """

    kind: str
    value: object

    def __new__(cls, text: str, kind: str, value: object) -> WireString:
        """The string ``text``, spelling ``value`` as the primitive ``kind``."""
        self = super().__new__(cls, text)
        self.kind = kind
        self.value = value
        return self

    def __getnewargs__(self) -> tuple[str, str, object]:  # type: ignore[override]
        """Copies and pickles keep the kind and the value."""
        return str(self), self.kind, self.value

    def __repr__(self) -> str:
        """The value's ``repr``."""
        return repr(self.value)


def _iso(value: Any) -> str:
    return str(value.isoformat())


# Each exact class: its primitive's name and how its value is written.
_WRITERS: Final[dict[type, tuple[str, Callable[[Any], str]]]] = {
    cls: (
        ir.PRIMITIVE_CLASSES[name],
        isotime.format_duration if cls is dt.timedelta else _iso if name.startswith("datetime.") else str,
    )
    for name, cls in WIRE_STRING_CLASSES.items()
}


def wire_string(value: object) -> WireString | None:
    """``value``'s wire string; ``None`` when it is not of a wire-string class.

    Raises ``NoWireString`` when the dispatcher would not read the string back
    to an equal value of the same class.
    """
    writer = _WRITERS.get(type(value))
    if writer is None:
        return None
    kind, write = writer
    what = type(value).__qualname__
    try:
        text = write(value)
    except Exception as exc:  # a tzinfo of the user's whose utcoffset() raises
        raise NoWireString(f"a {what} that cannot be written: {type(exc).__name__}: {exc}") from None
    if isinstance(value, (dt.datetime, dt.time)) and value.utcoffset() is None:
        raise NoOffset("date-time" if isinstance(value, dt.datetime) else "time")
    if not _reads_back(kind, text, value):
        raise NoWireString(f"a {what} whose wire string {text!r} does not read back to it")
    return WireString(text, kind, value)


def _reads_back(kind: str, text: str, value: object) -> bool:
    """Whether the dispatcher's coercer for ``kind`` turns ``text`` into a value equal to ``value``."""
    try:
        parsed = SCALARS[kind](text)
        return type(parsed) is type(value) and bool(parsed == value)
    except Exception:  # not parsed (``Fail``), or a tzinfo of the user's raised while comparing
        return False
