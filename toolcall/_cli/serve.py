"""``toolcall serve MODULE ... [--strict] [--no-output-schema] [--context MODULE:FACTORY]``: an MCP server.

The tools of those modules (names or file paths), over stdio.

Built on the official ``mcp`` SDK's low-level ``Server`` (extra
``toolcall[mcp]``), not on its ``MCPServer``: toolcall already has the
definitions and the argument checks, so the SDK only carries the protocol.

- ``tools/list`` answers ``toolcall.emit(module, "mcp", strict=...)`` of
  every module, in the order given, built once at start-up.
- ``tools/call`` dispatches with ``toolcall.arun``. An ``Err``, an unknown
  tool, a tool that raises and a value JSON cannot carry are all results
  with ``isError: true`` and one line of text, never JSON-RPC errors: the
  model reads them and can retry. A string value is sent as it is, any
  other value as JSON text (the adapters' encoding), and as
  ``structuredContent`` too when the tool's definition has an
  ``outputSchema``: the value itself for an object return type, else
  ``{"result": value}``, as the schema wraps it. ``--no-output-schema``
  leaves both out.
- A tool with ``Injected`` parameters is refused at start-up (exit 2)
  unless ``--context`` names the factory of its context
  (``toolcall._cli.serve_context``).
- Each request is its own task (the SDK's dispatcher), so ``async def``
  tools run concurrently; a sync tool runs on the event loop as ``arun``
  runs it, or in a worker thread when marked ``@tool(thread=True)``.

Start-up problems (a module that does not import, has no tools, or repeats
another module's tool name) are one error line each on stderr and exit
status 1; usage errors (a file path that does not exist, a bad
``--context``, a tool needing a context without one) exit 2. The server
exits 0 when its stdin closes, within 5 seconds even if a tool still runs
(``toolcall._cli.serve_exit``). A tool that raises ``CancelledError`` or
``KeyboardInterrupt`` itself fails like any other; a request the client
cancels, or the server's shutdown, still cancels.

When stdin and stdout are pipes or sockets (as an MCP client starts a
server), the event loop reads and writes them itself (``toolcall._cli.stdio``): the
SDK's ``stdio_server`` moves every line through a worker thread, which
costs more than the rest of a round trip.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Final

from toolcall._cli.modules import UsageError
from toolcall._wire.return_values import kind_of

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

    from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
    from mcp.types import CallToolRequestParams, PaginatedRequestParams

    from toolcall import _ir as ir
    from toolcall._cli.serve_context import ContextFactory

__all__ = ["add_parser", "run"]

#: Exit status after Ctrl-C: the shell's convention for SIGINT (128 + 2).
INTERRUPTED = 130
#: The oldest mcp SDK whose low-level server API serve uses (the version it is tested with).
_SDK_LEAST = (2, 3)


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` and its options to the command line."""
    serve_parser = commands.add_parser(
        "serve",
        help="serve the tools of modules as an MCP server over stdio",
        description=(
            "Serve every @toolcall.tool function of the named modules as an MCP server over stdio "
            "(needs the mcp SDK: pip install 'toolcall[mcp]'). tools/list is emit(module, 'mcp'); "
            "tools/call dispatches with toolcall.arun. Runs until stdin closes."
        ),
    )
    serve_parser.add_argument(
        "modules", nargs="+", metavar="MODULE", help="an importable module name or its file, e.g. my_app.tools"
    )
    serve_parser.add_argument(
        "--strict",
        action="store_true",
        help="list the tools' strict input schemas (the OpenAI strict subset)",
    )
    serve_parser.add_argument(
        "--no-output-schema",
        dest="output_schema",
        action="store_false",
        help="list no outputSchema and send no structuredContent (values still go out as JSON text)",
    )
    serve_parser.add_argument(
        "--context",
        metavar="MODULE:FACTORY",
        help="a callable (sync or async, no arguments) returning the dict that fills Injected parameters, "
        "called for each call of a tool that has them; without it such tools are refused",
    )
    serve_parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve the tools of ``args.modules`` until stdin closes; the exit status."""
    from toolcall._cli import console

    problem = _sdk_problem()
    if problem is not None:
        console.error(problem)
        return 1
    try:
        factory = None if args.context is None else _resolve_context(args.context)
        catalog = _load(args.modules, strict=args.strict, output_schema=args.output_schema, factory=factory)
    except UsageError as problem:
        console.error(_one_line(str(problem)))
        return 2
    if catalog is None:
        return 1
    import anyio

    from toolcall._cli.serve_exit import leave

    try:
        anyio.run(_serve, catalog)
    except KeyboardInterrupt:  # Ctrl-C on a server started by hand: no traceback
        return leave(INTERRUPTED)
    return leave(0)


def _sdk_problem() -> str | None:
    """Why the installed mcp SDK cannot serve (missing, or older than the API serve is written for), if it cannot."""
    import re
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("mcp")
    except PackageNotFoundError:
        return "serve needs the mcp SDK: pip install 'toolcall[mcp]'"
    if tuple(int(part) for part in re.findall(r"\d+", installed)[:2]) < _SDK_LEAST:
        least = ".".join(map(str, _SDK_LEAST))
        return f"serve needs the mcp SDK {least} or later (its low-level server API), found {installed}"
    return None


class _Catalog:
    """The served tools: the ``tools/list`` result and each tool's module, fixed at start-up."""

    def __init__(self, *, output_schema: bool, factory: ContextFactory | None) -> None:
        from toolcall._render.canonical import RESULT
        from toolcall._tool_calls import data_reply
        from toolcall._toolset.run import arun
        from toolcall._wire.return_values import json_text
        from toolcall.errors import UnknownTool

        # Bound once here: ``call_tool`` runs per request, and ``import toolcall`` alone loads none of them.
        self._arun = arun
        self._unknown = UnknownTool
        self._data_reply = data_reply
        self._json_text = json_text
        self._result = RESULT
        self.definitions: list[dict[str, Any]] = []
        #: Each tool name's module, for ``arun``.
        self.modules: dict[str, ModuleType] = {}
        #: The tools whose definition has an ``outputSchema``: their values go out as ``structuredContent`` too.
        #: Each with whether its schema wraps the value as ``{"result": value}``, and the JSON type the schema
        #: promises for the value (``None`` when it names no one type: a union, a ``$ref``).
        self.structured: dict[str, tuple[bool, str | None]] = {}
        #: Each tool with ``Injected`` parameters, and their names: its calls get a context from the factory.
        self.injected: dict[str, tuple[str, ...]] = {}
        self._output_schema = output_schema
        self._factory = factory

    def add(self, module: ModuleType, definitions: Sequence[dict[str, Any]], tools: Sequence[ir.Tool]) -> list[str]:
        """Add a module's definitions (and each one's IR); the reason each tool that cannot be served is refused.

        A tool is refused when its name is taken already, or when it has
        ``Injected`` parameters and there is no context factory.
        """
        from toolcall._render.canonical import wrapped_output

        by_name = {tool.name: tool for tool in tools}
        refused = []
        for definition in definitions:
            name = definition["name"]
            injected = tuple(p.name for p in by_name[name].parameters if p.injected)
            if injected and self._factory is None:
                raise UsageError(
                    f"tool {name} in {module.__name__} has Injected parameters ({', '.join(injected)}) "
                    "that no MCP client can send: serve it with --context MODULE:FACTORY"
                )
            other = self.modules.get(name)
            if other is not None:
                refused.append(
                    f"tool {name} is in both {other.__name__} and {module.__name__}: "
                    "a model could not tell them apart (tool names must be unique across the served modules)"
                )
                continue
            self.modules[name] = module
            if injected:
                self.injected[name] = injected
            if "outputSchema" in definition:
                if not self._output_schema:
                    definition = {key: value for key, value in definition.items() if key != "outputSchema"}
                elif wrapped_output(by_name[name]):
                    promised = definition["outputSchema"]["properties"][self._result].get("type")
                    self.structured[name] = (True, promised if isinstance(promised, str) else None)
                else:
                    self.structured[name] = (False, "object")
            self.definitions.append(definition)
        return refused

    async def list_tools(self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams) -> dict[str, Any]:
        """``tools/list``: every definition, in one page."""
        return {"tools": self.definitions}

    async def verbatim(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Middleware: the ``tools/list`` result with the definitions exactly as ``emit`` gave them.

        The SDK checks a handler's result against the protocol's model and
        sends that model's dump, whose key order is the model's (``name``
        after ``description``, ``type`` after ``properties``). The listing is
        swapped back after the check, so the wire carries emit's own dicts,
        key order included, uncopied.
        """
        result = await call_next(ctx)
        if ctx.method == "tools/list" and isinstance(result, dict) and "tools" in result:
            return {**result, "tools": self.definitions}
        return result

    async def call_tool(self, ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams) -> dict[str, Any]:
        """``tools/call``: the tool's value as JSON text, or an ``isError`` result with one line of text."""
        name = params.name
        module = self.modules.get(name)
        if module is None:
            return _failed(str(self._unknown(name, tuple(self.modules))))
        # No "arguments" in the request means a call without any.
        arguments = {} if params.arguments is None else params.arguments
        if ctx.request is not None:  # decoded by serve itself: values no tool may see stand in for some
            from toolcall._cli.refused_lines import unsendable_arguments

            problem = unsendable_arguments(arguments)
            if problem is not None:
                return _failed(str(problem))
        try:
            context: dict[str, Any] | None = None
            injected = self.injected.get(name)
            if injected is not None and self._factory is not None:
                made = await self._factory.context(injected)
                if isinstance(made, str):
                    return _failed(_one_line(made))
                context = made
            result = await self._arun(module, name, arguments, context=context)
        except Exception as exc:  # toolcall's own refusal (an injected parameter has no value here)
            import logging

            logging.getLogger("toolcall").error("toolcall could not call tool %r", name, exc_info=exc)
            return _failed(_one_line(f"toolcall could not call the tool: {type(exc).__name__}: {exc}"))
        except BaseException as exc:
            if _request_cancelled():  # the client cancelled the call, or the server is stopping
                raise
            # The tool's own CancelledError or KeyboardInterrupt: a failure like any other, not the server's end.
            return _failed(_tool_raised(name, exc))
        # The same encoding as the provider adapters: a string as it is, other values as JSON text.
        ok, data = self._data_reply(name, result)
        if not ok:
            return _failed(data)
        text = data if type(data) is str else self._json_text(data)
        content: dict[str, Any] = {"content": [{"type": "text", "text": text}]}
        structured = self.structured.get(name)
        if structured is None:
            return content
        wrapped, promised = structured
        if promised is not None and not _is_json_type(data, promised):
            # The client checks structuredContent against the tool's outputSchema: a value of another
            # type would fail the call there, with no word the model could act on.
            value = result.value  # type: ignore[union-attr]  # an Ok: ``data_reply`` gave its value
            return _failed(
                f"the tool returned {kind_of(value)} where its output schema promises {_JSON_TYPE_NAMES[promised]}"
            )
        content["structuredContent"] = {self._result: data} if wrapped else data
        return content


def _load(
    names: Sequence[str], *, strict: bool, output_schema: bool, factory: ContextFactory | None
) -> _Catalog | None:
    """Import the modules and collect their MCP definitions; ``None`` after saying on stderr what is wrong.

    Raises ``UsageError`` for a file path that does not exist and for a tool
    with ``Injected`` parameters when there is no ``factory``.
    """
    from toolcall._cli import console
    from toolcall._cli.modules import import_named_modules
    from toolcall._toolset.toolset import as_toolset, loaded_tools, shared_definitions

    # Imports each module, naming every one that fails or has no tools; the order is the command line's.
    tool_modules = import_named_modules(names)
    if tool_modules is None:
        return None
    catalog = _Catalog(output_schema=output_schema, factory=factory)
    failed = False
    for module in tool_modules:
        try:
            toolset = as_toolset(module)
            definitions = shared_definitions(toolset, "mcp", strict)  # the shared form: served, never changed
        except (ValueError, TypeError, RuntimeError) as exc:  # a tool that cannot be rendered; no cache, if required
            console.error(_one_line(f"cannot serve {module.__name__}: {exc}"))
            failed = True
            continue
        for refused in catalog.add(module, definitions, [loaded.ir for loaded in loaded_tools(toolset)]):
            console.error(refused)
            failed = True
    return None if failed else catalog


def _resolve_context(spec: str) -> ContextFactory:
    from toolcall._cli.serve_context import resolve

    return resolve(spec)


async def _serve(catalog: _Catalog) -> None:
    """Answer MCP requests on stdin/stdout until stdin closes."""
    import asyncio

    import mcp.types
    from mcp.server.lowlevel import Server

    from toolcall import __version__
    from toolcall._cli.serve_exit import Workers
    from toolcall._cli.stdio import flush_stdout, stdio

    server: Server[Any] = Server("toolcall", version=__version__)
    server.add_request_handler("tools/list", mcp.types.PaginatedRequestParams, catalog.list_tools)
    server.add_request_handler("tools/call", mcp.types.CallToolRequestParams, catalog.call_tool)
    server.middleware.append(catalog.verbatim)
    # Thread-run tools run here: a call that never returns must not hold the server open once stdin closes.
    asyncio.get_running_loop().set_default_executor(Workers(thread_name_prefix="toolcall-tool"))
    async with stdio() as (read_stream, write_stream):
        try:
            await server.run(read_stream, write_stream, server.create_initialization_options())
        finally:
            flush_stdout()


def _request_cancelled() -> bool:
    """Whether the running request is being cancelled (``notifications/cancelled``, or the server stopping)."""
    import math

    import anyio

    # The SDK cancels a request through a cancel scope around its handler; a tool raising
    # CancelledError itself cancels no scope.
    return anyio.current_effective_deadline() == -math.inf


def _tool_raised(name: str, exc: BaseException) -> str:
    """The error line of a ``BaseException`` that is not an ``Exception`` from a tool, logged as ``run`` logs one."""
    import logging

    from toolcall.errors import Raised

    logging.getLogger("toolcall").error("tool %r raised %s", name, type(exc).__name__, exc_info=exc)
    try:
        message = str(exc)
    except Exception:  # an exception whose __str__ raises still gets reported
        message = ""
    return str(Raised(type(exc).__name__, message))


#: How an error line names each JSON Schema type an output schema can promise.
_JSON_TYPE_NAMES: Final = {
    "object": "a JSON object",
    "array": "a JSON array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
}


def _is_json_type(data: Any, promised: str) -> bool:
    """Whether plain JSON ``data`` is of the JSON Schema type ``promised`` (an unknown type: yes)."""
    kind = type(data)
    if promised == "integer":  # 3.0 is an integer to JSON Schema, as to the client's validator
        return kind is int or (kind is float and data.is_integer())
    if promised == "number":
        return kind is int or kind is float
    expected = _PLAIN_KINDS.get(promised)
    return expected is None or kind is expected


_PLAIN_KINDS: Final[dict[str, type]] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def _failed(text: str) -> dict[str, Any]:
    """An ``isError`` result: the model reads ``text`` and can try again."""
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _one_line(text: str) -> str:
    """``text`` on one line, bounded, for a model or a terminal."""
    from toolcall.errors import MAX_MESSAGE_LENGTH

    line = " ".join(text.split())
    return line if len(line) <= MAX_MESSAGE_LENGTH else line[: MAX_MESSAGE_LENGTH - 1] + "…"
