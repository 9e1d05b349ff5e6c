"""Modules written to a directory and imported for one test, then forgotten: off ``sys.path`` and ``sys.modules``."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from tests.corpus_gen import Corpus, write_corpus
from toolcall._declarations.tool import ToolDeclaration, declaration_of


@contextmanager
def written_module(directory: Path, name: str, source: str) -> Iterator[ModuleType]:
    """``source`` written as ``directory/name.py`` and imported; both undone on exit."""
    (directory / f"{name}.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(directory))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(directory))
        sys.modules.pop(name, None)


@contextmanager
def imported_corpus(root: Path, *, modules: int, seed: int) -> Iterator[Corpus]:
    """``write_corpus`` under ``root``, importable while in the block; its modules forgotten on exit."""
    written = write_corpus(root, modules=modules, seed=seed)
    sys.path.insert(0, str(root))
    try:
        yield written
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == written.package or m.startswith(f"{written.package}.")]:
            del sys.modules[name]


def tool_declarations(modules: Iterable[str]) -> list[ToolDeclaration]:
    """The declarations of the tools each module defines, as the module now holds them, in module order.

    From the modules themselves, not the registry: an earlier test may have written modules of the same
    names, whose tools the registry still lists.
    """
    found = []
    for name in modules:
        for value in vars(importlib.import_module(name)).values():
            declaration = declaration_of(value)
            if declaration is not None and declaration.module == name:  # not one imported from another module
                found.append(declaration)
    return found
