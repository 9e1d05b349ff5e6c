"""The plugin's cache files on disk: where each one is, which are ours, their lock, and the orphans.

Everything here runs on warm runs too, for every module mypy reports on,
so it imports neither the IR nor the cache format: paths are strings, and
a file is only read or removed by the callers that need its content.
In a frozen run (``toolcall_mypy._cache.frozen``) the orphans are recorded, not removed.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterator

from toolcall._cache.constants import CACHE_DIR

if sys.platform != "win32":
    import fcntl
else:  # pragma: no cover - atomic replace alone on Windows
    fcntl = None

__all__ = ["Orphans", "cache_file", "installed", "locked"]


@functools.cache  # a run asks for each module's file several times (thousands of modules)
def cache_file(path: str) -> str:
    """The cache file of the module whose source is ``path`` (``pkg/tools.py`` → ``pkg/__toolcall__/tools.json``)."""
    directory, name = os.path.split(path)
    return os.path.join(directory, CACHE_DIR, f"{os.path.splitext(name)[0]}.json")


def installed(path: str) -> bool:
    """Whether ``path`` is an installed package's file (under ``site-packages``): never ours to write."""
    if "-packages" not in path:  # most paths, asked for every module on every run
        return False
    parts = path.replace("\\", "/").split("/")
    return "site-packages" in parts or "dist-packages" in parts


@contextlib.contextmanager
def locked(directory: str) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (created if missing) while the block runs."""
    if fcntl is None:  # no fcntl on Windows
        yield  # type: ignore[unreachable, unused-ignore]
        return
    while True:
        os.makedirs(directory, exist_ok=True)
        fd = os.open(directory, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(directory))
            except FileNotFoundError:
                same = False  # removed while we waited: lock the new one
            if same:
                yield
                return
        finally:
            os.close(fd)  # releases the lock


class Orphans:
    """Removes the cache files whose module file is gone, once per directory per run."""

    def __init__(self, log: Callable[[str], None] | None = None) -> None:
        self._log = log
        self._swept: set[str] = set()

    def sweep(self, path: str, handles: Callable[[str], bool], module: str) -> None:
        """Remove the orphaned cache files of ``module``'s directory; ``handles`` says which modules are ours."""
        directory = os.path.dirname(path)
        if directory in self._swept:
            return
        self._swept.add(directory)
        package = module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]
        for stem in _orphans(directory):
            name = package if stem == "__init__" else f"{package}.{stem}" if package else stem
            if handles(name):
                self._remove(os.path.join(directory, CACHE_DIR, f"{stem}.json"), name)

    def _remove(self, orphan: str, module: str) -> None:
        from toolcall_mypy._cache.frozen import active_frozen

        frozen = active_frozen()
        if frozen is not None:
            frozen.delete(orphan, module, gone=True)
            return
        from pathlib import Path

        from toolcall._cache.file_format import remove

        with locked(os.path.dirname(orphan)):
            removed = remove(Path(orphan))
        if removed and self._log is not None:
            self._log(f"toolcall: removed {orphan} ({module} no longer exists)")


def _orphans(directory: str) -> list[str]:
    """The stems of the cache files in ``directory``'s cache directory whose module file is gone."""
    directory = directory or os.curdir  # a module given as a bare file name lives in the working directory
    try:
        cached = os.listdir(os.path.join(directory, CACHE_DIR))
    except OSError:
        return []
    present = set(os.listdir(directory))
    return [
        name[:-5]
        for name in sorted(cached)
        if name.endswith(".json") and not name.startswith(".") and f"{name[:-5]}.py" not in present
    ]
