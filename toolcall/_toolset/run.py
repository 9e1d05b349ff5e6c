"""``run`` and ``arun``: a model's tool call → the tool's result, or an error it can read.

``run`` never raises for bad input: every refusal is an ``Err`` holding one of
``toolcall.errors``. What the tool itself raises: an ``Exception`` becomes
``Raised`` (and is logged with its traceback at ERROR on logger
``toolcall``), ``SystemExit`` becomes ``Exited``; ``KeyboardInterrupt`` and
other ``BaseException``s propagate. A missing injected value is a
programming error and raises ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toolcall._declarations.tool import MODULE_TOOLSETS
from toolcall._dispatch.binder import Rejected, tool_failed
from toolcall._dispatch.result import Err, Ok
from toolcall._toolset.toolset import LoadedTool, as_toolset, find_tool
from toolcall.errors import Exited, UnknownTool

if TYPE_CHECKING:
    from toolcall._toolset.toolset import Source

__all__ = ["arun", "run"]


def _find(source: Source, name: str) -> LoadedTool | Err:
    toolset = as_toolset(source)
    loaded = find_tool(toolset, name)
    if loaded is None:
        return Err(UnknownTool(name, tuple(toolset.names)))
    return loaded


def run(source: Source, name: str, args: Any, *, context: Mapping[str, Any] | None = None) -> Ok[Any] | Err:
    """Call tool ``name`` of ``source`` with the model's ``args`` (a decoded JSON object).

    Returns ``Ok(result)`` or ``Err(error)``. An ``async def`` tool is run to
    completion with ``asyncio.run`` when no event loop is running; inside
    one, use ``await arun(...)``.
    """
    # The hot path: two dictionary lookups and the tool's generated ``run``,
    # which checks, calls and wraps the result in one frame. It reads the
    # toolset's name table directly (``find_tool`` is the same lookup, one call slower).
    try:
        call = MODULE_TOOLSETS[source]._by_name[name].run
    except Exception:  # not a module seen before, an unknown name, or a hostile one
        call = None
    if call is not None:
        return call(args, context)
    loaded = _find(source, name)
    if isinstance(loaded, Err):
        return loaded
    binder = loaded.binder()
    if binder.run is None:
        return _run_async(source, name, args, context)
    return binder.run(args, context)


async def arun(source: Source, name: str, args: Any, *, context: Mapping[str, Any] | None = None) -> Ok[Any] | Err:
    """``run`` for asyncio: awaits ``async def`` tools, calls sync ones directly.

    A sync tool marked ``@tool(thread=True)`` runs in a worker thread
    (``asyncio.to_thread``) so it does not block the event loop.
    """
    loaded = _find(source, name)
    if isinstance(loaded, Err):
        return loaded
    binder = loaded.binder()
    if binder.run is not None and not binder.thread:
        return binder.run(args, context)
    try:
        positional, keywords = binder.bind(args, context)
    except Rejected as rejected:
        return Err(rejected.error)
    try:
        if binder.is_async:
            result = await loaded.function(*positional, **keywords)
        else:
            import asyncio

            result = await asyncio.to_thread(loaded.function, *positional, **keywords)
    except Exception as exc:
        return tool_failed(loaded.name, exc)
    except SystemExit as exc:
        return Err(Exited(exc.code))
    return Ok(result)


def _run_async(source: Source, name: str, args: Any, context: Mapping[str, Any] | None) -> Ok[Any] | Err:
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(arun(source, name, args, context=context))
    raise RuntimeError(f"tool {name!r} is async and an event loop is running: use `await toolcall.arun(...)`")
