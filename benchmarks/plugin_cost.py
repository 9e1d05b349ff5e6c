"""What the mypy plugin costs: ``python benchmarks/plugin_cost.py [--tools 200] [--rounds 3]``.

Generates a project of N tools (ten modules of N/10 tools, with TypedDicts,
enums, Literals, Annotated bounds and docstrings), then runs mypy on it with
and without ``plugins = toolcall_mypy``, interleaved: cold (a fresh mypy
cache directory each run), with plugin both with no schema cache files
(the first run ever) and with current ones (a checkout that commits them),
and warm (mypy's cache from an earlier run, nothing changed); and cold with
the plugin's analysis alone (``cache = false``, ``strict = false``: every
tool's IR and findings, nothing rendered or written), which bounds what any
cold run that analyses every tool can cost. It prints the
medians and the ratios; the target is under 1.10 cold, with and without
the schema cache files.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from importlib.metadata import version
from pathlib import Path
from typing import Final

MODULE_HEAD = '''
"""Generated tools."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal, TypedDict

import toolcall
from toolcall import Param


class Color(str, Enum):
    """A color."""

    RED = "red"
    BLUE = "blue"


class Line(TypedDict):
    """An order line."""

    sku: str
    """The product."""
    qty: Annotated[int, Param(ge=1)]
'''

TOOL = '''

@toolcall.tool
def tool_{index}(
    name: str,
    lines: list[Line],
    color: Color = Color.RED,
    mode: Literal["fast", "slow"] = "fast",
    limit: Annotated[int, Param(ge=1, le=100)] = 10,
) -> str:
    """Tool number {index}.

    Args:
        name: a name
        lines: the lines
        color: a color
        mode: how
        limit: how many
    """
    return name
'''


def write_project(root: Path, tools: int) -> None:
    """N tools over ten modules, plus a mypy config with and one without the plugin."""
    package = root / "generated"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    per_module = max(tools // 10, 1)
    for module in range(10):
        body = MODULE_HEAD + "".join(TOOL.format(index=module * per_module + i) for i in range(per_module))
        (package / f"tools_{module}.py").write_text(textwrap.dedent(body))
    # The bounds move into the descriptions in Anthropic strict mode: the plugin still
    # renders and reports that (toolcall-strict); the project accepts it, as a real one
    # passing CI would (a config-file disable_error_code needs mypy 1.19 or newer).
    plugin = "[mypy]\nplugins = toolcall_mypy\ndisable_error_code = toolcall-strict\n"
    (root / "with.ini").write_text(plugin)
    (root / "without.ini").write_text("[mypy]\n")
    # The plugin's analysis alone: every tool's IR and findings, nothing rendered, no file written.
    (root / "analysis.ini").write_text(plugin + "\n[toolcall]\ncache = false\nstrict = false\n")


def mypy_seconds(root: Path, config: str, cache: Path) -> float:
    """One mypy run over the project."""
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", str(cache), "generated"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"mypy failed ({config}):\n{run.stdout}\n{run.stderr}")
    return elapsed


def remove_schema_caches(root: Path) -> None:
    """Delete the plugin's ``__toolcall__`` files: the project as first checked out, before any run."""
    for directory in root.glob("**/__toolcall__"):
        shutil.rmtree(directory)


#: The runs of one round: (label, config, whether the schema cache files are deleted first, cold).
RUNS: Final = (
    ("without plugin, cold", "without.ini", False, True),
    ("with plugin, cold, no schema cache files", "with.ini", True, True),
    ("with plugin, cold, schema cache files present", "with.ini", False, True),
    ("with plugin, cold, analysis only", "analysis.ini", False, True),
    ("without plugin, warm", "without.ini", False, False),
    ("with plugin, warm", "with.ini", False, False),
)


def measure(root: Path, rounds: int) -> dict[str, list[float]]:
    """Every run of ``RUNS``, ``rounds`` times, the order rotating from round to round."""
    times: dict[str, list[float]] = {label: [] for label, *_ in RUNS}
    for config in ("without.ini", "with.ini"):  # a warm mypy cache for each configuration
        mypy_seconds(root, config, root / f"warm-{config}")
    for round_ in range(rounds):
        shift = round_ % len(RUNS)
        for label, config, fresh, cold in RUNS[shift:] + RUNS[:shift]:
            if fresh:
                remove_schema_caches(root)
            cache = root / (f"cold-{round_}-{label}" if cold else f"warm-{config}")
            times[label].append(mypy_seconds(root, config, cache))
            if cold:
                shutil.rmtree(cache, ignore_errors=True)
            mypy_seconds(root, "with.ini", root / "warm-with.ini")  # leave the schema cache files current
    return times


def main() -> int:
    """Measure and print the cold and warm ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        write_project(root, options.tools)
        times = measure(root, options.rounds)
    medians = {label: statistics.median(found) for label, found in times.items()}
    python = platform.python_version()
    print(f"mypy {version('mypy')} on {options.tools} tools, Python {python}, {options.rounds} rounds")
    print("| run | median | x without plugin |", "|---|---|---|", sep="\n")
    for label, median in medians.items():
        base = medians["without plugin, cold" if "cold" in label else "without plugin, warm"]
        print(f"| {label} | {median:.2f} s | {median / base:.2f}x |")
    passed = True
    for label, case in (
        ("with plugin, cold, no schema cache files", "the first run"),
        ("with plugin, cold, schema cache files present", "a checkout that commits them"),
    ):
        ratio = medians[label] / medians["without plugin, cold"]
        passed = passed and ratio < 1.10
        verdict = "PASS" if ratio < 1.10 else "FAIL"
        print(f"{verdict}  {label.removeprefix('with plugin, ')} ({case}): under 1.10x ({ratio:.2f}x)")
    floor = medians["with plugin, cold, analysis only"] / medians["without plugin, cold"]
    print(f"the analysis alone (cache = false, strict = false: nothing rendered or written): {floor:.2f}x")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
