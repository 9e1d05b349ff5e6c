"""A ``@tool`` function as mypy analyzed it → the tool's IR and its located findings.

The same rules as the runtime's ``toolcall/_introspect/tool.py``, shared
with it (``toolcall._rules.tool_rules``, ``toolcall._rules.descriptions``); the facts come
from mypy's ``FuncDef`` and the source. Parameters in signature order
(``*args`` refused, ``**kwargs: T`` extra properties, injected parameters
kept out of schemas, an unannotated one ``{}``); descriptions, first that
exists wins: ``Param(description=...)``, the docstring entry, the declared
class's docstring (also through ``X | None``); defaults by the shared
default rules; the docstring's ``Examples:``, checked by the dispatcher's
rules (``toolcall._dispatch.examples``); the return type best effort; the
``toolcall-doc`` findings (``toolcall._rules.doc_findings``) only when asked
for. Nothing
is reported here: each finding comes with the node the hook layer reports it
at (the parameter, its default, or the function for tool-level findings),
and a finding about a class's field with that field's site (``sites``).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy.nodes import (
    ARG_NAMED,
    ARG_NAMED_OPT,
    ARG_OPT,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    ArgKind,
    Argument,
    Context,
    FuncDef,
)
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    NoneType,
    Type,
    TypedDictType,
    TypeOfAny,
    UnboundType,
    get_proper_type,
)

from toolcall import _ir as ir
from toolcall._findings import PARAM, TYPE, Finding
from toolcall._rules import messages
from toolcall._rules.descriptions import parameter_description
from toolcall._rules.docstrings import ParsedDocstring, examples_of, parse_docstring
from toolcall._rules.tool_rules import (
    assemble_tool,
    claimed,
    injected_parameter,
    is_required,
    stray_entries,
    unannotated_parameter,
    unreadable_examples,
)
from toolcall_mypy._analysis.defaults import default_outcome, from_expression
from toolcall_mypy._analysis.sites import FieldSite
from toolcall_mypy._analysis.types import NoSchema, Walker
from toolcall_mypy._source.docs import class_docstring
from toolcall_mypy._source.metadata import declared_description, is_injected
from toolcall_mypy._source.names import ModuleSource, Sources
from toolcall_mypy._source.syntax import Src

__all__ = ["Collected", "Located", "collect_tool", "description_limits"]

if TYPE_CHECKING:
    from toolcall._rules.doc_findings import DescriptionLimit

_INJECTED_NAMES: Final = frozenset({"Injected", "toolcall.Injected", "toolcall._declarations.params.Injected"})
_ANNOTATED_NAMES: Final = frozenset({"Annotated", "typing.Annotated", "typing_extensions.Annotated"})


@dataclass(frozen=True)
class Located:
    """A finding and the node to report it at; ``site``: the field it is about, where one is.

    A finding about a field of a TypedDict, dataclass or NamedTuple
    (``site``) still names the parameter that reached it and comes with
    that parameter's node: the hook layer decides where to report it.
    """

    finding: Finding
    context: Context
    site: FieldSite | None = None


@dataclass(frozen=True)
class Collected:
    """What one tool gives: its IR (``None`` when a parameter has no schema or the function is refused) and findings.

    ``dependencies`` are the full names of the modules the IR, descriptions,
    defaults and findings were derived from, sorted: the tool's own, those
    of the classes, aliases, NewTypes, TypeVars, constants and providers
    it uses (also a failed return type's), and each whose source was read.
    Modules of the typing machinery (``builtins``, ``typing``, ``enum``...)
    are left out, other standard library and stub modules are not.
    ``documentation``: the ``toolcall-doc`` findings, apart from the others
    because they are derived only where the code is enabled (so they never
    decide whether an analysis was clean).
    """

    tool: ir.Tool | None
    findings: tuple[Located, ...]
    dependencies: tuple[str, ...]
    documentation: tuple[Located, ...] = ()


@dataclass
class _Tool:
    """The state of collecting one tool."""

    func: FuncDef
    name: str
    walker: Walker
    module: ModuleSource | None
    syntax: ast.FunctionDef | ast.AsyncFunctionDef | None
    doc: ParsedDocstring
    signature: object = None
    findings: list[Located] = dataclasses.field(default_factory=list)
    refused: bool = False
    annotations: dict[str, ast.expr] = dataclasses.field(init=False)  # parameter name -> its written annotation

    def __post_init__(self) -> None:
        self.annotations = _annotations(self.syntax)

    def add(
        self,
        findings: list[Finding] | tuple[Finding, ...],
        context: Context,
        parameter: str | None = None,
        site: FieldSite | None = None,
    ) -> None:
        for finding in findings:
            self.findings.append(Located(claimed(finding, self.name, parameter), context, site))

    def claim(self, context: Context, parameter: str) -> None:
        """Take the walker's findings so far, attributed to ``parameter``."""
        for noted in self.walker.findings:
            self.add([noted.finding], context, parameter, noted.site)
        self.walker.findings.clear()


def collect_tool(
    func: FuncDef,
    *,
    name: str,
    description: str | None,
    module: str,
    path: str,
    providers: tuple[str, ...] = (),
    files: Callable[[str], str | None] | None = None,
    context: Context | None = None,
    sources: Sources | None = None,
    doc_providers: Collection[str] | None = None,
) -> Collected:
    """Build the IR of the tool ``name`` from ``func`` (checked by mypy), with its located findings.

    ``providers`` are the ``"module:qualname"`` refs of the module's
    ``use_types(...)``; ``files`` optionally maps module names to their
    files (mypy's own module map), for sources outside the tool's package;
    ``context`` is the node tool-level findings are reported at (the
    ``@tool`` expression; ``func`` itself when not given). ``sources``,
    when given, is a ``Sources(module, path, files)`` kept for the module's
    other tools, so each file is parsed once. ``doc_providers``: where
    given, the ``toolcall-doc`` findings are derived too, with the
    description limits of those providers.
    """
    sources = Sources(module, path, files) if sources is None else sources
    walker = Walker(sources, providers)
    with sources.record.reading(walker.touch):  # each module the analysis reads is one the tool's schema comes from
        tool, findings, docstring = _collect(func, name, description, module, walker, context)
    documentation: tuple[Located, ...] = ()
    if tool is not None and doc_providers is not None:
        from toolcall._rules.doc_findings import doc_findings  # only where toolcall-doc is on

        limits = description_limits(doc_providers)
        found = doc_findings(tool, docstring, explicit_description=description is not None, limits=limits)
        documentation = tuple(Located(f, _parameter_node(func, f.parameter) or context or func) for f in found)
    return Collected(tool, findings, tuple(sorted({module, *walker.modules})), documentation)


def description_limits(providers: Collection[str]) -> tuple[DescriptionLimit, ...]:
    """The documented description limits of ``providers`` (as a project lists them: ``"openai"``...)."""
    from toolcall._render.limits import OPENAI_MAX_DESCRIPTION
    from toolcall._rules.doc_findings import DescriptionLimit

    known = (DescriptionLimit("openai", "OpenAI Chat Completions", OPENAI_MAX_DESCRIPTION),)
    return tuple(limit for limit in known if limit.provider in providers)


def _parameter_node(func: FuncDef, name: str | None) -> Argument | None:
    """The argument ``name`` of ``func``, the line a finding about it is reported at."""
    return next((argument for argument in func.arguments if argument.variable.name == name), None)


def _collect(
    func: FuncDef, name: str, description: str | None, module: str, walker: Walker, context: Context | None
) -> tuple[ir.Tool | None, tuple[Located, ...], str | None]:
    """``collect_tool`` but for the modules (``walker`` touches them): the tool's IR, findings and docstring."""
    sources = walker.sources
    where = sources.module(module)
    if where is not None and sources.first(("tool docstrings", module)):
        _read_tool_docstrings(where)
    syntax = where.function(func.line, func.name) if where is not None else None
    docstring = getattr(func, "docstring", None)
    if docstring is None or (syntax is not None and "\ufffd" in docstring):
        # mypy's native parser turns a lone surrogate into U+FFFD: the source says what was written.
        docstring = class_docstring(syntax)
    signature = get_proper_type(func.type) if func.type is not None else None
    state = _Tool(func, name, walker, where, syntax, parse_docstring(docstring), signature)
    arg_types = list(signature.arg_types) if isinstance(signature, CallableType) else []
    parameters = []
    for index, argument in enumerate(func.arguments):
        arg_type = arg_types[index] if index < len(arg_types) else None
        parameter = _parameter(state, argument, arg_type)
        if parameter is not None:
            parameters.append(parameter)
    names = {argument.variable.name for argument in func.arguments}
    at = func if context is None else context
    state.add(stray_entries(state.doc.params, names), at)
    returns = _returns(state, signature)
    examples = examples_of(docstring)
    state.add(unreadable_examples(examples.problem), at)
    if state.refused:
        return None, tuple(state.findings), docstring
    tool = _assemble(state, module, description, parameters, returns, examples.examples)
    return _checked_examples(state, tool, at), tuple(state.findings), docstring


def _checked_examples(state: _Tool, tool: ir.Tool, at: Context) -> ir.Tool:
    """``tool`` without the examples the dispatcher rejects; a finding for each, at the tool."""
    if not tool.examples:
        return tool
    from toolcall._dispatch.examples import check_examples  # only a tool with examples pays for the dispatcher

    checked, rejected = check_examples(tool)
    state.add(rejected, at)
    return checked


def _read_tool_docstrings(where: ModuleSource) -> None:
    """Parse the docstrings of the module's ``@...tool`` functions in one go, for its tools to find cached.

    docstring_parser is markedly faster on a run of docstrings than on each
    one alone between mypy's checks of the functions (its code stays warm).
    """
    for function in where.functions():
        if any(_names_tool(where, decorator) for decorator in function.decorator_list):
            parse_docstring(class_docstring(function))


def _names_tool(where: ModuleSource, decorator: ast.expr) -> bool:
    name = where.dotted(decorator.func if isinstance(decorator, ast.Call) else decorator)
    return name is not None and name.rpartition(".")[2] == "tool"


def _kind(argument: Argument) -> ir.ParameterKind | None:
    kind: ArgKind = argument.kind
    if kind in (ARG_POS, ARG_OPT):
        return "positional_only" if argument.pos_only else "positional_or_keyword"
    if kind in (ARG_NAMED, ARG_NAMED_OPT):
        return "keyword_only"
    if kind == ARG_STAR2:
        return "var_keyword"
    return None


def _parameter(state: _Tool, argument: Argument, arg_type: Type | None) -> ir.Parameter | None:
    """The parameter's IR; ``None`` (and the tool refused) for ``*args`` or a type no schema describes."""
    name = argument.variable.name
    refusal = _refusal(state, argument, arg_type)
    if refusal is not None:
        state.add([refusal], argument)
        state.refused = True
        return None
    kind = _kind(argument)
    assert kind is not None
    required = is_required(argument.kind.is_optional(), kind)
    entry = state.doc.params.get(name)
    if argument.type_annotation is None or arg_type is None:
        parameter, finding = unannotated_parameter(name, kind, required, entry)
        state.add([finding], argument)
        return parameter
    written = _written(state, name)
    if _injected(argument, written):
        return injected_parameter(name, kind, required)
    try:
        node = state.walker.walk(arg_type, written)
    except NoSchema as exc:
        state.claim(argument, name)
        state.add([Finding(TYPE, exc.message, parameter=name, path=exc.path)], argument, site=exc.site)
        state.refused = True
        return None
    state.claim(argument, name)
    default = _default(state, argument, node) if argument.kind.is_optional() else None
    description = parameter_description(declared_description(written), entry, node, state.walker.defs)
    return ir.Parameter(name, kind, node, required, default, description)


def _refusal(state: _Tool, argument: Argument, arg_type: Type | None) -> Finding | None:
    """Why the runtime refuses the function because of this parameter, or ``None``."""
    name = argument.variable.name
    if argument.kind == ARG_STAR:
        return Finding(PARAM, messages.star_args(name), parameter=name)
    unpacks = isinstance(state.signature, CallableType) and state.signature.unpack_kwargs
    if argument.kind == ARG_STAR2 and unpacks and arg_type is not None:
        # As at run time: **kwargs: Unpack[TD] names its keys, which this IR does not model.
        unpacked = get_proper_type(arg_type)
        label = unpacked.fallback.type.fullname if isinstance(unpacked, TypedDictType) else str(unpacked)
        return Finding(TYPE, messages.no_schema(f"Unpack[{label}]"), parameter=name)
    return None


def _default(state: _Tool, argument: Argument, node: ir.TypeNode) -> ir.Default | None:
    """The emitted default, by the shared rules; its findings go to the initializer."""
    initializer = argument.initializer
    if initializer is None:
        return None
    name = argument.variable.name
    outcome = default_outcome(
        lambda: from_expression(initializer, state.walker), node, state.walker.defs, tool=state.name, parameter=name
    )
    state.add(outcome.findings, initializer, name)
    return outcome.default


def _written(state: _Tool, name: str) -> Src | None:
    """The annotation written for parameter ``name``, from the module's source."""
    annotation = state.annotations.get(name)
    return None if annotation is None or state.module is None else Src(annotation, state.module)


def _annotations(syntax: ast.FunctionDef | ast.AsyncFunctionDef | None) -> dict[str, ast.expr]:
    """The annotation written for each parameter of ``syntax`` that has one."""
    if syntax is None:
        return {}
    arguments = syntax.args
    written: dict[str, ast.expr] = {}
    for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg):
        if arg is not None and arg.annotation is not None:
            written.setdefault(arg.arg, arg.annotation)
    return written


def _injected(argument: Argument, written: Src | None) -> bool:
    if written is not None:
        return is_injected(written)
    # No source: mypy's unanalyzed annotation still names a bare Injected marker.
    annotation = argument.type_annotation
    return (
        isinstance(annotation, UnboundType)
        and annotation.name in _ANNOTATED_NAMES
        and any(isinstance(arg, UnboundType) and arg.name in _INJECTED_NAMES for arg in annotation.args[1:])
    )


def _returns(state: _Tool, signature: object) -> ir.TypeNode | None:
    """The return type's node, best effort: no findings, ``None`` when there is none or no schema describes it."""
    if not isinstance(signature, CallableType) or not _has_return_annotation(state):
        return None
    returned = signature.ret_type
    proper = get_proper_type(returned)
    if state.func.is_coroutine and isinstance(proper, Instance) and proper.type.fullname == "typing.Coroutine":
        returned = proper.args[-1]
        proper = get_proper_type(returned)
    if isinstance(proper, NoneType):
        return None
    written = (
        Src(state.syntax.returns, state.module) if state.syntax and state.syntax.returns and state.module else None
    )
    walker = state.walker
    snapshot = walker.checkpoint()
    try:
        node = walker.walk(returned, written)
    except NoSchema:
        walker.restore(snapshot)
        return None
    walker.findings.clear()
    return node


def _has_return_annotation(state: _Tool) -> bool:
    if state.syntax is not None:
        return state.syntax.returns is not None
    unanalyzed = state.func.unanalyzed_type
    if not isinstance(unanalyzed, CallableType):
        return False
    written = unanalyzed.ret_type
    return not (isinstance(written, AnyType) and written.type_of_any == TypeOfAny.unannotated)


def _assemble(
    state: _Tool,
    module: str,
    description: str | None,
    parameters: list[ir.Parameter],
    returns: ir.TypeNode | None,
    examples: tuple[str, ...],
) -> ir.Tool:
    fullname = state.func.fullname
    qualname = fullname[len(module) + 1 :] if fullname.startswith(module + ".") else state.func.name
    return assemble_tool(
        name=state.name,
        module=module,
        qualname=qualname,
        description=description,
        documented=state.doc.description,
        parameters=parameters,
        defs=state.walker.defs,
        returns=returns,
        providers=state.walker.providers_used,
        examples=examples,
    )
