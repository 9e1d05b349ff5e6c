"""Reporting: each finding a mypy error or note at the given node, with its code.

The node decides the line: the parameter (``Argument``), its default (the
initializer expression) or the ``@tool`` expression for tool-level problems.
A finding about a field of a class is reported at the field's line when the
class is in the module being checked (``field``), or where a tool reaches it
when the class is in another module (``foreign_field``). Messages come from
the findings and say how to fix the problem; mypy adds the
``[toolcall-...]`` code itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy.nodes import Context

from toolcall_mypy import _codes as codes

if TYPE_CHECKING:
    from mypy.plugin import CheckerPluginInterface

    from toolcall._findings import Finding
    from toolcall_mypy._analysis.sites import FieldSite

__all__ = ["at_node", "field", "foreign_field", "name", "text", "type_"]


def name(api: CheckerPluginInterface, message: str, context: Context) -> None:
    """``toolcall-name``: a tool name that is invalid, duplicated or unreadable."""
    api.fail(message, context, code=codes.NAME)


def type_(api: CheckerPluginInterface, message: str, context: Context) -> None:
    """``toolcall-type``: a type with no schema, an unbounded TypeVar, an implicit ``Any``."""
    api.fail(message, context, code=codes.TYPE)


def text(finding: Finding) -> str:
    """The message of a finding, prefixed with where it is and the modes it concerns (``tool.parameter.path: ...``)."""
    return finding.text()


def at_node(api: CheckerPluginInterface, finding: Finding, context: Context) -> None:
    """Report ``finding`` at ``context``, as a mypy error or note (its severity), with its code."""
    _emit(api, finding, text(finding), context)


def field(api: CheckerPluginInterface, finding: Finding, site: FieldSite) -> None:
    """Report ``finding``, about a field of a class of the module being checked, at the field's line.

    The message names the field (``Class.field: ...``), not the tool: every
    tool that reaches the field reports the same message at the same line,
    which mypy shows once.
    """
    _emit(api, finding, f"{site.label()}: {finding.message}", Context(site.line, site.column))


def foreign_field(api: CheckerPluginInterface, finding: Finding, site: FieldSite, context: Context) -> None:
    """Report ``finding``, about a field of a class of another module, at ``context``, where a tool reaches it.

    The message names both: ``tool.parameter.path (field module.Class.field): ...``.
    """
    message = f"{finding.where()} (field {site.module}.{site.label()}): {finding.message}"
    _emit(api, finding, message, context)


def _emit(api: CheckerPluginInterface, finding: Finding, message: str, context: Context) -> None:
    code = codes.BY_FINDING[finding.code]
    if finding.severity == "note":
        # Shown, and mypy still exits 0. Without a column: mypy's JSON output folds a note at an
        # error's exact place into that error's hints, where it loses its code (``toolcall check``).
        api.msg.note(message, Context(context.line, -1), code=code)
    else:
        api.fail(message, context, code=code)
