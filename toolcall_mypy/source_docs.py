"""Docstrings as the module files write them: of functions and classes, and attribute docstrings of class fields.

mypy keeps docstrings only when asked, and frees class bodies once a module
is checked, so the static front end reads them from the parsed files
(``toolcall_mypy.source_files``).
"""

from __future__ import annotations

import ast
import itertools

from toolcall.docstrings import clean_entry

__all__ = ["class_docstring", "field_docstrings"]


def class_docstring(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef | None) -> str | None:
    """The docstring written in a class or function body, raw (as ``__doc__`` holds it)."""
    return None if node is None else ast.get_docstring(node, clean=False)


def field_docstrings(node: ast.ClassDef) -> dict[str, str]:
    """Attribute docstrings: a string literal right after an annotated field (PEP 257), cleaned, by field name."""
    docs: dict[str, str] = {}
    for statement, following in itertools.pairwise(node.body):
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
            text = clean_entry(following.value.value) if isinstance(following.value.value, str) else None
            if text is not None:
                docs[statement.target.id] = text
    return docs
