"""Toolsets: which tools a source names, loaded once and shared.

A source is a module (its ``@tool`` functions in declaration order), a tool
function, or a ``Toolset`` combining several. Tools are loaded (annotations
resolved, IR built) on the first use of a toolset; every later ``emit``,
``describe`` or ``run`` reuses what was built then.

``Toolset`` shows users only what they need (its tool names). toolcall's
own readers use the functions of this module: ``shared_definitions`` (one
shared, read-only list per variant, for the CLI and the adapters),
``fresh_definitions`` (``emit``'s copy), ``descriptions`` and ``find_tool``.
"""

from __future__ import annotations

import threading
from types import ModuleType

from toolcall._declarations.tool import (
    MODULE_TOOLSETS,
    declaration_of,
    module_generation,
    module_tools,
    publish_toolset,
)
from toolcall._exceptions import ToolNameError
from toolcall._once import OnceCell, OnceMap
from toolcall._readonly import ReadOnlyList, read_only

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final, Union

    from toolcall._declarations.tool import ToolDeclaration
    from toolcall._dispatch.binder import Binder
    from toolcall._dispatch.result import Err, Ok
    from toolcall._findings import Finding
    from toolcall._ir import Tool

    #: What ``emit``, ``describe``, ``tool_names`` and ``run`` accept.
    Source = Union[ModuleType, Callable[..., Any], "Toolset"]
    #: A variant: the provider's name and whether it is the strict one.
    Variant = tuple[str, bool]

#: Held while a tool makes its table of warned variants: the first of two threads makes it, both use it.
_WARNED_MADE: Final = threading.Lock()

__all__ = [
    "LoadedTool",
    "Toolset",
    "as_toolset",
    "descriptions",
    "find_tool",
    "fresh_definitions",
    "load_tool",
    "loaded_tools",
    "plain_definitions",
    "refused_tools",
    "shared_definitions",
]


class LoadedTool:
    """One tool, ready to render and dispatch: its IR and what is derived from it, each made once.

    It comes either from introspection or from a schema cache entry
    (``cached``), with the class behind each reference of its IR. Either way
    each provider variant is rendered from the IR on its first use, by the
    one renderer.
    """

    __slots__ = (
        "_binder",
        "_definitions",
        "_single",
        "_warned",
        "cached",
        "classes",
        "declaration",
        "findings",
        "ir",
        "run",
    )

    declaration: ToolDeclaration
    ir: Tool
    findings: tuple[Finding, ...]
    #: Whether the tool was loaded from its schema cache (else introspected).
    cached: bool
    #: The live class behind each ``"module:qualname"`` reference of the IR.
    classes: dict[str, Any]
    #: The whole sync dispatch, ``run(args, context)``, once the binder is built (``None`` for ``async def`` tools).
    run: Callable[[Any, Any], Ok[Any] | Err] | None

    def __init__(
        self,
        declaration: ToolDeclaration,
        tool: Tool,
        *,
        classes: dict[str, Any],
        findings: tuple[Finding, ...] = (),
        cached: bool = False,
    ) -> None:
        self.declaration = declaration
        self.ir = tool
        self.classes = classes
        self.findings = findings
        self.cached = cached
        self.run = None
        self._binder: OnceCell[Binder] = OnceCell()
        self._definitions: OnceMap[Variant, dict[str, Any]] = OnceMap()
        self._warned: OnceMap[Variant, bool] | None = None  # variants whose findings were warned, made when one is
        self._single: OnceCell[Toolset] = OnceCell()

    @property
    def name(self) -> str:
        """The tool's name."""
        return self.ir.name

    @property
    def function(self) -> Callable[..., Any]:
        """The tool function."""
        return self.declaration.function

    def binder(self) -> Binder:
        """The tool's generated argument binder, built on its first dispatch."""
        return self._binder.get(self._build_binder)

    def definition(self, provider: str, strict: bool) -> dict[str, Any]:
        """The tool's definition for a provider variant, rendered once and read-only; its findings are warned once."""
        return self._definitions.get((provider, strict), self._render)

    def plain_definition(self, provider: str, strict: bool) -> dict[str, Any]:
        """A fresh, plain copy of the tool's definition for a provider variant, for a caller that keeps or edits it.

        A copy of the read-only definition when that was made; otherwise
        rendered for this caller alone, so a process that takes each
        definition once (a framework's tools at start-up) pays for no shared
        form. Its findings are warned once, whichever comes first.
        """
        shared = self._definitions.values.get((provider, strict))
        if shared is not None:
            from toolcall._toolset.emit_copies import plain_copy

            copied: dict[str, Any] = plain_copy(shared)
            return copied
        from toolcall._render.definitions import render_tool

        rendered = render_tool(self.ir, provider, strict=strict)  # with its own copies: the caller may edit them
        self._warn_once((provider, strict), rendered.findings)
        return rendered.definition

    def description(self) -> dict[str, Any]:
        """``{module, name, description, parameters[, examples]}``, as ``describe`` lists it."""
        import json

        from toolcall._render.definitions import parameters_schema

        tool = self.ir
        described: dict[str, Any] = {
            "module": tool.module,
            "name": tool.name,
            "description": tool.description,
            "parameters": parameters_schema(tool),
        }
        if tool.examples:  # only when there are: a tool without examples is described as before
            described["examples"] = [json.loads(example) for example in tool.examples]
        return described

    def single_toolset(self) -> Toolset:
        """The one-tool ``Toolset`` used when the function itself is the source."""
        return self._single.get(lambda: Toolset(self.function))

    def _build_binder(self) -> Binder:
        from toolcall._dispatch.binder import prepare

        binder = prepare(self.ir, self.function, self.classes, self.declaration.thread)
        self.run = binder.run
        return binder

    def _render(self, variant: Variant) -> dict[str, Any]:
        provider, strict = variant
        from toolcall._render.definitions import render_tool

        rendered = render_tool(self.ir, provider, strict=strict, copies=False)  # read_only copies it
        self._warn_once(variant, rendered.findings)
        definition: dict[str, Any] = read_only(rendered.definition)  # shared by every toolset that holds the tool
        return definition

    def _warn_once(self, variant: Variant, findings: tuple[Finding, ...]) -> None:
        if findings:  # rendering is deterministic: a variant has findings however it was rendered, or none
            if self._warned is None:
                with _WARNED_MADE:
                    if self._warned is None:
                        self._warned = OnceMap()
            self._warned.get(variant, lambda _: _warn_and_mark(findings))


def load_tool(declaration: ToolDeclaration) -> LoadedTool:
    """The loaded form of a tool, built on first call (thread-safe): from its cache, else by introspection."""
    return declaration.loaded.get(lambda: _load(declaration))


def _load(declaration: ToolDeclaration) -> LoadedTool:
    from toolcall._cache.mode import cache_mode
    from toolcall._findings import warn_findings

    cached = None
    if cache_mode() != "off":  # off: the cache's reader is not even imported
        from toolcall._cache.loader import cache_entry

        cached = cache_entry(declaration)
    if cached is not None:
        # What introspection would warn, the plugin recorded: the same warnings either way.
        warn_findings(cached.findings, stacklevel=8)
        return LoadedTool(declaration, cached.tool, classes=cached.classes, findings=cached.findings, cached=True)
    from toolcall._introspect import introspect

    introspected = introspect(declaration)
    tool, findings = introspected.tool, introspected.findings
    if tool.examples:  # checked as the plugin checks them before it writes the cache
        from toolcall._dispatch.examples import check_examples

        tool, rejected = check_examples(tool)
        findings += rejected
    warn_findings(findings, stacklevel=8)
    return LoadedTool(declaration, tool, classes=dict(introspected.classes), findings=findings)


class Toolset:
    """A set of tools with unique names: ``Toolset(module_a, module_b, some_tool, other_toolset)``.

    Building one loads every tool (resolving annotations) and raises
    ``ValueError`` when a name appears twice, naming both tools.
    """

    __slots__ = ("_by_name", "_copied", "_copiers", "_descriptions", "_shared", "_tools", "_warned", "names")

    #: The tools' names, in order (read-only).
    names: list[str]

    def __init__(self, *sources: ModuleType | Callable[..., Any] | Toolset) -> None:
        declarations = [d for source in sources for d in _declarations(source)]
        unique = list(dict.fromkeys(declarations))  # the same tool reached twice is one tool
        self._tools: tuple[LoadedTool, ...] = tuple(load_tool(d) for d in unique)
        self._by_name: dict[str, LoadedTool] = {}
        for loaded in self._tools:
            other = self._by_name.setdefault(loaded.name, loaded)
            if other is not loaded:
                raise ToolNameError(
                    f"tool name {loaded.name!r} is used twice: by {_where(other.declaration)} and by "
                    f"{_where(loaded.declaration)}; rename one with @tool(name=...)"
                )
        self.names = ReadOnlyList(self._by_name)
        self._shared: OnceMap[Variant, _Variant] = OnceMap()
        self._copiers: OnceMap[Variant, Callable[[], list[Any]]] = OnceMap()
        self._copied: set[Variant] = set()  # variants copied once already: the next copy compiles a copier
        self._warned: OnceMap[Variant, bool] = OnceMap()  # variants whose findings were warned
        self._descriptions: OnceCell[ReadOnlyList] = OnceCell()

    def __repr__(self) -> str:
        return f"Toolset({', '.join(self._by_name)})"

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        try:
            return name in self._by_name
        except TypeError:  # unhashable
            return False


def loaded_tools(toolset: Toolset) -> tuple[LoadedTool, ...]:
    """The toolset's loaded tools, in order."""
    return toolset._tools


def find_tool(toolset: Toolset, name: object) -> LoadedTool | None:
    """The tool called ``name``, or ``None`` (also for a name that is not even hashable)."""
    try:
        return toolset._by_name.get(name)  # type: ignore[call-overload, no-any-return]
    except Exception:  # an unhashable name from a careless caller, or one whose __hash__/__eq__ raises
        return None


def shared_definitions(toolset: Toolset, provider: str, strict: bool) -> ReadOnlyList:
    """Every tool's definition for a provider variant, as one shared read-only list made once.

    For callers that only read it (``toolcall export``, ``toolcall serve``,
    the adapters); ``emit`` hands out fresh copies of it.
    """
    return toolset._shared.get((provider, strict), lambda variant: _shared(toolset, variant)).definitions


def refused_tools(toolset: Toolset, provider: str, strict: bool) -> tuple[Finding, ...]:
    """Why each tool the provider variant cannot take is left out of ``shared_definitions`` (warned once)."""
    return toolset._shared.get((provider, strict), lambda variant: _shared(toolset, variant)).refused


def fresh_definitions(toolset: Toolset, provider: str, strict: bool) -> list[Any]:
    """A fresh, plain copy of ``shared_definitions(toolset, provider, strict)``: ``emit``'s result.

    The first copy of a variant is a plain walk; later ones run a generated
    copier, whose compile (about a third of a millisecond a tool) only
    repeated calls repay, so a process that emits once never pays it.
    """
    variant = (provider, strict)
    copier = toolset._copiers.values.get(variant)
    if copier is None:
        if variant not in toolset._copied:
            toolset._copied.add(variant)  # two threads may both walk: each gets its own copy
            from toolcall._toolset.emit_copies import plain_copy

            copied: list[Any] = plain_copy(shared_definitions(toolset, provider, strict))
            return copied
        copier = toolset._copiers.get(variant, lambda variant: _copier(toolset, variant))
    return copier()


def plain_definitions(toolset: Toolset, provider: str, strict: bool) -> list[Any]:
    """``emit``'s definitions for a caller that takes them once and keeps them: a framework's tools.

    Copied from the shared form when it was made; otherwise rendered for
    this caller alone, with nothing kept, so a process that makes its tools
    once pays for no shared form. The findings are warned once either way.
    """
    shared = toolset._shared.values.get((provider, strict))
    if shared is not None:
        from toolcall._toolset.emit_copies import plain_copy

        copied: list[Any] = plain_copy(shared.definitions)
        return copied
    return _all_definitions(toolset, (provider, strict), LoadedTool.plain_definition)[0]


def descriptions(toolset: Toolset) -> ReadOnlyList:
    """``{module, name, description, parameters}`` per tool, shared and read-only."""
    return toolset._descriptions.get(lambda: read_only([t.description() for t in toolset._tools]))


class _Variant:
    """One provider variant of a toolset: the definitions, and why any tool is not among them."""

    __slots__ = ("definitions", "refused")

    def __init__(self, definitions: ReadOnlyList, refused: tuple[Finding, ...]) -> None:
        self.definitions = definitions
        self.refused = refused


def _shared(toolset: Toolset, variant: Variant) -> _Variant:
    """Every tool's read-only definition, and why any tool is left out."""
    definitions, refused = _all_definitions(toolset, variant, LoadedTool.definition)
    return _Variant(ReadOnlyList(definitions), refused)  # each read-only already (``LoadedTool.definition``)


def _all_definitions(
    toolset: Toolset, variant: Variant, definition: Callable[[LoadedTool, str, bool], dict[str, Any]]
) -> tuple[list[Any], tuple[Finding, ...]]:
    """Every tool's ``definition``; a tool the provider cannot take is left out with an error finding.

    That finding and the request's own (``check_request``) are warned once
    per variant, whether the shared form or plain definitions are made first.
    """
    provider, strict = variant
    from toolcall._exceptions import ProviderError
    from toolcall._findings import NAME, Finding
    from toolcall._providers import variant_key
    from toolcall._render.definitions import check_request, check_variant

    check_variant(provider, strict)  # the caller's mistake raises; one tool's problem leaves the rest usable
    definitions: list[Any] = []
    refused: list[Finding] = []
    for loaded in toolset._tools:
        try:
            definitions.append(definition(loaded, provider, strict))
        except ProviderError as exc:
            message = f"{exc}; the tool is left out"
            refused.append(Finding(NAME, message, loaded.name, modes=(variant_key(provider, strict),)))
    findings = (*refused, *check_request(definitions, provider, strict))
    if findings:  # the same for every way of rendering the variant
        toolset._warned.get(variant, lambda _: _warn_and_mark(findings))
    return definitions, tuple(refused)


def _warn_and_mark(findings: tuple[Finding, ...]) -> bool:
    """Warn ``findings``; ``True`` marks their variant as warned."""
    from toolcall._findings import warn_findings

    warn_findings(findings)
    return True


def _copier(toolset: Toolset, variant: Variant) -> Callable[[], list[Any]]:
    from toolcall._toolset.emit_copies import copier

    made: Callable[[], list[Any]] = copier(shared_definitions(toolset, *variant))
    return made


def _where(declaration: ToolDeclaration) -> str:
    return f"{declaration.module}.{declaration.qualname}"


def _declarations(source: object) -> tuple[ToolDeclaration, ...]:
    if isinstance(source, Toolset):
        return tuple(loaded.declaration for loaded in source._tools)
    if isinstance(source, ModuleType):
        declared = module_tools(source.__name__)
        if not declared:
            raise ValueError(
                f"module {source.__name__!r} has no @toolcall.tool functions; "
                "decorate its functions with @toolcall.tool or pass the module that defines them"
            )
        return declared
    declaration = declaration_of(source)
    if declaration is None:
        raise TypeError(
            f"{source!r} is not a tool source: pass a module with @toolcall.tool functions, "
            "a function decorated with @toolcall.tool, or a toolcall.Toolset"
        )
    return (declaration,)


#: (module name, generation) → the module's toolset as it was at that generation.
_MODULE_TOOLSETS: OnceMap[tuple[str, int], Toolset] = OnceMap()


def as_toolset(source: object) -> Toolset:
    """The shared ``Toolset`` for a source (built on first use)."""
    try:
        return MODULE_TOOLSETS[source]
    except (KeyError, TypeError):  # not a module seen before (or unhashable)
        return _toolset_of(source)


def _toolset_of(source: object) -> Toolset:
    if isinstance(source, Toolset):
        return source
    if isinstance(source, ModuleType):
        return _module_toolset(source)
    (declaration,) = _declarations(source)
    return load_tool(declaration).single_toolset()


def _module_toolset(module: ModuleType) -> Toolset:
    """The toolset of a module's current tools, built once per generation and then published for the fast path.

    The generation is read before the tools are: a tool registered meanwhile
    makes the generation newer, so the toolset is neither reused nor
    published, and the next call builds again. An older generation's
    toolset is dropped once a newer one is built.
    """
    name = module.__name__
    generation = module_generation(name)
    toolset = _MODULE_TOOLSETS.get((name, generation), lambda _: Toolset(module))
    _MODULE_TOOLSETS.discard_where(lambda key: key[0] == name and key[1] < generation)
    publish_toolset(module, generation, toolset)
    return toolset
