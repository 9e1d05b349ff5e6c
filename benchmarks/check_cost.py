"""What ``toolcall check`` costs over ``mypy`` with the plugin: ``python benchmarks/check_cost.py``.

``python benchmarks/check_cost.py [--modules 300] [--rounds 9] [--seed 0]``

Writes ``tests/corpus_gen.py``'s package (``--modules`` tool modules; 300
hold 749 tools with seed 0) into a temporary directory with a ``mypy.ini``
that enables the plugin (``toolcall-strict`` disabled, as in
``plugin_corpus.py``, so both runs report nothing). ``toolcall check`` reads
that same file, as mypy does, so both do the same work: the difference is
the command itself (its start, the in-process run through mypy's API, the
filtering of the errors). Each run is a fresh process:

- mypy, cold: ``python -m mypy --cache-dir <fresh> acme_tools``;
- check, cold: ``python -m toolcall check acme_tools`` with its
  ``.toolcall_cache`` removed first;
- mypy, warm: ``python -m mypy --cache-dir <kept> acme_tools``, nothing changed;
- check, warm: ``python -m toolcall check acme_tools``, nothing changed;
- and, measured but without a target, ``check --frozen`` cold and warm.

The schema cache files are current in every run (a warm-up run of each
command writes them first), as in a checkout that commits them. One round
runs the cold group and then the warm group, each rotated by the round
number, so the commands take turns at going first; on odd rounds the warm
group goes first. Times are wall-clock medians over the rounds (user +
system CPU beside them, which moves less on a loaded machine); the target
is ``check`` median / ``mypy`` median ≤ 1.05, cold and warm.

Both commands run a copy of ``toolcall`` and ``toolcall_mypy`` taken at the
start (first on ``PYTHONPATH``), with its bytecode written, as installing
them does: the plugin replays a tool's record only under the same digest of
their sources, so an edit to the tree during the run would make whichever
command runs next analyse every tool again. Unix only (``os.wait4``). The
exit status is 1 when a target fails.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``tests`` and ``benchmarks`` as packages, also when run as a script
    sys.path.insert(0, str(ROOT))

from benchmarks.plugin_corpus import Sample, load, machine, median, rotated, run_process, verdict  # noqa: E402
from tests.corpus_gen import write_corpus  # noqa: E402

CONFIG: Final = "[mypy]\nplugins = toolcall_mypy\ndisable_error_code = toolcall-strict\n"
TARGET: Final = 1.05
#: The directory of the corpus that holds the snapshot of toolcall and its plugin.
LIBRARY: Final = "lib"

MYPY_COLD: Final = "mypy, cold"
CHECK_COLD: Final = "toolcall check, cold"
FROZEN_COLD: Final = "toolcall check --frozen, cold"
MYPY_WARM: Final = "mypy, warm"
CHECK_WARM: Final = "toolcall check, warm"
FROZEN_WARM: Final = "toolcall check --frozen, warm"
COLD: Final = (MYPY_COLD, CHECK_COLD, FROZEN_COLD)
WARM: Final = (MYPY_WARM, CHECK_WARM, FROZEN_WARM)
#: (measure, check run, mypy run): the targets.
TARGETS: Final = (("cold", CHECK_COLD, MYPY_COLD), ("warm, nothing changed", CHECK_WARM, MYPY_WARM))
#: The same, for ``--frozen``: measured, without a target.
INFORMATIVE: Final = (("cold, --frozen", FROZEN_COLD, MYPY_COLD), ("warm, --frozen", FROZEN_WARM, MYPY_WARM))


def command(label: str, package: str, cache: Path) -> list[str]:
    """The command line of one run; ``cache`` is mypy's cache directory for the mypy runs."""
    if label.startswith("mypy"):
        return [sys.executable, "-m", "mypy", "--cache-dir", str(cache), package]
    frozen = ["--frozen"] if "--frozen" in label else []
    return [sys.executable, "-m", "toolcall", "check", *frozen, package]


def snapshot(target: Path) -> None:
    """Copy ``toolcall`` and ``toolcall_mypy`` to ``target`` and write their bytecode."""
    for package in ("toolcall", "toolcall_mypy"):
        shutil.copytree(ROOT / package, target / package, ignore=shutil.ignore_patterns("__pycache__"))
        compileall.compile_dir(target / package, quiet=1)


def run(arguments: list[str], cwd: Path) -> Sample:
    """One fresh process in ``cwd`` (the corpus, whose ``lib`` is the snapshot): wall time, CPU time, peak RSS.

    It must succeed.
    """
    env = {key: value for key, value in os.environ.items() if key != "MYPY_NUM_WORKERS"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(cwd / LIBRARY), env.get("PYTHONPATH")]))
    return run_process(arguments, cwd, env, " ".join(arguments[1:]))


def measure(root: Path, package: str, rounds: int) -> dict[str, list[Sample]]:
    """Every run ``rounds`` times, interleaved, after a warm-up run of each command."""
    warm_cache, check_cache = root / "warm-mypy", root / ".toolcall_cache"
    for label in (MYPY_WARM, CHECK_WARM):  # fills each warm cache; writes the schema cache files
        run(command(label, package, warm_cache), root)
    samples: dict[str, list[Sample]] = {label: [] for label in (*COLD, *WARM)}
    for number in range(rounds):
        cold, hot = rotated(COLD, number), rotated(WARM, number)
        for label in [*hot, *cold] if number % 2 else [*cold, *hot]:
            cache = warm_cache if label in WARM else root / f"cold-{number}"
            if label in (CHECK_COLD, FROZEN_COLD):
                shutil.rmtree(check_cache, ignore_errors=True)
            # A cold check run leaves a full cache: the warm check runs after it find nothing changed.
            samples[label].append(run(command(label, package, cache), root))
            shutil.rmtree(root / f"cold-{number}", ignore_errors=True)
        print(f"  round {number + 1}/{rounds} done; load average {load()}", file=sys.stderr, flush=True)
    return samples


def report(samples: dict[str, list[Sample]], title: str, rounds: int) -> bool:
    """Print the runs and the targets as Markdown tables; whether both targets passed."""
    print(f"\n### {title}, {rounds} rounds\n")
    print("| run | median wall | min - max | median CPU (user+sys) | median peak RSS |")
    print("|---|---|---|---|---|")
    for label, found in samples.items():
        walls = [sample.wall for sample in found]
        print(
            f"| {label} | {median(found, 'wall'):.3f} s | {min(walls):.3f} - {max(walls):.3f} s"
            f" | {median(found, 'cpu'):.3f} s | {median(found, 'rss') / 2**20:.0f} MiB |"
        )
    print("\n| measure | mypy | toolcall check | ratio | CPU ratio | target | result |")
    print("|---|---|---|---|---|---|---|")
    passed = True
    for measure_, check, mypy in (*TARGETS, *INFORMATIVE):
        ratio = median(samples[check], "wall") / median(samples[mypy], "wall")
        cpu = median(samples[check], "cpu") / median(samples[mypy], "cpu")
        targeted = (measure_, check, mypy) in TARGETS
        passed &= ratio <= TARGET or not targeted
        result = verdict(ratio <= TARGET) if targeted else "(no target)"
        print(
            f"| {measure_} | {median(samples[mypy], 'wall'):.3f} s | {median(samples[check], 'wall'):.3f} s"
            f" | {ratio:.3f}x | {cpu:.3f}x | {f'≤ {TARGET:.2f}x' if targeted else '-'} | {result} |"
        )
    return passed


def main(argv: Sequence[str] | None = None) -> int:
    """Measure ``toolcall check`` against mypy on a generated corpus; print the medians against the target."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--modules", type=int, default=300, help="tool modules of the corpus (default 300)")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (default 9)")
    parser.add_argument("--seed", type=int, default=0, help="the corpus generator's seed (default 0)")
    options = parser.parse_args(argv)
    started = time.perf_counter()
    print(machine())
    print(f"command: python benchmarks/check_cost.py {' '.join(sys.argv[1:])}".rstrip())
    with tempfile.TemporaryDirectory(prefix="toolcall-check-cost-") as directory:
        root = Path(directory)
        snapshot(root / LIBRARY)
        corpus = write_corpus(root, modules=options.modules, seed=options.seed)
        (root / "mypy.ini").write_text(CONFIG)
        title = f"generated corpus: {options.modules} tool modules, {corpus.tools} tools (seed {options.seed})"
        print(f"measuring {title}", file=sys.stderr, flush=True)
        samples = measure(root, corpus.package, options.rounds)
        passed = report(samples, title, options.rounds)
    print(f"\nload average at the end {load()}; wall time of the whole benchmark {time.perf_counter() - started:.0f} s")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
