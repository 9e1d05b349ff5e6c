"""One module of 10,000 tools: its first emit served from the schema cache against introspection.

``python benchmarks/cache_large_module.py [--tools 10000] [--rounds 3] [--seed 0] [--profile]``

Writes ``tests/corpus_gen.py``'s ``write_large_module`` package into a
temporary directory: the shared type modules of the generated corpus and
one module, ``acme_tools.catalog``, of ``--tools`` tools (each made as a
corpus tool: long Google docstrings with an ``Args:`` section, nested
TypedDicts, str and int Enums, dataclasses with ``X | None = None`` fields,
``Literal`` enums, ``Annotated`` bounds, defaults of every JSON kind).
``python -m mypy -p acme_tools`` with ``plugins = toolcall_mypy``
(``toolcall-strict`` disabled and the provider SDKs skipped, as in
``plugin_corpus.py``) writes its
schema cache file, ``acme_tools/__toolcall__/catalog.json``; its time is
printed, with the file's size and bytes per tool.

Then each sample is a fresh interpreter that times, with
``time.perf_counter_ns``, ``import toolcall`` + ``import acme_tools.catalog``
+ the first ``toolcall.emit(module, "openai")``, in two states:

- cached: ``TOOLCALL_CACHE`` unset (the default, ``auto``): served from the cache file;
- introspected: ``TOOLCALL_CACHE=off``: every tool introspected.

Before the rounds, one interpreter emits under ``TOOLCALL_CACHE=require``,
which raises unless every tool is served from the cache, and its output
must equal the introspected one byte for byte (``json.dumps``); otherwise
the benchmark stops. After the rounds, the ``require`` run is repeated and
must serve the same bytes, or the benchmark fails. The rounds alternate which state goes first. The table gives
medians of the in-process time (and of its import and emit parts, the
process's wall time and its own peak RSS, from ``os.wait4``); the target is
cached median / introspected median ≤ 0.25.

As in ``check_cost.py``, mypy and every interpreter run a copy of
``toolcall`` and ``toolcall_mypy`` taken at the start (first on
``PYTHONPATH``), so an edit to the tree during the run cannot make the cache
stale; the bytecode of that copy and of the generated package is written
first (an import of the 10,000-tool module would otherwise compile its
source, about 10 MB, in every sample under ``PYTHONDONTWRITEBYTECODE``).

``--profile``: after the rounds, runs cProfile in a fresh interpreter over
the cached first emit alone (the module already imported) and prints the
top 25 functions by cumulative time, then the top 15 by own time.
``--rounds 0 --profile`` profiles only. ``--tools 1000`` is the quick size
(under a minute); 10,000 tools take a few minutes.
Unix only (``os.wait4``). The exit status is 1 when the target fails.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``tests`` and ``benchmarks`` as packages, also when run as a script
    sys.path.insert(0, str(ROOT))

from benchmarks.check_cost import snapshot  # noqa: E402
from benchmarks.plugin_corpus import load, machine, run_process, verdict  # noqa: E402
from tests.corpus_gen import LargeModule, write_large_module  # noqa: E402
from tests.mypy_settings import INI as SKIP_SDKS  # noqa: E402

# The provider SDKs skipped (tests/mypy_settings.py): mypy here only writes the cache file.
CONFIG: Final = "[mypy]\nplugins = toolcall_mypy\ndisable_error_code = toolcall-strict\n" + SKIP_SDKS
#: The directory of the project that holds the snapshot of toolcall and its plugin.
LIBRARY: Final = "lib"
TARGET: Final = 0.25
CACHED: Final = "cached"
INTROSPECTED: Final = "introspected (TOOLCALL_CACHE=off)"
#: ``TOOLCALL_CACHE`` of each state; None: unset.
MODES: Final = {CACHED: None, INTROSPECTED: "off"}

# argv[1]: the module; argv[2]: "digest" to print the output's sha256 as well.
CHILD: Final = r"""
import time
start = time.perf_counter_ns()
import importlib, json, sys
import toolcall
module = importlib.import_module(sys.argv[1])
imported = time.perf_counter_ns()
emitted = toolcall.emit(module, "openai")
end = time.perf_counter_ns()
found = {"import": imported - start, "emit": end - imported, "tools": len(emitted)}
if sys.argv[2] == "digest":
    import hashlib
    found["sha256"] = hashlib.sha256(json.dumps(emitted).encode()).hexdigest()
print(json.dumps(found))
"""

PROFILE: Final = r"""
import cProfile, importlib, pstats, sys
import toolcall
module = importlib.import_module(sys.argv[1])
profile = cProfile.Profile()
profile.enable()
toolcall.emit(module, "openai")
profile.disable()
stats = pstats.Stats(profile)
stats.sort_stats("cumulative").print_stats(25)
stats.sort_stats("tottime").print_stats(15)
"""


@dataclass(frozen=True)
class Sample:
    """One fresh interpreter."""

    #: ``import toolcall`` + the module's import, and the first emit, in-process (seconds).
    imported: float
    emitted: float
    wall: float
    rss: int

    @property
    def total(self) -> float:
        return self.imported + self.emitted


def environment(project: Path, mode: str | None) -> dict[str, str]:
    """The environment of a run in ``project``: its snapshot and itself first on the path, ``TOOLCALL_CACHE``."""
    env = {key: value for key, value in os.environ.items() if key not in ("MYPY_NUM_WORKERS", "TOOLCALL_CACHE")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(project / LIBRARY), str(project), env.get("PYTHONPATH")]))
    env["PYTHONWARNINGS"] = "ignore"  # "10000 tools in one request" and the like: not what is timed
    if mode is not None:
        env["TOOLCALL_CACHE"] = mode
    return env


def child(project: Path, module: str, mode: str | None, *, digest: bool = False) -> tuple[dict[str, object], Sample]:
    """One fresh interpreter's import + first emit of ``module``: what it printed, and its times and peak RSS."""
    command = [sys.executable, "-c", CHILD, module, "digest" if digest else "time"]
    env = environment(project, mode)
    with tempfile.TemporaryFile() as output:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=project, env=env, stdout=output, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here; Popen must not wait again
        output.seek(0)
        text = output.read().decode(errors="replace")
    if process.returncode != 0:
        raise SystemExit(f"TOOLCALL_CACHE={mode or '(unset)'}: the interpreter failed:\n{text[-4000:]}")
    found = json.loads(text.strip().splitlines()[-1])
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)  # bytes on macOS, KiB on Linux
    return found, Sample(int(found["import"]) / 1e9, int(found["emit"]) / 1e9, wall, rss)


def prepare(root: Path, tools: int, seed: int) -> LargeModule:
    """The project: the snapshot, the module, its cache file written by mypy, the bytecode of everything."""
    snapshot(root / LIBRARY)
    large = write_large_module(root, tools=tools, seed=seed)
    (root / "mypy.ini").write_text(CONFIG)
    command = [sys.executable, "-m", "mypy", "--cache-dir", str(root / ".mypy_cache"), "-p", large.package]
    print(f"mypy with the plugin on {tools:,} tools ...", file=sys.stderr, flush=True)
    sample = run_process(command, root, environment(root, None), "mypy with the plugin")
    print(f"mypy with the plugin, cold (writes the cache file): {sample.wall:.1f} s, {sample.rss / 2**20:.0f} MiB")
    compileall.compile_dir(root / large.package, quiet=1)
    return large


def cache_file(large: LargeModule) -> Path:
    """The module's schema cache file."""
    return large.path.parent / "__toolcall__" / f"{large.path.stem}.json"


def served_check(root: Path, large: LargeModule) -> tuple[str, str | None]:
    """The digest of what the cache serves, and why it does not serve every tool as introspection does (or None)."""
    served, _ = child(root, large.module, "require", digest=True)  # raises unless every tool is served
    introspected, _ = child(root, large.module, "off", digest=True)
    if served["tools"] != large.tools:
        return str(served["sha256"]), f"the cache served {served['tools']} tools of {large.tools}"
    if served["sha256"] != introspected["sha256"]:
        return str(
            served["sha256"]
        ), "what the cache serves differs from what introspection gives (json.dumps of the emit)"
    return str(served["sha256"]), None


def still_served(root: Path, large: LargeModule, digest: str) -> str | None:
    """Why the cache no longer serves every tool as it did before the rounds; None when it does."""
    served, _ = child(root, large.module, "require", digest=True)
    return None if served["sha256"] == digest else "what the cache serves changed during the rounds"


def measure(root: Path, large: LargeModule, rounds: int) -> dict[str, list[Sample]]:
    """Both states ``rounds`` times, interleaved, the first state alternating."""
    samples: dict[str, list[Sample]] = {label: [] for label in MODES}
    for number in range(rounds):
        order = list(MODES) if number % 2 == 0 else list(reversed(MODES))
        for label in order:
            _, sample = child(root, large.module, MODES[label])
            samples[label].append(sample)
            print(
                f"  round {number + 1}/{rounds} {label}: {sample.total:.3f} s"
                f" (import {sample.imported:.3f} s, emit {sample.emitted:.3f} s)",
                file=sys.stderr,
                flush=True,
            )
    return samples


def median(samples: list[Sample], field: str) -> float:
    """The median of one field (or property) over ``samples``."""
    return statistics.median(float(getattr(sample, field)) for sample in samples)


def report(samples: dict[str, list[Sample]], large: LargeModule, rounds: int) -> bool:
    """Print the medians and the target as Markdown tables; whether the target passed."""
    print(f"\n### one module of {large.tools:,} tools, import + first emit(module, 'openai'), {rounds} rounds\n")
    print("| state | median import + emit | min - max | import | emit | process wall | peak RSS |")
    print("|---|---|---|---|---|---|---|")
    for label, found in samples.items():
        totals = [sample.total for sample in found]
        print(
            f"| {label} | {median(found, 'total'):.3f} s | {min(totals):.3f} - {max(totals):.3f} s"
            f" | {median(found, 'imported'):.3f} s | {median(found, 'emitted'):.3f} s"
            f" | {median(found, 'wall'):.3f} s | {median(found, 'rss') / 2**20:.0f} MiB |"
        )
    ratio = median(samples[CACHED], "total") / median(samples[INTROSPECTED], "total")
    emit_ratio = median(samples[CACHED], "emitted") / median(samples[INTROSPECTED], "emitted")
    print("\n| measure | ratio | target | result |")
    print("|---|---|---|---|")
    print(
        f"| cached / introspected, import + first emit | {ratio:.3f}x | ≤ {TARGET:.2f}x | {verdict(ratio <= TARGET)} |"
    )
    print(f"| cached / introspected, first emit alone | {emit_ratio:.3f}x | - | (no target) |")
    return ratio <= TARGET


def profile(root: Path, large: LargeModule) -> None:
    """cProfile over the cached first emit in a fresh interpreter (the module already imported)."""
    print(f"\n### cProfile of the cached first emit of {large.tools:,} tools (module imported first)\n")
    sys.stdout.flush()
    command = [sys.executable, "-c", PROFILE, large.module]
    subprocess.run(command, cwd=root, env=environment(root, "require"), check=True)


def main() -> int:
    """Write the module and its cache, check the cache serves it, time both states, print the target."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tools", type=int, default=10_000, help="tools of the module (default 10000)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3; 0: none)")
    parser.add_argument("--seed", type=int, default=0, help="the generator's seed (default 0)")
    parser.add_argument("--profile", action="store_true", help="profile the cached first emit (top 25 cumulative)")
    options = parser.parse_args()
    started = time.perf_counter()
    print(machine())
    print(f"command: python benchmarks/cache_large_module.py {' '.join(sys.argv[1:])}".rstrip())
    passed = True
    with tempfile.TemporaryDirectory(prefix="toolcall-cache-large-") as directory:
        root = Path(directory)
        large = prepare(root, options.tools, options.seed)
        size = cache_file(large).stat().st_size
        print(
            f"cache file {cache_file(large).relative_to(root)}: {size:,} bytes ({size / 1e6:.1f} MB),"
            f" {size / large.tools:,.0f} bytes per tool; the module's source: {large.source_bytes:,} bytes"
            f" ({large.source_bytes / large.tools:,.0f} per tool; cache / source {size / large.source_bytes:.2f}x)"
        )
        digest, problem = served_check(root, large)
        if problem is not None:
            raise SystemExit(f"not measured: {problem}")
        print(f"TOOLCALL_CACHE=require: all {large.tools:,} tools served from the cache, equal to introspection")
        if options.rounds > 0:
            samples = measure(root, large, options.rounds)
            problem = still_served(root, large, digest)  # nothing changed the cache's standing while measuring
            passed = report(samples, large, options.rounds) and problem is None
            if problem is not None:
                print(f"\n**FAIL**: after the rounds, {problem}")
        if options.profile:
            profile(root, large)
    print(f"\nload average at the end {load()}; wall time of the whole benchmark {time.perf_counter() - started:.0f} s")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
