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
from toolcall._dispatch.binder import Prepared, Rejected, prepare, tool_failed
from toolcall._dispatch.result import Err, Ok
from toolcall._toolset.toolset import LoadedTool, as_toolset
from toolcall.errors import Exited, UnknownTool

if TYPE_CHECKING:
    from toolcall._toolset.toolset import Source

__all__ = ["arun", "prepared", "run"]


def prepared(loaded: LoadedTool) -> Prepared:
    """The tool's generated binder, built on its first dispatch."""
    found = loaded.dispatcher
    if found is None:
        with loaded.definition.lock:
            found = loaded.dispatcher
            if found is None:
                found = prepare(loaded.ir, loaded.function, loaded.classes, loaded.definition.thread)
                loaded.run = found.run
                loaded.dispatcher = found
    return found  # type: ignore[no-any-return]


def _find(source: Source, name: str) -> LoadedTool | Err:
    toolset = as_toolset(source)
    found: LoadedTool | None
    try:
        found = toolset.by_name.get(name)
    except Exception:  # an unhashable name from a careless caller, or one whose __hash__/__eq__ raises
        found = None
    if found is None:
        return Err(UnknownTool(name, tuple(toolset.by_name)))
    return found


def run(source: Source, name: str, args: Any, *, context: Mapping[str, Any] | None = None) -> Ok[Any] | Err:
    """Call tool ``name`` of ``source`` with the model's ``args`` (a decoded JSON object).

    Returns ``Ok(result)`` or ``Err(error)``. An ``async def`` tool is run to
    completion with ``asyncio.run`` when no event loop is running; inside
    one, use ``await arun(...)``.
    """
    # The hot path: two dictionary lookups and the tool's generated ``run``,
    # which checks, calls and wraps the result in one frame.
    try:
        call = MODULE_TOOLSETS[source].by_name[name].run
    except Exception:  # not a module seen before, an unknown name, or a hostile one
        call = None
    if call is not None:
        return call(args, context)  # type: ignore[no-any-return]
    found = _find(source, name)
    if isinstance(found, Err):
        return found
    binder = prepared(found)
    if binder.run is None:
        return _run_async(source, name, args, context)
    return binder.run(args, context)


async def arun(source: Source, name: str, args: Any, *, context: Mapping[str, Any] | None = None) -> Ok[Any] | Err:
    """``run`` for asyncio: awaits ``async def`` tools, calls sync ones directly.

    A sync tool marked ``@tool(thread=True)`` runs in a worker thread
    (``asyncio.to_thread``) so it does not block the event loop.
    """
    found = _find(source, name)
    if isinstance(found, Err):
        return found
    binder = prepared(found)
    if binder.run is not None and not binder.thread:
        return binder.run(args, context)
    try:
        positional, keywords = binder.bind(args, context)
    except Rejected as rejected:
        return Err(rejected.error)
    try:
        if binder.is_async:
            result = await found.function(*positional, **keywords)
        else:
            import asyncio

            result = await asyncio.to_thread(found.function, *positional, **keywords)
    except Exception as exc:
        return tool_failed(found.name, exc)
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
