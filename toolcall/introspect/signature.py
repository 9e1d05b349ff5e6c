"""A ``@tool`` function → ``ir.Tool``: parameters, descriptions, defaults, the return type.

Parameter description, first that exists wins (SPEC §1): ``Param(description=...)``
on the parameter's annotation (also through ``X | None``; ``""`` stops the
fallback); the docstring's entry; the docstring description of the declared
class (TypedDict, dataclass, NamedTuple, Enum), also through ``X | None``.
The return type is best effort: one no schema describes gives ``returns=None``
and no error, and its findings are not reported (they concern no input).
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import typing_extensions as te

from toolcall import ir
from toolcall.custom import providers_for
from toolcall.defaults import default_for
from toolcall.definition import ToolDefinition
from toolcall.docstrings import ParsedDocstring, parse_docstring
from toolcall.findings import PARAM, Finding
from toolcall.introspect.hints import function_hints
from toolcall.introspect.metadata import SchemaError, declared_description, read_metadata
from toolcall.introspect.refs import fold, fold_defs
from toolcall.introspect.typewalk import Walker

__all__ = ["ToolParts", "build_tool"]

_KINDS: Final[dict[Any, ir.ParameterKind]] = {
    inspect.Parameter.POSITIONAL_ONLY: "positional_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional_or_keyword",
    inspect.Parameter.KEYWORD_ONLY: "keyword_only",
    inspect.Parameter.VAR_KEYWORD: "var_keyword",
}
_NO_ANNOTATION: Final = object()


@dataclass(frozen=True)
class ToolParts:
    """The tool's IR with what the walk collected on the way."""

    tool: ir.Tool
    findings: tuple[Finding, ...]
    classes: Mapping[str, Any]


def build_tool(definition: ToolDefinition) -> ToolParts:
    """Introspect ``definition``'s function; raises ``TypeError`` for a type no schema describes."""
    fn = definition.function
    where = f"tool {definition.name!r} ({definition.module}.{definition.qualname})"
    try:
        hints = function_hints(fn)
    except SchemaError as exc:
        raise TypeError(f"{where}: {exc}") from None
    doc = parse_docstring(fn.__doc__)
    walker = Walker(definition.module, providers_for(definition.module), fn.__globals__)
    findings: list[Finding] = []
    signature = inspect.signature(fn)  # follows functools.wraps to the signature callers see
    parameters = []
    for param in signature.parameters.values():
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            continue  # rejected by @tool already; kept out in case of a rebuilt function
        try:
            parameters.append(_parameter(walker, definition.name, param, hints.get(param.name, _NO_ANNOTATION), doc))
        except SchemaError as exc:
            raise TypeError(f"{where}, parameter {param.name!r}: {exc}") from None
        findings.extend(_claimed(walker, definition.name, param.name))
    findings.extend(_stray_entries(definition.name, doc, signature))
    returns = _returns(walker, hints.get("return", _NO_ANNOTATION))
    return ToolParts(_assemble(definition, doc, parameters, walker, returns), tuple(findings), dict(walker.classes))


def _assemble(
    definition: ToolDefinition,
    doc: ParsedDocstring,
    parameters: list[ir.Parameter],
    walker: Walker,
    returns: ir.TypeNode | None,
) -> ir.Tool:
    defs = fold_defs(walker.defs)
    bodies = {body: name for name, body in defs.items()}
    folded = tuple(dataclasses.replace(p, type=fold(p.type, bodies)) for p in parameters)
    return ir.Tool(
        name=definition.name,
        module=definition.module,
        qualname=definition.qualname,
        description=definition.description if definition.description is not None else doc.description,
        parameters=folded,
        defs=tuple(ir.Definition(name, body) for name, body in defs.items()),
        returns=None if returns is None else fold(returns, bodies),
        providers=tuple(walker.providers_used),
    )


def _parameter(walker: Walker, tool: str, param: inspect.Parameter, hint: Any, doc: ParsedDocstring) -> ir.Parameter:
    kind = _KINDS[param.kind]
    has_default = param.default is not inspect.Parameter.empty
    required = not has_default and kind != "var_keyword"
    if hint is _NO_ANNOTATION:
        walker.findings.append(
            Finding(PARAM, "has no annotation, so its schema is {} (any JSON value); annotate it", tool, param.name)
        )
        return ir.Parameter(param.name, kind, ir.AnyType("unannotated"), required, None, doc.params.get(param.name))
    if _is_injected(hint):
        # An injected value never reaches a schema, so its type may be anything (a connection, a client).
        return ir.Parameter(param.name, kind, ir.AnyType("any"), required, None, None, injected=True)
    node = walker.walk(hint)
    default = None
    if has_default:
        outcome = default_for(param.default, node, walker.defs, tool=tool, parameter=param.name)
        walker.findings.extend(outcome.findings)
        default = outcome.default
    description = _description(walker, hint, node, doc.params.get(param.name))
    return ir.Parameter(param.name, kind, node, required, default, description)


def _is_injected(hint: Any) -> bool:
    return te.get_origin(hint) in (typing.Annotated, te.Annotated) and read_metadata(te.get_args(hint)[1:]).injected


def _description(walker: Walker, hint: Any, node: ir.TypeNode, entry: str | None) -> str | None:
    declared = declared_description(hint)
    if declared is not None:
        return declared or None
    if entry is not None:
        return entry
    return _class_description(walker, node)


def _class_description(walker: Walker, node: ir.TypeNode) -> str | None:
    if isinstance(node, ir.UnionType):
        options = [o for o in node.options if o != ir.Primitive("none")]
        if len(options) != 1:
            return None
        node = options[0]
    if isinstance(node, ir.RefType):
        node = walker.defs.get(node.name, node)
    if isinstance(node, (ir.ObjectType, ir.EnumType)):
        return node.description
    return None


def _claimed(walker: Walker, tool: str, parameter: str) -> list[Finding]:
    """Take the walker's findings so far, attributed to ``parameter``."""
    claimed = [dataclasses.replace(f, tool=tool, parameter=f.parameter or parameter) for f in walker.findings]
    walker.findings.clear()
    return claimed


def _stray_entries(tool: str, doc: ParsedDocstring, signature: inspect.Signature) -> list[Finding]:
    return [
        Finding(PARAM, f"the docstring documents {name!r}, which is not a parameter; fix or remove the entry", tool)
        for name in doc.params
        if name not in signature.parameters
    ]


def _returns(walker: Walker, hint: Any) -> ir.TypeNode | None:
    if hint is _NO_ANNOTATION or hint is None or hint is type(None):
        return None
    snapshot = walker.checkpoint()
    try:
        node = walker.walk(hint)
    except (SchemaError, TypeError, ValueError):
        walker.restore(snapshot)
        return None
    walker.findings.clear()
    return node
