"""Dates and string-carried scalars: datetime, date, time, timedelta, UUID, IP addresses, Decimal, Path."""

from __future__ import annotations

import datetime
import ipaddress
import uuid
from decimal import Decimal
from pathlib import Path, PurePosixPath

import toolcall


@toolcall.tool
def schedule(
    start: datetime.datetime,
    day: datetime.date,
    at: datetime.time,
    length: datetime.timedelta,
    booking: uuid.UUID,
) -> str:
    """Schedule a meeting."""
    return str(booking)


@toolcall.tool
def invoice(total: Decimal, pdf: Path, archive: PurePosixPath | None = None) -> None:
    """Write an invoice PDF."""


@toolcall.tool
def connect(
    host: ipaddress.IPv4Address,
    peer: ipaddress.IPv6Address,
    fallback: ipaddress.IPv4Address | None = None,
) -> str:
    """Open a connection to a host."""
    return f"{host} {peer} {fallback}"
