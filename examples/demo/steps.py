"""The steps of ``scripts/demo.sh`` after mypy, each told in a few lines instead of all the JSON.

The demo runs ``python -OO demo/steps.py STEP [ARG]`` in ``examples/`` with
``TOOLCALL_CACHE=require``: ``-OO`` strips the docstrings, so every
description comes from the schema cache mypy wrote
(``examples/__toolcall__/weather.json``), and ``require`` makes a missing
or stale cache an error instead of a fallback to introspection.

Steps: ``cache`` (the file and its size), ``emit`` (the tool names and the
first lines of one definition), ``dispatch`` (a good call and a bad one),
``exported FILE`` (what ``toolcall export`` wrote) and ``mcp`` (a round trip
through ``toolcall serve`` with the official MCP client).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(EXAMPLES))

import weather  # noqa: E402  (the example tools live one directory up)

import toolcall  # noqa: E402

ROOT = EXAMPLES.parent
CACHE = EXAMPLES / "__toolcall__" / "weather.json"
#: How many lines of the shown definition's JSON the demo prints.
SHOWN_LINES = 9
GOOD_CALL: tuple[str, dict[str, Any]] = ("get_weather", {"city": "Oslo", "days": 2})
BAD_CALL: tuple[str, dict[str, Any]] = ("forecast_at", {"place": {"lat": 91, "lon": 10.7}, "hours": 2})
MCP_GOOD_CALL: tuple[str, dict[str, Any]] = ("get_weather", {"city": "Bergen"})
MCP_BAD_CALL: tuple[str, dict[str, Any]] = ("get_weather", {"city": "Bergen", "days": "soon"})


def shown_path(path: Path) -> str:
    """``path`` relative to the repository, as the demo's reader sees the tree."""
    return str(path.resolve().relative_to(ROOT))


def call_text(name: str, arguments: dict[str, Any]) -> str:
    """``name({...})`` as the model sent it."""
    return f"{name}({json.dumps(arguments)})"


def cache() -> None:
    """The cache file mypy wrote: its size and how many tools it holds."""
    tools = json.loads(CACHE.read_text(encoding="utf-8"))["tools"]
    print(f"{shown_path(CACHE)}: {CACHE.stat().st_size:,} bytes on disk, {len(tools)} tools, every provider variant")


def emit() -> None:
    """The tool names, and the first lines of one definition, served from the cache."""
    names = ", ".join(toolcall.tool_names(weather))
    print(f"get_weather.__doc__ is {weather.get_weather.__doc__!r} (-OO), yet the cache serves {names}")
    [definition] = toolcall.emit(weather.get_weather, "anthropic")
    lines = json.dumps(definition, indent=2).splitlines()
    print(f'toolcall.emit(weather.get_weather, "anthropic"), the first {SHOWN_LINES} of {len(lines)} lines:')
    print("\n".join(lines[:SHOWN_LINES]) + "\n  ...")


def dispatch() -> None:
    """A good call's value, and a bad call's error as the model reads it (text and JSON)."""
    name, arguments = GOOD_CALL
    result = toolcall.run(weather, name, arguments)
    value = result.value if isinstance(result, toolcall.Ok) else None
    print(f"toolcall.run {call_text(name, arguments)} -> Ok: {json.dumps(value)}")
    name, arguments = BAD_CALL
    error = toolcall.run(weather, name, arguments)
    if isinstance(error, toolcall.Ok):
        raise SystemExit(f"demo: {call_text(name, arguments)} should have failed")
    print(f"toolcall.run {call_text(name, arguments)} -> Err, the model reads:")
    print(f"  {error}")
    print(f"  to_json(): {json.dumps(error.to_json())}")


def exported(path: str) -> None:
    """What ``toolcall export --out FILE`` wrote: the tools and the file's size."""
    file = Path(path)
    names = [definition["function"]["name"] for definition in json.loads(file.read_text(encoding="utf-8"))]
    print(f"wrote {shown_path(file)}: {len(names)} tools ({', '.join(names)}), {file.stat().st_size:,} bytes")


def mcp() -> None:
    """Start ``toolcall serve weather`` over stdio and send initialize, tools/list and two tools/call."""
    import anyio

    with tempfile.TemporaryFile("w+") as errors:
        try:
            anyio.run(_round_trip, errors)
        except BaseException:
            errors.seek(0)
            sys.stderr.write(errors.read())
            raise


async def _round_trip(errors: Any) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.types import CallToolResult, TextContent

    def text(result: CallToolResult) -> str:
        return " ".join(block.text for block in result.content if isinstance(block, TextContent))

    server = StdioServerParameters(
        command=sys.executable,
        args=["-OO", "-m", "toolcall", "serve", "weather"],
        cwd=EXAMPLES,
        env=dict(os.environ),  # TOOLCALL_CACHE=require reaches the server too
    )
    async with stdio_client(server, errlog=errors) as (read, write), ClientSession(read, write) as session:
        started = await session.initialize()
        info = started.server_info
        print(f"initialize -> server {info.name} {info.version}, protocol {started.protocol_version}")
        listed = await session.list_tools()
        print(f"tools/list -> {', '.join(tool.name for tool in listed.tools)}")
        for name, arguments in (MCP_GOOD_CALL, MCP_BAD_CALL):
            result = await session.call_tool(name, arguments)
            print(f"tools/call {call_text(name, arguments)} -> isError={result.is_error}: {text(result)}")


STEPS: dict[str, Callable[..., None]] = {
    "cache": cache,
    "emit": emit,
    "dispatch": dispatch,
    "exported": exported,
    "mcp": mcp,
}


def main(argv: list[str]) -> None:
    """Run the step ``argv[0]`` with the rest as its arguments."""
    if not argv or argv[0] not in STEPS:
        raise SystemExit(f"usage: steps.py {{{','.join(STEPS)}}} [ARG]")
    STEPS[argv[0]](*argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
