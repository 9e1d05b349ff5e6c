"""ISO 8601 parsing for the wire forms of datetime, date, time and timedelta.

The same rules on every supported Python (``fromisoformat`` accepts more on
3.11+ than on 3.10, so it is not used directly): a date-time is
``YYYY-MM-DD`` then ``T``, ``t`` or a space, then a time; a time is
``HH:MM[:SS[.fraction]]`` with an optional ``Z`` or ``±HH:MM`` offset. A
duration is ``[-]P[nW][nD][T[nH][nM][n[.n]S]]`` (a fraction may use ``.`` or
``,``, as ISO 8601 allows); years and months are refused because they have
no fixed length. Digits are ASCII only: other Unicode digits (Arabic-Indic,
full-width), which ``int`` would read, are refused.

``format_duration`` writes a ``timedelta`` the way ``parse_duration`` reads
it back (the wire form of a ``timedelta`` default).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Final

__all__ = ["format_duration", "parse_date", "parse_datetime", "parse_duration", "parse_time"]

_DATE: Final = r"(\d{4})-(\d{2})-(\d{2})"
_TIME: Final = r"(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?"
_DATETIME: Final = _DATE + r"[Tt ]" + _TIME
_N: Final = r"(\d+(?:[.,]\d+)?)"
_ZERO: Final = dt.timedelta(0)
_DURATION: Final = rf"(-)?P(?:{_N}W)?(?:{_N}D)?(?:T(?:{_N}H)?(?:{_N}M)?(?:{_N}S)?)?"


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """``pattern``, compiled on its first use rather than at import (about a millisecond for the four)."""
    return re.compile(pattern, re.ASCII)


def parse_date(text: str) -> dt.date:
    """``YYYY-MM-DD`` → ``date``; ``ValueError`` otherwise."""
    match = _compiled(_DATE).fullmatch(text)
    if match is None:
        raise ValueError("not an ISO 8601 date")
    return dt.date(*(int(g) for g in match.groups()))


def parse_time(text: str) -> dt.time:
    """``HH:MM[:SS[.f]][Z|±HH:MM]`` → ``time``; ``ValueError`` otherwise."""
    match = _compiled(_TIME).fullmatch(text)
    if match is None:
        raise ValueError("not an ISO 8601 time")
    return _time(match.groups())


def parse_datetime(text: str) -> dt.datetime:
    """``YYYY-MM-DDTHH:MM[:SS[.f]][Z|±HH:MM]`` → ``datetime``; ``ValueError`` otherwise."""
    match = _compiled(_DATETIME).fullmatch(text)
    if match is None:
        raise ValueError("not an ISO 8601 date-time")
    groups = match.groups()
    return dt.datetime.combine(dt.date(*(int(g) for g in groups[:3])), _time(groups[3:]))


def _time(groups: tuple[str | None, ...]) -> dt.time:
    hour, minute, second, fraction, zulu, sign, off_h, off_m = groups
    micro = int((fraction or "0")[:6].ljust(6, "0"))
    tz: dt.tzinfo | None = None
    if zulu:
        tz = dt.UTC
    elif sign:
        offset = dt.timedelta(hours=int(off_h or 0), minutes=int(off_m or 0))
        tz = dt.timezone(-offset if sign == "-" else offset)
    return dt.time(int(hour or 0), int(minute or 0), int(second or 0), micro, tzinfo=tz)


def parse_duration(text: str) -> dt.timedelta:
    """ISO 8601 duration (weeks, days, hours, minutes, seconds) → ``timedelta``."""
    match = _compiled(_DURATION).fullmatch(text)
    if match is None or text.endswith(("P", "T")):
        raise ValueError("not an ISO 8601 duration without years or months")
    sign, weeks, days, hours, minutes, seconds = (g.replace(",", ".") if g else g for g in match.groups())
    delta = dt.timedelta(
        weeks=float(weeks or 0),
        days=float(days or 0),
        hours=float(hours or 0),
        minutes=float(minutes or 0),
        seconds=float(seconds or 0),
    )
    return -delta if sign else delta


def format_duration(delta: dt.timedelta) -> str:
    """``timedelta`` → its ISO 8601 duration, which ``parse_duration`` reads back to an equal ``timedelta``.

    The natural form: the parts ``timedelta`` normalizes to (days, then
    hours, minutes and seconds of the day, microseconds as a fraction of a
    second with its trailing zeros cut), each written only when it is not
    zero: ``P1D``, ``PT1M30S``, ``P1DT2H``, ``PT0.5S``; ``PT0S`` for zero.
    A negative duration is its magnitude with a leading ``-`` (``-PT30S``,
    not ``timedelta``'s ``-1 day, 23:59:30``). Days are never folded into
    weeks (``P14D``), as ``timedelta`` never does.
    """
    sign = "-" if delta < _ZERO else ""
    delta = abs(delta)  # |timedelta.min| is in range: the range is symmetric in days
    hours, rest = divmod(delta.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    day_part = f"{delta.days}D" if delta.days else ""
    time_part = "".join(f"{n}{unit}" for n, unit in ((hours, "H"), (minutes, "M")) if n)
    if seconds or delta.microseconds:
        fraction = f".{delta.microseconds:06d}".rstrip("0") if delta.microseconds else ""
        time_part += f"{seconds}{fraction}S"
    if not (day_part or time_part):
        return "PT0S"
    return f"{sign}P{day_part}{'T' if time_part else ''}{time_part}"
