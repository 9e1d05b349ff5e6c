"""Reporting: one function per error code, each a mypy error at the given node.

The node decides the line: the parameter (``Argument``), its default (the
initializer expression) or the ``@tool`` expression for tool-level problems.
A finding about a field of a class is reported at the field's line when the
class is in the module being checked (``field``), or where a tool reaches it
when the class is in another module (``foreign_field``). Messages come from
the findings and say how to fix the problem; mypy adds the
``[toolcall-...]`` code itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from mypy.nodes import Context

from toolcall_mypy import _codes as codes

if TYPE_CHECKING:
    from mypy.plugin import CheckerPluginInterface

    from toolcall._findings import Finding, FindingCode
    from toolcall_mypy._analysis.sites import FieldSite

__all__ = ["at_node", "default", "doc", "field", "foreign_field", "name", "param", "strict", "text", "type_"]

Reporter = Callable[["CheckerPluginInterface", str, "Context"], None]


def name(api: CheckerPluginInterface, message: str, context: Context) -> None:
    """``toolcall-name``: a tool name that is invalid, duplicated or unreadable."""
    api.fail(message, context, code=codes.NAME)


def param(api: CheckerPluginInterface, message: str, context: Context) -> None:
    """``toolcall-param``: ``*args``, an unannotated parameter, a docstring entry for no parameter."""
    api.fail(message, context, code=codes.PARAM)


def type_(api: CheckerPluginInterface, message: str, context: Context) -> None:
    """``toolcall-type``: a type with no schema, an unbounded TypeVar, an implicit ``Any``."""
    api.fail(message, context, code=codes.TYPE)


def strict(api: CheckerPluginInterface, message: str, context: Context) -> None:
    """``toolcall-strict``: what a strict mode cannot express."""
    api.fail(message, context, code=codes.STRICT)


def default(api: CheckerPluginInterface, message: str, context: Context) -> None:
    """``toolcall-default``: a default that is dropped or loses precision."""
    api.fail(message, context, code=codes.DEFAULT)


def doc(api: CheckerPluginInterface, message: str, context: Context) -> None:
    """``toolcall-doc`` (off unless enabled): a missing, lost or too long description."""
    api.fail(message, context, code=codes.DOC)


_REPORTERS: Final[dict[FindingCode, Reporter]] = {
    "toolcall-name": name,
    "toolcall-param": param,
    "toolcall-type": type_,
    "toolcall-strict": strict,
    "toolcall-default": default,
    "toolcall-doc": doc,
}


def text(finding: Finding) -> str:
    """The message of a finding, prefixed with where it is (``tool.parameter.path: ...``)."""
    where = _where(finding)
    return f"{where}: {finding.message}" if where else finding.message


def at_node(api: CheckerPluginInterface, finding: Finding, context: Context) -> None:
    """Report ``finding`` at ``context`` with its code's reporter."""
    _REPORTERS[finding.code](api, text(finding), context)


def field(api: CheckerPluginInterface, finding: Finding, site: FieldSite) -> None:
    """Report ``finding``, about a field of a class of the module being checked, at the field's line.

    The message names the field (``Class.field: ...``), not the tool: every
    tool that reaches the field reports the same message at the same line,
    which mypy shows once.
    """
    _REPORTERS[finding.code](api, f"{site.label()}: {finding.message}", Context(site.line, site.column))


def foreign_field(api: CheckerPluginInterface, finding: Finding, site: FieldSite, context: Context) -> None:
    """Report ``finding``, about a field of a class of another module, at ``context``, where a tool reaches it.

    The message names both: ``tool.parameter.path (field module.Class.field): ...``.
    """
    _REPORTERS[finding.code](api, f"{_where(finding)} (field {site.module}.{site.label()}): {finding.message}", context)


def _where(finding: Finding) -> str:
    return ".".join(str(part) for part in (finding.tool, finding.parameter, *finding.path) if part is not None)
