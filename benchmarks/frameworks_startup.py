"""Start-up cost of 100 tools in an agent framework: toolcall's bridge against the framework's own decorator.

One module of 100 tools (five shapes of signature, cycled) is written once
per contender, differing only in its decorator, and one module of a single
tool of another shape to warm up with. Each sample is a fresh interpreter
that times two things a program pays before its first request:

- once: importing the library and getting the tool objects of the one-tool
  module, which pays what the library does once per process (its imports,
  first-use set-up) whatever the number of tools;
- per tool: then importing the 100-tool module and getting its tool
  objects, divided by 100.

The framework's own contender pays the framework's import in its "once".
toolcall's contenders import the framework and build one tool with its
decorator untimed (a program that uses the framework pays that anyway),
so their "once" is what toolcall adds: importing the bridge and its
first tool. toolcall is timed served from its schema cache
(``TOOLCALL_CACHE=require``; the caches are written by the plugin's writer
from the runtime IR, as ``tests/cached_package.py`` does, so no mypy run
is needed) and by introspection (``TOOLCALL_CACHE=off``).

Contenders of all frameworks run interleaved, round by round, rotating who
goes first; the table gives medians and the ratios to the framework's
decorator, with PASS when both are at most ``TARGET``.

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


#: The warm-up module's one tool: a shape none of the 100 tools has.
WARM_TOOL: Final = '''def warm(text: str, times: int = 1) -> str:
    """Repeat a text.

    Args:
        text: what to repeat
        times: how many times
    """
    return text * times
'''


def tool_module(imports: str, decorator: str) -> str:
    """The source of the 100-tool module, each tool under ``decorator`` (a line such as ``@toolcall.tool``)."""
    tools = [f"{decorator}\n" + SHAPES[i % len(SHAPES)].format(name=f"tool_{i:03d}") for i in range(TOOL_COUNT)]
    return HEADER.format(imports=imports) + "\n\n" + "\n\n".join(tools)


def warm_module(imports: str, decorator: str) -> str:
    """The source of the one-tool module, its tool under ``decorator``."""
    return f'"""One tool to warm up with."""\n\n{imports}\n\n\n{decorator}\n{WARM_TOOL}'


#: toolcall's modules, with their schema caches: the one-tool module, then the 100 tools.
TOOLCALL_MODULES: Final = ("warm_toolcall", "toolcall_tools")

#: Writes the schema cache of each of ``TOOLCALL_MODULES`` with the plugin's writer, from the runtime IR.
WRITE_CACHE: Final = """
import importlib
from toolcall._cache import file_format as cf
from toolcall_mypy._cache.files import write_cache_file
from toolcall._toolset.toolset import as_toolset, loaded_tools

for name in {modules!r}:
    tools = importlib.import_module("bench100." + name)
    entries = [cf.tool_entry(t.ir, [tools.__name__]) for t in loaded_tools(as_toolset(tools))]
    source = open(tools.__file__, "rb").read()
    records = {{tools.__name__: cf.source_record(source, name + ".py")}}
    content = cf.module_content(tools.__name__, records, entries, {{}})
    write_cache_file(str(cf.cache_path(tools.__file__)), cf.dumps(content))
"""


@dataclass(frozen=True)
class Contender:
    """One way to get the framework's tools: ``setup`` untimed, ``once`` and ``timed`` timed apart.

    ``once`` gets the one-tool module's tools, ``timed`` binds ``tools`` to the 100.
    """

    name: str
    setup: str
    once: str
    timed: str
    env: dict[str, str] = field(default_factory=dict)


#: The child: setup, then the two timed parts; prints the ns each took and how many tools the second made.
CHILD: Final = """
import time
{setup}
start = time.perf_counter_ns()
{once}
once = time.perf_counter_ns() - start
start = time.perf_counter_ns()
{timed}
elapsed = time.perf_counter_ns() - start
print(once, elapsed, len(tools))
"""


@dataclass(frozen=True)
class Sample:
    """One fresh interpreter's times, in ns: the library's import with the one-tool module, then the 100 tools."""

    once: int
    tools: int


def sample(contender: Contender, cwd: Path, env: dict[str, str]) -> Sample:
    """One fresh interpreter's times for ``contender``; it must have made ``TOOL_COUNT`` tools."""
    code = CHILD.format(setup=contender.setup, once=contender.once, timed=contender.timed)
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env={**env, **contender.env}, capture_output=True, text=True
    )
    if run.returncode != 0:
        raise SystemExit(f"{contender.name} failed:\n{run.stderr}")
    once, elapsed, made = run.stdout.split()
    if int(made) != TOOL_COUNT:
        raise SystemExit(f"{contender.name} made {made} tools, not {TOOL_COUNT}")
    return Sample(int(once), int(elapsed))


def write_project(root: Path) -> Path:
    """``root/bench100``: toolcall's two modules with their schema caches; each framework adds its own two."""
    package = root / "bench100"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "warm_toolcall.py").write_text(warm_module("import toolcall", "@toolcall.tool"))
    (package / "toolcall_tools.py").write_text(tool_module("import toolcall", "@toolcall.tool"))
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{ROOT}", "PYTHONWARNINGS": "ignore"}
    code = WRITE_CACHE.format(modules=TOOLCALL_MODULES)
    subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=True)
    return root


def write_framework_modules(root: Path, framework: str, imports: str, decorator: str) -> None:
    """``bench100/warm_<framework>.py`` and ``bench100/<framework>_tools.py``, each tool under ``decorator``."""
    (root / "bench100" / f"warm_{framework}.py").write_text(warm_module(imports, decorator))
    (root / "bench100" / f"{framework}_tools.py").write_text(tool_module(imports, decorator))


@dataclass(frozen=True)
class Side:
    """One side's code: its import, getting the one-tool module's tools, getting the 100."""

    imports: str
    first: str
    hundred: str


def three_contenders(label: str, framework: Side, bridge: Side) -> list[Contender]:
    """The framework's decorator, then toolcall's bridge from the cache and by introspection.

    toolcall's contenders run the framework's import and its one tool untimed first.
    """
    setup = f"import importlib\n{framework.imports}\n{framework.first}"
    once = f"{bridge.imports}\n{bridge.first}"
    return [
        Contender(label, "import importlib", f"{framework.imports}\n{framework.first}", framework.hundred),
        Contender("toolcall, cache", setup, once, bridge.hundred, {"TOOLCALL_CACHE": "require"}),
        Contender("toolcall, introspection", setup, once, bridge.hundred, {"TOOLCALL_CACHE": "off"}),
    ]


def bridge_side(module: str, call: str, then: str = "") -> Side:
    """toolcall's side: ``import toolcall, toolcall.<module>``, then ``call`` on each of its two modules."""
    code = f"tools = toolcall.{module}.{call}(importlib.import_module('bench100.{{}}')){then}"
    first, hundred = (code.format(name) for name in TOOLCALL_MODULES)
    return Side(f"import toolcall, toolcall.{module}", first, hundred)


def contenders_langchain(root: Path) -> list[Contender]:
    """LangChain's ``@tool`` against ``toolcall.langchain.tools``, each with the schemas ``bind_tools`` sends.

    LangChain's decorator builds each tool's pydantic model at import and its
    JSON Schema only when asked, so both sides also convert every tool with
    ``convert_to_openai_tool``, as ``bind_tools`` does before the first request.
    """
    write_framework_modules(root, "langchain", "from langchain_core.tools import tool", "@tool")
    bound = "; schemas = [convert_to_openai_tool(tool) for tool in tools]"
    module = "module = importlib.import_module('bench100.langchain_tools')"
    theirs = Side(
        "from langchain_core.utils.function_calling import convert_to_openai_tool",
        "tools = [importlib.import_module('bench100.warm_langchain').warm]" + bound,
        f"{module}; tools = [getattr(module, f'tool_{{i:03d}}') for i in range({TOOL_COUNT})]" + bound,
    )
    return three_contenders("LangChain @tool", theirs, bridge_side("langchain", "tools", bound))


def contenders_openai_agents(root: Path) -> list[Contender]:
    """openai-agents' ``@function_tool`` against ``toolcall.openai_agents.function_tools``."""
    write_framework_modules(root, "agents", "from agents import function_tool", "@function_tool")
    module = "module = importlib.import_module('bench100.agents_tools')"
    theirs = Side(
        "import agents",
        "tools = [importlib.import_module('bench100.warm_agents').warm]",
        f"{module}; tools = [v for v in vars(module).values() if isinstance(v, agents.FunctionTool)]",
    )
    return three_contenders("openai-agents @function_tool", theirs, bridge_side("openai_agents", "function_tools"))


def contenders_pydantic_ai(root: Path) -> list[Contender]:
    """pydantic-ai's ``Tool(function)`` (what ``@agent.tool_plain`` builds) against ``toolcall.pydantic_ai.tools``."""
    write_framework_modules(root, "pydantic_ai", "", "")
    module = "module = importlib.import_module('bench100.pydantic_ai_tools')"
    theirs = Side(
        "import pydantic_ai",
        "tools = [pydantic_ai.Tool(importlib.import_module('bench100.warm_pydantic_ai').warm)]",
        f"{module}; tools = [pydantic_ai.Tool(getattr(module, f'tool_{{i:03d}}')) for i in range({TOOL_COUNT})]",
    )
    return three_contenders("pydantic-ai Tool(function)", theirs, bridge_side("pydantic_ai", "tools"))


#: Each framework: the package it needs, and its contenders (the first is the framework's own decorator).
FRAMEWORKS: Final[dict[str, tuple[str, Callable[[Path], list[Contender]]]]] = {
    "langchain": ("langchain_core", contenders_langchain),
    "openai-agents": ("agents", contenders_openai_agents),
    "pydantic-ai": ("pydantic_ai", contenders_pydantic_ai),
}


@dataclass(frozen=True)
class Timing:
    """A contender's medians over the rounds, in ns: once, and the 100 tools."""

    once: Stats
    tools: Stats


def interleaved(contenders: list[Contender], rounds: int, cwd: Path) -> list[Timing]:
    """Each contender's timing over ``rounds`` rounds, rotating the order; a first, unrecorded round warms up."""
    samples: list[list[Sample]] = [[] for _ in contenders]
    with tempfile.TemporaryDirectory(prefix="toolcall-bench-") as pycache:
        env = process_env(Path(pycache))
        env["PYTHONPATH"] = f"{cwd}{os.pathsep}{ROOT}"
        env["PYTHONWARNINGS"] = "ignore"  # toolcall-strict warnings of the tools are not what is timed
        order = list(range(len(contenders)))
        for index in range(rounds + 1):
            shift = index % len(contenders)
            for position in order[shift:] + order[:shift]:
                taken = sample(contenders[position], cwd, env)
                if index:
                    samples[position].append(taken)
    return [Timing(Stats.of([s.once for s in taken]), Stats.of([s.tools for s in taken])) for taken in samples]


def verdict(ratio: float) -> str:
    """``PASS`` or ``FAIL`` against ``TARGET``."""
    return "PASS" if ratio <= TARGET else "FAIL"


def report(groups: dict[str, list[Contender]], timings: dict[str, list[Timing]]) -> bool:
    """Print each framework's table; whether every toolcall contender is within ``TARGET`` of the decorator, twice."""
    passed = True
    for framework, contenders in groups.items():
        theirs = timings[framework][0]
        print(f"\n{framework}: once (ms), then ms per tool of {TOOL_COUNT} (median [q1, q3]); ratios to its decorator")
        for contender, timing in zip(contenders, timings[framework], strict=True):
            once, tools = timing.once, timing.tools
            per_tool = [value / TOOL_COUNT / 1e6 for value in (tools.median, tools.q1, tools.q3)]
            spread = f"[{per_tool[1]:.3f}, {per_tool[2]:.3f}]"
            line = f"  {contender.name:30} {once.median / 1e6:8.2f}  {per_tool[0]:7.3f} {spread}"
            if timing is not theirs:
                ratios = (once.median / theirs.once.median, tools.median / theirs.tools.median)
                line += f"  once {ratios[0]:.3f}x {verdict(ratios[0])}, per tool {ratios[1]:.3f}x {verdict(ratios[1])}"
                passed = passed and max(ratios) <= TARGET
            print(line)
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
        timing = iter(interleaved(everyone, args.rounds, root))
        timings = {name: [next(timing) for _ in contenders] for name, contenders in groups.items()}
    return 0 if report(groups, timings) else 1


if __name__ == "__main__":
    sys.exit(main())
