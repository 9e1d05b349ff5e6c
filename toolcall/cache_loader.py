"""The runtime side of the schema cache: find a tool's entry, check it is current.

On a tool module's first use, its cache file (``toolcall.cache_format``) is
read once, through ``importlib.resources`` so it works from a wheel. An
entry is used only when the file's format and IR version are this
toolcall's, the module's source (when it can be read) is the source mypy
checked, and the tool's signature fingerprint matches the live function.
Otherwise the cache is stale: a ``ToolcallWarning`` says why and the tool is
introspected instead. No cache file at all means introspection, quietly.

``TOOLCALL_CACHE`` changes this: ``require`` raises ``RuntimeError`` where
the cache is missing or stale (for production, where introspection is a
deployment mistake); ``off`` ignores caches.
"""

from __future__ import annotations

import json
import os
import threading
import warnings
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any, Final

from toolcall import cache_format
from toolcall.warning import ToolcallWarning

if TYPE_CHECKING:
    from toolcall import ir
    from toolcall.definition import ToolDefinition

__all__ = ["cache_entry", "cached_definition", "import_refs", "live_fingerprint"]

_MODES: Final = ("auto", "require", "off")
_CO_VARKEYWORDS: Final = 0x08


class _ModuleCache:
    """A module's cache file as read, or why it cannot be used."""

    __slots__ = ("entries", "problem")

    def __init__(self, entries: dict[str, dict[str, Any]], problem: str | None) -> None:
        self.entries = entries
        self.problem = problem


_MODULES: dict[str, _ModuleCache | None] = {}
_LOCK = threading.Lock()


def cache_entry(definition: ToolDefinition) -> dict[str, Any] | None:
    """The current cache entry of a tool, or ``None`` to introspect it."""
    mode = _mode()
    if mode == "off" or "<locals>" in definition.qualname:
        return None  # a tool made inside a function is never in a module's cache
    module = _module_cache(definition.module)
    problem = _problem(definition, module)
    if problem is None:
        assert module is not None
        return module.entries[definition.qualname]
    if mode == "require":
        raise RuntimeError(f"TOOLCALL_CACHE=require: tool {definition.name!r}: {problem}")
    if module is not None:  # a missing file is the dev loop, not worth a warning
        warnings.warn(f"tool {definition.name!r}: {problem}; introspecting it instead", ToolcallWarning, stacklevel=5)
    return None


def _mode() -> str:
    mode = os.environ.get("TOOLCALL_CACHE", "auto").strip().lower() or "auto"
    if mode not in _MODES:
        raise RuntimeError(f"TOOLCALL_CACHE={mode!r}: use one of {', '.join(_MODES)}")
    return mode


def _problem(definition: ToolDefinition, module: _ModuleCache | None) -> str | None:
    if module is None:
        return (
            f"no schema cache for module {definition.module!r} (run mypy with the toolcall plugin, or toolcall check)"
        )
    if module.problem is not None:
        return module.problem
    entry = module.entries.get(definition.qualname)
    if entry is None:
        return f"the schema cache of {definition.module!r} has no entry for it (stale: run mypy again)"
    if entry.get("name") != definition.name:
        return f"the schema cache names it {entry.get('name')!r} (stale: run mypy again)"
    if entry.get("fingerprint") != live_fingerprint(definition):
        return "its signature changed since the schema cache was written (stale: run mypy again)"
    return None


def _module_cache(name: str) -> _ModuleCache | None:
    if name in _MODULES:
        return _MODULES[name]
    with _LOCK:
        if name not in _MODULES:
            _MODULES[name] = _read_module_cache(name)
    return _MODULES[name]


def _read_module_cache(name: str) -> _ModuleCache | None:
    import sys

    module = sys.modules.get(name)
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None)
    if not isinstance(origin, str) or not origin.endswith(".py"):
        return None
    text = _read_resource(name, spec, Path(origin))
    if text is None:
        return None
    try:
        content = json.loads(text)
        return _check_content(content, name, spec, Path(origin))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        return _ModuleCache({}, f"the schema cache of {name!r} is unreadable ({type(exc).__name__}: {exc})")


def _read_resource(name: str, spec: Any, origin: Path) -> str | None:
    """The cache file's text, found next to the module (also inside a wheel or zip)."""
    from importlib import resources

    stem = origin.stem
    package = name if stem == "__init__" else (spec.parent or None)
    try:
        if package:
            target = resources.files(package).joinpath(cache_format.CACHE_DIR).joinpath(f"{stem}.json")
            return target.read_text(encoding="utf-8") if target.is_file() else None
        path = cache_format.cache_path(origin)  # a top-level module: its own directory
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except (OSError, UnicodeDecodeError, ModuleNotFoundError, TypeError):
        return None


def _check_content(content: Any, name: str, spec: Any, origin: Path) -> _ModuleCache:
    from toolcall import ir

    where = f"the schema cache of {name!r}"
    if not isinstance(content, dict) or content.get("format") != cache_format.CACHE_FORMAT:
        return _ModuleCache({}, f"{where} has another format (stale: run mypy again)")
    if content.get("ir") != ir.SCHEMA_VERSION:
        return _ModuleCache({}, f"{where} was written by another toolcall version (stale: run mypy again)")
    if content.get("module") != name:
        return _ModuleCache({}, f"{where} belongs to module {content.get('module')!r}")
    source = _source_bytes(spec, origin)
    if source is not None and content.get("source_sha256") != cache_format.source_sha256(source):
        return _ModuleCache({}, f"the source of {name!r} changed since {where} was written (stale: run mypy again)")
    entries = {entry["qualname"]: _checked_entry(entry) for entry in content["tools"]}
    return _ModuleCache(entries, None)


def _checked_entry(entry: Any) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise TypeError("a tool entry is not an object")
    for key in ("name", "qualname", "fingerprint", "ir", "describe", "rendered"):
        if key not in entry:
            raise KeyError(f"a tool entry has no {key!r}")
    return entry


def _source_bytes(spec: Any, origin: Path) -> bytes | None:
    loader = getattr(spec, "loader", None)
    get_data = getattr(loader, "get_data", None)
    try:
        data: bytes = get_data(str(origin)) if get_data is not None else origin.read_bytes()
        return data
    except OSError:
        return None  # a source-less install: the fingerprints alone decide


def live_fingerprint(definition: ToolDefinition) -> str:
    """The signature fingerprint of the live function, from its code object (no introspection)."""
    function: Any = definition.function
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
    return cache_format.fingerprint(definition.name, definition.qualname, shape)


def cached_definition(entry: dict[str, Any], provider: str, strict: bool) -> dict[str, Any]:
    """A rendered variant from a cache entry (``ValueError`` where the provider cannot take the tool)."""
    key = cache_format.variant_key(provider, strict)
    found = entry["rendered"].get(key)
    if found is None:
        from toolcall.render import render_tool

        # Not a cached variant: an unknown provider or gemini strict; the renderer says why.
        return render_tool(_decoded(entry), provider, strict=strict).definition
    if set(found) == {"error"}:
        raise ValueError(found["error"])
    return found  # type: ignore[no-any-return]


def _decoded(entry: dict[str, Any]) -> ir.Tool:
    from toolcall import ir

    return ir.from_json(entry["ir"])  # type: ignore[no-any-return]


def import_refs(tool: ir.Tool) -> dict[str, Any]:
    """Import every class the IR refers to (enums, objects, custom types, providers)."""
    from toolcall.custom import resolve_ref

    return {ref: resolve_ref(ref) for ref in sorted(_refs(tool))}


def _refs(tool: ir.Tool) -> set[str]:
    from toolcall import ir

    found: set[str] = set(tool.providers)
    stack: list[Any] = [p.type for p in tool.parameters] + [d.type for d in tool.defs]
    while stack:
        node = stack.pop()
        if isinstance(node, (ir.EnumType, ir.ObjectType)):
            found.add(node.ref)
        if isinstance(node, ir.CustomType):
            found.add(node.ref)
            if node.provider is not None:
                found.add(node.provider)
        if isinstance(node, ir.ObjectType):
            stack.extend(f.type for f in node.fields)
        elif isinstance(node, (ir.ArrayType,)):
            stack.append(node.items)
        elif isinstance(node, ir.TupleType):
            stack.extend(node.items)
        elif isinstance(node, ir.MapType):
            stack.append(node.values)
        elif isinstance(node, ir.UnionType):
            stack.extend(node.options)
        elif isinstance(node, ir.Constrained):
            stack.append(node.base)
    return found
