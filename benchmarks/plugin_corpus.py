"""The mypy plugin on a large generated corpus, against the plugin's cost targets.

``python benchmarks/plugin_corpus.py [--modules 3300] [--rounds 5] [--seed 0]``

Writes ``tests/corpus_gen.py``'s package (``--modules`` tool modules of 1 to
5 tools each, long Google docstrings with ``Args:`` sections, nested
TypedDicts of two and three levels, str and int Enums, ``NotRequired``
fields, dataclasses with ``X | None = None`` fields, ``Literal`` enums, all
from eleven shared type modules that most tool modules import; 3,300
modules hold 8,460 tools with seed 0) into a temporary directory, with two
mypy configs: plain mypy, and mypy with ``plugins = toolcall_mypy``
(``toolcall-strict`` disabled, as a project that accepts Anthropic strict
mode's moved bounds would). Both skip the openai and anthropic SDKs
(``follow_imports = skip``, ``tests/mypy_settings.py``): when they are
installed, toolcall's ``emit`` overloads would pull their 5,400 modules
into every cold run, plugin or not. It then runs ``python -m mypy -p
acme_tools``, each run a fresh process, in interleaved rounds:

- cold, no cache files: a fresh ``--cache-dir``, every ``__toolcall__``
  directory removed first (the plugin's first run ever);
- cold, with current cache files: a fresh ``--cache-dir``, the files of an
  earlier plugin run in place (a checkout that commits them);
- warm, nothing changed: each configuration's own persistent
  ``--cache-dir``, filled by one run before the rounds, in a copy of the
  project that the cold runs do not touch (they delete and write every
  schema cache file, which a warm run rightly sees as a change).

One round runs the three cold runs (plain, plugin with no files, plugin with
current files) and then the two warm runs, each group rotated by the round
number, so plain mypy and the plugin take turns at going first; on odd
rounds the warm group goes first. Times are wall-clock medians over the
rounds; the ratios are plugin median / plain median.

Peak memory: each mypy process is started with ``subprocess.Popen`` and
reaped with ``os.wait4(pid)``, which returns the resource usage of that one
child (and of any children it waited for; mypy runs in one process unless
``num_workers`` is set, and ``MYPY_NUM_WORKERS`` is removed from its
environment). Its ``ru_maxrss`` is that process's own peak RSS, unlike
``getrusage(RUSAGE_CHILDREN)``, whose ``ru_maxrss`` is the largest over
every child the benchmark ever reaped. The same call gives the run's user +
system CPU time, printed beside the wall times because it moves less than
wall time on a loaded machine.

Cache size: the bytes of every ``__toolcall__/*.json`` file after a plugin
run, per tool, and against the bytes of the tool modules' source (the
shared type modules and ``__init__.py`` files not counted; printed, with no
target).

The targets, each printed with PASS or FAIL (ratios of medians, plugin over
plain mypy):

- cold with current cache files ≤ 1.20x;
- cold with no cache files ≤ 1.5x;
- warm, nothing changed ≤ 1.10x;
- peak RSS ≤ 1.3x in each of those three cases;
- cache size ≤ 2 KB per tool on average (2,048 bytes: all cache bytes / all tools).

The 200-tool project of ``plugin_cost.py`` (its ``write_project``) is
measured the same way first (``--small-tools``, ``--small-rounds``;
``--small-rounds 0`` skips it). ``plugin_cost.py`` stays the place for that
case's own analysis-only bound. Before measuring, it writes the bytecode
of ``toolcall`` and ``toolcall_mypy`` (``compileall``), as installing them
does. Unix only (``os.wait4``). The exit status
is 1 when any target of the large corpus fails (the 200-tool project's
verdicts are printed but do not count).

A quick run: ``--modules 300 --rounds 1 --small-rounds 0`` (under two minutes).
"""

from __future__ import annotations

import argparse
import compileall
import dataclasses
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``tests`` and ``benchmarks`` as packages, also when run as a script
    sys.path.insert(0, str(ROOT))

from benchmarks.plugin_cost import write_project  # noqa: E402
from tests.corpus_gen import write_corpus  # noqa: E402
from tests.mypy_settings import INI as SKIP_SDKS  # noqa: E402

# Both configs skip the provider SDKs that toolcall's emit overloads import for type checkers
# (tests/mypy_settings.py): with them installed, each cold run would check 5,400 of their modules,
# about 10 s and 600 MiB that have nothing to do with the plugin, in both runs alike.
PLAIN_INI: Final = "[mypy]\n" + SKIP_SDKS
# The timed runs must pass: the corpus's open maps (dict[str, V]) are errors under the strict modes.
PLUGIN_INI: Final = "[mypy]\nplugins = toolcall_mypy\ndisable_error_code = toolcall-strict\n" + SKIP_SDKS
# The plugin with its default settings, as a project turns it on: what it reports (not timed).
DEFAULT_INI: Final = "[mypy]\nplugins = toolcall_mypy\n" + SKIP_SDKS

PLAIN_COLD: Final = "plain, cold"
NO_FILES: Final = "plugin, cold, no cache files"
CURRENT_FILES: Final = "plugin, cold, current cache files"
PLAIN_WARM: Final = "plain, warm"
PLUGIN_WARM: Final = "plugin, warm"
#: The cold runs of a round, and the warm ones; each group is rotated round by round.
COLD: Final = (PLAIN_COLD, NO_FILES, CURRENT_FILES)
WARM: Final = (PLAIN_WARM, PLUGIN_WARM)

#: The plugin's cost targets: (measure, plugin run, plain run, highest ratio allowed).
TIME_TARGETS: Final = (
    ("cold, with current cache files", CURRENT_FILES, PLAIN_COLD, 1.20),
    ("cold, no cache files", NO_FILES, PLAIN_COLD, 1.5),
    ("warm, nothing changed", PLUGIN_WARM, PLAIN_WARM, 1.10),
)
#: Peak RSS, plugin run / plain run, for each of the three measures above.
RSS_TARGET: Final = 1.3
#: 2 KB per tool on average over the corpus, read as 2,048 bytes.
BYTES_PER_TOOL: Final = 2048


@dataclass(frozen=True)
class Project:
    """A project on disk and how mypy checks it."""

    title: str
    root: Path
    #: What follows the options on mypy's command line.
    target: tuple[str, ...]
    plain: str
    plugin: str
    tools: int
    tool_modules: tuple[Path, ...]


@dataclass(frozen=True)
class Sample:
    """One mypy process."""

    wall: float
    cpu: float
    rss: int


def corpus_project(root: Path, modules: int, seed: int) -> Project:
    """``tests/corpus_gen.py``'s package under ``root``, with a plain and a plugin config."""
    corpus = write_corpus(root, modules=modules, seed=seed)
    (root / "plain.ini").write_text(PLAIN_INI)
    (root / "plugin.ini").write_text(PLUGIN_INI)
    paths = tuple(root.joinpath(*name.split(".")).with_suffix(".py") for name in corpus.modules)
    title = f"generated corpus: {modules} tool modules, {corpus.tools} tools (seed {seed})"
    return Project(title, root, ("-p", corpus.package), "plain.ini", "plugin.ini", corpus.tools, paths)


def small_project(root: Path, tools: int) -> Project:
    """``plugin_cost.py``'s project of ``tools`` tools over ten modules."""
    write_project(root, tools)
    paths = tuple(sorted((root / "generated").glob("tools_*.py")))
    count = max(tools // 10, 1) * 10
    title = f"plugin_cost.py's project: 10 modules, {count} tools"
    return Project(title, root, ("generated",), "without.ini", "with.ini", count, paths)


def run_mypy(project: Project, config: str, cache: Path) -> Sample:
    """One fresh ``python -m mypy`` process: its wall time, CPU time and own peak RSS."""
    env = {key: value for key, value in os.environ.items() if key != "MYPY_NUM_WORKERS"}
    command = [sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", str(cache), *project.target]
    return run_process(command, project.root, env, f"mypy ({config})")


def run_process(command: list[str], cwd: Path, env: dict[str, str], what: str) -> Sample:
    """Run ``command`` to its end, which must be a success: its wall time, CPU time and own peak RSS."""
    with tempfile.TemporaryFile() as output:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here; Popen must not wait again
        if process.returncode != 0:
            output.seek(0)
            text = output.read().decode(errors="replace")
            raise SystemExit(f"{what} failed (exit {process.returncode}):\n{text[-4000:]}")
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)  # bytes on macOS, KiB on Linux
    return Sample(wall, usage.ru_utime + usage.ru_stime, rss)


def default_findings(project: Project) -> dict[tuple[str, str], int]:
    """One cold run of the plugin with its default settings: how many errors and notes, by code."""
    config = project.root / "default.ini"
    config.write_text(DEFAULT_INI)
    env = {key: value for key, value in os.environ.items() if key != "MYPY_NUM_WORKERS"}
    with tempfile.TemporaryDirectory() as cache:
        command = [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", cache]
        done = subprocess.run([*command, *project.target], cwd=project.root, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"mypy with the default settings failed (exit {done.returncode}):\n{done.stderr[-4000:]}")
    counts: dict[tuple[str, str], int] = {}
    for line in done.stdout.splitlines():
        severity = "error" if ": error: " in line else "note" if ": note: " in line else None
        code = line.rsplit("[", 1)[-1].rstrip("]") if line.endswith("]") else "toolcall-strict"  # notes hide it
        if severity is not None:
            counts[severity, code] = counts.get((severity, code), 0) + 1
    return counts


def report_findings(project: Project, counts: dict[tuple[str, str], int]) -> None:
    """Print what the default settings report over the project, as a Markdown table."""
    print(f"\n#### What the plugin reports with its default settings ({project.tools} tools)\n")
    print("| severity | code | findings |")
    print("|---|---|---|")
    for (severity, code), count in sorted(counts.items()):
        print(f"| {severity} | `{code}` | {count:,} |")
    if not counts:
        print("| - | - | 0 |")


def remove_schema_caches(root: Path) -> None:
    """Delete every ``__toolcall__`` directory: the project as first checked out."""
    for directory in list(root.glob("**/__toolcall__")):
        shutil.rmtree(directory)


def cache_bytes(root: Path) -> tuple[int, int]:
    """Total bytes and count of the ``__toolcall__/*.json`` files under ``root``."""
    files = list(root.glob("**/__toolcall__/*.json"))
    return sum(path.stat().st_size for path in files), len(files)


def rotated(items: Sequence[str], shift: int) -> list[str]:
    """``items`` starting at ``shift``."""
    shift %= len(items)
    return [*items[shift:], *items[:shift]]


def measure(project: Project, rounds: int, *, log: bool) -> dict[str, list[Sample]]:
    """Every run kind ``rounds`` times, interleaved, after one warm-up run per configuration."""
    root = project.root
    # The warm runs get a copy of the project of their own: the cold runs with no
    # files delete and write every schema cache file, which for a warm run is a change.
    unchanged = dataclasses.replace(project, root=root.with_name(f"{root.name}-warm"))
    shutil.copytree(root, unchanged.root)
    configs = {PLAIN_WARM: project.plain, PLUGIN_WARM: project.plugin}
    warm = {PLAIN_WARM: unchanged.root / "warm-plain", PLUGIN_WARM: unchanged.root / "warm-plugin"}
    for label in WARM:  # fills each warm cache; the plugin's also writes the schema cache files
        sample = run_mypy(unchanged, configs[label], warm[label])
        if log:
            print(f"  warm-up {label.split(',')[0]}: {sample.wall:.1f} s", file=sys.stderr, flush=True)
    samples: dict[str, list[Sample]] = {label: [] for label in (*COLD, *WARM)}
    for number in range(rounds):
        cold, hot = rotated(COLD, number), rotated(WARM, number)
        for label in [*hot, *cold] if number % 2 else [*cold, *hot]:
            if label == NO_FILES:
                remove_schema_caches(root)
            if label in WARM:
                sample = run_mypy(unchanged, configs[label], warm[label])
            else:
                cache = root / f"cold-{number}"
                sample = run_mypy(project, project.plain if label == PLAIN_COLD else project.plugin, cache)
                shutil.rmtree(cache)
            samples[label].append(sample)
            if log:
                print(
                    f"  round {number + 1}/{rounds} {label}: {sample.wall:.1f} s, {sample.rss / 2**20:.0f} MiB",
                    file=sys.stderr,
                    flush=True,
                )
    shutil.rmtree(unchanged.root)
    return samples


def median(samples: Sequence[Sample], field: str) -> float:
    """The median of one field over ``samples``."""
    return statistics.median(float(getattr(sample, field)) for sample in samples)


def verdict(ok: bool) -> str:
    """PASS or FAIL, bold when it fails."""
    return "PASS" if ok else "**FAIL**"


def report(project: Project, samples: dict[str, list[Sample]], rounds: int) -> bool:
    """Print the runs and the targets as Markdown tables; whether every target passed."""
    print(f"\n### {project.title}, {rounds} rounds\n")
    print("| run | median wall | min - max | median CPU (user+sys) | median peak RSS |")
    print("|---|---|---|---|---|")
    for label, found in samples.items():
        walls = [sample.wall for sample in found]
        print(
            f"| {label} | {median(found, 'wall'):.2f} s | {min(walls):.2f} - {max(walls):.2f} s"
            f" | {median(found, 'cpu'):.2f} s | {median(found, 'rss') / 2**20:.0f} MiB |"
        )
    total, files = cache_bytes(project.root)
    source = sum(path.stat().st_size for path in project.tool_modules)
    per_tool = total / project.tools
    print(
        f"\ncache files: {files} files, {total:,} bytes ({total / 1e6:.1f} MB), {per_tool:,.0f} bytes per tool;"
        f" tool-module source: {len(project.tool_modules)} files, {source:,} bytes ({source / 1e6:.1f} MB)\n"
    )
    print("| measure | plain | plugin | ratio | CPU ratio | target | result |")
    print("|---|---|---|---|---|---|---|")
    passed = True
    for measure_, plugin, plain, limit in TIME_TARGETS:
        ratio = median(samples[plugin], "wall") / median(samples[plain], "wall")
        cpu = median(samples[plugin], "cpu") / median(samples[plain], "cpu")
        passed &= ratio <= limit
        print(
            f"| {measure_} | {median(samples[plain], 'wall'):.2f} s | {median(samples[plugin], 'wall'):.2f} s"
            f" | {ratio:.2f}x | {cpu:.2f}x | ≤ {limit:.2f}x | {verdict(ratio <= limit)} |"
        )
    for measure_, plugin, plain, _ in TIME_TARGETS:
        plain_rss, plugin_rss = median(samples[plain], "rss"), median(samples[plugin], "rss")
        ratio = plugin_rss / plain_rss
        passed &= ratio <= RSS_TARGET
        print(
            f"| peak RSS, {measure_} | {plain_rss / 2**20:.0f} MiB | {plugin_rss / 2**20:.0f} MiB"
            f" | {ratio:.2f}x | - | ≤ {RSS_TARGET:.2f}x | {verdict(ratio <= RSS_TARGET)} |"
        )
    passed &= per_tool <= BYTES_PER_TOOL
    print(
        f"| cache bytes per tool | - | {per_tool:,.0f} B | - | - | ≤ {BYTES_PER_TOOL:,} B"
        f" | {verdict(per_tool <= BYTES_PER_TOOL)} |"
    )
    print(
        f"| cache total / tool-module source | {source / 1e6:.2f} MB | {total / 1e6:.2f} MB | {total / source:.2f}x"
        " | - | - | (no target) |"
    )
    return passed


def machine() -> str:
    """Python, mypy, CPUs, load and the checkout, on one line each."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--", "toolcall", "toolcall_mypy"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        commit += " (with uncommitted changes to toolcall or toolcall_mypy)" if changed else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return "\n".join(
        (
            f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; toolcall commit {commit}",
            f"Python {platform.python_version()} ({platform.python_implementation()}), mypy {version('mypy')},"
            f" {platform.system()} {platform.machine()}",
            f"CPUs: {os.cpu_count()} ({usable} usable); load average {load()}",
        )
    )


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def compile_plugin() -> None:
    """Write the bytecode of toolcall and its plugin, as installing them does.

    With ``PYTHONDONTWRITEBYTECODE`` set, or a tree edited since its last
    import, each mypy run would compile the plugin's modules again: tens of
    milliseconds that an installed toolcall never pays, and a warm run's
    whole budget.
    """
    for package in ("toolcall", "toolcall_mypy"):
        compileall.compile_dir(ROOT / package, quiet=1)


def main() -> int:
    """Measure the 200-tool project and the large corpus; print both against the targets."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--modules", type=int, default=3300, help="tool modules of the corpus (default 3300)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds on the corpus (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="the corpus generator's seed (default 0)")
    parser.add_argument("--small-tools", type=int, default=200, help="tools of plugin_cost.py's project")
    parser.add_argument("--small-rounds", type=int, default=5, help="rounds on that project; 0 skips it")
    parser.add_argument("--json", type=Path, help="also write every sample to this file")
    parser.add_argument(
        "--findings-only", action="store_true", help="only count what the default settings report over the corpus"
    )
    options = parser.parse_args()
    started = time.perf_counter()
    compile_plugin()
    print(machine())
    print(f"command: python benchmarks/plugin_corpus.py {' '.join(sys.argv[1:])}".rstrip())
    raw: dict[str, dict[str, list[dict[str, float]]]] = {}
    passed = True
    cases: list[tuple[str, int]] = []
    if options.findings_only:
        with tempfile.TemporaryDirectory(prefix="toolcall-plugin-corpus-") as directory:
            project = corpus_project(Path(directory), options.modules, options.seed)
            report_findings(project, default_findings(project))
        return 0
    if options.small_rounds > 0:
        cases.append(("small", options.small_rounds))
    cases.append(("corpus", options.rounds))
    for case, rounds in cases:
        with tempfile.TemporaryDirectory(prefix="toolcall-plugin-corpus-") as directory:
            root = Path(directory)
            if case == "small":
                project = small_project(root, options.small_tools)
            else:
                project = corpus_project(root, options.modules, options.seed)
            print(f"measuring {project.title}", file=sys.stderr, flush=True)
            samples = measure(project, rounds, log=True)
            ok = report(project, samples, rounds)
            if case == "corpus":
                report_findings(project, default_findings(project))
            sys.stdout.flush()
            if case == "corpus":
                passed = ok
            raw[project.title] = {label: [vars(sample) for sample in found] for label, found in samples.items()}
    print(f"\nload average at the end {load()}; wall time of the whole benchmark {time.perf_counter() - started:.0f} s")
    if options.json is not None:
        options.json.write_text(json.dumps(raw, indent=1) + "\n")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
