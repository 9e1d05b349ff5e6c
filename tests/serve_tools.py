"""Tools for the tests of ``toolcall serve``'s reliability: tools that fail hard, hang, or take rich types."""

from __future__ import annotations

import asyncio
import datetime
import threading
import time
from typing import Any, Literal, TypedDict

import toolcall

#: Set by nothing: ``stuck`` waits on it for ever.
_NEVER = threading.Event()
#: ``held`` calls waiting, per key, released by ``release``.
_HELD: dict[str, asyncio.Event] = {}
#: ``rendezvous`` calls waiting, per key.
_BARRIERS: dict[str, threading.Barrier] = {}
_BARRIERS_LOCK = threading.Lock()


@toolcall.tool
async def abandoned() -> str:
    """Await a task that something else cancels: ``asyncio.CancelledError`` escapes the tool."""
    sleeper = asyncio.ensure_future(asyncio.sleep(3600))
    asyncio.get_running_loop().call_soon(sleeper.cancel)
    await sleeper
    return "not reached"


@toolcall.tool
async def cancelled_async() -> str:
    """Raise ``asyncio.CancelledError`` from an async tool."""
    raise asyncio.CancelledError


@toolcall.tool
def cancelled_sync() -> str:
    """Raise ``asyncio.CancelledError`` from a sync tool run on the event loop."""
    raise asyncio.CancelledError


@toolcall.tool(thread=True)
def cancelled_in_thread() -> str:
    """Raise ``asyncio.CancelledError`` from a tool run in a worker thread."""
    raise asyncio.CancelledError


@toolcall.tool
async def interrupted_async() -> str:
    """Raise ``KeyboardInterrupt`` from an async tool."""
    raise KeyboardInterrupt


@toolcall.tool
def interrupted_sync() -> str:
    """Raise ``KeyboardInterrupt`` from a sync tool run on the event loop."""
    raise KeyboardInterrupt


@toolcall.tool(thread=True)
def interrupted_in_thread() -> str:
    """Raise ``KeyboardInterrupt`` from a tool run in a worker thread."""
    raise KeyboardInterrupt


@toolcall.tool(thread=True)
def stuck() -> str:
    """Never return: the worker thread waits for ever."""
    _NEVER.wait()
    return "not reached"


@toolcall.tool(thread=True)
def nap(seconds: float) -> float:
    """Sleep in a worker thread, then answer.

    Args:
        seconds: how long to sleep
    """
    time.sleep(seconds)
    return seconds


@toolcall.tool(thread=True)
def rendezvous(key: str, expected: int) -> bool:
    """Wait in a worker thread until ``expected`` calls with this key wait at once; whether they all came.

    Only calls running in threads at the same time can all meet.

    Args:
        key: the meeting's name
        expected: how many calls the meeting waits for
    """
    with _BARRIERS_LOCK:
        barrier = _BARRIERS.setdefault(key, threading.Barrier(expected))
    try:
        barrier.wait(timeout=20)
    except threading.BrokenBarrierError:  # alone too long
        return False
    return True


@toolcall.tool
async def held(key: str) -> str:
    """Wait until ``release(key)`` is called, then answer with the key.

    Args:
        key: the name ``release`` is called with
    """
    await _HELD.setdefault(key, asyncio.Event()).wait()
    return key


@toolcall.tool
def release(key: str) -> int:
    """Let the ``held`` calls with this key answer; how many keys are still held.

    Args:
        key: the name the ``held`` calls were given
    """
    _HELD.setdefault(key, asyncio.Event()).set()
    return sum(not event.is_set() for event in _HELD.values())


class Item(TypedDict):
    """A line of an order."""

    sku: str
    qty: int


@toolcall.tool
def count(n: int) -> int:
    """Answer with ``n``.

    Args:
        n: any integer
    """
    return n


@toolcall.tool
def echo(text: str) -> str:
    """Answer with ``text``.

    Args:
        text: any string
    """
    return text


@toolcall.tool
def grid(rows: list[list[int]]) -> int:
    """The number of cells.

    Args:
        rows: rows of integers
    """
    return sum(len(row) for row in rows)


@toolcall.tool
def order(items: list[Item], when: datetime.date, mode: Literal["fast", "slow"] = "fast") -> dict[str, Any]:
    """Place an order.

    Args:
        items: what to order
        when: the delivery day
        mode: how to ship
    """
    return {"lines": len(items), "when": when.isoformat(), "mode": mode}


@toolcall.tool
def keep(data: dict[str, Any]) -> int:
    """How many keys ``data`` has.

    Args:
        data: any JSON object
    """
    return len(data)
