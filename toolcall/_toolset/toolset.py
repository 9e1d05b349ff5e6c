"""Toolsets: which tools a source names, loaded once and shared.

A source is a module (its ``@tool`` functions in declaration order), a tool
function, or a ``Toolset`` combining several. Tools are loaded (annotations
resolved, IR built) on the first use of a toolset; every later ``emit``,
``describe`` or ``run`` reuses what was built then.
"""

from __future__ import annotations

import threading
from types import ModuleType

from toolcall._declarations.tool import MODULE_TOOLSETS, definition_of, module_generation, module_tools, publish_toolset
from toolcall._readonly import FrozenList, freeze

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any, Union

    from toolcall._cache.shapes import CachedEntry
    from toolcall._declarations.tool import ToolDefinition
    from toolcall._findings import Finding
    from toolcall._ir import Tool

    #: What ``emit``, ``describe``, ``tool_names`` and ``run`` accept.
    Source = Union[ModuleType, Callable[..., Any], "Toolset"]

__all__ = ["LoadedTool", "Toolset", "as_toolset", "load_tool"]


class LoadedTool:
    """One tool, ready to render and dispatch: its IR and what was derived from it.

    It comes either from introspection (``ir`` and ``classes`` given) or from
    a schema cache entry (``cached``, its IR decoded when the entry was
    checked): then its class references are imported only when the tool is
    first dispatched, and every rendered variant is the cache's own, never
    rendered again.
    """

    __slots__ = (
        "_classes",
        "_ir",
        "_lock",
        "_renders",
        "cached",
        "definition",
        "dispatcher",
        "findings",
        "function",
        "name",
        "run",
        "single",
    )

    definition: ToolDefinition
    function: Callable[..., Any]
    name: str
    findings: tuple[Finding, ...]
    #: The cache entry this tool was loaded from, or ``None`` when introspected.
    cached: CachedEntry | None
    #: The precomputed argument binder, built by the dispatcher on first run.
    dispatcher: Any
    #: The binder's ``run`` (``None`` until built, and for ``async def`` tools).
    run: Any
    #: The one-tool ``Toolset`` used when the function itself is the source.
    single: Toolset | None

    def __init__(
        self,
        definition: ToolDefinition,
        *,
        tool: Tool | None = None,
        classes: dict[str, Any] | None = None,
        findings: tuple[Finding, ...] = (),
        cached: CachedEntry | None = None,
    ) -> None:
        self.definition = definition
        self.function = definition.function
        self.name = tool.name if tool is not None else definition.name
        self.findings = findings
        self.cached = cached
        self.dispatcher = None
        self.run = None
        self.single = None
        self._ir = tool if cached is None else cached.tool
        self._classes = classes
        self._renders: dict[tuple[str, bool], dict[str, Any]] = {}
        self._lock = threading.Lock()

    @property
    def ir(self) -> Tool:
        """The tool's IR (introspected, or decoded from the cache entry when it was checked)."""
        assert self._ir is not None
        return self._ir

    @property
    def classes(self) -> dict[str, Any]:
        """The live class behind each ``"module:qualname"`` reference of the IR."""
        if self._classes is None:
            from toolcall._cache.loader import import_refs

            self._classes = import_refs(self.ir)
        return self._classes

    def definition_for(self, provider: str, strict: bool) -> dict[str, Any]:
        """The tool definition for ``provider``; rendering findings are warned once."""
        key = (provider, strict)
        found = self._renders.get(key)
        if found is None:
            with self._lock:
                found = self._renders.get(key)
                if found is None:
                    found = self._renders[key] = self._render(provider, strict)
        return found

    def describe_entry(self) -> dict[str, Any]:
        """``{module, name, description, parameters}`` for ``describe``."""
        if self.cached is not None and self.cached.describe is not None:
            return self.cached.describe
        from toolcall._render import parameters_schema

        tool = self.ir
        return {
            "module": tool.module,
            "name": tool.name,
            "description": tool.description,
            "parameters": parameters_schema(tool),
        }

    def _render(self, provider: str, strict: bool) -> dict[str, Any]:
        if self.cached is not None:
            from toolcall._cache.loader import cached_definition

            return cached_definition(self.cached, provider, strict)
        from toolcall._findings import warn_findings
        from toolcall._render import render_tool

        rendered = render_tool(self.ir, provider, strict=strict)
        warn_findings(rendered.findings, stacklevel=6)
        return rendered.definition


def load_tool(definition: ToolDefinition) -> LoadedTool:
    """The loaded form of a tool, built on first call (thread-safe): from its cache, else by introspection."""
    loaded = definition.loaded
    if loaded is not None:
        return loaded  # type: ignore[no-any-return]
    with definition.lock:
        if definition.loaded is None:
            from toolcall._cache.loader import cache_entry

            entry = cache_entry(definition)
            definition.loaded = LoadedTool(definition, cached=entry) if entry is not None else _introspected(definition)
    return definition.loaded  # type: ignore[no-any-return]


def _introspected(definition: ToolDefinition) -> LoadedTool:
    from toolcall._findings import warn_findings
    from toolcall._introspect import introspect

    found = introspect(definition)
    warn_findings(found.findings, stacklevel=6)
    return LoadedTool(definition, tool=found.tool, classes=dict(found.classes), findings=found.findings)


class Toolset:
    """A set of tools with unique names: ``Toolset(module_a, module_b, some_tool, other_toolset)``.

    Building one loads every tool (resolving annotations) and raises
    ``ValueError`` when a name appears twice, naming both definitions.
    """

    __slots__ = ("_builders", "_described", "_emitted", "_lock", "by_name", "names", "tools")

    def __init__(self, *sources: ModuleType | Callable[..., Any] | Toolset) -> None:
        definitions = [d for source in sources for d in _definitions(source)]
        unique = list(dict.fromkeys(definitions))  # the same tool reached twice is one tool
        self.tools: tuple[LoadedTool, ...] = tuple(load_tool(d) for d in unique)
        self.by_name: dict[str, LoadedTool] = {}
        for loaded in self.tools:
            other = self.by_name.setdefault(loaded.name, loaded)
            if other is not loaded:
                raise ValueError(
                    f"tool name {loaded.name!r} is used twice: by {_where(other.definition)} and by "
                    f"{_where(loaded.definition)}; rename one with @tool(name=...)"
                )
        self.names: FrozenList = FrozenList(self.by_name)
        self._emitted: dict[tuple[str, bool], FrozenList] = {}
        #: ``(provider, strict)`` → the generated function that builds ``emit``'s fresh copy of ``_emitted``.
        self._builders: dict[tuple[str, bool], Callable[[], list[Any]]] = {}
        self._described: FrozenList | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Toolset({', '.join(self.by_name)})"

    def __iter__(self) -> Iterator[LoadedTool]:
        return iter(self.tools)

    def __len__(self) -> int:
        return len(self.tools)

    def emitted(self, provider: str, strict: bool) -> FrozenList:
        """Every tool rendered for ``provider``, as one shared read-only list.

        For callers that only read it (``toolcall export``, ``toolcall serve``,
        the provider adapters); ``emit`` hands out fresh copies of it.
        """
        key = (provider, strict)
        found = self._emitted.get(key)
        if found is None:
            with self._lock:
                found = self._emitted.get(key)
                if found is None:
                    found = self._emit(provider, strict)
                    self._emitted[key] = found
        return found

    def emit_builder(self, provider: str, strict: bool) -> Callable[[], list[Any]]:
        """The function that builds a fresh, plain copy of ``emitted(provider, strict)``, made once (thread-safe)."""
        key = (provider, strict)
        found = self._builders.get(key)
        if found is None:
            shared = self.emitted(provider, strict)
            from toolcall._toolset.emit_copies import builder

            with self._lock:
                found = self._builders.get(key)
                if found is None:
                    found = self._builders[key] = builder(shared)
        return found

    def described(self) -> FrozenList:
        """``{module, name, description, parameters}`` per tool, shared and read-only."""
        found = self._described
        if found is None:
            with self._lock:
                found = self._described
                if found is None:
                    found = self._described = freeze([t.describe_entry() for t in self.tools])
        return found

    def _emit(self, provider: str, strict: bool) -> FrozenList:
        definitions = [loaded.definition_for(provider, strict) for loaded in self.tools]
        from toolcall._findings import warn_findings
        from toolcall._render import check_request

        warn_findings(check_request(definitions, provider, strict), stacklevel=5)
        result: FrozenList = freeze(definitions)
        return result


def _where(definition: ToolDefinition) -> str:
    return f"{definition.module}.{definition.qualname}"


def _definitions(source: object) -> tuple[ToolDefinition, ...]:
    if isinstance(source, Toolset):
        return tuple(loaded.definition for loaded in source.tools)
    if isinstance(source, ModuleType):
        found = module_tools(source.__name__)
        if not found:
            raise ValueError(
                f"module {source.__name__!r} has no @toolcall.tool functions; "
                "decorate its functions with @toolcall.tool or pass the module that defines them"
            )
        return found
    definition = definition_of(source)
    if definition is None:
        raise TypeError(
            f"{source!r} is not a tool source: pass a module with @toolcall.tool functions, "
            "a function decorated with @toolcall.tool, or a toolcall.Toolset"
        )
    return (definition,)


#: Module name → the generation its toolset was built at, and the toolset.
_MODULE_TOOLSETS: dict[str, tuple[int, Toolset]] = {}
#: Module name → the lock its toolset is built under: one build per module
#: and generation, however many threads use the module first at once.
_MODULE_LOCKS: dict[str, threading.RLock] = {}
_SOURCES_LOCK = threading.Lock()


def as_toolset(source: object) -> Toolset:
    """The shared ``Toolset`` for a source (built on first use)."""
    try:
        return MODULE_TOOLSETS[source]  # type: ignore[no-any-return]
    except (KeyError, TypeError):  # not a module seen before (or unhashable)
        return _toolset_of(source)


def _toolset_of(source: object) -> Toolset:
    if isinstance(source, Toolset):
        return source
    if isinstance(source, ModuleType):
        return _module_toolset(source)
    (definition,) = _definitions(source)
    loaded = load_tool(definition)
    if loaded.single is None:
        with _SOURCES_LOCK:
            if loaded.single is None:
                loaded.single = Toolset(definition.function)
    return loaded.single


def _module_toolset(module: ModuleType) -> Toolset:
    """The toolset of a module's current tools, built once per generation and then published for the fast path.

    The generation is read before the tools are: a tool registered meanwhile
    makes the generation newer, so the toolset is neither reused nor
    published, and the next call builds again.
    """
    name = module.__name__
    generation = module_generation(name)
    cached = _MODULE_TOOLSETS.get(name)
    if cached is None or cached[0] != generation:
        with _MODULE_LOCKS.setdefault(name, threading.RLock()):
            generation = module_generation(name)
            cached = _MODULE_TOOLSETS.get(name)
            if cached is None or cached[0] != generation:
                cached = _MODULE_TOOLSETS[name] = (generation, Toolset(module))
    publish_toolset(module, *cached)
    return cached[1]
