"""The runtime front end: a live ``@tool`` function → the tool's IR.

Imported lazily, on a toolset's first use; ``import toolcall`` never loads it
(it pulls in ``inspect``, ``typing`` and ``docstring_parser``).
"""

from __future__ import annotations

from toolcall._declarations.tool import ToolDeclaration
from toolcall._introspect.introspected import Introspected

__all__ = ["Introspected", "introspect"]


def introspect(declaration: ToolDeclaration) -> Introspected:
    """Resolve the annotations of ``declaration``'s function and build its IR.

    Raises ``SchemaError`` (a ``TypeError``) naming the tool, the parameter
    and the type when no schema can describe a parameter's type, or when an
    annotation cannot be resolved.
    """
    from toolcall._introspect.tool import build_tool

    return build_tool(declaration)
