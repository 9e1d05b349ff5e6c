"""``emit``'s fresh result against the SDKs' own tool lists: ``python benchmarks/emit_fresh.py [--quick]``.

The 20 tools of ``tools20.py``, one request's tool list per call, after
warm-up, every contender interleaved round-robin in one process
(``timing.measure``):

- ``toolcall emit (anthropic)`` / ``(openai)``: ``toolcall.emit(module, provider)``,
  a fresh plain list of plain dicts, independent at every depth.
- ``toolcall shared form``: ``shared_definitions(as_toolset(module), "anthropic", False)``,
  the read-only list toolcall's own readers use (a floor: no copy at all).
- ``anthropic to_dict``: ``[t.to_dict() for t in tools]`` for
  ``anthropic.lib.tools.beta_tool(fn)`` of the same 20 functions. Each call
  makes new envelopes that share the tool's ``input_schema`` dicts with every
  other call, so it does less work than an independent copy.
- ``mcp Tool.model_dump``: ``[t.model_dump(by_alias=True, exclude_none=True)
  for t in tools]`` for ``mcp.types.Tool`` objects built once from toolcall's
  own MCP definitions (the same schemas): the cheapest way the MCP SDK turns
  its tool list into plain data. The result is independent, and its JSON
  text equals toolcall's ``emit(module, "mcp")``.
- ``mcp list_tools + model_dump``: the same dump of what ``MCPServer.list_tools()``
  returns for the 20 functions added with ``add_tool`` (its own schemas),
  which is what a ``tools/list`` request costs before the JSON encoding.
- ``copy.deepcopy`` and ``recursive copy`` of the shared form: what a
  caller (or toolcall without its generated builder) would pay.

Each contender is checked once before timing: 20 definitions, and for the
ones called independent, no dict or list shared between two results. The
exit status is 1 when a target is missed: toolcall's emit at most 2x
anthropic's ``to_dict`` list, and faster than every independent peer.
"""

from __future__ import annotations

import argparse
import copy
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the sibling modules, also under ``python -m`` or an IDE
    sys.path.insert(0, str(HERE))

import peers  # noqa: E402
import tools20  # noqa: E402
from run import duration, machine_note, revision  # noqa: E402
from timing import Contender, Stats, measure  # noqa: E402

import toolcall  # noqa: E402
from toolcall._toolset.emit_copies import plain_copy  # noqa: E402
from toolcall._toolset.toolset import as_toolset, shared_definitions  # noqa: E402

OURS = "toolcall emit (anthropic)"
REFERENCE = "anthropic to_dict"
#: Contenders whose every result shares no container with another result.
INDEPENDENT = ("mcp Tool.model_dump", "mcp list_tools + model_dump", "copy.deepcopy", "recursive copy")


def containers(value: Any) -> Iterator[Any]:
    """Every dict and list inside ``value`` (itself included)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            yield node
            stack.extend(node)


def independent(stmt: str, namespace: dict[str, Any]) -> Callable[[Any], None]:
    """A check that a result has 20 definitions and shares no container with a second result."""

    def check(value: Any) -> None:
        if len(value) != 20:
            raise AssertionError(f"expected 20 definitions, got {len(value)}")
        other = eval(stmt, namespace)
        shared = {id(node) for node in containers(value)} & {id(node) for node in containers(other)}
        if shared:
            raise AssertionError(f"{stmt}: {len(shared)} containers are shared between two results")

    return check


def twenty(value: Any) -> None:
    """A check that a result has 20 definitions."""
    if len(value) != 20:
        raise AssertionError(f"expected 20 definitions, got {len(value)}")


def contender(name: str, stmt: str, namespace: dict[str, Any], fresh: bool) -> Contender:
    """A contender checked for 20 definitions, and for independence when ``fresh``."""
    return Contender(name, stmt, namespace, independent(stmt, namespace) if fresh else twenty)


def contenders() -> list[Contender]:
    """toolcall's emit and shared form, the SDKs' tool lists, and the generic copies."""
    base = {"toolcall": toolcall, "module": tools20}
    shared = shared_definitions(as_toolset(tools20), "anthropic", False)
    found = [
        contender(OURS, "toolcall.emit(module, 'anthropic')", base, True),
        contender("toolcall emit (openai)", "toolcall.emit(module, 'openai')", base, True),
        contender(
            "toolcall shared form",
            "shared_definitions(toolset, 'anthropic', False)",
            {"toolset": as_toolset(tools20), "shared_definitions": shared_definitions},
            False,
        ),
    ]
    functions = peers.tool_functions()
    if peers.installed("anthropic"):
        from anthropic.lib.tools import beta_tool

        tools = [beta_tool(fn) for fn in functions]
        found.append(contender(REFERENCE, "[t.to_dict() for t in tools]", {"tools": tools}, False))
    if peers.installed("mcp"):
        found += mcp_contenders(functions)
    found.append(contender("copy.deepcopy", "deepcopy(shared)", {"deepcopy": copy.deepcopy, "shared": shared}, True))
    found.append(contender("recursive copy", "plain_copy(shared)", {"plain_copy": plain_copy, "shared": shared}, True))
    return found


def mcp_contenders(functions: list[Callable[..., Any]]) -> list[Contender]:
    """The MCP SDK's tool list as plain data: from toolcall's schemas, and from MCPServer's own."""
    import mcp.types
    from mcp.server.mcpserver import MCPServer

    definitions = toolcall.emit(tools20, "mcp")
    tools = [
        mcp.types.Tool(
            name=d["name"],
            description=d.get("description"),
            input_schema=d["inputSchema"],
            output_schema=d.get("outputSchema"),
        )
        for d in definitions
    ]
    dump = "[t.model_dump(by_alias=True, exclude_none=True) for t in tools]"
    server = MCPServer("bench")
    for fn in functions:
        server.add_tool(fn)
    listed = "[t.model_dump(by_alias=True, exclude_none=True) for t in finish(server.list_tools())]"
    return [
        contender("mcp Tool.model_dump", dump, {"tools": tools}, True),
        contender("mcp list_tools + model_dump", listed, {"server": server, "finish": peers.finish}, True),
    ]


def report(results: dict[str, Stats]) -> list[str]:
    """The table: median, IQR, and the ratios to toolcall's emit and to anthropic's ``to_dict``."""
    ours, reference = results[OURS], results.get(REFERENCE)
    rows = ["| implementation | median | IQR | x toolcall emit | x anthropic to_dict |", "|---|---|---|---|---|"]
    for name, stats in results.items():
        to_reference = "-" if reference is None else f"{stats.median / reference.median:.2f}x"
        rows.append(
            f"| {name} | {duration(stats.median)} | {duration(stats.q1)} - {duration(stats.q3)} "
            f"| {stats.median / ours.median:.2f}x | {to_reference} |"
        )
    return rows


def verdicts(results: dict[str, Stats]) -> list[tuple[bool, str]]:
    """Each target: met or not, and what it compared."""
    ours = results[OURS].median
    found = []
    if REFERENCE in results:
        ratio = ours / results[REFERENCE].median
        found.append((ratio <= 2.0, f"emit at most 2x anthropic to_dict: {ratio:.2f}x"))
    for name in INDEPENDENT:
        if name in results:
            theirs = results[name].median
            found.append((ours < theirs, f"emit faster than {name}: {duration(ours)} vs {duration(theirs)}"))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Time the contenders, print the table and the targets."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds")
    options = parser.parse_args(argv)
    rounds, sample_ns = (25, 1e6) if options.quick else (101, 2e6)
    warnings.simplefilter("ignore", toolcall.ToolcallWarning)  # findings are not what is timed
    print(f"{machine_note()}; toolcall {revision()}; {rounds} rounds of {duration(sample_ns)} samples\n")
    results = measure(contenders(), rounds, sample_ns)
    print("\n".join(report(results)), end="\n\n")
    found = verdicts(results)
    for met, text in found:
        print(f"{'PASS' if met else 'FAIL'}  {text}")
    return 0 if all(met for met, _ in found) else 1


if __name__ == "__main__":
    raise SystemExit(main())
