"""``toolcall serve`` against the mcp SDK's own server: the round trip of one ``tools/call``.

``python benchmarks/serve_roundtrip.py [--rounds 40] [--calls 50] [--warmup 200]``

Two MCP servers over stdio, each a subprocess serving the README's
weather tool (``benchmarks/seed_tools.get_weather``):

- **toolcall serve**: ``python -m toolcall serve benchmarks.seed_tools``
  (the mcp SDK's low-level ``Server``, toolcall's definitions and dispatch);
- **mcp MCPServer**: the SDK's high-level server (``mcp.server.mcpserver``,
  formerly FastMCP) with ``add_tool(get_weather)``, run by this file with
  ``--sdk-server``. It validates the arguments with pydantic and runs a sync
  tool in a worker thread.

The official client (``stdio_client`` and ``ClientSession``) runs in this
process, one session per server, both open for the whole run. After a
check of each server's answer and ``--warmup`` calls each, every round makes
``--calls`` sequential ``call_tool("get_weather", {"city": "Oslo", "days":
5})`` calls on each server, the order of the servers rotated each round so a
slow moment of the machine hits both alike. Each call is timed alone with
``time.perf_counter_ns``, from the client's request to its parsed,
validated result (the client checks ``structuredContent`` against the
tool's ``outputSchema`` for both), with the collector off during a round.
The table gives the median and quartiles over every call of every round;
a third contender, ``ping`` on the toolcall server, is the round trip of
the SDK's client, transport and server machinery with no tool at all.

The target: toolcall's median at most 0.5x the SDK server's. The exit
status is 1 when it is missed.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AsyncExitStack
from importlib.metadata import version
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``benchmarks`` as a package, also when run as a script
    sys.path.insert(0, str(ROOT))

from benchmarks.seed_tools import WEATHER_ARGS, WEATHER_RESULT  # noqa: E402
from benchmarks.timing import Stats  # noqa: E402

TOOLCALL: Final = "toolcall serve"
SDK: Final = "mcp MCPServer"
PING: Final = "ping (toolcall server, no tool)"
TARGET: Final = 0.5


def serve_sdk() -> None:
    """The SDK's own server for the weather tool, over stdio (this file with ``--sdk-server``)."""
    from mcp.server.mcpserver import MCPServer

    from benchmarks.seed_tools import get_weather

    server = MCPServer("weather")
    server.add_tool(get_weather)
    server.run("stdio")


def server_commands() -> dict[str, list[str]]:
    """The command line of each server."""
    return {
        TOOLCALL: [sys.executable, "-m", "toolcall", "serve", "benchmarks.seed_tools"],
        SDK: [sys.executable, str(Path(__file__).resolve()), "--sdk-server"],
    }


def check(name: str, result: Any) -> None:
    """Raise unless ``result`` is the weather tool's answer."""
    if result.is_error or result.structured_content != WEATHER_RESULT:
        raise SystemExit(f"{name} answered {result!r}, not {WEATHER_RESULT!r}")


async def sample(call: Callable[[], Awaitable[Any]], count: int) -> list[float]:
    """The ns of each of ``count`` sequential awaits of ``call()``."""
    times = []
    for _ in range(count):
        start = time.perf_counter_ns()
        await call()
        times.append(time.perf_counter_ns() - start)
    return times


async def measure(rounds: int, calls: int, warmup: int) -> dict[str, list[float]]:
    """Per-call round trips of each contender over ``rounds`` interleaved rounds."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async with AsyncExitStack() as stack:
        contenders: dict[str, Callable[[], Awaitable[Any]]] = {}
        for name, command in server_commands().items():
            parameters = StdioServerParameters(command=command[0], args=command[1:], cwd=ROOT, env=dict(os.environ))
            read, write = await stack.enter_async_context(stdio_client(parameters))
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
            await session.list_tools()  # the client keeps the outputSchema it validates against
            check(name, await session.call_tool("get_weather", WEATHER_ARGS))
            contenders[name] = _caller(session)
            if name == TOOLCALL:
                contenders[PING] = session.send_ping
        for call in contenders.values():
            await sample(call, warmup)
        times: dict[str, list[float]] = {name: [] for name in contenders}
        names = list(contenders)
        for index in range(rounds):
            shift = index % len(names)
            gc.collect()
            gc.disable()
            try:
                for name in names[shift:] + names[:shift]:
                    times[name] += await sample(contenders[name], calls)
            finally:
                gc.enable()
        return times


def _caller(session: Any) -> Callable[[], Awaitable[Any]]:
    async def call() -> Any:
        return await session.call_tool("get_weather", WEATHER_ARGS)

    return call


def duration(ns: float) -> str:
    """``ns`` with a readable unit."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def report(times: dict[str, list[float]]) -> bool:
    """Print the table and the target's line; whether the target is met."""
    stats = {name: Stats.of(values) for name, values in times.items()}
    sdk = stats[SDK].median
    print("| server | median per call | IQR | x mcp MCPServer | calls |")
    print("|---|---|---|---|---|")
    for name, found in stats.items():
        spread = f"{duration(found.q1)} - {duration(found.q3)}"
        print(f"| {name} | {duration(found.median)} | {spread} | {found.median / sdk:.2f}x | {found.rounds} |")
    ratio = stats[TOOLCALL].median / sdk
    passed = ratio <= TARGET
    verdict = "PASS" if passed else "FAIL"
    print(f"\n{verdict}: toolcall serve {ratio:.2f}x of the SDK server's time per call (target <= {TARGET}x)")
    return passed


def machine() -> str:
    """Python, the SDK, CPUs and load, for the record."""
    load = " ".join(f"{value:.2f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    python = f"{platform.python_implementation()} {platform.python_version()}"
    where = f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores"
    return f"{python} on {where}, mcp {version('mcp')}, load {load}"


def main(argv: Sequence[str] | None = None) -> int:
    """Measure both servers and print the table; exit 1 when the target is missed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="interleaved rounds (default 40)")
    parser.add_argument("--calls", type=int, default=50, help="timed calls per server per round (default 50)")
    parser.add_argument("--warmup", type=int, default=200, help="untimed calls per server first (default 200)")
    parser.add_argument("--sdk-server", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.sdk_server:
        serve_sdk()
        return 0
    import anyio

    print(machine())
    print(f"command: python benchmarks/serve_roundtrip.py {' '.join(sys.argv[1:])}".rstrip())
    times = anyio.run(measure, options.rounds, options.calls, options.warmup)
    return 0 if report(times) else 1


if __name__ == "__main__":
    sys.exit(main())
