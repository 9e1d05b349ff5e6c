"""toolcall against the CPython floor, a hand-written validator and its peers: ``python benchmarks/run.py [--quick]``.

Cases:
  (a) dispatch of the README's weather tool, args {"city": "Oslo", "days": 5}
  (b) dispatch of a tool taking a list of 10 TypedDicts of 3 fields
  (c) the 20 tool definitions of benchmarks/tools20.py for one request, per call, after warm-up
      (toolcall's is a fresh copy; the floor hands back one shared list)
  (d) defining those 20 tools: executing tools20's code afresh, decorators included
  (e) a fresh interpreter's ``import toolcall``, minus a bare ``python -c pass``

Every case runs its contenders in one process, interleaved round-robin over
many rounds (``timing.py``), and prints medians. The exit status is 1 when a
target of the issue is missed.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the sibling modules, also under ``python -m`` or an IDE
    sys.path.insert(0, str(HERE))

import peers  # noqa: E402
from timing import Contender, Stats, measure, measure_processes  # noqa: E402

import toolcall  # noqa: E402

Results = dict[str, Stats]


@dataclass(frozen=True)
class Settings:
    """How long to sample: rounds per case and the length of one sample."""

    rounds: int
    sample_ns: float
    define_rounds: int
    process_rounds: int
    #: Rounds for the peers that take seconds to import (0: leave them out).
    heavy_process_rounds: int


FULL = Settings(rounds=101, sample_ns=2e6, define_rounds=31, process_rounds=41, heavy_process_rounds=3)
QUICK = Settings(rounds=25, sample_ns=1e6, define_rounds=7, process_rounds=11, heavy_process_rounds=0)
HEAVY = ("mcp MCPServer", "anthropic beta_tool")  # seconds each to import: a few rounds only

PER_CALL_CASES: dict[str, tuple[str, Callable[[], list[Contender]]]] = {
    "a": ("(a) weather", peers.weather_contenders),
    "b": ("(b) 10 TypedDicts", peers.items_contenders),
    "c": ("(c) emit 20 tools", peers.emit_contenders),
    "d": ("(d) define 20 tools", peers.define_contenders),
}


def machine_note() -> str:
    """Python, CPU and load, for the record."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = "n/a"
    if hasattr(os, "getloadavg"):
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    version = f"{platform.python_implementation()} {platform.python_version()}"
    return f"{version} on {platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}), load {load}"


def revision() -> str:
    """The git commit of the toolcall being measured, ``+dirty`` when toolcall/ has local changes."""
    root = HERE.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "toolcall"], cwd=root, capture_output=True, text=True)
    except OSError:
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "") if head.returncode == 0 else "unknown"


def duration(ns: float) -> str:
    """``ns`` with a readable unit."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def ratio(value: float, reference: Stats | None) -> str:
    """``value`` as a multiple of ``reference``'s median."""
    return "-" if reference is None or reference.median <= 0 else f"{value / reference.median:.2f}x"


def table_rows(case: str, results: Results, floor: str | None = "floor") -> list[str]:
    """One markdown row per contender: median, interquartile range, ratios to toolcall and the floor."""
    ours, base = results.get("toolcall"), results.get(floor) if floor else None
    rows = []
    for name, stats in results.items():
        spread = f"{duration(stats.q1)} - {duration(stats.q3)}"
        rows.append(
            f"| {case} | {name} | {duration(stats.median)} | {spread} | {ratio(stats.median, ours)} "
            f"| {ratio(stats.median, base)} |"
        )
    return rows


def startup(settings: Settings) -> Results:
    """(e): start-up above a bare interpreter; the slow-to-import peers get a few rounds only."""
    snippets = peers.startup_snippets()
    light = {name: code for name, code in snippets.items() if name not in HEAVY}
    results = measure_processes(light, peers.BARE, settings.process_rounds, HERE)
    heavy = {name: code for name, code in snippets.items() if name in HEAVY}
    if heavy and settings.heavy_process_rounds:
        heavy = {peers.BARE: snippets[peers.BARE], **heavy}
        found = measure_processes(heavy, peers.BARE, settings.heavy_process_rounds, HERE)
        results.update({name: stats for name, stats in found.items() if name != peers.BARE})
    return results


def startup_rows(results: Results) -> list[str]:
    """(e) rows: the bare interpreter's wall time, then each import's cost above it."""
    rows = []
    ours = results.get("toolcall")
    for name, stats in results.items():
        label = "bare interpreter (absolute)" if name == peers.BARE else f"import {name}, above bare"
        value = duration(stats.median) if name == peers.BARE else f"+{duration(stats.median)}"
        spread = f"{duration(stats.q1)} - {duration(stats.q3)}"
        shown = "-" if name == peers.BARE else ratio(stats.median, ours)
        rows.append(f"| (e) import | {label} [{stats.rounds} runs] | {value} | {spread} | {shown} | - |")
    return rows


@dataclass(frozen=True)
class Target:
    """One target of the issue and whether this run met it."""

    text: str
    met: bool | None  # None: a contender it needs is not installed
    detail: str


def at_most(text: str, results: Results, other: str, factor: float = 1.0) -> Target:
    """toolcall's median is at most ``factor`` times ``other``'s."""
    if other not in results:
        return Target(text, None, f"{other} not available on this Python")
    ours, theirs = results["toolcall"].median, results[other].median
    return Target(text, ours <= factor * theirs, f"toolcall {duration(ours)} vs {other} {duration(theirs)}")


def under(text: str, results: Results, limit_ns: float) -> Target:
    """toolcall's median is below ``limit_ns``."""
    ours = results["toolcall"].median
    return Target(text, ours < limit_ns, f"toolcall {duration(ours)}, limit {duration(limit_ns)}")


def with_bound(target: Target, results: Results) -> Target:
    """``target`` with the pure-Python bound's own ratio to the floor, the least any ``run`` can reach."""
    bound, floor = results.get("pure-Python bound"), results.get("floor")
    if bound is None or floor is None:
        return target
    return replace(target, detail=f"{target.detail}; pure-Python bound {bound.median / floor.median:.2f}x")


def targets(results: dict[str, Results]) -> list[Target]:
    """The issue's targets, for the cases that ran."""
    found = []
    if "a" in results:
        found.append(at_most("(a) no slower than pydantic TypeAdapter", results["a"], "pydantic TypeAdapter"))
        near_floor = at_most("(a) within 1.5x of the CPython floor", results["a"], "floor", 1.5)
        found.append(with_bound(near_floor, results["a"]))
    if "b" in results:
        found.append(at_most("(b) no slower than pydantic TypeAdapter", results["b"], "pydantic TypeAdapter"))
    if "c" in results:
        # emit returns a fresh, independent copy per call; anthropic's to_dict shares its schemas.
        found.append(at_most("(c) emit at most 2x anthropic's to_dict", results["c"], "anthropic beta_tool", 2.0))
        found.append(at_most("(c) emit no slower than mcp list_tools", results["c"], "mcp list_tools"))
    if "e" in results:
        found.append(under("(e) import toolcall under 25 ms above bare python", results["e"], 25e6))
    return found


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds (about 20 s instead of 2 min)")
    parser.add_argument("--cases", default="abcde", help="which cases to run, e.g. 'ab' (default: abcde)")
    parser.add_argument(
        "--rounds-factor", type=rounds_factor, default=1, help="N times the rounds of every case (a loaded machine)"
    )
    return parser.parse_args(argv)


def rounds_factor(text: str) -> int:
    """``--rounds-factor``: a whole number of at least 1."""
    factor = int(text)
    if factor < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return factor


def scaled(settings: Settings, factor: int) -> Settings:
    """``settings`` with ``factor`` times the rounds of every case: more samples for the medians, same samples."""
    return replace(
        settings,
        rounds=settings.rounds * factor,
        define_rounds=settings.define_rounds * factor,
        process_rounds=settings.process_rounds * factor,
        heavy_process_rounds=settings.heavy_process_rounds * factor,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen cases, print the table and the targets."""
    options = parse(argv)
    settings = scaled(QUICK if options.quick else FULL, options.rounds_factor)
    warnings.simplefilter("ignore", toolcall.ToolcallWarning)  # findings are not what is timed
    started = time.perf_counter()
    print(f"{machine_note()}; toolcall {revision()}")
    print(f"{'--quick' if options.quick else 'full run'}: {settings}")
    print("".join(f"{line}\n" for line in peers.skipped_peers(peers.DISPATCH_PEERS)))
    print("| case | implementation | median | IQR | x toolcall | x floor |")
    print("|---|---|---|---|---|---|")
    results: dict[str, Results] = {}
    for key, (title, contenders) in PER_CALL_CASES.items():
        if key in options.cases:
            rounds = settings.define_rounds if key == "d" else settings.rounds
            results[key] = measure(contenders(), rounds, settings.sample_ns)
            print("\n".join(table_rows(title, results[key])), flush=True)
    if "e" in options.cases:
        results["e"] = startup(settings)
        print("\n".join(startup_rows(results["e"])))
    print()
    return report(targets(results), started)


def report(found: Sequence[Target], started: float) -> int:
    """Print each target's verdict and the time taken; the exit status: 1 when a target was missed."""
    for target in found:
        verdict = {True: "PASS", False: "FAIL", None: "SKIP"}[target.met]
        print(f"{verdict}  {target.text}: {target.detail}")
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 1 if any(target.met is False for target in found) else 0


if __name__ == "__main__":
    raise SystemExit(main())
