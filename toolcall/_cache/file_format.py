"""The schema cache file: where it lives, what it holds, how it is written.

One file per tool module, ``<package dir>/__toolcall__/<module stem>.json``
(``pkg/tools.py`` → ``pkg/__toolcall__/tools.json``; a package's
``__init__.py`` → ``__init__.json``). The mypy plugin writes it; the runtime
loader (``toolcall._cache.loader``) reads it, after ``toolcall._cache.shapes``
has validated every part. Its content, in this order::

    {
      "checked": {...},                  # the plugin's own record (toolcall_mypy._cache.reuse)
      "content_sha256": "...",           # the seal: of this text without this line
      "format": CACHE_FORMAT,            # this layout
      "ir": ir.IR_VERSION,           # the IR's meaning
      "module": "pkg.tools",
      "sources": {                       # every module a tool's schema comes from, sorted
        "pkg.tools": {"sha256": ..., "tokens": ...},   # toolcall._cache.freshness
        "pkg.types_": {...}
      },
      "tools": [                         # declaration order
        {
          "name": ..., "qualname": ...,
          "fingerprint": ...,            # signature_fingerprint(...)
          "sources": ["pkg.tools", ...], # the modules this tool's schema comes from
          "ir": {...},                   # ir.to_json(tool)
          "describe": {...},             # describe()'s entry
          "rendered": {"openai": {...}, "openai:strict": {...}, ..., "gemini": {"error": "..."}}
        },
        {"name": ..., "qualname": ..., "fingerprint": ..., "refused": "..."}
      ],
      "schemas": [...],                  # each distinct schema once (toolcall._cache.tables)
      "texts": [...]                     # each description once
    }

The schemas and descriptions of ``ir``, ``describe`` and ``rendered`` are
stored once per file, in the two tables at the end, and referred to by
index (``toolcall._cache.tables``: most of a tool's variants share them).
``module_content`` and ``tool_entry`` build the content with everything in
place; ``dumps`` moves it into the tables, and the loader resolves it back
before anything is checked or served.

A ``refused`` entry is a tool the plugin could not describe (its finding was
silenced): the runtime introspects it and says why, instead of calling the
cache stale. Every rendered schema is stored exactly as ``emit`` gives it,
dict order included, so serving it equals rendering it byte for byte in
``json.dumps``.

Written deterministically (the order above; records indented by 2 spaces a
level and each stored value compact on its own line, ``toolcall._cache.layout``;
a final newline; lone surrogates escaped so the text is valid UTF-8) and
atomically (a temporary file in the same directory, then ``os.replace``).
The seal lets the plugin trust the file's ``checked`` record without
parsing the rest, and the runtime refuse a hand-edited file: any edit to the
text breaks it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from toolcall import _ir as ir
from toolcall._cache.constants import CACHE_DIR, CACHE_FORMAT
from toolcall._cache.layout import laid_out
from toolcall._cache.tables import pack
from toolcall._cache.variants import VARIANTS, variant_key

if TYPE_CHECKING:
    from toolcall._cache.layout import Shape
    from toolcall._render.definitions import Rendered

__all__ = [
    "CACHE_DIR",
    "CACHE_FORMAT",
    "cache_path",
    "dumps",
    "fingerprint",
    "ir_parameters",
    "module_content",
    "refused_entry",
    "remove",
    "seal_holds",
    "sealed_head",
    "source_record",
    "source_sha256",
    "tool_entry",
    "write_atomic",
]


# Top-level lines of the text ``dumps`` writes. Nested lines are indented
# further and JSON strings hold no raw newline, so each marks one place.
_SEAL: Final = b'\n  "content_sha256": "'
_FORMAT_LINE: Final = '\n  "format": '
_TOOLS_LINE: Final = b'\n  "tools": '

# Which records of the file start lines (cache_layout.Shape); every other value is one compact line.
_LAYOUT: Final[Shape] = {
    "checked": {"files": {}, "tools": {}},
    "sources": {},
    "tools": {"*": {"rendered": {}}},
    "schemas": {},
    "texts": {},
}

#: Every provider variant the cache holds, as ``(provider, strict)``: each provider, and its strict mode if it has one.


def cache_path(module_file: str | os.PathLike[str]) -> Path:
    """The cache file of the module whose source is ``module_file``."""
    source = Path(module_file)
    return source.parent / CACHE_DIR / f"{source.stem}.json"


def source_sha256(data: bytes) -> str:
    """The digest of a module's source bytes, as the cache records it."""
    return hashlib.sha256(data).hexdigest()


def fingerprint(name: str, qualname: str, parameters: Iterable[tuple[str, str, bool]]) -> str:
    """A digest of a tool's name and signature shape: each ``(name, kind, has_default)``.

    Both front ends compute it from what they see without resolving any
    type: the plugin from the ``FuncDef``'s arguments, the runtime from the
    function's code object and defaults.
    """
    shape = [name, qualname, [list(p) for p in parameters]]
    return hashlib.sha256(json.dumps(shape, separators=(",", ":")).encode()).hexdigest()[:32]


def ir_parameters(tool: ir.Tool) -> list[tuple[str, str, bool]]:
    """The signature shape of a tool's IR (as ``fingerprint`` takes it)."""
    return [(p.name, p.kind, not p.required) for p in tool.parameters]


def dumps(content: dict[str, Any]) -> str:
    """The deterministic, sealed text of a cache file (``content`` as ``module_content`` gives it).

    That is ``content`` with its tables (``cache_tables.pack``), laid out by
    ``cache_layout.laid_out`` (dict order kept), lone surrogates escaped as
    ``\\udcff``, with one more key, ``content_sha256``: the digest of the text
    without that line.
    """

    text = _escape_surrogates(laid_out(pack(content), _LAYOUT) + "\n")
    at = text.index(_FORMAT_LINE)
    seal = hashlib.sha256(text.encode()).hexdigest()
    return f'{text[:at]}{_SEAL.decode()}{seal}",{text[at:]}'


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _escape_surrogates(text: str) -> str:
    """``text`` with each lone surrogate written as JSON's escape (raw, only a JSON string can hold one)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
    return text


def seal_holds(data: bytes) -> bool:
    """Whether a cache file's bytes carry a seal that is the digest of the rest of them."""
    return _seal_end(data) is not None


def _seal_end(data: bytes) -> int | None:
    """Where the seal's line ends in ``data``, when the seal holds."""
    start = data.find(_SEAL)
    end = start + len(_SEAL) + 64
    if start < 0 or data[end : end + 2] != b'",':
        return None
    seal = hashlib.sha256(memoryview(data)[:start])
    seal.update(memoryview(data)[end + 2 :])
    return end if seal.hexdigest().encode() == data[start + len(_SEAL) : end] else None


def sealed_head(data: bytes) -> dict[str, Any] | None:
    """Every top-level field but ``tools`` of a cache file's bytes, or ``None`` unless its seal holds.

    Only the head is parsed: the plugin reads its ``checked`` record on
    each tool module's first tool, and most of a file is its tools.
    """
    end = _seal_end(data)
    stop = data.find(_TOOLS_LINE)
    if end is None or stop < end:
        return None
    try:
        head = json.loads(data[:stop].rstrip(b",") + b"\n}")
    except ValueError:
        return None
    return head if isinstance(head, dict) else None


def write_atomic(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` atomically; return whether the file changed."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    # Not mkstemp, which makes the file private (0600): created with 0666, the umask
    # applies as to any other new file. O_EXCL: a name taken already is never reused.
    temporary = path.with_name(f".{path.name}.{os.urandom(8).hex()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return True


def remove(path: Path) -> bool:
    """Delete a cache file (and its directory when it is left empty); return whether it existed."""
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    with contextlib.suppress(OSError):  # other modules' caches are still there
        path.parent.rmdir()
    return True


def source_record(data: bytes) -> dict[str, str | None]:
    """What the cache records of one source file: its byte digest and its layout-free token digest."""
    from toolcall._cache.freshness import source_digest

    digest = source_digest(data)
    return {"sha256": digest.sha256, "tokens": digest.tokens}


def module_content(
    module: str,
    sources: Mapping[str, dict[str, str | None]],
    tools: Sequence[dict[str, Any]],
    checked: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole cache file for ``module`` but its seal; ``checked`` is the plugin's record, if any.

    ``sources`` maps each module a tool depends on to its ``source_record``.
    """
    return {
        "checked": {} if checked is None else checked,
        "format": CACHE_FORMAT,
        "ir": ir.IR_VERSION,
        "module": module,
        "sources": {name: dict(sources[name]) for name in sorted(sources)},
        "tools": list(tools),
    }


def tool_entry(
    tool: ir.Tool,
    sources: Sequence[str],
    rendered: Mapping[tuple[str, bool], Rendered | str] | None = None,
) -> dict[str, Any]:
    """One tool's cache entry: the modules it comes from, its IR, ``describe`` entry and every rendered variant.

    ``rendered`` is ``render_variants(tool, VARIANTS, copies=False)`` when
    the caller has it already (the plugin reads its findings too); the entry
    may share its parts, so it is for writing out, not for handing out. A variant the provider
    cannot take is recorded as ``{"error": message}`` and raised again as
    ``ValueError`` when emitted.
    """
    from toolcall._render.definitions import parameters_schema, render_variants

    if rendered is None:
        rendered = render_variants(tool, VARIANTS, copies=False)  # only written out
    variants = {
        variant_key(provider, strict): rendering.definition if not isinstance(rendering, str) else {"error": rendering}
        for (provider, strict), rendering in rendered.items()
    }
    return {
        "name": tool.name,
        "qualname": tool.qualname,
        "fingerprint": fingerprint(tool.name, tool.qualname, ir_parameters(tool)),
        "sources": sorted(set(sources)),
        "ir": ir.to_json(tool),
        "describe": {
            "module": tool.module,
            "name": tool.name,
            "description": tool.description,
            "parameters": parameters_schema(tool),
        },
        "rendered": variants,
    }


def refused_entry(name: str, qualname: str, shape: Iterable[tuple[str, str, bool]], message: str) -> dict[str, Any]:
    """The entry of a tool the plugin could not describe: ``message`` says why (a silenced finding)."""
    return {"name": name, "qualname": qualname, "fingerprint": fingerprint(name, qualname, shape), "refused": message}
