"""The runtime side of the schema cache: find a tool's entry, serve it only while it is current.

On a tool module's first use, its cache file (``toolcall._cache.file_format``) is
read once, through ``importlib.resources`` so it works from a wheel or a
zip. Before anything from it is served, the file must be a regular file of
bounded size, UTF-8, sealed (``content_sha256`` matches its text: a hand
edit voids it), of this format and IR version, and of the right shape in
every part (``toolcall._cache.shapes``). Then an entry is served while
every source module it names is unchanged (``toolcall._cache.freshness``:
the recorded byte digest, else the layout-free token digest, so a comment
keeps it current) and its signature fingerprint matches the live function.
A served entry comes with the findings introspecting the tool would warn
(the plugin recorded them), for the caller to warn as introspection does.

Anything else is not served and never raises but in ``require`` mode: a
missing file is the dev loop and is introspected quietly (but under
``python -OO``, where descriptions are lost); a stale, corrupt or tampered
file, or a tool the plugin could not describe, is introspected with one
``ToolcallWarning`` per process (``toolcall._cache.report``).

``TOOLCALL_CACHE`` changes this: ``require`` raises ``RuntimeError`` where
an entry cannot be served (production, where introspection is a
deployment mistake); ``off`` ignores caches.
"""

from __future__ import annotations

import json
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any, Final

from toolcall import _ir as ir
from toolcall._cache import file_format
from toolcall._cache.constants import CACHE_FORMAT, IR_VERSION, MalformedCacheError
from toolcall._cache.mode import cache_mode
from toolcall._cache.problem import Problem
from toolcall._cache.reading import MAX_FILE_BYTES, read_file, read_resource
from toolcall._cache.refs import resolve_refs
from toolcall._cache.shapes import CachedEntry, SourceRecord, check_entries, check_sources
from toolcall._exceptions import CacheRequiredError
from toolcall._findings import Finding
from toolcall._once import OnceMap
from toolcall._records import Record, record, set_field

if TYPE_CHECKING:
    from toolcall._declarations.tool import ToolDeclaration

__all__ = ["MAX_FILE_BYTES", "CachedTool", "cache_entry", "live_fingerprint"]

_CO_VARKEYWORDS: Final = 0x08


class _ModuleCache:
    """A module's cache file as read: its entries and the source modules changed since, or why it is unusable."""

    __slots__ = ("changed", "entries", "problem")

    def __init__(
        self,
        entries: dict[str, CachedEntry] | None = None,
        changed: frozenset[str] = frozenset(),
        problem: Problem | None = None,
    ) -> None:
        self.entries = entries or {}
        self.changed = changed
        self.problem = problem


#: Module name -> its cache file as read and checked, once per process (modules are read in parallel).
_MODULES: OnceMap[str, _ModuleCache] = OnceMap()
# (source module, its record) -> unchanged since then; per record, as two files may record two states of one
# module. Two threads may digest one file at once: both get the same answer, so no lock is needed.
_SOURCES: dict[tuple[str, SourceRecord], bool] = {}


@record(frozen=True, slots=True)
class CachedTool(Record):
    """A tool as its current cache entry gives it: the IR, the classes it names (resolved, checked), its findings.

    ``findings`` are what introspecting the tool warns, in the same order and words.
    """

    tool: ir.Tool
    classes: dict[str, Any]
    findings: tuple[Finding, ...] = ()

    def __init__(self, tool: ir.Tool, classes: dict[str, Any], findings: tuple[Finding, ...] = ()) -> None:
        set_field(self, "tool", tool)
        set_field(self, "classes", classes)
        set_field(self, "findings", findings)


def cache_entry(declaration: ToolDeclaration) -> CachedTool | None:
    """The tool from its current cache entry, or ``None`` to introspect it (``RuntimeError`` under ``require``)."""
    mode = cache_mode()
    if mode == "off" or "<locals>" in declaration.qualname:
        return None  # a tool made inside a function is never in a module's cache
    entry, problem = _entry(declaration)
    if entry is not None:
        assert entry.tool is not None
        try:  # the cache chooses no code to run: each name must be a class of the kind it declares
            return CachedTool(entry.tool, resolve_refs(entry.tool, declaration.module), entry.findings)
        except MalformedCacheError as reason:
            problem = Problem("corrupt", f"its schema cache is unusable: {reason}")
    assert problem is not None
    from toolcall._cache import report  # only a tool that is not served needs the report

    if mode == "require":
        raise CacheRequiredError(report.required_text(declaration.module, declaration.name, problem))
    if problem.kind != "missing" or sys.flags.optimize >= 2:  # a missing file is the dev loop, but -OO loses text
        report.warn_once(declaration.module, problem, _problems_of_others)
    return None


def _entry(declaration: ToolDeclaration) -> tuple[CachedEntry | None, Problem | None]:
    """The tool's entry when it can be served, else why not."""
    module = _module_cache(declaration.module)
    if module.problem is not None:
        return None, module.problem
    entry = module.entries.get(declaration.qualname)
    if entry is None:
        return None, Problem("stale", f"the schema cache has no entry for tool {declaration.name!r}")
    if entry.refused is not None:
        text = f"the mypy plugin could not describe tool {declaration.name!r} ({entry.refused})"
        return None, Problem("refused", text)
    if entry.name != declaration.name or not _same_signature(entry, declaration):
        return None, Problem("stale", f"the signature of tool {declaration.name!r} changed")
    changed = sorted(module.changed.intersection(entry.sources))
    if changed:
        return None, Problem("stale", f"{', '.join(changed)} changed", tuple(changed))
    return entry, None


def _problems_of_others() -> dict[str, Problem]:
    """The first problem of every other module with tools loaded so far, for one warning naming them all."""
    from toolcall._declarations.tool import module_tools, registered_modules

    problems: dict[str, Problem] = {}
    for name in registered_modules():
        for declaration in module_tools(name):
            if "<locals>" in declaration.qualname:
                continue
            problem = _entry(declaration)[1]
            if problem is not None and (problem.kind != "missing" or sys.flags.optimize >= 2):
                problems.setdefault(name, problem)
    return problems


def _module_cache(name: str) -> _ModuleCache:
    return _MODULES.get(name, _read_module_cache)


def _read_module_cache(name: str) -> _ModuleCache:
    module = sys.modules.get(name)
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None)
    missing = _ModuleCache(problem=Problem("missing", f"no schema cache for module {name!r}"))
    if not isinstance(origin, str) or not origin.endswith(".py"):
        return missing
    try:
        data = _read_resource(name, spec, Path(origin))
        return missing if data is None else _parsed(data, name)
    except MalformedCacheError as problem:
        return _ModuleCache(problem=Problem("corrupt", f"its schema cache is unusable: {problem}"))


def _read_resource(name: str, spec: Any, origin: Path) -> bytes | None:
    """The cache file's bytes, found next to the module (also inside a wheel or zip); ``None``: there is none."""
    try:
        return _cache_bytes(name, spec, origin)
    except MalformedCacheError:
        raise
    except Exception as exc:  # an importer's reader may raise anything: zipfile's BadZipFile, zlib.error, EOFError
        raise MalformedCacheError(f"it cannot be read ({type(exc).__name__})") from None


def _cache_bytes(name: str, spec: Any, origin: Path) -> bytes | None:
    package = name if origin.stem == "__init__" else spec.parent  # whose resources hold the cache
    if isinstance(spec.loader, SourceFileLoader) or not package:
        # A file on disk, or a top-level module: the cache is beside it, where the plugin wrote it, whatever
        # the package's path says (and importlib.resources, a millisecond to import, is not needed).
        return read_file(file_format.cache_path(origin))
    from importlib import resources

    # The package itself, not its name: ``files(name)`` imports it, and so waits while another thread
    # runs the package's ``__init__``, which may be waiting for this very tool (a deadlock).
    anchor = sys.modules.get(package, package)
    target = resources.files(anchor).joinpath(file_format.CACHE_DIR).joinpath(f"{origin.stem}.json")
    return read_file(target) if isinstance(target, Path) else read_resource(target)


def _parsed(data: bytes, name: str) -> _ModuleCache:
    """The checked content of a cache file's bytes; ``MalformedCacheError`` where it cannot be trusted."""
    content = _json(data)
    # The seal first: an edit to a version field is damage, not another toolcall's file.
    if not file_format.seal_holds(data, any_version=True):
        raise MalformedCacheError(
            "its seal (content_sha256) does not match its content: it was edited after mypy wrote it"
        )
    if content.get("format") != CACHE_FORMAT or content.get("ir") != IR_VERSION:
        return _ModuleCache(problem=Problem("stale", "its schema cache was written by another toolcall version"))
    if not file_format.seal_holds(data):
        raise MalformedCacheError("its seal (content_sha256) is not this format's")
    if content.get("module") != name:
        raise MalformedCacheError(f"it belongs to module {str(content.get('module'))[:80]!r}")
    sources = check_sources(content)
    entries = check_entries(content, name, sources)
    _check_source_names(sources, name)
    changed = frozenset(module for module, record in sources.items() if not _source_current(module, record))
    return _ModuleCache({entry.qualname: entry for entry in entries}, changed)


def _check_source_names(sources: dict[str, SourceRecord], module: str) -> None:
    """Refuse a source module that checking would import from outside the tool module's own top-level package.

    Finding a module's file imports its parent packages; the cache is data,
    so only the tool's own package may be imported for it. A module it
    really depends on is imported already (the tool module imported it).
    """
    package = module.partition(".")[0]
    for source in sources:
        if source not in sys.modules and source.partition(".")[0] != package:
            raise MalformedCacheError(f"it names source module {source[:80]!r}, outside package {package!r}")


def _json(data: bytes) -> dict[str, Any]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedCacheError(f"it is not UTF-8 (byte {exc.start})") from None
    try:
        content = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise MalformedCacheError("it is nested too deeply") from None
    except ValueError as exc:
        raise MalformedCacheError(f"it is not JSON ({str(exc)[:120]})") from None
    if not isinstance(content, dict):
        raise MalformedCacheError("it is not a JSON object")
    return content


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _source_current(module: str, record: SourceRecord) -> bool:
    """Whether a source module is as ``record`` says (read once per process and record)."""
    key = (module, record)
    current = _SOURCES.get(key)
    if current is None:
        from toolcall._cache.freshness import unchanged

        data = _source_bytes(module)
        current = True if data is None else data != b"" and unchanged(data, record.sha256, record.tokens)
        _SOURCES[key] = current
    return current


def _source_bytes(module: str) -> bytes | None:
    """A module's source, ``b""`` when the module is gone, ``None`` when it has no readable source (trusted).

    A source file that is no longer a regular file of bounded size counts as gone.
    """
    spec = _spec(module)
    if spec is None:
        return b""
    origin = getattr(spec, "origin", None)
    if not isinstance(origin, str) or not origin.endswith(".py"):
        return None  # a source-less install: the fingerprints alone decide
    get_data = getattr(spec.loader, "get_data", None)
    try:
        if get_data is None or isinstance(spec.loader, SourceFileLoader):  # a file: read as the cache file is
            return read_file(Path(origin))
        data: bytes = get_data(origin)
    except MalformedCacheError:
        return b""  # no longer a regular file of bounded size: not the source mypy read
    except OSError:
        return None
    return data


def _spec(module: str) -> Any:
    loaded = sys.modules.get(module)
    if loaded is not None:
        return getattr(loaded, "__spec__", None)
    parent = sys.modules.get(module.rpartition(".")[0])
    try:
        if parent is None:
            from importlib.util import find_spec

            return find_spec(module)  # imports its parent packages, which no thread has started to import
        return _find_in(module, parent.__path__)
    except Exception:  # a parent package that fails to import, a hostile finder: the module is not there
        return None


def _find_in(module: str, path: Any) -> Any:
    """The spec of ``module`` in its parent's ``path``, as ``find_spec`` finds it but without importing the parent.

    ``find_spec`` imports the parent even when it is in ``sys.modules``, and so waits while another thread
    runs the parent's ``__init__``, which may be waiting for this very tool (a deadlock).
    """
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = None if find is None else find(module, path)
        if spec is not None:
            return spec
    return None


def _same_signature(entry: CachedEntry, declaration: ToolDeclaration) -> bool:
    """Whether the live function has the signature shape the entry was written for (its qualname is the tool's).

    A described entry's shape is its IR's, compared as it is; a refused
    entry has only the digest of its shape.
    """
    if entry.tool is not None:
        return file_format.ir_parameters(entry.tool) == live_shape(declaration)
    return entry.fingerprint == live_fingerprint(declaration)


def live_fingerprint(declaration: ToolDeclaration) -> str:
    """The signature fingerprint of the live function, from its code object (no introspection)."""
    return file_format.fingerprint(declaration.name, declaration.qualname, live_shape(declaration))


def live_shape(declaration: ToolDeclaration) -> list[tuple[str, str, bool]]:
    """The signature shape of the live function (as ``file_format.fingerprint`` takes it), from its code object."""
    function: Any = declaration.function
    while hasattr(function, "__wrapped__"):  # functools.wraps: the signature callers see
        function = function.__wrapped__
    code: CodeType = function.__code__
    positional = code.co_argcount
    names = code.co_varnames[: positional + code.co_kwonlyargcount]
    defaults = len(function.__defaults__ or ())
    kw_defaults = function.__kwdefaults__ or {}
    shape: list[tuple[str, str, bool]] = []
    for index, name in enumerate(names):
        if index < code.co_posonlyargcount:
            kind, has_default = "positional_only", index >= positional - defaults
        elif index < positional:
            kind, has_default = "positional_or_keyword", index >= positional - defaults
        else:
            kind, has_default = "keyword_only", name in kw_defaults
        shape.append((name, kind, has_default))
    if code.co_flags & _CO_VARKEYWORDS:
        index = positional + code.co_kwonlyargcount + (1 if code.co_flags & 0x04 else 0)
        shape.append((code.co_varnames[index], "var_keyword", True))
    return shape
