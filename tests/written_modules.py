"""A module written to a directory and imported for one test, then forgotten: off ``sys.path`` and ``sys.modules``."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType


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
