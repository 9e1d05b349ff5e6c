"""toolcall against its peers, in one process, interleaved: ``python benchmarks/run.py [--quick]``.

Cases:
  (a) the weather tool of SPEC §1, args {"city": "Oslo", "days": 5}
  (b) a tool taking a list of 10 TypedDicts of 3 fields
  (c) emit for a 20-tool module (benchmarks/tools20.py), per call, after warm-up
  (d) defining the 20-tool module (executing its code: the decorators run)
  (e) a fresh-process `import toolcall`, minus a bare `python -c pass`

Every implementation of a case runs in rounds, round-robin, so a slow moment
of the machine hits all of them alike; each sample times a batch of calls
with the garbage collector off, and the table shows medians.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import peers  # noqa: E402

import toolcall  # noqa: E402

Bench = Callable[[], Any]


def sample(fn: Bench, batch: int) -> float:
    """Nanoseconds per call over one batch."""
    loop = range(batch)
    gc.disable()
    try:
        start = time.perf_counter_ns()
        for _ in loop:
            fn()
        return (time.perf_counter_ns() - start) / batch
    finally:
        gc.enable()


def interleaved(impls: dict[str, Bench], rounds: int, batch: int) -> dict[str, float]:
    """The median ns per call of each implementation, sampled round-robin."""
    for fn in impls.values():  # warm-up (and a check that each one works)
        fn()
    samples: dict[str, list[float]] = {name: [] for name in impls}
    for _ in range(rounds):
        for name, fn in impls.items():
            samples[name].append(sample(fn, batch))
    return {name: statistics.median(values) for name, values in samples.items()}


def process_ms(code: str, runs: int) -> dict[str, float]:
    """Median wall time of a fresh ``python -c`` for ``code`` and for ``pass``, interleaved."""
    snippets = {"python -c pass": "pass", code: code}
    times: dict[str, list[float]] = {name: [] for name in snippets}
    for _ in range(runs):
        for name, snippet in snippets.items():
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", snippet], check=True, cwd=HERE.parent)
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(values) for name, values in times.items()}


def show(case: str, results: dict[str, float], unit: str = "µs") -> None:
    """Print one case: each implementation's median and its ratio to toolcall."""
    scale = 1000 if unit == "µs" else 1
    ours = results["toolcall"]
    for name, value in results.items():
        print(f"| {case} | {name} | {value / scale:.3f} {unit} | {value / ours:.2f}x |")


def main() -> int:
    """Run every case and check the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (about 20 s)")
    options = parser.parse_args()
    rounds, batch, runs = (7, 2_000, 10) if options.quick else (25, 5_000, 30)
    warnings.simplefilter("ignore", toolcall.ToolcallWarning)
    print(f"Python {sys.version.split()[0]}, {rounds} rounds of {batch} calls; medians\n")
    print("| case | implementation | median | ÷ toolcall |")
    print("|---|---|---|---|")
    weather = interleaved(peers.weather_impls(), rounds, batch)
    show("(a) weather", weather)
    items = interleaved(peers.items_impls(), rounds, batch // 5)
    show("(b) 10 TypedDicts", items)
    emitted = interleaved(peers.emit_impls(), rounds, batch * 10)
    show("(c) emit, 20 tools", emitted)
    defined = interleaved(peers.define_impls(), max(rounds // 2, 5), 20)
    show("(d) define 20 tools", defined)
    started = process_ms("import toolcall", runs)
    import_cost = started["import toolcall"] - started["python -c pass"]
    print(f"| (e) import | python -c pass | {started['python -c pass']:.1f} ms | |")
    print(f"| (e) import | import toolcall | {started['import toolcall']:.1f} ms | +{import_cost:.1f} ms |")
    return report_targets(weather, items, emitted, import_cost)


def report_targets(weather: dict[str, float], items: dict[str, float], emitted: dict[str, float], imp: float) -> int:
    """Print PASS/FAIL for each target of the issue; exit status 1 when one fails."""
    checks = [
        ("(a) no slower than pydantic TypeAdapter", weather["toolcall"] <= weather["pydantic TypeAdapter"]),
        ("(a) within 1.5x of the CPython floor", weather["toolcall"] <= 1.5 * weather["floor"]),
        ("(b) no slower than pydantic TypeAdapter", items["toolcall"] <= items["pydantic TypeAdapter"]),
        ("(c) emit under 0.5 µs per call", emitted["toolcall"] < 500),
        ("(e) import under 25 ms above bare python", imp < 25),
    ]
    print()
    print(f"(a) toolcall ÷ floor: {weather['toolcall'] / weather['floor']:.2f}x")
    for text, ok in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
