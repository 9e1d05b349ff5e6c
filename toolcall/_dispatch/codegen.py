"""A small builder for generated Python source (the coercers and binders).

Generated code never contains a string that came from a tool: names, keys,
patterns, descriptions and defaults enter it only as ``repr`` literals of
checked types or as constants in the namespace, referred to by generated
identifiers (``_c0``, ``_c1``, ...). ``literal`` refuses anything but plain
str/int/float/bool/None values, so nothing else can be spelled into source.
"""

from __future__ import annotations

import keyword
from typing import Any

__all__ = ["CodeBuilder", "is_safe_identifier"]


def is_safe_identifier(name: str) -> bool:
    """True when ``name`` may appear as an identifier (a keyword argument) in source."""
    return name.isidentifier() and not keyword.iskeyword(name) and name.isascii()


class CodeBuilder:
    """Lines of generated code and the namespace they run in."""

    filename: str
    namespace: dict[str, Any]
    blocks: list[list[str]]
    #: Added to every ``add``'s indentation (to write a body inside a ``try``).
    base: int

    def __init__(self, filename: str, namespace: dict[str, Any]) -> None:
        self.filename = filename
        self.namespace = namespace
        #: Finished top-level blocks (functions), in the order they were finished.
        self.blocks = []
        # Blocks being written: generating one function can start another
        # (an array of objects), and each must stay whole.
        self._open: list[list[str]] = []
        self._counter = 0
        #: Added to every ``add``'s indentation (to write a body inside a ``try``).
        self.base = 0
        self._bases: list[int] = []

    def fresh(self, prefix: str) -> str:
        """A new identifier for a generated function or variable."""
        self._counter += 1
        return f"_{prefix}{self._counter}"

    def constant(self, value: Any, prefix: str = "c") -> str:
        """Put ``value`` in the namespace under a new name and return the name."""
        name = self.fresh(prefix)
        self.namespace[name] = value
        return name

    @staticmethod
    def literal(value: str | int | float | bool | None) -> str:
        """``value`` spelled as a Python literal (only plain scalars are allowed)."""
        if value is None or type(value) in (str, int, bool):
            return repr(value)
        if type(value) is float and value == value and value not in (float("inf"), float("-inf")):
            return repr(value)
        raise TypeError(f"cannot spell {type(value).__name__} as a literal")

    def begin(self) -> None:
        """Start a top-level block; ``add`` writes into it until ``end``."""
        self._open.append([])
        self._bases.append(self.base)
        self.base = 0

    def end(self) -> None:
        """Finish the innermost open block (and go back to the enclosing block's indentation)."""
        self.blocks.append(self._open.pop())
        self.base = self._bases.pop()

    def add(self, indent: int, *lines: str) -> None:
        """Append lines, at the given indentation level, to the innermost open block."""
        self._open[-1].extend("    " * (indent + self.base) + line for line in lines)

    def compile(self) -> dict[str, Any]:
        """Run the source in the namespace and return the namespace."""
        assert not self._open, "a block was not ended"
        text = "\n".join(line for block in self.blocks for line in block) + "\n"
        exec(compile(text, self.filename, "exec"), self.namespace)
        self.namespace["__source__"] = text
        return self.namespace
