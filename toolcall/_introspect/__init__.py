"""The runtime front end: a live ``@tool`` function → the tool's IR.

Imported lazily, on a toolset's first use; ``import toolcall`` never loads it
(it pulls in ``inspect``, ``typing`` and ``docstring_parser``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolcall import _ir as ir
from toolcall._declarations.tool import ToolDeclaration
from toolcall._findings import Finding
from toolcall._records import Record, record, set_field

__all__ = ["Introspected", "introspect"]


@record(frozen=True, slots=True)
class Introspected(Record):
    """What introspecting one tool gives.

    ``findings`` are warnings (``toolcall-param``, ``toolcall-type``,
    ``toolcall-default``). ``classes`` maps every ``"module:qualname"`` ref in
    the IR (enums, objects, custom types, providers) to the live class, so the
    dispatcher needs no import.
    """

    tool: ir.Tool
    findings: tuple[Finding, ...]
    classes: Mapping[str, Any]

    def __init__(self, tool: ir.Tool, findings: tuple[Finding, ...], classes: Mapping[str, Any]) -> None:
        set_field(self, "tool", tool)
        set_field(self, "findings", findings)
        set_field(self, "classes", classes)


def introspect(declaration: ToolDeclaration) -> Introspected:
    """Resolve the annotations of ``declaration``'s function and build its IR.

    Raises ``SchemaError`` (a ``TypeError``) naming the tool, the parameter
    and the type when no schema can describe a parameter's type, or when an
    annotation cannot be resolved.
    """
    from toolcall._introspect.tool import build_tool

    return build_tool(declaration)
