"""What the mypy plugin costs: ``python benchmarks/plugin_cost.py [--tools 200] [--rounds 3]``.

Generates a project of N tools (ten modules of N/10 tools, with TypedDicts,
enums, Literals, Annotated bounds and docstrings), then runs mypy on it with
and without ``plugins = toolcall_mypy``, interleaved: cold (a fresh cache
directory each run) and warm (the same cache again, nothing changed). It
prints the medians and the ratios; the target is under 1.10 cold.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

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
    (root / "with.ini").write_text("[mypy]\nplugins = toolcall_mypy\n")
    (root / "without.ini").write_text("[mypy]\n")


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
    if run.returncode not in (0, 1):
        raise SystemExit(f"mypy failed ({config}):\n{run.stdout}\n{run.stderr}")
    return elapsed


def main() -> int:
    """Measure and print the cold and warm ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        write_project(root, options.tools)
        cold: dict[str, list[float]] = {"without": [], "with": []}
        warm: dict[str, list[float]] = {"without": [], "with": []}
        for round_ in range(options.rounds):
            for config in ("without", "with"):
                cache = root / f"cache-{config}-{round_}"
                cold[config].append(mypy_seconds(root, f"{config}.ini", cache))
                warm[config].append(mypy_seconds(root, f"{config}.ini", cache))
                shutil.rmtree(cache, ignore_errors=True)
        print(f"mypy on {options.tools} tools, {options.rounds} rounds, medians (seconds)")
        for label, runs in (("cold", cold), ("warm", warm)):
            without, with_ = statistics.median(runs["without"]), statistics.median(runs["with"])
            print(f"| {label} | without plugin {without:.2f} | with plugin {with_:.2f} | ratio {with_ / without:.2f} |")
        ratio = statistics.median(cold["with"]) / statistics.median(cold["without"])
        print(f"{'PASS' if ratio < 1.10 else 'FAIL'}  cold ratio under 1.10 ({ratio:.2f})")
        return 0 if ratio < 1.10 else 1


if __name__ == "__main__":
    raise SystemExit(main())
