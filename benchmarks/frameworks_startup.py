"""Start-up cost of 100 tools in an agent framework: toolcall's bridge against the framework's own decorator.

One module of 100 tools (five shapes of signature, cycled) is written once
per contender, differing only in its decorator. Each sample is a fresh
interpreter that imports the framework and toolcall untimed, then times
what a program pays before its first request: importing the tool module
and getting the framework's tool objects. toolcall is timed twice: served
from its schema cache (``TOOLCALL_CACHE=require``; the cache is written by
the plugin's writer from the runtime IR, as ``tests/cached_package.py``
does, so no mypy run is needed) and by introspection
(``TOOLCALL_CACHE=off``). The framework's decorator builds its schemas as
the module is imported.

Contenders of all frameworks run interleaved, round by round, rotating who
goes first; the table gives medians per tool and the ratio to the
framework's decorator, with PASS when it is at most ``TARGET``.

    python benchmarks/frameworks_startup.py [--rounds N] [--framework NAME ...]

Each framework's part is the functions named ``*_<framework>``, listed in
``FRAMEWORKS``; a framework that is not installed is skipped, saying so.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from timing import Stats, process_env

ROOT: Final = Path(__file__).resolve().parent.parent
TOOL_COUNT: Final = 100
#: The highest ratio of toolcall's time to the framework decorator's that passes.
TARGET: Final = 0.1

#: The tool module's shared types; ``typing_extensions.TypedDict``, as pydantic refuses ``typing``'s before 3.12.
HEADER: Final = '''"""100 tools for the start-up benchmark."""

from __future__ import annotations

import enum
from typing import Literal

from typing_extensions import TypedDict

{imports}


class Unit(enum.Enum):
    """A temperature unit."""

    C = "celsius"
    F = "fahrenheit"


class Item(TypedDict):
    """An order line."""

    name: str
    qty: int
    price: float
'''

#: Five signatures, cycled over the tools: scalars with defaults, an enum, a list of TypedDicts, a Literal, optionals.
SHAPES: Final = (
    '''def {name}(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {{"city": city, "days": days}}
''',
    '''def {name}(celsius: float, unit: Unit = Unit.C) -> float:
    """Convert a temperature.

    Args:
        celsius: the temperature in degrees Celsius
        unit: the unit to convert to
    """
    return celsius
''',
    '''def {name}(items: list[Item], coupon: str | None = None) -> float:
    """Price an order.

    Args:
        items: the order lines
        coupon: a discount code
    """
    return sum(item["qty"] * item["price"] for item in items)
''',
    '''def {name}(query: str, mode: Literal["fast", "exact"] = "fast", limit: int = 10) -> list[str]:
    """Search the catalogue.

    Args:
        query: words to look for
        mode: how hard to look
        limit: at most this many results
    """
    return [query] * limit
''',
    '''def {name}(user_id: int, tags: list[str], note: str | None = None, urgent: bool = False) -> str:
    """File a ticket.

    Args:
        user_id: who asks
        tags: labels for the ticket
        note: free text
        urgent: whether it jumps the queue
    """
    return f"{{user_id}}"
''',
)


def tool_module(imports: str, decorator: str) -> str:
    """The source of the 100-tool module, each tool under ``decorator`` (a line such as ``@toolcall.tool``)."""
    tools = [f"{decorator}\n" + SHAPES[i % len(SHAPES)].format(name=f"tool_{i:03d}") for i in range(TOOL_COUNT)]
    return HEADER.format(imports=imports) + "\n\n" + "\n\n".join(tools)


def toolcall_module() -> str:
    """The module every toolcall contender imports: ``@toolcall.tool`` on each tool."""
    return tool_module("import toolcall", "@toolcall.tool")


#: Writes the schema cache of ``bench100/toolcall_tools.py`` with the plugin's writer, from the runtime IR.
WRITE_CACHE: Final = """
import bench100.toolcall_tools as tools
from toolcall._cache import file_format as cf
from toolcall_mypy._cache.files import write_cache_file
from toolcall._toolset.toolset import as_toolset, loaded_tools

entries = [cf.tool_entry(t.ir, [tools.__name__]) for t in loaded_tools(as_toolset(tools))]
source = open(tools.__file__, "rb").read()
records = {tools.__name__: cf.source_record(source, "toolcall_tools.py")}
content = cf.module_content(tools.__name__, records, entries, {})
write_cache_file(str(cf.cache_path(tools.__file__)), cf.dumps(content))
"""


@dataclass(frozen=True)
class Contender:
    """One way to get the framework's 100 tools: ``setup`` untimed, then ``timed``, which binds ``tools``."""

    name: str
    setup: str
    timed: str
    env: dict[str, str] = field(default_factory=dict)


#: The child: setup, then the timed code; prints the ns it took and how many tools it made.
CHILD: Final = """
import time
{setup}
start = time.perf_counter_ns()
{timed}
elapsed = time.perf_counter_ns() - start
print(elapsed, len(tools))
"""


def sample(contender: Contender, cwd: Path, env: dict[str, str]) -> int:
    """One fresh interpreter's time (ns) for ``contender``; it must have made ``TOOL_COUNT`` tools."""
    code = CHILD.format(setup=contender.setup, timed=contender.timed)
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env={**env, **contender.env}, capture_output=True, text=True
    )
    if run.returncode != 0:
        raise SystemExit(f"{contender.name} failed:\n{run.stderr}")
    elapsed, made = run.stdout.split()
    if int(made) != TOOL_COUNT:
        raise SystemExit(f"{contender.name} made {made} tools, not {TOOL_COUNT}")
    return int(elapsed)


def write_project(root: Path) -> Path:
    """``root/bench100``: the toolcall module with its schema cache; each framework adds its own module."""
    package = root / "bench100"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "toolcall_tools.py").write_text(toolcall_module())
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{ROOT}", "PYTHONWARNINGS": "ignore"}
    subprocess.run([sys.executable, "-c", WRITE_CACHE], cwd=root, env=env, check=True)
    return root


def contenders_langchain(root: Path) -> list[Contender]:
    """LangChain's ``@tool`` against ``toolcall.langchain.tools``, each with the schemas ``bind_tools`` sends.

    LangChain's decorator builds each tool's pydantic model at import and its
    JSON Schema only when asked, so both sides also convert every tool with
    ``convert_to_openai_tool``, as ``bind_tools`` does before the first request.
    """
    (root / "bench100" / "langchain_tools.py").write_text(tool_module("from langchain_core.tools import tool", "@tool"))
    setup = (
        "import importlib, toolcall, toolcall.langchain; "
        "from langchain_core.tools import BaseTool; "
        "from langchain_core.utils.function_calling import convert_to_openai_tool"
    )
    bound = "; schemas = [convert_to_openai_tool(tool) for tool in tools]"
    ours = "tools = toolcall.langchain.tools(importlib.import_module('bench100.toolcall_tools'))" + bound
    module = "bench100.langchain_tools"
    theirs = (
        f"module = importlib.import_module({module!r}); "
        "tools = [getattr(module, f'tool_{i:03d}') for i in range(100)]" + bound
    )
    return [
        Contender("LangChain @tool", setup, theirs),
        Contender("toolcall langchain.tools, cache", setup, ours, {"TOOLCALL_CACHE": "require"}),
        Contender("toolcall langchain.tools, introspection", setup, ours, {"TOOLCALL_CACHE": "off"}),
    ]


def contenders_openai_agents(root: Path) -> list[Contender]:
    """openai-agents' ``@function_tool`` against ``toolcall.openai_agents.function_tools``, cached and introspected."""
    (root / "bench100" / "agents_tools.py").write_text(
        tool_module("from agents import function_tool", "@function_tool")
    )
    setup = "import importlib, agents, toolcall, toolcall.openai_agents"
    ours = "tools = toolcall.openai_agents.function_tools(importlib.import_module('bench100.toolcall_tools'))"
    theirs = "module = importlib.import_module('bench100.agents_tools')\n"
    theirs += "tools = [v for v in vars(module).values() if isinstance(v, agents.FunctionTool)]"
    return [
        Contender("openai-agents @function_tool", setup, theirs),
        Contender("toolcall function_tools, cache", setup, ours, {"TOOLCALL_CACHE": "require"}),
        Contender("toolcall function_tools, introspection", setup, ours, {"TOOLCALL_CACHE": "off"}),
    ]


def contenders_pydantic_ai(root: Path) -> list[Contender]:
    """pydantic-ai's ``Tool(function)`` (what ``@agent.tool_plain`` builds) against ``toolcall.pydantic_ai.tools``."""
    (root / "bench100" / "pydantic_ai_tools.py").write_text(tool_module("", ""))
    setup = "import importlib, pydantic_ai, toolcall, toolcall.pydantic_ai"
    ours = "tools = toolcall.pydantic_ai.tools(importlib.import_module('bench100.toolcall_tools'))"
    module = "bench100.pydantic_ai_tools"
    theirs = (
        f"module = importlib.import_module({module!r}); "
        "tools = [pydantic_ai.Tool(getattr(module, f'tool_{i:03d}')) for i in range(100)]"
    )
    return [
        Contender("pydantic-ai Tool(function)", setup, theirs),
        Contender("toolcall pydantic_ai.tools, cache", setup, ours, {"TOOLCALL_CACHE": "require"}),
        Contender("toolcall pydantic_ai.tools, introspection", setup, ours, {"TOOLCALL_CACHE": "off"}),
    ]


#: Each framework: the package it needs, and its contenders (the first is the framework's own decorator).
FRAMEWORKS: Final[dict[str, tuple[str, Callable[[Path], list[Contender]]]]] = {
    "langchain": ("langchain_core", contenders_langchain),
    "openai-agents": ("agents", contenders_openai_agents),
    "pydantic-ai": ("pydantic_ai", contenders_pydantic_ai),
}


def interleaved(contenders: list[Contender], rounds: int, cwd: Path) -> dict[str, Stats]:
    """Median ns of each contender over ``rounds`` rounds, rotating the order; a first, unrecorded round warms up."""
    samples: dict[str, list[float]] = {c.name: [] for c in contenders}
    with tempfile.TemporaryDirectory(prefix="toolcall-bench-") as pycache:
        env = process_env(Path(pycache))
        env["PYTHONPATH"] = f"{cwd}{os.pathsep}{ROOT}"
        env["PYTHONWARNINGS"] = "ignore"  # toolcall-strict warnings of the tools are not what is timed
        for index in range(rounds + 1):
            shift = index % len(contenders)
            for contender in contenders[shift:] + contenders[:shift]:
                elapsed = sample(contender, cwd, env)
                if index:
                    samples[contender.name].append(elapsed)
    return {name: Stats.of(values) for name, values in samples.items()}


def report(groups: dict[str, list[Contender]], stats: dict[str, Stats]) -> bool:
    """Print each framework's table; whether every toolcall contender is within ``TARGET`` of the decorator."""
    passed = True
    for framework, contenders in groups.items():
        theirs = stats[contenders[0].name].median
        print(f"\n{framework}: {TOOL_COUNT} tools, ms per tool (median [q1, q3]), ratio to its decorator")
        for contender in contenders:
            s = stats[contender.name]
            ratio = s.median / theirs
            verdict = "" if contender is contenders[0] else ("  PASS" if ratio <= TARGET else "  FAIL")
            passed = passed and (contender is contenders[0] or ratio <= TARGET)
            per_tool = [value / TOOL_COUNT / 1e6 for value in (s.median, s.q1, s.q3)]
            print(
                f"  {contender.name:42} {per_tool[0]:7.3f} [{per_tool[1]:.3f}, {per_tool[2]:.3f}]"
                f"  {ratio:6.3f}x{verdict}"
            )
    return passed


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--framework", action="append", choices=sorted(FRAMEWORKS), help="default: all installed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="toolcall-frameworks-") as where:
        root = write_project(Path(where))
        groups: dict[str, list[Contender]] = {}
        for name in args.framework or FRAMEWORKS:
            package, contenders = FRAMEWORKS[name]
            if importlib.util.find_spec(package) is None:
                print(f"{name}: skipped, {package!r} is not installed")
                continue
            groups[name] = contenders(root)
        everyone = [contender for contenders in groups.values() for contender in contenders]
        stats = interleaved(everyone, args.rounds, root)
    return 0 if report(groups, stats) else 1


if __name__ == "__main__":
    sys.exit(main())
