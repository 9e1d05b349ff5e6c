"""What a tool module's first use costs when it is served from its schema cache, before and after a change.

The 20-tool module of ``tools20.py`` gets its cache from mypy with the
plugin, once per toolcall tree: this checkout, and (``--before REV``) the
same project at an earlier git revision, extracted with ``git archive``.
Each sample is a fresh interpreter that imports the module and then times
its first ``emit(..., "openai")`` plus ``describe``: reading, checking and
serving the cache. Two states of the source:

* ``unchanged``: the module is as mypy checked it (the cheap byte-digest path);
* ``comment``: a comment was added after mypy ran. Since the cache records a
  layout-free token digest, this one stays current; a tree without it
  introspects the module instead (its cost shows why it matters).

Samples of every (tree, state) are interleaved round by round, rotating
who goes first; the table gives medians and the ratio to this checkout.

    python benchmarks/cache_first_use.py [--before REV] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
STATES: Final = ("unchanged", "comment")

CHILD: Final = """
import json, sys, time
import toolcall
import bench20.tools as tools
from toolcall._toolset.toolset import as_toolset, loaded_tools
start = time.perf_counter_ns()
toolcall.emit(tools, "openai")
toolcall.describe(tools)
elapsed = time.perf_counter_ns() - start
print(json.dumps([elapsed, sum(bool(t.cached) for t in loaded_tools(as_toolset(tools)))]))
"""


def make_project(tree: Path, where: Path, state: str) -> Path:
    """A project with ``bench20/tools.py``, its cache written by the plugin of ``tree``, then put in ``state``."""
    package = where / "bench20"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    shutil.copy(ROOT / "benchmarks" / "tools20.py", package / "tools.py")
    (where / "mypy.ini").write_text("[mypy]\nplugins = toolcall_mypy\n")
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{where}"}
    command = [sys.executable, "-m", "mypy", "--cache-dir", str(where / ".mypy_cache"), "bench20"]
    run = subprocess.run(command, cwd=where, env=env, capture_output=True, text=True)
    # Exit 1 is the plugin's findings (toolcall-strict losses in these tools): the cache is written all the same.
    if run.returncode not in (0, 1) or not (package / "__toolcall__" / "tools.json").is_file():
        raise SystemExit(f"mypy failed for {tree}:\n{run.stdout}{run.stderr}")
    if state == "comment":
        source = package / "tools.py"
        source.write_text("# A comment added after mypy ran.\n" + source.read_text())
    return where


def sample(tree: Path, project: Path) -> tuple[int, int]:
    """One fresh interpreter's first-use time (ns) and how many tools it served from the cache."""
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{project}", "PYTHONWARNINGS": "ignore"}
    env.pop("TOOLCALL_CACHE", None)
    run = subprocess.run([sys.executable, "-c", CHILD], cwd=project, env=env, check=True, capture_output=True)
    elapsed, served = json.loads(run.stdout)
    return int(elapsed), int(served)


def extract(revision: str, into: Path) -> Path:
    """The toolcall packages of ``revision``, as files under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "toolcall", "toolcall_mypy"], check=True, capture_output=True
    ).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="an earlier git revision to compare with")
    parser.add_argument("--rounds", type=int, default=15)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        trees = {"this checkout": ROOT}
        if options.before:
            trees[f"before ({options.before})"] = extract(options.before, base / "before")
        cases = [
            (label, state, tree, make_project(tree, base / f"p{index}-{state}", state))
            for index, (label, tree) in enumerate(trees.items())
            for state in STATES
        ]
        times: dict[tuple[str, str], list[int]] = {(label, state): [] for label, state, _, _ in cases}
        served: dict[tuple[str, str], int] = {}
        for round_ in range(options.rounds):
            for label, state, tree, project in cases[round_ % len(cases) :] + cases[: round_ % len(cases)]:
                elapsed, count = sample(tree, project)
                times[label, state].append(elapsed)
                served[label, state] = count
    report(times, served)
    return 0


def report(times: dict[tuple[str, str], list[int]], served: dict[tuple[str, str], int]) -> None:
    print(f"first emit + describe of a 20-tool module, median of {len(next(iter(times.values())))} fresh processes")
    print(f"{'toolcall':<28} {'source':<10} {'median':>10} {'vs this':>8} {'served from cache':>18}")
    for (label, state), samples in times.items():
        median = statistics.median(samples)
        ours = statistics.median(times["this checkout", state])
        ratio = median / ours
        print(f"{label:<28} {state:<10} {median / 1e6:>8.2f}ms {ratio:>7.2f}x {served[label, state]:>15}/20")


if __name__ == "__main__":
    sys.exit(main())
