"""Interleaved timing: every contender of a case is sampled once per round, round-robin.

A contender is a statement and the namespace it runs in. Each sample runs
the statement ``batch`` times in one ``timeit`` loop (the statement is
compiled into the loop, so no wrapper call is timed) with the garbage
collector off, timed with ``time.perf_counter_ns``; ``batch`` is chosen once
per contender so that a sample lasts about ``sample_ns``, far above the
timer's resolution. The rounds rotate which contender goes first, so a slow
moment of the machine, or a warm cache left by the previous contender, hits
all of them alike. Results are medians over the rounds.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Contender:
    """One implementation of a case: ``stmt`` run in ``namespace``."""

    name: str
    stmt: str
    namespace: dict[str, Any] = field(default_factory=dict)
    #: Called with the statement's value once before timing; raises if the answer is wrong.
    check: Callable[[Any], None] | None = None
    #: How many calls one run of ``stmt`` makes (times are per call).
    calls: int = 1


@dataclass(frozen=True)
class Stats:
    """The per-call times of one contender, in nanoseconds."""

    median: float
    q1: float
    q3: float
    rounds: int

    @classmethod
    def of(cls, samples: Sequence[float]) -> Stats:
        """The median and quartiles of ``samples``."""
        if len(samples) < 2:
            return cls(samples[0], samples[0], samples[0], len(samples))
        q1, _, q3 = statistics.quantiles(samples, n=4)
        return cls(statistics.median(samples), q1, q3, len(samples))


def verify(contender: Contender) -> None:
    """Run the statement once (a warm-up too) and check its value."""
    value = eval(contender.stmt, contender.namespace)
    if contender.check is not None:
        contender.check(value)


def calibrate(timer: timeit.Timer, sample_ns: float) -> int:
    """The batch size that makes one sample last about ``sample_ns``."""
    batch = 1
    while True:
        elapsed = timer.timeit(batch)
        if elapsed >= sample_ns / 4 or batch >= 1 << 24:
            return max(1, round(batch * sample_ns / max(elapsed, 1)))
        batch *= 4


def measure(contenders: Sequence[Contender], rounds: int, sample_ns: float) -> dict[str, Stats]:
    """Median ns per call of each contender over ``rounds`` interleaved rounds."""
    timers = []
    for contender in contenders:
        verify(contender)
        # timeit turns the collector off around its loop; perf_counter_ns keeps whole nanoseconds.
        timer = timeit.Timer(contender.stmt, timer=time.perf_counter_ns, globals=contender.namespace)
        timers.append((contender, timer, calibrate(timer, sample_ns)))
    samples: dict[str, list[float]] = {contender.name: [] for contender, _, _ in timers}
    for index in range(rounds):
        shift = index % len(timers)
        for contender, timer, batch in timers[shift:] + timers[:shift]:
            samples[contender.name].append(timer.timeit(batch) / (batch * contender.calls))
    return {name: Stats.of(values) for name, values in samples.items()}


def process_env(pycache: Path) -> dict[str, str]:
    """The environment for timed interpreters: bytecode cached (in ``pycache``), as in a deployment."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # else every start would compile toolcall afresh
    env["PYTHONPYCACHEPREFIX"] = str(pycache)  # and the caches stay out of the source tree
    return env


def run_once(snippet: str, cwd: Path, env: dict[str, str]) -> float:
    """Wall-clock ns of one fresh ``python -c snippet``."""
    start = time.perf_counter_ns()
    subprocess.run([sys.executable, "-c", snippet], cwd=cwd, env=env, check=True)
    return time.perf_counter_ns() - start


def measure_processes(snippets: dict[str, str], baseline: str, rounds: int, cwd: Path) -> dict[str, Stats]:
    """Start-up cost of each snippet: median over rounds of (its wall time - the baseline's, same round).

    The baseline's own entry is its absolute wall time. Rounds rotate the
    order, and the first round (which writes the bytecode caches) is dropped.
    """
    names = list(snippets)
    times: dict[str, list[float]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="toolcall-bench-") as pycache:
        env = process_env(Path(pycache))
        for index in range(rounds + 1):
            shift = index % len(names)
            walls = {name: run_once(snippets[name], cwd, env) for name in names[shift:] + names[:shift]}
            if index == 0:
                continue
            for name in names:
                times[name].append(walls[name] - (0 if name == baseline else walls[baseline]))
    return {name: Stats.of(values) for name, values in times.items()}
