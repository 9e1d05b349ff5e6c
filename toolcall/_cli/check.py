"""``toolcall check``: the mypy plugin's findings for any project, through mypy's API, in this process.

mypy reads the project's own configuration as it would on its own (found
from the current directory up to the repository root), and then the run
changes what it must: the plugin is added to the project's plugins (mypy
has no command-line switch for plugins, so ``mypy.api.run`` cannot do it;
this runs ``process_options`` and ``build.build``, the two steps that
``mypy.api.run`` runs), mypy's cache goes to ``.toolcall_cache/mypy`` (the
project's ``.mypy_cache`` is never touched), reports and parallel workers
are off, and errors come back as JSON lines. Only ``toolcall-*`` errors are
reported; mypy's own type errors do not change the exit status. The
project's ``disable_error_code`` and ``enable_error_code`` (``toolcall-doc``
is off unless enabled), per-module sections and ignore comments apply to
the plugin's codes as in a plain mypy run, and on every supported mypy:
the codes are registered before mypy reads the configuration.

``[tool.toolcall]`` is read from mypy's config file; a project without one
(a pyright project) gets the nearest ``pyproject.toml`` instead, as the
file mypy's plugin loader and the plugin's settings are read from.

``--frozen`` writes no schema cache file: the plugin's writers record what
they would write or delete (``toolcall_mypy._cache.frozen.frozen_run``), and
each file that would change is reported as a ``toolcall-frozen`` finding.
A frozen run takes nothing from the files under check: every tool is
analysed and its entry derived afresh (no record replayed, no recorded
finding or source digest reused), and mypy's cache for frozen runs is a
directory of its own, ``.toolcall_cache/frozen``, which only frozen runs
fill. A module mypy does not check again there is current by construction
(its cache metadata records its cache file's digest, as a frozen run
derived it, and any edit to the file changes that digest); after a frozen
run that found a difference, that cache is removed, because it then records
the digests of files that are not current and the next run must check those
modules again.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib.util
import io
import json
import os
import shutil
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from toolcall._cli import console
from toolcall._cli.check_output import FORMATS, Finding, print_findings

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy.fscache import FileSystemCache
    from mypy.modulefinder import BuildSource
    from mypy.options import Options

    from toolcall_mypy._cache.frozen import Change

    _Tick = Callable[[str | None], None]

__all__ = ["CACHE_DIR", "FROZEN_CACHE_DIR", "FROZEN_CODE", "add_parser", "run"]

#: mypy's cache for these runs, relative to the current directory: never the project's own ``.mypy_cache``.
CACHE_DIR: Final = os.path.join(".toolcall_cache", "mypy")
#: mypy's cache for ``--frozen`` runs: only they fill it, so no other run's record vouches for a file.
FROZEN_CACHE_DIR: Final = os.path.join(".toolcall_cache", "frozen")
#: The code of a ``--frozen`` difference (not a mypy error code: it is this command's own).
FROZEN_CODE: Final = "toolcall-frozen"
_PLUGIN: Final = "toolcall_mypy"
_PREFIX: Final = "toolcall-"
_RECURSION_LIMIT: Final = 2**14  # what mypy's own command line sets: its passes recurse deeply


class _Stop(Exception):
    """mypy could not check the project; ``lines`` say why (mypy's own words)."""

    def __init__(self, *lines: str) -> None:
        super().__init__(*lines)
        self.lines = lines


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``check`` to the command line."""
    parser = commands.add_parser(
        "check",
        help="report the mypy plugin's findings (no mypy configuration needed) and write the schema caches",
        description=(
            "Run mypy with toolcall's plugin on the project, in this process, and report only its toolcall-* "
            "findings; write the schema caches. mypy's cache goes to .toolcall_cache/mypy. "
            "Exit 0: no errors (notes are shown); 1: errors (or, with --frozen, a cache that would change); "
            "2: usage error, or mypy could not check the code."
        ),
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="files or directories to check (default: mypy's files setting, else the packages and modules "
        "of the current directory and of src/)",
    )
    parser.add_argument(
        "--frozen",
        action="store_true",
        help="write no cache file; exit 1, naming each one, if a cache is missing, stale or would be deleted",
    )
    parser.add_argument("--format", choices=FORMATS, default="text", help="how findings are printed (default: text)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the project; print the findings on stdout; return the exit status."""
    paths: list[str] = args.paths
    for path in paths:
        if not os.path.exists(path):
            console.error(f"{path}: no such file or directory")
            return 2
    if importlib.util.find_spec("mypy") is None:
        console.error("toolcall check runs mypy, which is not installed here: pip install 'toolcall[mypy]'")
        return 2
    try:
        findings = _check(paths, frozen=args.frozen)
    except _Stop as stop:
        for line in stop.lines:
            print(line, file=sys.stderr)
        return 2
    print_findings(sorted(findings, key=Finding.key), args.format)
    return 1 if any(finding.severity == "error" for finding in findings) else 0


def _check(paths: list[str], *, frozen: bool) -> list[Finding]:
    """Run mypy with the plugin; the plugin's findings, and with ``frozen`` each file that would change."""
    from mypy.fscache import FileSystemCache

    from toolcall_mypy._cache.frozen import frozen_run

    fscache = FileSystemCache()
    sources, options = _options(paths, fscache, FROZEN_CACHE_DIR if frozen else CACHE_DIR)
    changes: list[Change] | None = None
    with frozen_run() if frozen else contextlib.nullcontext() as recorder:
        try:
            messages = _build(sources, options, fscache)
            changes = recorder.changes() if recorder is not None else []
        finally:
            if recorder is not None and changes != []:
                # mypy's cache records each checked module's cache file as it is, here not as it would be:
                # it must not vouch for them, so the next run checks them again.
                shutil.rmtree(FROZEN_CACHE_DIR, ignore_errors=True)
    return [*_findings(messages), *map(_difference, changes or ())]


def _options(paths: list[str], fscache: FileSystemCache, cache_dir: str) -> tuple[list[BuildSource], Options]:
    """mypy's sources and options as the project configures them, adjusted for this run."""
    from mypy.main import process_options

    # The plugin's codes, registered before mypy reads the configuration: its enable_error_code and
    # disable_error_code then name them on every supported mypy (mypy itself loads plugins later).
    import toolcall_mypy._codes  # noqa: F401

    out, err = io.StringIO(), io.StringIO()
    try:
        sources, options = process_options(
            ["--cache-dir", cache_dir, "--", *paths], stdout=out, stderr=err, require_targets=False, fscache=fscache
        )
    except SystemExit:
        raise _Stop(*_mypy_lines(out, err), "toolcall: error: mypy cannot read the project's configuration") from None
    for line in _mypy_lines(out, err):  # warnings about the configuration, as mypy shows them
        print(line, file=sys.stderr)
    _adjust(options)
    if not sources and not paths:
        sources = _default_sources(options, fscache)
    return sources, options


def _adjust(options: Options) -> None:
    """What this run needs, whatever the project configures."""
    if not any(plugin.partition(":")[0] == _PLUGIN for plugin in options.plugins):
        options.plugins = [*options.plugins, _PLUGIN]
    if not options.config_file:
        # mypy loads plugins only with a config file, and the plugin reads [tool.toolcall] from it.
        options.config_file = _settings_file()
    options.output = "json"  # one error a line, with its code and column, whatever the text options say
    options.pretty = False
    options.report_dirs = {}  # a report the project configures is for its own mypy runs
    if hasattr(options, "num_workers"):  # mypy 2.0+: the frozen record and the progress live in this process
        options.num_workers = 0


def _settings_file() -> str:
    """The project's ``pyproject.toml`` (this directory or above, up to the repository root), or an empty file."""
    directory = os.path.abspath(os.getcwd())
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory or any(os.path.exists(os.path.join(directory, vcs)) for vcs in (".git", ".hg")):
            return os.devnull
        directory = parent


def _default_sources(options: Options, fscache: FileSystemCache) -> list[BuildSource]:
    """The packages and modules of the current directory and of ``src/``, when neither PATH nor mypy names any."""
    from mypy.find_sources import InvalidSourceList, create_source_list

    targets = [
        os.path.join(base, name) if base else name
        for base in ("", "src")
        if os.path.isdir(base or ".")
        for name in sorted(os.listdir(base or "."))
        if not name.startswith(".") and _is_target(os.path.join(base, name))
    ]
    if not targets:
        raise _Stop("toolcall: error: nothing to check here: name files or directories, or set mypy's files setting")
    try:
        return create_source_list(targets, options, fscache)
    except InvalidSourceList as exc:
        raise _Stop(f"toolcall: error: {exc}") from None


def _is_target(path: str) -> bool:
    """A package (a directory with ``__init__.py``) or a module."""
    if os.path.isdir(path):
        return os.path.isfile(os.path.join(path, "__init__.py"))
    return path.endswith(".py") and os.path.isfile(path)


def _build(sources: list[BuildSource], options: Options, fscache: FileSystemCache) -> list[str]:
    """Run mypy; its messages (JSON lines). A blocking error stops the check (``_Stop``)."""
    from mypy import build
    from mypy.errors import CompileError

    sys.setrecursionlimit(max(sys.getrecursionlimit(), _RECURSION_LIMIT))
    messages: list[str] = []
    last: list[str] = []  # what mypy flushed without a file: a blocking error's messages
    out = io.StringIO()  # what mypy prints on its stdout (plugin load errors): stderr here, stdout is ours
    with _progress(sources) as tick:

        def flush(filename: str | None, new: list[str], serious: bool) -> None:
            messages.extend(new)
            if filename is None:
                last.extend(new)
            tick(filename)

        try:
            result = build.build(sources, options, None, flush, fscache, out, sys.stderr)
        except CompileError:
            raise _Stop(*_mypy_lines(out), *map(_text_line, last), "toolcall: error: mypy stopped") from None
        except SystemExit:  # mypy reported an internal error on stderr
            raise _Stop(*_mypy_lines(out), "toolcall: error: mypy stopped with an internal error") from None
    for line in _mypy_lines(out):
        print(line, file=sys.stderr)
    close = getattr(result.manager.metastore, "close", None)  # mypy 2.x: commits an SQLite cache
    if close is not None:
        close()
    # mypy's command line exits without freeing its objects; collecting them at the interpreter's exit
    # took a third of a cold run. Frozen, the collector leaves them: the command ends right after (a
    # longer-lived process that calls run() keeps them, as one mypy run per process is mypy's own way).
    gc.freeze()
    return messages


@contextlib.contextmanager
def _progress(sources: list[BuildSource]) -> Iterator[_Tick]:
    """A counter of the checked source files on stderr, only when stderr is a terminal.

    mypy calls back once a module is checked; a module its cache has
    current is not counted, so a warm run may end before the counter does.
    """
    if not console.is_terminal():
        yield lambda filename: None
        return
    pending = {os.path.abspath(source.path) for source in sources if source.path}
    total, done = len(pending), 0

    def tick(filename: str | None) -> None:
        nonlocal done
        if filename is not None and os.path.abspath(filename) in pending:
            pending.discard(os.path.abspath(filename))
            done += 1
            console.counter(f"checking {total} files: {done} done")

    console.counter(f"checking {total} files")
    try:
        yield tick
    finally:
        console.counter("")


def _findings(messages: list[str]) -> list[Finding]:
    """The plugin's errors and notes among mypy's JSON lines, each once."""
    findings: dict[Finding, None] = {}
    for message in messages:
        error = _decoded(message)
        severity = None if error is None else error.get("severity")
        if error is None or severity not in ("error", "note"):
            continue
        code, line, column = error.get("code"), error.get("line"), error.get("column")
        if not isinstance(code, str) or not code.startswith(_PREFIX) or not isinstance(line, int):
            continue
        column = column + 1 if isinstance(column, int) and column >= 0 else None  # mypy counts from 0
        where = (_relative(str(error.get("file"))), line, column)
        findings[Finding(*where, code, str(error.get("message")), str(severity))] = None
    return list(findings)


def _decoded(message: str) -> dict[str, object] | None:
    try:
        error = json.loads(message)
    except ValueError:  # a note mypy flushes as text (unused config sections)
        return None
    return error if isinstance(error, dict) else None


def _text_line(message: str) -> str:
    """One of mypy's JSON lines as mypy's text, for stderr."""
    error = _decoded(message)
    if error is None:
        return message
    where = f"{_relative(str(error.get('file')))}:{error.get('line')}"
    code = f"  [{error['code']}]" if error.get("code") else ""
    return f"{where}: {error.get('severity')}: {error.get('message')}{code}"


def _relative(path: str) -> str:
    """``path`` relative to the current directory when it is below it (mypy may show absolute paths)."""
    if not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    return path if relative.startswith(os.pardir) else relative


def _difference(change: Change) -> Finding:
    """A ``--frozen`` difference as a finding about the cache file."""
    module = change.module
    if change.kind == "missing":
        message = f"the schema cache of {module} is missing: run toolcall check and commit it"
    elif change.kind == "stale":
        message = f"the schema cache of {module} is out of date: run toolcall check and commit the change"
    elif change.gone:
        message = f"{module} no longer exists: run toolcall check to delete its schema cache, and commit that"
    else:
        message = f"{module} has no tools: run toolcall check to delete its schema cache, and commit that"
    return Finding(_relative(change.path), None, None, FROZEN_CODE, message)


def _mypy_lines(*streams: io.StringIO) -> list[str]:
    """What mypy printed, one message a line, without argparse's usage text."""
    lines, usage = [], False
    for stream in streams:
        for line in stream.getvalue().splitlines():
            usage = line.startswith("usage:") or (usage and line.startswith(" "))
            if line.strip() and not usage:
                lines.append(line)
    return lines
