"""Concurrent dispatch through one toolset: every call gets exactly its own result.

Each test builds fresh tools (local ``@tool`` functions, never dispatched
before), so the first calls also race to load the toolset and to generate
each tool's binder. Threads start together at a barrier; asyncio tasks mix
``async def`` tools, ``@tool(thread=True)`` tools run in worker threads, and
plain sync tools. Every call checks its result against what its own input
must give, refusals included.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import sys
import threading
import time
import types
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple, TypedDict

import pytest

import toolcall
from toolcall import errors
from toolcall._dispatch import binder
from toolcall._dispatch.result import Err, Ok

pytestmark = pytest.mark.threads

THREADS = 16
CALLS_PER_THREAD = 500
TASKS = 200


@dataclasses.dataclass(frozen=True)
class Point:
    x: float
    y: float = 0.0


class Span(NamedTuple):
    start: int
    end: int


class Order(TypedDict):
    sku: str
    qty: int


#: A call: (tool name, args, the exact expected result).
Call = tuple[str, Any, Any]


def make_tools() -> list[Callable[..., Any]]:
    """Fresh tool functions (new definitions every call, so nothing is loaded or prepared yet)."""

    @toolcall.tool
    def add(a: int, b: int = 1) -> int:
        return a + b

    @toolcall.tool
    def join(parts: list[str], sep: str = "-") -> str:
        return sep.join(parts)

    @toolcall.tool
    def norm(p: Point) -> tuple[float, float, str]:
        return (p.x, p.y, type(p).__name__)

    @toolcall.tool
    def width(span: Span) -> tuple[int, str]:
        return (span.end - span.start, type(span).__name__)

    @toolcall.tool
    def unique(words: set[str]) -> list[str]:
        return sorted(words)

    @toolcall.tool
    def weekday(day: dt.date) -> int:
        return day.isoweekday()

    @toolcall.tool
    def either(v: int | str) -> str:
        return f"{type(v).__name__}:{v}"

    @toolcall.tool
    def total(order: Order, **discounts: int) -> int:
        return order["qty"] - sum(discounts.values())

    @toolcall.tool
    def pair(t: tuple[int, str]) -> str:
        return t[1] * t[0]

    return [add, join, norm, width, unique, weekday, either, total, pair]


def call_for(worker: int, i: int) -> Call:
    """The ``i``-th call of ``worker``: distinct arguments, the result they must give."""
    n = worker * 100_000 + i
    kind = (worker + i) % 12
    if kind == 0:
        return ("add", {"a": n, "b": i}, Ok(n + i))
    if kind == 1:
        return ("add", {"a": n}, Ok(n + 1))
    if kind == 2:
        parts = [str(worker), str(i), "x" * (i % 4)]
        return ("join", {"parts": parts, "sep": "/"}, Ok("/".join(parts)))
    if kind == 3:
        return ("norm", {"p": {"x": n, "y": i / 2}}, Ok((float(n), i / 2, "Point")))
    if kind == 4:
        return ("width", {"span": {"start": i, "end": n}}, Ok((n - i, "Span")))
    if kind == 5:
        words = [f"w{worker}", f"i{i}", f"w{worker}x"]
        return ("unique", {"words": words}, Ok(sorted(words)))
    if kind == 6:
        day = dt.date(2000, 1, 1) + dt.timedelta(days=n % 10_000)
        return ("weekday", {"day": day.isoformat()}, Ok(day.isoweekday()))
    if kind == 7:
        value: int | str = n if i % 2 else f"s{n}"
        return ("either", {"v": value}, Ok(f"{type(value).__name__}:{value}"))
    if kind == 8:
        return ("total", {"order": {"sku": f"k{n}", "qty": n}, "vip": i, "bulk": worker}, Ok(n - i - worker))
    if kind == 9:
        return ("pair", {"t": [i % 5, f"{worker}."]}, Ok(f"{worker}." * (i % 5)))
    if kind == 10:  # a refusal, with this call's own value in it
        return ("add", {"a": f"{n}"}, Err(errors.InvalidArgument("a", errors.Reason("expected_integer", f"{n}"))))
    return (
        "unique",
        {"words": [f"d{n}", f"d{n}"]},
        Err(errors.InvalidArgument("words", errors.Reason("duplicate_items", [f"d{n}", f"d{n}"]))),
    )


def _check(failures: list[str], where: str, call: Call, got: Any) -> None:
    name, args, expected = call
    if got != expected or type(got) is not type(expected):
        failures.append(f"{where}: {name}({args!r}) gave {got!r}, expected {expected!r}")
    elif isinstance(expected, Ok) and type(got.value) is not type(expected.value):
        failures.append(
            f"{where}: {name} gave a {type(got.value).__name__}, expected a {type(expected.value).__name__}"
        )


def test_threads_share_one_fresh_toolset(monkeypatch: pytest.MonkeyPatch) -> None:
    toolset = toolcall.Toolset(*make_tools())
    prepared: Counter[str] = Counter()
    real_prepare = binder.prepare

    def counting_prepare(tool: Any, *rest: Any) -> Any:
        prepared[tool.name] += 1
        time.sleep(0.01)  # widen the window in which a second thread could build it again
        return real_prepare(tool, *rest)

    monkeypatch.setattr(binder, "prepare", counting_prepare)
    barrier = threading.Barrier(THREADS)
    failures: list[str] = []
    lock = threading.Lock()

    def worker(index: int) -> None:
        mine: list[str] = []
        barrier.wait()  # everyone's first call races for the first binder
        try:
            for i in range(CALLS_PER_THREAD):
                call = call_for(index, i)
                _check(mine, f"thread {index} call {i}", call, toolcall.run(toolset, call[0], call[1]))
        except BaseException as exc:  # a raise is a failure too, not a silently dead thread
            mine.append(f"thread {index} raised {exc!r}")
        with lock:
            failures.extend(mine)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a worker thread hung"
    assert not failures, f"{len(failures)} wrong results, e.g.:\n" + "\n".join(failures[:10])
    assert prepared == dict.fromkeys(toolset.names, 1), "each tool's binder is built exactly once"


_MODULE_SOURCE = """
import toolcall

@toolcall.tool
def triple(n: int) -> int:
    return 3 * n

@toolcall.tool
def shout(text: str, times: int = 1) -> str:
    return text.upper() * times
"""


def test_threads_race_to_load_a_module_source() -> None:
    """A module never used as a source: the first ``run`` calls race to build its toolset too."""
    module = types.ModuleType("tests._concurrency_fresh_module")
    sys.modules[module.__name__] = module
    try:
        exec(compile(_MODULE_SOURCE, "<fresh module>", "exec"), module.__dict__)
        barrier = threading.Barrier(THREADS)
        failures: list[str] = []

        def worker(index: int) -> None:
            barrier.wait()
            try:
                for i in range(100):
                    n = index * 1000 + i
                    if i % 2:
                        _check(
                            failures,
                            f"thread {index}",
                            ("triple", {}, Ok(3 * n)),
                            toolcall.run(module, "triple", {"n": n}),
                        )
                    else:
                        got = toolcall.run(module, "shout", {"text": f"t{n}", "times": 2})
                        _check(failures, f"thread {index}", ("shout", {}, Ok(f"T{n}" * 2)), got)
            except BaseException as exc:
                failures.append(f"thread {index} raised {exc!r}")

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not failures, "\n".join(failures[:10])
    finally:
        del sys.modules[module.__name__]


def make_async_tools() -> list[Callable[..., Any]]:
    """Fresh async, worker-thread and plain tools."""

    @toolcall.tool
    async def slow_double(n: int, pause: float = 0.0) -> tuple[int, int]:
        await asyncio.sleep(pause)  # let other tasks run in between
        return (2 * n, threading.get_ident())

    @toolcall.tool(thread=True)
    def blocking_square(n: int) -> tuple[int, int]:
        import time

        time.sleep(0.001)
        return (n * n, threading.get_ident())

    @toolcall.tool
    def negate(n: int, point: Point | None = None) -> tuple[int, int]:
        return (-n + (int(point.x) if point else 0), threading.get_ident())

    return [slow_double, blocking_square, negate]


def test_asyncio_tasks_share_one_fresh_toolset() -> None:
    toolset = toolcall.Toolset(*make_async_tools())
    failures: list[str] = []

    async def task(index: int, loop_thread: int) -> None:
        for i in range(5):
            n = index * 100 + i
            kind = (index + i) % 4
            if kind == 0:
                got = await toolcall.arun(toolset, "slow_double", {"n": n, "pause": (i % 3) / 1000})
                expected, thread = 2 * n, "loop"
            elif kind == 1:
                got = await toolcall.arun(toolset, "blocking_square", {"n": n})
                expected, thread = n * n, "worker"
            elif kind == 2:
                got = await toolcall.arun(toolset, "negate", {"n": n, "point": {"x": i}})
                expected, thread = -n + i, "loop"
            else:  # a refusal, checked on the loop before any thread is used
                got = await toolcall.arun(toolset, "blocking_square", {"n": f"{n}"})
                want = Err(errors.InvalidArgument("n", errors.Reason("expected_integer", f"{n}")))
                if got != want:
                    failures.append(f"task {index} call {i}: {got!r}, expected {want!r}")
                continue
            if not isinstance(got, Ok) or got.value[0] != expected:
                failures.append(f"task {index} call {i}: {got!r}, expected {expected}")
            elif (got.value[1] == loop_thread) != (thread == "loop"):
                failures.append(f"task {index} call {i}: ran on the wrong thread for a {thread} tool")

    async def main() -> None:
        loop_thread = threading.get_ident()
        await asyncio.gather(*(task(index, loop_thread) for index in range(TASKS)))

    asyncio.run(main())
    assert not failures, f"{len(failures)} wrong results, e.g.:\n" + "\n".join(failures[:10])


def test_threads_and_tasks_together() -> None:
    """Threads calling ``run`` while an event loop awaits ``arun`` on the same fresh toolset."""
    toolset = toolcall.Toolset(*make_tools(), *make_async_tools())
    failures: list[str] = []
    start = threading.Barrier(THREADS // 2 + 1)

    def worker(index: int) -> None:
        start.wait()
        try:
            for i in range(200):
                call = call_for(index, i)
                _check(failures, f"thread {index}", call, toolcall.run(toolset, call[0], call[1]))
        except BaseException as exc:
            failures.append(f"thread {index} raised {exc!r}")

    async def task(index: int) -> None:
        for i in range(10):
            call = call_for(THREADS + index, i)
            _check(failures, f"task {index}", call, await toolcall.arun(toolset, call[0], call[1]))
            got = await toolcall.arun(toolset, "slow_double", {"n": index * 10 + i})
            if not isinstance(got, Ok) or got.value[0] != 2 * (index * 10 + i):
                failures.append(f"task {index}: slow_double gave {got!r}")

    async def main() -> None:
        start.wait()
        await asyncio.gather(*(task(index) for index in range(50)))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS // 2)]
    for thread in threads:
        thread.start()
    asyncio.run(main())
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, f"{len(failures)} wrong results, e.g.:\n" + "\n".join(failures[:10])
