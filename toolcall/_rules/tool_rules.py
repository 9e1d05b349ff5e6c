"""How a tool's IR is put together from what a front end found in its function.

Both front ends read the function in their own world (``inspect`` at run
time, mypy's ``FuncDef`` in the plugin) and build its parameters and the
tool with these rules:

* a parameter is required when it has no default and is not ``**kwargs``;
* an unannotated parameter gets the schema ``{}`` (``AnyType("unannotated")``),
  no default and its docstring entry, with a ``toolcall-param`` finding;
* an injected parameter never reaches a schema: any type, no default, no
  description;
* a docstring entry naming no parameter is a ``toolcall-param`` finding;
* a finding of a parameter's type walk is the tool's, about that parameter
  (unless it names one itself);
* an ``Examples:`` section that stops being JSON is a ``toolcall-example``
  finding, and the examples from there on are left out (the dispatcher's
  check of the others is ``toolcall._dispatch.examples``);
* the tool's description follows ``descriptions.tool_description``; its
  unrolled copies of named types are folded into references (``toolcall._rules.folding``),
  in its parameters, its return type and each other.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Container, Iterable, Mapping, Sequence

from toolcall import _ir as ir
from toolcall._findings import EXAMPLE, PARAM, Finding
from toolcall._rules import messages
from toolcall._rules.descriptions import tool_description
from toolcall._rules.folding import fold, fold_defs

__all__ = [
    "assemble_tool",
    "claimed",
    "injected_parameter",
    "is_required",
    "stray_entries",
    "unannotated_parameter",
    "unreadable_examples",
]


def is_required(has_default: bool, kind: ir.ParameterKind) -> bool:
    """Whether a model must send the parameter: it has no default and is not ``**kwargs``."""
    return not has_default and kind != "var_keyword"


def unannotated_parameter(
    name: str, kind: ir.ParameterKind, required: bool, documented: str | None, tool: str | None = None
) -> tuple[ir.Parameter, Finding]:
    """A parameter without an annotation (schema ``{}``, no default) and its finding."""
    parameter = ir.Parameter(name, kind, ir.AnyType("unannotated"), required, None, documented)
    return parameter, Finding(PARAM, messages.UNANNOTATED_PARAMETER, tool, name)


def injected_parameter(name: str, kind: ir.ParameterKind, required: bool) -> ir.Parameter:
    """An injected parameter: its value never reaches a schema, so its type may be anything (a client, a connection)."""
    return ir.Parameter(name, kind, ir.AnyType("any"), required, None, None, injected=True)


def stray_entries(documented: Iterable[str], parameters: Container[str], tool: str | None = None) -> list[Finding]:
    """A finding for each docstring entry (``documented``, in order) that names none of ``parameters``."""
    return [Finding(PARAM, messages.stray_entry(name), tool) for name in documented if name not in parameters]


def unreadable_examples(problem: str | None, tool: str | None = None) -> list[Finding]:
    """The finding of an ``Examples:`` section whose text stops being JSON (``problem`` says where), if it does."""
    if problem is None:
        return []
    fix = "write each example as a JSON object of arguments, one after another; it and the ones after it are left out"
    return [Finding(EXAMPLE, f"{problem}: {fix}", tool)]


def claimed(finding: Finding, tool: str, parameter: str | None) -> Finding:
    """A finding of ``parameter``'s type walk as the tool reports it: ``tool``'s, about ``parameter`` (or its own)."""
    return dataclasses.replace(finding, tool=tool, parameter=finding.parameter or parameter)


def assemble_tool(
    *,
    name: str,
    module: str,
    qualname: str,
    description: str | None,
    documented: str,
    parameters: Sequence[ir.Parameter],
    defs: Mapping[str, ir.TypeNode],
    returns: ir.TypeNode | None,
    providers: Sequence[str],
    examples: Sequence[str] = (),
) -> ir.Tool:
    """The tool's IR: ``description`` (``@tool(description=...)``) or ``documented``; ``defs`` folded in."""
    folded = fold_defs(defs)
    if folded:  # without named types, folding would only rebuild equal nodes
        bodies = {body: def_name for def_name, body in folded.items()}
        parameters = [dataclasses.replace(p, type=fold(p.type, bodies)) for p in parameters]
        returns = None if returns is None else fold(returns, bodies)
    return ir.Tool(
        name=name,
        module=module,
        qualname=qualname,
        description=tool_description(description, documented),
        parameters=tuple(parameters),
        defs=tuple(ir.NamedType(def_name, body) for def_name, body in folded.items()),
        returns=returns,
        providers=tuple(providers),
        examples=tuple(examples),
    )
