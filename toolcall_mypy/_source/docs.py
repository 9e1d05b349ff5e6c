"""Docstrings as the module files write them: of functions and classes, and attribute docstrings of class fields.

mypy keeps docstrings only when asked, and frees class bodies once a module
is checked, so the static front end reads them from the parsed files
(``toolcall_mypy._source.files``).
"""

from __future__ import annotations

import ast

from toolcall._rules import docstrings

__all__ = ["class_docstring", "field_docstrings"]


def class_docstring(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef | None) -> str | None:
    """The docstring written in a class or function body, raw (as ``__doc__`` holds it)."""
    return None if node is None else ast.get_docstring(node, clean=False)


def field_docstrings(node: ast.ClassDef) -> dict[str, str]:
    """Attribute docstrings of a class's fields, by field name (``toolcall._rules.docstrings.field_docstrings``)."""
    return docstrings.field_docstrings(node.body)
