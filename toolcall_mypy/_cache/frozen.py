"""A frozen run (``toolcall check --frozen``): the cache writers record what they would do, and do nothing.

While ``frozen_run()`` is active in this process, ``Store`` and ``Orphans``
tell its ``Frozen`` each text they would write and each file they would
delete; the command compares that with the files at the end
(``Frozen.changes``). mypy makes the plugin instance, so the recorder is
found here, not passed in.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

__all__ = ["Change", "Frozen", "active_frozen", "frozen_run"]

_active: Frozen | None = None  # the frozen run in progress in this process, if any


@dataclass(frozen=True)
class Change:
    """A cache file a frozen run would write or delete: ``kind`` is ``missing``, ``stale`` or ``deleted``.

    ``gone``: (deleted) the module no longer exists; otherwise it has no tools.
    """

    path: str
    module: str
    kind: Literal["missing", "stale", "deleted"]
    gone: bool = False


class Frozen:
    """What a frozen run would do to each cache file: write a text, keep it as it is, or delete it.

    The last word about a file wins: before mypy 2.4 a module's file is
    written after each of its tools, and only the last text is the module's.
    """

    def __init__(self) -> None:
        self._final: dict[str, Change | str | None] = {}  # path -> its text, a deletion, or None: kept
        self._modules: dict[str, str] = {}  # path -> its module

    def write(self, path: str, module: str, text: str) -> None:
        """The module's file would be ``text``."""
        self._final[os.path.abspath(path)] = text
        self._modules[os.path.abspath(path)] = module

    def keep(self, path: str) -> None:
        """The module's file would be left as it is."""
        self._final[os.path.abspath(path)] = None

    def delete(self, path: str, module: str, *, gone: bool) -> None:
        """The file would be deleted: its module is ``gone``, or has no tools."""
        path = os.path.abspath(path)
        self._final[path] = Change(path, module, "deleted", gone)

    def changes(self) -> list[Change]:
        """Each file the run would have written or deleted, that the disk does not hold so now, by path."""
        changes = []
        for path, final in sorted(self._final.items()):
            if isinstance(final, Change):
                if os.path.lexists(path):
                    changes.append(final)
            elif final is not None:
                kind = _differs(path, final)
                if kind is not None:
                    changes.append(Change(path, self._modules[path], kind))
        return changes


@contextlib.contextmanager
def frozen_run() -> Iterator[Frozen]:
    """Make the writers of this process record instead of writing, while the block runs (one run at a time)."""
    global _active
    if _active is not None:
        raise RuntimeError("a frozen run is already in progress in this process")
    _active = Frozen()
    try:
        yield _active
    finally:
        _active = None


def active_frozen() -> Frozen | None:
    """The frozen run in progress, or ``None``: write for real."""
    return _active


def _differs(path: str, text: str) -> Literal["missing", "stale"] | None:
    """``missing`` or ``stale`` when the file at ``path`` does not hold ``text``, else ``None``."""
    try:
        with open(path, encoding="utf-8") as handle:  # read as files.write_cache_file compares
            same = handle.read() == text
    except FileNotFoundError:
        return "missing"
    except (OSError, UnicodeDecodeError):
        same = False
    return None if same else "stale"
