"""A ``@tool`` function → ``ir.Tool``: parameters, descriptions, defaults, the return type.

The facts come from ``inspect`` and the resolved annotations; the rules
that make the parameters and the tool from them are shared with the mypy
plugin (``toolcall._rules.tool_rules``, ``toolcall._rules.descriptions``). Parameter
description, first that exists wins: ``Param(description=...)``
on the parameter's annotation (also through ``X | None``; ``""`` stops the
fallback); the docstring's entry; the docstring description of the declared
class (TypedDict, dataclass, NamedTuple, Enum), also through ``X | None``.
The docstring's ``Examples:`` are read into the IR as written (the
dispatcher's check of them is the caller's: ``toolcall._dispatch.examples``).
The return type is best effort: one no schema describes gives ``returns=None``
and no error, and its findings are not reported (they concern no input).
"""

from __future__ import annotations

import enum
import inspect
import math
import typing
from typing import Any, Final

import typing_extensions as te

from toolcall import _ir as ir
from toolcall._annotations import DeclaredParameter, parameters_of
from toolcall._declarations.custom import providers_for
from toolcall._declarations.tool import ToolDeclaration
from toolcall._exceptions import SchemaError
from toolcall._findings import Finding
from toolcall._introspect.hints import function_hints
from toolcall._introspect.introspected import Introspected
from toolcall._introspect.metadata import declared_description
from toolcall._introspect.shared_annotations import shared_annotations
from toolcall._introspect.types import Walker
from toolcall._rules.defaults import default_for
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

__all__ = ["build_tool"]

_KINDS: Final[dict[Any, ir.ParameterKind]] = {
    inspect.Parameter.POSITIONAL_ONLY: "positional_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional_or_keyword",
    inspect.Parameter.KEYWORD_ONLY: "keyword_only",
    inspect.Parameter.VAR_KEYWORD: "var_keyword",
}
_NO_ANNOTATION: Final = object()


def build_tool(declaration: ToolDeclaration) -> Introspected:
    """Introspect ``declaration``'s function; raises ``SchemaError`` for a type no schema describes."""
    fn = declaration.function
    shared = shared_annotations(fn.__globals__, declaration.module)
    try:
        hints = function_hints(fn, shared)
    except SchemaError as exc:
        raise SchemaError(f"{_where(declaration)}, {exc}") from None
    doc = parse_docstring(fn.__doc__)
    walker = Walker(declaration.module, providers_for(declaration.module), fn.__globals__, shared)
    findings: list[Finding] = []
    declared = parameters_of(fn)  # follows functools.wraps to the signature callers see
    parameters = []
    for param in declared.values():
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            continue  # rejected by @tool already; kept out in case of a rebuilt function
        try:
            parameters.append(_parameter(walker, declaration.name, param, hints.get(param.name, _NO_ANNOTATION), doc))
        except SchemaError as exc:
            raise SchemaError(f"{_where(declaration)}, parameter {param.name!r}: {exc}") from None
        findings.extend(_claimed(walker, declaration.name, param.name))
    findings.extend(stray_entries(doc.params, declared, declaration.name))
    returns = _returns(walker, hints.get("return", _NO_ANNOTATION))
    examples = examples_of(fn.__doc__)
    findings.extend(unreadable_examples(examples.problem, declaration.name))
    tool = assemble_tool(
        name=declaration.name,
        module=declaration.module,
        qualname=declaration.qualname,
        description=declaration.description,
        documented=doc.description,
        parameters=parameters,
        defs=walker.defs,
        returns=returns,
        providers=walker.providers_used,
        examples=examples.examples,
    )
    return Introspected(tool, tuple(findings), dict(walker.classes))


def _where(declaration: ToolDeclaration) -> str:
    return f"tool {declaration.name!r} ({declaration.module}.{declaration.qualname})"


def _parameter(walker: Walker, tool: str, param: DeclaredParameter, hint: Any, doc: ParsedDocstring) -> ir.Parameter:
    kind = _KINDS[param.kind]
    has_default = param.default is not inspect.Parameter.empty
    required = is_required(has_default, kind)
    if hint is _NO_ANNOTATION:
        parameter, finding = unannotated_parameter(param.name, kind, required, doc.params.get(param.name), tool)
        walker.findings.append(finding)
        return parameter
    plain_class = type(hint) is type  # most parameters (str, int, a class): nothing declared on them
    if not plain_class and walker.annotation_fact(hint, "injected", lambda: _is_injected(walker, hint)):
        return injected_parameter(param.name, kind, required)
    node = walker.walk_annotation(hint)
    default = _default(walker, tool, param, node) if has_default else None
    declared = None
    if not plain_class:
        declared = walker.annotation_fact(hint, "description", lambda: declared_description(hint, walker.metadata))
    description = parameter_description(declared, doc.params.get(param.name), node, walker.defs)
    return ir.Parameter(param.name, kind, node, required, default, description)


def _default(walker: Walker, tool: str, param: DeclaredParameter, node: ir.TypeNode) -> ir.Default | None:
    """The parameter's default as the default rules make it; their findings go to the walker."""
    key = _fitted_key(node, param.default)
    fitted = _FITTED.get(key) if key is not None else None
    if fitted is not None:
        return fitted[1]
    outcome = default_for(param.default, node, walker.defs, tool=tool, parameter=param.name)
    walker.findings.extend(outcome.findings)
    if key is not None and not outcome.findings:
        if len(_FITTED) >= _FITTED_MAX:
            _FITTED.clear()
        _FITTED[key] = (node, outcome.default)
    return outcome.default


#: (id(node), the default's class, the default[, its sign]) → (node, the fitted default): the defaults
#: fitted before to a node, by its identity. A module's tools share their types' nodes (a type is walked
#: once per module) and many defaults (``limit: int = 10``, ``unit: Unit = Unit.C``). Only defaults fitted
#: without a finding, and only of the classes whose equal values have one JSON spelling (a float's sign
#: is in the key: ``-0.0 == 0.0``). Held with the node, so the id names it while kept; emptied when full.
_FITTED: dict[tuple[Any, ...], tuple[ir.TypeNode, ir.Default | None]] = {}
_FITTED_MAX: Final = 4096
_FITTED_CLASSES: Final = frozenset((str, bool, int, type(None)))


def _fitted_key(node: ir.TypeNode, value: object) -> tuple[Any, ...] | None:
    kind = type(value)
    if kind in _FITTED_CLASSES or isinstance(value, enum.Enum):
        return (id(node), kind, value)
    if kind is float:
        return (id(node), kind, value, math.copysign(1.0, value))  # type: ignore[arg-type]
    return None


def _is_injected(walker: Walker, hint: Any) -> bool:
    return te.get_origin(hint) in (typing.Annotated, te.Annotated) and walker.metadata(hint).injected


def _claimed(walker: Walker, tool: str, parameter: str) -> list[Finding]:
    """Take the walker's findings so far, attributed to ``parameter``."""
    taken = [claimed(finding, tool, parameter) for finding in walker.findings]
    walker.findings.clear()
    return taken


def _returns(walker: Walker, hint: Any) -> ir.TypeNode | None:
    if hint is _NO_ANNOTATION or hint is None or hint is type(None):
        return None
    snapshot = walker.checkpoint()
    try:
        node = walker.walk_annotation(hint)
    except (SchemaError, TypeError, ValueError):
        walker.restore(snapshot)
        return None
    walker.findings.clear()
    return node
