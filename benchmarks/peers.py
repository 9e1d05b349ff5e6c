"""The contenders of each case: toolcall, the CPython floor, a hand-written validator and the peers.

Each ``*_contenders()`` returns a list of ``timing.Contender``. A peer that
cannot be imported on this Python is left out, and ``skipped_peers`` says
why (the scripts print it). What each peer's statement does:

- pydantic ``TypeAdapter(fn).validate_python(args)``: a function's
  TypeAdapter has a call schema; it validates a dict as the keyword
  arguments and calls the function.
- pydantic ``validate_call(fn)(**args)``.
- MCP SDK 2.x (``mcp.server.mcpserver``): ``Tool.from_function(fn)``, whose
  ``run`` validates with ``fn_metadata.validate_arguments`` and then calls a
  sync tool in a worker thread through anyio. "mcp SDK (sync)" times the
  validation and a direct call; "mcp Tool.run" times the real coroutine,
  awaited 20 times per ``run_until_complete`` of a pre-created asyncio loop
  (the worker-thread hop included, the loop's start amortized).
- anthropic SDK: ``beta_tool(fn).call(args)`` (``pydantic.validate_call`` inside).
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import types
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, cast  # cast: a function is a valid TypeAdapter argument

import seed_tools
import tools20
from timing import Contender

import toolcall

HERE = Path(__file__).resolve().parent
TOOL_LINE = "@toolcall.tool\n"
FRESH_MODULE = "tools20_fresh"


#: The peers the benchmarks use, by top-level package, each with the module its contenders import.
PEERS = {
    "pydantic": "pydantic",
    "mcp": "mcp.server.mcpserver",
    "anthropic": "anthropic.lib.tools",
    "openai": "openai.types.chat",
    "msgspec": "msgspec.json",
    "orjson": "orjson",
}
#: The peers of ``run.py``'s cases.
DISPATCH_PEERS = ("pydantic", "mcp", "anthropic")
#: Why each peer that could not be imported was left out (its import error), by package.
_UNAVAILABLE: dict[str, str] = {}
_AVAILABLE: set[str] = set()


def installed(name: str) -> bool:
    """Whether peer ``name`` (its module in ``PEERS``) imports on this Python; the reason is kept when it does not.

    Importing, not just finding, the package: a peer can be installed and
    still fail on a new Python (no wheel for its C extension, an API it uses
    removed), and such a peer must be reported, not timed or silently dropped.
    """
    if name in _AVAILABLE:
        return True
    if name in _UNAVAILABLE:
        return False
    try:
        importlib.import_module(PEERS.get(name, name))
    except Exception as exc:  # any import failure leaves the peer out, with its reason
        _UNAVAILABLE[name] = f"{type(exc).__name__}: {exc}"
        return False
    _AVAILABLE.add(name)
    return True


def skipped_peers(names: Sequence[str]) -> list[str]:
    """One line per peer of ``names`` that cannot be imported here: the rows and targets it is left out of."""
    return [f"skipped peer {name}: {_UNAVAILABLE[name]}" for name in names if not installed(name)]


def expecting(expected: Any) -> Callable[[Any], None]:
    """A check that the statement returned ``expected`` (an ``Ok`` is unwrapped)."""

    def check(value: Any) -> None:
        if isinstance(value, toolcall.Ok):
            value = value.value
        if value != expected:
            raise AssertionError(f"expected {expected!r}, got {value!r}")

    return check


def finish(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """The value of a coroutine that never suspends, without an event loop."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    coroutine.close()
    raise RuntimeError("the coroutine suspended: it needs an event loop")


# -- (a), (b): one dispatch ------------------------------------------------------


MCP_AWAITS = 20


async def awaited(tool: Any, args: dict[str, Any], times: int) -> Any:
    """Await the MCP tool's ``run`` ``times`` times in one loop run; the last result."""
    result = None
    for _ in range(times):
        result = await tool.run(args, None)
    return result


def dispatch_contenders(name: str, args: dict[str, Any], hand: Callable[[Any], Any], expected: Any) -> list[Contender]:
    """toolcall, the floor, the hand-written validator and each peer dispatching ``name`` with ``args``."""
    fn = getattr(seed_tools, name)
    check = expecting(expected)
    base = {"args": args, "name": name}
    found = [
        Contender("toolcall", "toolcall.run(module, name, args)", {**base, "toolcall": toolcall, "module": seed_tools}),
        Contender("floor", "table[name](**args)", {**base, "table": {name: fn}}),
        Contender("hand-written", "hand(args)", {**base, "hand": hand}),
    ]
    found += [Contender(c.name, c.stmt, {**base, **c.namespace}, calls=c.calls) for c in _dispatch_peers(fn)]
    return [Contender(c.name, c.stmt, c.namespace, check, c.calls) for c in found]


def _dispatch_peers(fn: Callable[..., Any]) -> list[Contender]:
    found = []
    if installed("pydantic"):
        from pydantic import TypeAdapter, validate_call

        adapter = TypeAdapter(cast(Any, fn))
        found.append(Contender("pydantic TypeAdapter", "adapter.validate_python(args)", {"adapter": adapter}))
        found.append(Contender("pydantic validate_call", "validated(**args)", {"validated": validate_call(fn)}))
    if installed("mcp"):
        from mcp.server.mcpserver.tools.base import Tool

        tool = Tool.from_function(fn)
        sync = "tool.fn(**tool.fn_metadata.validate_arguments(args))"
        found.append(Contender("mcp SDK (sync)", sync, {"tool": tool}))
        run = {"tool": tool, "loop": asyncio.new_event_loop(), "awaited": awaited, "times": MCP_AWAITS}
        stmt = "loop.run_until_complete(awaited(tool, args, times))"
        found.append(Contender("mcp Tool.run (asyncio)", stmt, run, calls=MCP_AWAITS))
    if installed("anthropic"):
        from anthropic.lib.tools import beta_tool

        found.append(Contender("anthropic beta_tool", "tool.call(args)", {"tool": beta_tool(fn)}))
    return found


def weather_contenders() -> list[Contender]:
    """(a): the README's weather tool."""
    seed = seed_tools
    found = dispatch_contenders("get_weather", seed.WEATHER_ARGS, seed.hand_get_weather, seed.WEATHER_RESULT)
    bound = {"args": seed.WEATHER_ARGS, "name": "get_weather", "module": seed, "bound": seed.weather_bound}
    found.insert(2, Contender("pure-Python bound", "bound(module, name, args)", bound, expecting(seed.WEATHER_RESULT)))
    return found


def items_contenders() -> list[Contender]:
    """(b): a list of 10 TypedDicts of 3 fields."""
    seed = seed_tools
    return dispatch_contenders("add_items", seed.ITEMS_ARGS, seed.hand_add_items, seed.ITEMS_RESULT)


# -- (c): the definitions of 20 tools, per request ---------------------------------


def _twenty(value: Any) -> None:
    if len(value) != 20:
        raise AssertionError(f"expected 20 definitions, got {len(value)}")


def tool_functions() -> list[Callable[..., Any]]:
    """The 20 tool functions of ``tools20``, in declaration order."""
    return [getattr(tools20, name) for name in toolcall.tool_names(tools20)]


def emit_contenders() -> list[Contender]:
    """(c): what each library does to hand a request its 20 tool definitions."""
    first = toolcall.emit(tools20, "openai")
    found = [
        Contender("toolcall", "toolcall.emit(module, 'openai')", {"toolcall": toolcall, "module": tools20}),
        Contender("floor", "cached['openai']", {"cached": {"openai": first}}),
    ]
    functions = tool_functions()
    if installed("pydantic"):
        from pydantic import TypeAdapter

        adapters = [TypeAdapter(cast(Any, fn)) for fn in functions]  # no cache: the schema is generated per call
        found.append(Contender("pydantic TypeAdapter", "[a.json_schema() for a in adapters]", {"adapters": adapters}))
    if installed("mcp"):
        from mcp.server.mcpserver import MCPServer

        server = MCPServer("bench")
        for fn in functions:
            server.add_tool(fn)
        found.append(Contender("mcp list_tools", "finish(server.list_tools())", {"server": server, "finish": finish}))
    if installed("anthropic"):
        from anthropic.lib.tools import beta_tool

        tools = [beta_tool(fn) for fn in functions]
        found.append(Contender("anthropic beta_tool", "[t.to_dict() for t in tools]", {"tools": tools}))
    return [Contender(c.name, c.stmt, c.namespace, _twenty) for c in found]


# -- (d): defining the 20 tools ------------------------------------------------------


def fresh_tools20(code: types.CodeType, define: Callable[[Any], Any]) -> types.ModuleType:
    """A new module made by executing ``code`` (tools20 with ``@toolcall.tool`` → ``@_define``)."""
    module = types.ModuleType(FRESH_MODULE)
    module._define = define  # type: ignore[attr-defined]
    sys.modules[FRESH_MODULE] = module  # pydantic resolves the string annotations through the module
    exec(code, module.__dict__)
    return module


def _keep(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A decorator that builds ``make(fn)`` (a peer's tool object) and returns the function."""

    def define(fn: Any) -> Any:
        make(fn)
        return fn

    return define


def definers() -> dict[str, Callable[[Any], Any]]:
    """Each library's way of turning one of the 20 functions into a tool."""
    found: dict[str, Callable[[Any], Any]] = {"floor": lambda fn: fn, "toolcall": toolcall.tool}
    if installed("pydantic"):
        from pydantic import TypeAdapter, validate_call

        found["pydantic TypeAdapter"] = _keep(TypeAdapter)
        found["pydantic validate_call"] = validate_call
    if installed("mcp"):
        from mcp.server.mcpserver.tools.base import Tool

        found["mcp Tool.from_function"] = _keep(Tool.from_function)
    if installed("anthropic"):
        from anthropic.lib.tools import beta_tool

        found["anthropic beta_tool"] = beta_tool
    return found


def define_contenders() -> list[Contender]:
    """(d): executing tools20's code afresh, the 20 decorators included."""
    source = (HERE / "tools20.py").read_text()
    if source.count(TOOL_LINE) != 20:
        raise AssertionError("tools20.py must mark each of its 20 tools with exactly '@toolcall.tool'")
    code = compile(source.replace(TOOL_LINE, "@_define\n"), str(HERE / "tools20.py"), "exec")
    base = {"fresh": fresh_tools20, "code": code, "toolcall": toolcall}
    found = [Contender(name, "fresh(code, define)", {**base, "define": define}) for name, define in definers().items()]
    # toolcall defers all introspection to first use: this row adds that first use.
    first_use = "toolcall.emit(fresh(code, define), 'openai')"
    found.insert(2, Contender("toolcall + first emit", first_use, {**base, "define": toolcall.tool}, _twenty))
    return found


# -- (e): a fresh interpreter -----------------------------------------------------------

BARE = "python -c pass"


def startup_snippets() -> dict[str, str]:
    """``python -c`` snippets whose start-up is timed against a bare interpreter (run in benchmarks/)."""
    found = {
        BARE: "pass",
        "toolcall": "import toolcall",
        "toolcall + tools20 + emit": "import toolcall, tools20; toolcall.emit(tools20, 'openai')",
    }
    if installed("pydantic"):
        found["pydantic"] = "import pydantic"
    if installed("mcp"):
        found["mcp MCPServer"] = "from mcp.server.mcpserver import MCPServer"
    if installed("anthropic"):
        found["anthropic beta_tool"] = "from anthropic.lib.tools import beta_tool"
    return found
