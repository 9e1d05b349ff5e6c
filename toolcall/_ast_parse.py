"""``ast.parse`` for first use, one thread at a time.

CPython 3.11 keeps the recursion depth of its AST object construction in the
interpreter, not in the thread: when a thread switch (a garbage collection
running Python code) lets two threads build AST objects at once, one fails
with ``SystemError: AST constructor recursion depth mismatch``. Tools are
loaded on first use, from whichever threads call first, so every parse on
that path, ``inspect.getsource`` included (it parses the module to find a
class), holds one lock. Parses elsewhere in the process are not covered.
"""

from __future__ import annotations

import ast
import inspect
import threading
from typing import Any, Final

__all__ = ["class_source", "parse_expression", "parse_module"]

_LOCK: Final = threading.RLock()  # re-entrant: a collection during a parse may run code that parses


def parse_module(source: str) -> ast.Module:
    """``ast.parse(source)``, holding the parse lock."""
    with _LOCK:
        return ast.parse(source)


def parse_expression(source: str) -> ast.Expression:
    """``ast.parse(source, mode="eval")``, holding the parse lock."""
    with _LOCK:
        return ast.parse(source, mode="eval")


def class_source(cls: type[Any]) -> str:
    """``inspect.getsource(cls)``, holding the parse lock."""
    with _LOCK:
        return inspect.getsource(cls)
