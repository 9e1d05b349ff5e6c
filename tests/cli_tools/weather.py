"""The weather tool , an async tool and a tool that raises."""

from __future__ import annotations

import asyncio
import contextlib

import toolcall

#: Calls of ``meet`` waiting, per meeting key.
_WAITING: dict[str, list[asyncio.Event]] = {}


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {"city": city, "days": days, "temp": 21.5}


@toolcall.tool
async def meet(key: str, call: int, expected: int) -> dict[str, int]:
    """Wait until ``expected`` calls with the same key are in progress at once, then answer.

    Only concurrent calls can all meet; calls run one after another never do:
    the first gives up after a while and says how many it met.

    Args:
        key: the meeting's name, so separate meetings do not mix
        call: this call's number, returned as is
        expected: how many calls the meeting waits for
    """
    events = _WAITING.setdefault(key, [])
    arrived = asyncio.Event()
    events.append(arrived)
    if len(events) >= expected:
        for event in events:
            event.set()
    with contextlib.suppress(asyncio.TimeoutError):  # alone too long: answer with how many came
        await asyncio.wait_for(arrived.wait(), timeout=20)
    return {"call": call, "met": len(events)}


@toolcall.tool
def explode(reason: str) -> str:
    """Fail with ``reason``.

    Args:
        reason: the message of the ValueError raised
    """
    raise ValueError(reason)
