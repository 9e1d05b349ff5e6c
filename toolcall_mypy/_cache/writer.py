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
interleave a file. A tool whose IR the module's file (as found on the
module's first tool) rendered already is recorded without an entry: the
write takes the file's own (``reuse``), and a module whose every tool is so,
in the same order, from the same sources, leaves its file as it is.

Each tool names the modules its schema comes from (its own, and those of
its types), with their files; the file records each one's digests
(``file_format.source_record``), so the runtime can tell when any of
them changed. In a frozen run (``toolcall_mypy._cache.frozen``) the store writes
and deletes nothing, and tells the run's ``Frozen`` what it would do. Nothing
here knows about mypy.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcall._cache import file_format
from toolcall._cache.freshness import recorded_sha256, source_digest
from toolcall._findings import Finding
from toolcall_mypy._cache import reuse
from toolcall_mypy._cache.files import (
    SymlinkRefusedError,
    cache_file,
    installed,
    locked,
    remove_cache_file,
    write_cache_file,
)
from toolcall_mypy._cache.frozen import active_frozen
from toolcall_mypy._cache.tokens import Tokens

__all__ = ["Store"]


@dataclass(frozen=True)
class _Tool:
    line: int
    name: str
    checked: reuse.Checked
    #: ``None``: the previous file's entry, which rendered this same IR
    entry: dict[str, Any] | None


@dataclass
class _Module:
    cache_file: Path
    #: the file as found when the module started afresh, if it can be reused
    previous: reuse.Previous | None
    tools: dict[str, _Tool] = field(default_factory=dict)  # by qualname
    #: mypy finished checking the module: a tool seen now is written at once
    finished: bool = False
    #: the file holds exactly ``tools`` (written, or found so, since the last change)
    current: bool = False
    #: the file is still ``previous`` (this process has not written it)
    untouched: bool = True
    #: ``previous`` is the file as found: its clean records may be taken without analysis
    replays: bool = True
    #: the file as this process first found it (before mypy 2.4 a module's file is rewritten after each
    #: tool, and the module may start afresh in between): what ``Store.replay`` takes records from
    original: reuse.Previous | None = None

    def unchanged(self, ordered: list[tuple[str, _Tool]], sources: dict[str, Any], analysis: str) -> bool:
        """Whether the file, untouched, holds exactly these tools: each reused, in its order, same sources."""
        previous = self.previous
        return (
            previous is not None
            and self.untouched
            and all(tool.entry is None for _, tool in ordered)
            and previous.holds([(qualname, tool.checked) for qualname, tool in ordered], sources, analysis)
        )

    def written(self, previous: reuse.Previous | None) -> None:
        """The file now holds ``previous``: the tools' rendered entries are dropped for it (memory).

        Its records are not replayed: only a file as found on disk vouches for an analysis.
        """
        if previous is not None:
            previous.release(self.cache_file)
            self.previous = previous
            self.replays = False
            self.tools = {qualname: dataclasses.replace(tool, entry=None) for qualname, tool in self.tools.items()}

    def entry(self, qualname: str, tool: _Tool) -> dict[str, Any]:
        """The tool's entry: its own, or the previous file's with this run's sources."""
        if tool.entry is not None:
            return tool.entry
        previous_entry = self.previous.entry(qualname) if self.previous is not None else None
        if previous_entry is None and self.original is not None:  # a replayed record, from the file as first found
            previous_entry = self.original.entry(qualname)
        if previous_entry is None:  # ``recorded`` vouched for it: the file is not as it was read
            raise RuntimeError(f"toolcall: {self.cache_file} changed while mypy ran; run mypy again")
        if "refused" in previous_entry:
            return previous_entry  # a tool no schema describes has no sources
        return {**previous_entry, "sources": sorted(set(tool.checked.sources))}  # the key keeps its place


class Store:
    """The tool modules this process has checked, and their cache files."""

    def __init__(
        self,
        *,
        write: bool,
        deferred: bool,
        tokens: Tokens,
        settings: str = "",
        log: Callable[[str], None] | None = None,
    ) -> None:
        self._write_files = write
        self._tokens = tokens  # each cache file's head and each source's byte digest, read once a run
        self._settings = settings  # the digest of the plugin's settings (reuse.analysis_digest)
        self._deferred = deferred
        self._log = log
        self._modules: dict[str, _Module] = {}
        self._parsed: set[str] = set()  # parsed since their last tool: start afresh
        self._files: dict[str, str] = {}  # source module -> its file, as the tools named them
        self._records: dict[str, tuple[tuple[int, int], list[str | None]]] = {}  # file -> (stat, record)
        self._originals: dict[str, reuse.Previous | None] = {}  # module -> its file as first found (mypy < 2.4)
        self._frozen = active_frozen()  # a frozen run: record what would be written, write nothing

    def parsed(self, module: str) -> None:
        """mypy parsed ``module`` (again): its next tool starts a fresh entry."""
        self._parsed.add(module)

    def tools(self, module: str) -> dict[str, str]:
        """The tools of ``module`` seen since it was last parsed: name -> qualname."""
        state = self._current(module)
        return {} if state is None else {tool.name: q for q, tool in state.tools.items()}

    def line_of(self, module: str, qualname: str) -> int | None:
        """The line of a tool seen in ``module``."""
        state = self._current(module)
        tool = None if state is None else state.tools.get(qualname)
        return None if tool is None else tool.line

    def recorded(self, module: str, path: str, qualname: str, ir_sha256: str) -> tuple[Finding, ...] | None:
        """The strict findings the module's file records for this tool and IR, or ``None``: render it.

        Call it only for a tool that ``put`` records next: it starts the module afresh if need be.
        """
        previous = self._start(module, path).previous
        if previous is None or self._frozen is not None:  # a frozen run takes nothing from the file under check
            return None
        return previous.findings(qualname, ir_sha256)

    def replay(self, module: str, path: str, qualname: str) -> tuple[reuse.Checked, dict[str, str]] | None:
        """A tool's record to take without analysis, with each source module's file; ``None``: analyse it.

        That is when the module's file records the tool as clean, under this
        run's ``analysis_digest``, and every module the tool's schema comes
        from has its file in the ``sources`` table, with the bytes the table
        records: the analysis would read the same sources and give the same
        record. Call it only for a tool that ``put`` records next.
        """
        state = self._start(module, path)
        previous = state.original if state.replays and self._frozen is None else None
        checked = None if previous is None else previous.replayable(qualname, reuse.analysis_digest(self._settings))
        if previous is None or checked is None:
            return None
        directory = os.path.dirname(os.path.dirname(state.cache_file))
        files: dict[str, str] = {}
        for name in checked.sources:
            relative, recorded = previous.files.get(name), recorded_sha256(previous.sources.get(name))
            if type(relative) is not str or recorded is None:
                return None  # an installed module: its file is not recorded
            file = _joined(directory, relative)
            if recorded != self._sha256(file):
                return None
            files[name] = file
        return checked, files

    def put(
        self,
        module: str,
        path: str,
        line: int,
        named: tuple[str, str],
        checked: reuse.Checked,
        entry: dict[str, Any] | None,
        files: dict[str, str],
    ) -> None:
        """Record one tool, ``named`` ``(name, qualname)`` (``entry`` ``None``: as ``recorded`` found it).

        ``files`` maps each module of ``checked.sources`` to its file. The
        module's file is rewritten (at once, or when mypy has checked it).
        """
        state = self._start(module, path)
        name, qualname = named
        earlier = state.tools.get(qualname)
        self._files.update(files)
        # A repeated hook (mypy defers and re-checks) keeps the tool's place.
        state.tools[qualname] = _Tool(line if earlier is None else min(line, earlier.line), name, checked, entry)
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
            target = Path(cache_file(path))
            if self._frozen is not None:
                self._frozen.delete(str(target), module, gone=False)
            elif target.exists():
                with locked(str(target.parent)):
                    try:
                        removed = remove_cache_file(target)
                    except SymlinkRefusedError as refused:  # not ours to remove: it stays
                        removed = False
                        if self._log is not None:
                            self._log(f"toolcall: left {target} ({refused})")
                if removed and self._log is not None:
                    self._log(f"toolcall: removed {target} ({module} has no tools)")

    def stale_file(self, module: str, path: str) -> bool:
        """Whether ``module`` has a cache file but no tool seen since it was parsed."""
        return self._current(module) is None and _is_source(path) and os.path.exists(cache_file(path))

    def _current(self, module: str) -> _Module | None:
        return None if module in self._parsed else self._modules.get(module)

    def _start(self, module: str, path: str) -> _Module:
        """The module's state, started afresh (reading its file as it is now) if need be."""
        state = self._current(module)
        if state is None:
            target = Path(cache_file(path))
            previous = None
            if self._write_files and not self._deferred:
                # Before mypy 2.4 the file is rewritten after each tool: keep the bytes it had.
                previous = reuse.read_previous(target, module)
            elif self._write_files:
                head = self._tokens.head(cache_file(path))  # the key token() reads it by: read once a run
                previous = reuse.previous_from_head(head[1], module) if head is not None else None
                if previous is not None:
                    previous.release(target)  # written only once the module is checked: read entries then
            first = self._originals.setdefault(module, previous) if not self._deferred else previous
            state = self._modules[module] = _Module(target, previous, original=first)
            self._parsed.discard(module)
        return state

    def _write(self, module: str, state: _Module) -> None:
        if not self._write_files or state.current:
            return  # mypy asks again after checking (report_config_data): nothing changed since
        ordered = sorted(state.tools.items(), key=lambda item: item[1].line)
        # A frozen run digests every source afresh: a record in the file under check is no evidence.
        recorded = state.previous.sources if state.previous is not None and self._frozen is None else {}
        sources = self._sources((tool.checked.sources for _, tool in ordered), recorded)
        files = self._relative_files(sources, state.cache_file.parent.parent)
        sources = {name: [*record, files.get(name)] for name, record in sources.items()}
        analysis = reuse.analysis_digest(self._settings)
        if state.unchanged(ordered, sources, analysis):
            state.current = True
            if self._frozen is not None:
                self._frozen.keep(str(state.cache_file))
            if self._log is not None:
                self._log(f"toolcall: kept {state.cache_file} ({len(ordered)} tools, each as checked before)")
            return
        entries = [state.entry(qualname, tool) for qualname, tool in ordered]
        records = [(qualname, tool.checked) for qualname, tool in ordered]
        checked = reuse.checked_block(records, sorted(sources), analysis)
        text = file_format.dumps(file_format.module_content(module, sources, entries, checked))
        if self._frozen is not None:
            # The file stays as found, so ``previous`` stays what it holds (no ``written``).
            self._frozen.write(str(state.cache_file), module, text)
            state.current = True
            return
        with locked(str(state.cache_file.parent)):
            try:
                changed = write_cache_file(state.cache_file, text)
            except SymlinkRefusedError as refused:  # not ours to write: the file stays as it is
                state.current = True  # tried again only once a tool changes
                if self._log is not None:
                    self._log(f"toolcall: did not write {state.cache_file} ({refused})")
                return
        state.current = True  # only once written: a failed write is tried again
        state.untouched = False
        if self._deferred:  # the module is checked: no tool of it comes before mypy parses it again
            state.written(reuse.previous_of(text.encode(), module))
        if changed and self._log is not None:
            self._log(f"toolcall: wrote {state.cache_file} ({len(ordered)} tools)")

    def _sources(self, modules: Iterable[tuple[str, ...]], recorded: dict[str, Any]) -> dict[str, list[str | None]]:
        """The ``sources`` table of a file: each module its tools name, with its file's digests, sorted.

        A module whose bytes have the digest the file's previous ``sources``
        records keeps that record: its token digest follows from the same
        bytes, and tokenizing every shared module again was a third of a
        cold run over committed files.
        """
        names = sorted({name for names in modules for name in names})
        return {
            name: self._kept(recorded.get(name), self._files[name]) or self._record(self._files[name]) for name in names
        }

    def _kept(self, recorded: Any, path: str) -> list[str | None] | None:
        """``recorded`` when it is a well-formed record of the file's bytes as they are now."""
        sha256 = recorded_sha256(recorded)  # a record as the file holds it: [sha256, tokens, file]
        if sha256 is None or (recorded[1] is not None and type(recorded[1]) is not str):
            return None
        return [sha256, recorded[1]] if sha256 == self._sha256(path) else None

    def _sha256(self, path: str) -> str | None:
        """A file's byte digest: from its record when one was made for its stat, else read once a run."""
        try:
            stat = os.stat(path)
        except OSError:
            return None
        record = self._records.get(path)
        if record is not None and record[0] == (stat.st_mtime_ns, stat.st_size):
            return record[1][0]
        return self._tokens.sha256(path)

    def _record(self, path: str) -> list[str | None]:
        """A file's two digests, read again only when its size or mtime moved (dmypy sees edits).

        An unreadable file has a record no source matches: the runtime takes it as changed.
        """
        try:
            stat = os.stat(path)
            key = (stat.st_mtime_ns, stat.st_size)
            entry = self._records.get(path)
            if entry is None or entry[0] != key:
                digest = source_digest(Path(path).read_bytes())
                entry = self._records[path] = (key, [digest.sha256, digest.tokens])
        except OSError:
            return ["", None]
        return entry[1]

    def _relative_files(self, sources: dict[str, Any], directory: Path) -> dict[str, str]:
        """The file of each source module, relative to the tool module's directory, but installed ones.

        An installed module's path says where this machine keeps its
        packages, which a committed file must not; mypy rechecks the tool
        module when an installed module's interface changes, and the runtime
        checks its digests in any case.
        """
        return {name: _relative(self._files[name], directory) for name in sources if not installed(self._files[name])}


@functools.cache  # each (tool module directory, recorded file) pair, once per run: most tools share a few
def _joined(directory: str, relative: str) -> str:
    """A recorded source file, relative to a tool module's directory, as a path."""
    return os.path.normpath(os.path.join(directory, relative))


@functools.cache  # each (source file, tool module directory) pair, once per run
def _relative(file: str, directory: Path) -> str:
    """``file`` relative to the module's directory, as the ``checked`` record keeps it (``/``-separated)."""
    return Path(os.path.relpath(os.path.abspath(file), os.path.abspath(directory))).as_posix()


def _is_source(path: str) -> bool:
    return path.endswith(".py")
