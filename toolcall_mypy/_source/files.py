"""The module files behind mypy's nodes: found, read and parsed with ``ast``, and the caches' owners.

mypy strips ``Annotated`` metadata from analyzed types, frees class bodies
once a module is checked, and keeps docstrings only when asked. The static
front end reads those from the module files instead, in the ``source_*``
modules: this one reads the files, ``source_names`` resolves names in them,
``source_docs`` reads docstrings, ``source_syntax`` walks annotations beside
the analyzed types, and ``source_metadata`` reads ``Annotated`` metadata.

Each file is parsed once, cached by ``(path, mtime, size)`` (``PARSED``); a
file the running interpreter cannot parse (mypy accepts newer syntax) or
cannot read gives no source, and callers do without. A module's file is the
one the hook layer knows, else one found beside the tool module's package
root or on ``sys.path`` (``ModuleFiles``). Each module read, memoized reads
included, counts for the tool being analyzed (``ReadRecord``).
"""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Final, TypeVar, cast

if TYPE_CHECKING:
    from toolcall_mypy._source.names import ModuleSource

__all__ = ["PARSED", "ModuleFiles", "ParseCache", "ReadRecord", "strings_at"]

_V = TypeVar("_V")
_Remembered = tuple[_V, tuple[str, ...]]  # a memoized value and the modules computing it read (``ReadRecord``)


class ParseCache:
    """The parsed module files, by ``(path, mtime, size)``: the least recently used dropped past ``size`` files."""

    def __init__(self, size: int = 128) -> None:
        self._size = size
        self._trees: dict[tuple[str, int, int], ast.Module | None] = {}  # least recently used first

    def parse(self, path: str) -> ast.Module | None:
        """The parsed file at ``path``, or ``None`` when it cannot be read or parsed here."""
        try:
            stat = os.stat(path)
        except OSError:
            return None
        key = (path, stat.st_mtime_ns, stat.st_size)
        if key in self._trees:
            tree = self._trees.pop(key)  # put back below, as the most recently used
        else:
            tree = _read_tree(path)
            if len(self._trees) >= self._size:
                del self._trees[next(iter(self._trees))]
        self._trees[key] = tree
        return tree


def _read_tree(path: str) -> ast.Module | None:
    try:
        with open(path, "rb") as handle:
            return ast.parse(handle.read(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return None  # mypy may accept syntax this interpreter does not (PEP 695 on 3.11)


PARSED: Final = ParseCache()
"""The process's parse cache: every tool module's ``Sources`` reads its files through it (files are shared)."""


class ModuleFiles:
    """The files of the modules one tool module refers to.

    ``files`` maps a module name to its file (the hook layer knows mypy's);
    without it, or when it does not know a module, the file is looked for
    under the tool module's package root, then on ``sys.path``.
    """

    def __init__(self, module: str, path: str, files: Callable[[str], str | None] | None = None) -> None:
        self._files = files
        self._known = {module: path}
        #: Where modules are looked for besides mypy's map: two tool modules with the same roots find the same files.
        self.roots = tuple(root for root in (_package_root(module, path),) if root is not None)

    def path(self, name: str, suffix: str = ".py") -> str | None:
        """The file of module ``name`` (its stub with ``suffix=".pyi"``), or ``None``."""
        known = self._known.get(name) or (self._files(name) if self._files is not None else None)
        if known is not None:
            return known
        parts = name.split(".")
        for root in (*self.roots, *sys.path):
            base = os.path.join(root or os.curdir, *parts)
            for candidate in (base + suffix, os.path.join(base, "__init__" + suffix)):
                if os.path.isfile(candidate):
                    return candidate
        return None


def _package_root(module: str, path: str) -> str | None:
    parts = module.split(".")
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.basename(path) != "__init__.py":
        parts = parts[:-1]
    for _ in parts:
        directory = os.path.dirname(directory)
    return directory


class ReadRecord:
    """The per-tool read record: which modules a tool's analysis reads, and the memoized reads replaying them.

    ``Sources`` keeps one per tool module (``Sources.record``); its memos
    live as long as it, while the trees they are keyed by stay unchanged.
    """

    def __init__(self) -> None:
        self.readers: list[Callable[[str], None]] = []  # see ``reading``
        self._memo: dict[Hashable, _Remembered[object]] = {}  # see ``remembered``

    @contextmanager
    def reading(self, reader: Callable[[str], None]) -> Iterator[None]:
        """Call ``reader`` with the name of each module read inside the block (``Sources.module``, ``note``).

        Blocks nest: a module read inside an inner block counts for the outer
        ones too. A tool's analysis runs in one, so its cache entry can name
        every file its schema comes from.
        """
        self.readers.append(reader)
        try:
            yield
        finally:
            self.readers.pop()

    def note(self, name: str) -> None:
        """Count module ``name`` as read (a value mypy took from it, or a source read again from a memo)."""
        for reader in self.readers:
            reader(name)

    def remembered(self, key: Hashable, compute: Callable[[], _V]) -> _V:
        """``compute()``, once per ``key``; each later use counts the modules it read as read again.

        A key names its kind first (``("alias", module, expr)``), so two kinds never share one.
        """
        entry = self._memo.get(key)
        if entry is None:
            read: list[str] = []
            self.readers.append(read.append)  # as ``reading`` does, without a context manager's cost
            try:
                value = compute()
            finally:
                self.readers.pop()
            entry = self._memo[key] = (value, tuple(dict.fromkeys(read)))
        elif entry[1] and self.readers:
            for name in entry[1]:
                self.note(name)
        return cast(_V, entry[0])


def strings_at(where: ModuleSource, line: int) -> list[tuple[int | None, str]]:
    """The string constants that start on ``line`` of a module, in order: (column, value).

    ``ast`` keeps a string exactly as written, lone surrogates included
    (``toolcall_mypy._source.surrogates``). The column is ``None`` unless the line is
    ASCII: only then do all of mypy's parsers give the same columns.
    """
    nodes: list[tuple[int, str]] = []
    for node in ast.walk(where.tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.lineno == line:
            nodes.append((node.col_offset, node.value))
    if not nodes:
        return []
    try:
        with open(where.path, "rb") as handle:
            lines = handle.read().splitlines()
    except OSError:
        lines = []
    ascii_line = line <= len(lines) and lines[line - 1].isascii()
    return [(column if ascii_line else None, value) for column, value in sorted(nodes)]
