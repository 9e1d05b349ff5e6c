"""What rendering costs per tool: ``python benchmarks/render_cost.py [--tools 200] [--rounds 5]``.

Renders the tools of a generated project (``plugin_cost.py``'s tools: a
TypedDict list, an enum, a Literal, a bounded int, docstrings) and of the
test corpus (``tests/corpus``), and prints microseconds per tool: for
``render_variants`` over every cache variant (what the mypy plugin calls
once per tool), and for each variant alone through ``render_tool``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from plugin_cost import write_project  # noqa: E402

from toolcall import _ir as ir  # noqa: E402
from toolcall._declarations.tool import module_tools  # noqa: E402
from toolcall._introspect import introspect  # noqa: E402
from toolcall._providers import VARIANTS, variant_key  # noqa: E402
from toolcall._render.definitions import parameters_schema, render_tool, render_variants  # noqa: E402


def module_irs(modules: list[str]) -> list[ir.Tool]:
    """The IR of every tool in ``modules`` (imported here), in declaration order."""
    tools: list[ir.Tool] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the corpus warns on purpose (lost defaults, unknown types)
        for name in modules:
            importlib.import_module(name)
            tools.extend(introspect(d).tool for d in module_tools(name))
    return tools


def generated_tools(directory: Path, count: int) -> list[ir.Tool]:
    """The tools of a project written by ``plugin_cost.write_project``."""
    write_project(directory, count)
    sys.path.insert(0, str(directory))
    return module_irs([f"generated.tools_{m}" for m in range(10)])


def corpus_tools() -> list[ir.Tool]:
    """The tools of the test corpus modules available on this Python."""
    from tests import corpus

    return module_irs(corpus.MODULES)


def per_tool_us(tools: list[ir.Tool], render: Callable[[ir.Tool], object], rounds: int) -> float:
    """The best of ``rounds`` runs over ``tools``, in microseconds per tool."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for tool in tools:
            render(tool)
        best = min(best, time.perf_counter() - start)
    return best / len(tools) * 1e6


def single(provider: str, strict: bool) -> Callable[[ir.Tool], object]:
    """One variant through ``render_tool`` (a ``ValueError`` counts as a result)."""

    def render(tool: ir.Tool) -> object:
        try:
            return render_tool(tool, provider, strict=strict)
        except ValueError as exc:
            return str(exc)

    return render


def report(label: str, tools: list[ir.Tool], rounds: int) -> None:
    """Print the per-tool costs for one set of tools."""
    print(f"{label}: {len(tools)} tools, best of {rounds} rounds, microseconds per tool")
    print(f"  {'render_variants (all)':<26} {per_tool_us(tools, lambda t: render_variants(t, VARIANTS), rounds):8.1f}")
    print(f"  {'canonical schema':<26} {per_tool_us(tools, parameters_schema, rounds):8.1f}")
    for provider, strict in VARIANTS:
        print(f"  {variant_key(provider, strict):<26} {per_tool_us(tools, single(provider, strict), rounds):8.1f}")


def main() -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        report("generated", generated_tools(Path(directory), options.tools), options.rounds)
    report("corpus", corpus_tools(), options.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
