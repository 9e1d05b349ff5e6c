"""The cache writer: each tool module's ``__toolcall__/<module>.json``, kept current.

One ``Store`` per plugin instance (so per mypy process: the coordinator and
each ``--num-workers`` worker have their own). It holds, per module, the
cache entries of the tools checked in this process, keyed by qualname and
ordered by line (declaration order).

When the module's file is written: with ``--cache-dir=/dev/null`` and under
dmypy mypy never asks ``report_config_data``, and no exit hook runs (mypy
exits with ``os._exit``), so the hooks themselves must leave the file
complete. With ``deferred`` (mypy 2.4+, which tells plugins when a module
has been checked, in every mode) a module being checked is written once,
by ``finish``, never half done; a tool checked again after that (dmypy
re-checks single functions when something they use changes) is written
through at once. Without it, every tool writes the file (write-through), and
the last one leaves it complete.

A module starts afresh on its first tool in this process, or on its first
tool after mypy parsed it again (dmypy re-parses edited files), so removed
or renamed tools leave the file. A module that mypy checked without any tool
loses its file (``finish``). Writes are atomic (``os.replace``), skipped when
the text is unchanged, and serialized per cache directory with ``flock``
where it exists, so parallel workers and concurrent mypy runs never tear or
interleave a file. Nothing here knows about mypy.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from toolcall import __version__, cache_format, ir

if sys.platform != "win32":
    import fcntl
else:  # pragma: no cover - atomic replace alone on Windows
    fcntl = None

__all__ = ["TOKEN", "Store"]

#: What the cache metadata of a tool module records besides its file's digest:
#: a new toolcall release, cache layout or IR version makes mypy check every
#: tool module again, which regenerates its file.
TOKEN: Final = f"toolcall {__version__}; cache format {cache_format.CACHE_FORMAT}; ir {ir.SCHEMA_VERSION}"


@dataclass
class _Module:
    cache_file: Path
    source_sha256: str
    #: qualname -> (line, cache entry)
    tools: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    #: mypy finished checking the module: a tool seen now is written at once
    finished: bool = False
    #: the file holds exactly ``tools`` (written, or found so, since the last change)
    current: bool = False


class Store:
    """The tool modules this process has checked, and their cache files."""

    def __init__(self, *, write: bool, deferred: bool, log: Callable[[str], None] | None = None) -> None:
        self._write_files = write
        self._deferred = deferred
        self._log = log
        self._modules: dict[str, _Module] = {}
        self._parsed: set[str] = set()  # parsed since their last tool: start afresh

    def parsed(self, module: str) -> None:
        """mypy parsed ``module`` (again): its next tool starts a fresh entry."""
        self._parsed.add(module)

    def tools(self, module: str) -> dict[str, str]:
        """The tools of ``module`` seen since it was last parsed: name -> qualname."""
        state = self._current(module)
        return {} if state is None else {entry["name"]: q for q, (_, entry) in state.tools.items()}

    def line_of(self, module: str, qualname: str) -> int | None:
        """The line of a tool seen in ``module``."""
        state = self._current(module)
        found = None if state is None else state.tools.get(qualname)
        return None if found is None else found[0]

    def put(self, module: str, path: str, qualname: str, line: int, entry: dict[str, Any]) -> None:
        """Record one tool's cache entry and rewrite the module's file."""
        state = self._current(module)
        if state is None:
            state = self._modules[module] = _Module(cache_format.cache_path(path), _source_sha256(path))
            self._parsed.discard(module)
        previous = state.tools.get(qualname)
        # A repeated hook (mypy defers and re-checks) keeps the tool's place.
        state.tools[qualname] = (line if previous is None else min(line, previous[0]), entry)
        state.current = False
        if state.finished or not self._deferred:
            self._write(module, state)

    def finish(self, module: str, path: str, *, may_delete: bool) -> None:
        """mypy finished checking ``module``: make its file current.

        With tools, the file holds them. Without any, a leftover file is stale
        and is deleted, if ``may_delete``.
        """
        state = self._current(module)
        if state is not None:
            self._write(module, state)
            state.finished = True
            return
        self._modules.pop(module, None)
        self._parsed.discard(module)
        if may_delete and self._write_files and _is_source(path):
            target = cache_format.cache_path(path)
            if target.exists():
                with _locked(target.parent):
                    removed = cache_format.remove(target)
                if removed and self._log is not None:
                    self._log(f"toolcall: removed {target} ({module} has no tools)")

    def stale_file(self, module: str, path: str) -> bool:
        """Whether ``module`` has a cache file but no tool seen since it was parsed."""
        return self._current(module) is None and _is_source(path) and cache_format.cache_path(path).exists()

    def token(self, path: str) -> list[str] | None:
        """``[TOKEN, digest of the module's cache file]``, or ``None`` when it has none."""
        if not self._write_files or not _is_source(path):
            return None
        try:
            data = cache_format.cache_path(path).read_bytes()
        except OSError:
            return None
        return [TOKEN, hashlib.sha256(data).hexdigest()]

    def _current(self, module: str) -> _Module | None:
        return None if module in self._parsed else self._modules.get(module)

    def _write(self, module: str, state: _Module) -> None:
        if not self._write_files or state.current:
            return  # mypy asks again after checking (report_config_data): nothing changed since
        ordered = sorted(state.tools.values(), key=lambda item: item[0])
        content = cache_format.module_content(module, state.source_sha256, [entry for _, entry in ordered])
        text = cache_format.dumps(content)
        with _locked(state.cache_file.parent):
            changed = cache_format.write_atomic(state.cache_file, text)
        state.current = True
        if changed and self._log is not None:
            self._log(f"toolcall: wrote {state.cache_file} ({len(ordered)} tools)")


def _is_source(path: str) -> bool:
    return path.endswith(".py")


def _source_sha256(path: str) -> str:
    try:
        return cache_format.source_sha256(Path(path).read_bytes())
    except OSError:
        return ""  # the runtime then treats the cache as stale, which it is


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (created if missing) while the block runs."""
    if fcntl is None:  # no fcntl on Windows
        yield  # type: ignore[unreachable, unused-ignore]
        return
    while True:
        directory.mkdir(parents=True, exist_ok=True)
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
