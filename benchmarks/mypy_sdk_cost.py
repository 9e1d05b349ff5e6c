"""What the provider SDKs cost a project's cold mypy run: ``python benchmarks/mypy_sdk_cost.py``.

``python benchmarks/mypy_sdk_cost.py [--modules 20] [--rounds 3]``

Writes a small project into a temporary directory: ``--modules`` tool
modules of five ``@toolcall.tool`` functions each, and an ``app`` module
that calls ``toolcall.emit`` for every provider. It never imports an SDK.
Then runs ``mypy --strict`` on it cold (a fresh cache directory each run),
two ways, interleaved (the order alternates each round):

- **SDKs installed**: ``--python-executable`` is the running Python, whose
  environment holds ``openai``, ``anthropic`` and the rest;
- **SDKs hidden**: ``--python-executable`` is a bare virtual environment
  made here (``venv``, no pip), whose site-packages is empty.

Both runs find the same copy of ``toolcall`` and ``docstring_parser``
first on ``PYTHONPATH`` (a copy of this checkout's ``toolcall``, taken at
the start, so an edit during the run changes nothing). mypy's
own stubs for the standard library and ``typing_extensions`` are the same
in both. The count of modules mypy analysed (the meta records in the cold
cache) is printed beside the times, which shows whether an SDK
was followed. The target: the median wall time with the SDKs installed is
at most 1.1x the median with them hidden. Exits 1 when it fails.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import venv
from collections.abc import Sequence
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``benchmarks`` as a package, also when run as a script
    sys.path.insert(0, str(ROOT))

from benchmarks.plugin_corpus import Sample, load, machine, median, run_process, verdict  # noqa: E402

TARGET: Final = 1.1
INSTALLED: Final = "SDKs installed"
HIDDEN: Final = "SDKs hidden"
#: What the project's ``app`` module emits for: every provider, so every overload of ``emit`` is used.
PROVIDERS: Final = ("openai", "openai-responses", "anthropic", "mcp", "gemini")

TOOL_MODULE: Final = '''\
"""Generated tool module {number}."""

from __future__ import annotations

from typing import Literal, TypedDict

import toolcall


class Place{number}(TypedDict):
    city: str
    country: str


@toolcall.tool
def forecast_{number}(city: str, days: int = 3) -> str:
    """The forecast for a city.

    Args:
        city: The city.
        days: How many days.
    """
    return f"{{city}}: sunny for {{days}} days"


@toolcall.tool
def convert_{number}(amount: float, unit: Literal["c", "f"] = "c") -> float:
    """Convert a temperature."""
    return amount * 9 / 5 + 32 if unit == "c" else (amount - 32) * 5 / 9


@toolcall.tool
def locate_{number}(place: Place{number}) -> list[float]:
    """Where a place is."""
    return [float(len(place["city"])), float(len(place["country"]))]


@toolcall.tool
def search_{number}(query: str, *, limit: int = 10, tags: list[str] | None = None) -> list[str]:
    """Search the notes."""
    return [query] * limit + (tags or [])


@toolcall.tool
async def fetch_{number}(url: str) -> dict[str, str]:
    """Fetch a page."""
    return {{"url": url}}
'''


def write_project(root: Path, modules: int) -> Path:
    """The project's package ``generated`` under ``root``; its directory."""
    package = root / "generated"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""A generated project of tool modules that never imports an SDK."""\n')
    for number in range(modules):
        (package / f"tools_{number:02}.py").write_text(TOOL_MODULE.format(number=f"{number:02}"))
    imports = "".join(f"from generated import tools_{number:02}\n" for number in range(modules))
    calls = "".join(
        f"    count += len(toolcall.emit(tools_{number:02}, {PROVIDERS[number % len(PROVIDERS)]!r}))\n"
        for number in range(modules)
    )
    app = (
        '"""Every tool module\'s definitions, for each provider in turn."""\n\n'
        f"from __future__ import annotations\n\nimport toolcall\n{imports}\n\n"
        f"def definitions() -> int:\n    count = 0\n{calls}    return count\n"
    )
    (package / "app.py").write_text(app)
    return package


def library(target: Path) -> None:
    """Copy ``toolcall`` and ``docstring_parser`` (toolcall's one dependency mypy has no stub for) to ``target``."""
    shutil.copytree(ROOT / "toolcall", target / "toolcall", ignore=shutil.ignore_patterns("__pycache__"))
    spec = importlib.util.find_spec("docstring_parser")
    if spec is None or spec.origin is None:
        raise SystemExit("docstring_parser is not installed (it is a runtime dependency of toolcall)")
    source = Path(spec.origin).parent
    shutil.copytree(source, target / source.name, ignore=shutil.ignore_patterns("__pycache__"))


def bare_python(target: Path) -> Path:
    """A virtual environment with nothing installed: its Python."""
    venv.create(target, with_pip=False, symlinks=os.name != "nt")
    python = target / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    for sdk in ("openai", "anthropic"):  # the environment must truly hide them
        found = subprocess.run([str(python), "-c", f"import {sdk}"], capture_output=True, check=False)
        if found.returncode == 0:
            raise SystemExit(f"the bare environment at {target} can import {sdk}")
    return python


def run_mypy(root: Path, python: Path, cache: Path) -> tuple[Sample, int]:
    """One cold ``mypy --strict`` of the project: its sample and how many modules it analysed."""
    env = {key: value for key, value in os.environ.items() if key not in ("MYPY_NUM_WORKERS", "MYPYPATH")}
    env["PYTHONPATH"] = str(root / "lib")
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--python-executable",
        str(python),
        "--cache-dir",
        str(cache),
        "-p",
        "generated",
    ]
    sample = run_process(command, root, env, f"mypy --python-executable {python}")
    analysed = analysed_modules(cache)
    shutil.rmtree(cache)
    return sample, analysed


def analysed_modules(cache: Path) -> int:
    """How many modules a run wrote to the cache ``cache``: one meta record each, in files or in SQLite."""
    meta = (".meta.json", ".meta.ff")
    count = sum(1 for path in cache.rglob("*.meta.*") if path.name.endswith(meta))
    for database in cache.rglob("cache*.db"):  # mypy's SQLite cache (``--sqlite-cache``), one table of files
        with contextlib.closing(sqlite3.connect(database)) as connection:
            tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            paths = [row for table in tables for row in connection.execute(f"SELECT path FROM {table}")]
        count += sum(1 for (path,) in paths if path.endswith(meta))
    return count


def measure(root: Path, pythons: dict[str, Path], rounds: int) -> tuple[dict[str, list[Sample]], dict[str, int]]:
    """Each kind of run ``rounds`` times, interleaved: the samples, and the modules each run analysed."""
    samples: dict[str, list[Sample]] = {label: [] for label in pythons}
    analysed: dict[str, int] = {}
    for number in range(rounds):
        labels = list(pythons) if number % 2 == 0 else list(reversed(pythons))
        for label in labels:
            sample, modules = run_mypy(root, pythons[label], root / f"cache-{number}")
            samples[label].append(sample)
            analysed[label] = modules
            print(
                f"  round {number + 1}/{rounds} {label}: {sample.wall:.2f} s, {modules} modules",
                file=sys.stderr,
                flush=True,
            )
    return samples, analysed


def report(samples: dict[str, list[Sample]], analysed: dict[str, int], title: str) -> bool:
    """Print the runs and the target as Markdown tables; whether the target passed."""
    print(f"\n### {title}\n")
    print("| run | modules analysed | median wall | min - max | median CPU (user+sys) | median peak RSS |")
    print("|---|---|---|---|---|---|")
    for label, found in samples.items():
        walls = [sample.wall for sample in found]
        print(
            f"| {label} | {analysed[label]:,} | {median(found, 'wall'):.2f} s | {min(walls):.2f} - {max(walls):.2f} s"
            f" | {median(found, 'cpu'):.2f} s | {median(found, 'rss') / 2**20:.0f} MiB |"
        )
    ratio = median(samples[INSTALLED], "wall") / median(samples[HIDDEN], "wall")
    cpu = median(samples[INSTALLED], "cpu") / median(samples[HIDDEN], "cpu")
    passed = ratio <= TARGET
    print("\n| measure | ratio | CPU ratio | target | result |")
    print("|---|---|---|---|---|")
    print(f"| cold mypy, installed / hidden | {ratio:.2f}x | {cpu:.2f}x | ≤ {TARGET:.1f}x | {verdict(passed)} |")
    return passed


def main(argv: Sequence[str] | None = None) -> int:
    """Measure a cold mypy run with the SDKs installed against one with them hidden; print the ratio."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--modules", type=int, default=20, help="tool modules of the project (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    options = parser.parse_args(argv)
    print(machine())
    print(f"command: python benchmarks/mypy_sdk_cost.py {' '.join(sys.argv[1:])}".rstrip())
    with tempfile.TemporaryDirectory(prefix="toolcall-mypy-sdk-cost-") as directory:
        root = Path(directory)
        library(root / "lib")
        write_project(root, options.modules)
        pythons = {INSTALLED: Path(sys.executable), HIDDEN: bare_python(root / "bare")}
        title = f"a project of {options.modules} tool modules ({options.modules * 5} tools), {options.rounds} rounds"
        samples, analysed = measure(root, pythons, options.rounds)
        passed = report(samples, analysed, title)
    print(f"\nload average at the end {load()}")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
