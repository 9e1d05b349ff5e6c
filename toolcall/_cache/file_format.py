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
      "ir": IR_VERSION,                  # the IR's meaning
      "module": "pkg.tools",
      "sources": {                       # every module a tool's schema comes from, sorted
        "pkg.tools": [sha256, tokens, "tools.py"],   # toolcall._cache.freshness; the file, for the plugin
        "pkg.types_": [...]
      },
      "tools": [                         # declaration order, one line each
        {"sources": [0, ...], "ir": [...]},  # indexes into "sources", sorted; entry_ir(tool, shared)
        {"sources": [...], "ir": [...], "findings": [[code, parameter, path, message], ...]},
        {"name": ..., "qualname": ..., "fingerprint": ..., "refused": "..."}
      ],
      "types": [...]                     # the type nodes the tools share, each once (ir.SharedTypes)
    }

A tool's entry is its IR as the static front end derived it, descriptions
included, and the modules its schema comes from: no rendered schema. Each
TypedDict, dataclass, NamedTuple or Enum is written once in ``types``, and
an IR names it by its position there. The
runtime renders each provider variant from the IR on first use, with the
renderer introspection uses, so what the cache serves equals what
introspection renders. The signature fingerprint the runtime compares with
the live function follows from the IR (``ir_parameters``), so it is not
stored. A ``refused`` entry is a tool the plugin could not describe (its
finding was silenced): the runtime introspects it and says why, instead of
calling the cache stale. ``findings`` (only where there are some: most
tools have none, and they cost no byte) are what introspecting the tool
warns, in the order it warns them (``entry_findings``): the runtime warns
them as it serves the entry, so a tool warns alike from the cache and
introspected.

The bytes follow from the code alone: every list is sorted or in
declaration order, every record is written in a fixed key order, nothing
holds a path outside the project, a time or a name of the machine.
Written deterministically (the order above; records indented by 2 spaces a
level and each stored value compact on its own line, ``toolcall._cache.layout``;
a final newline; lone surrogates escaped so the text is valid UTF-8), and
atomically by the plugin (``toolcall_mypy._cache.files``).
The seal lets the plugin trust the file's ``checked`` record without
parsing the rest, and the runtime refuse a hand-edited file: any edit to the
text breaks it. It is not a signature: anyone who can write the file can
seal it again, which is why the runtime treats the content as data only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from toolcall import _ir as ir
from toolcall._cache.constants import CACHE_DIR, CACHE_FORMAT, DIGEST_HEX, IR_VERSION

if TYPE_CHECKING:
    from toolcall._cache.layout import Shape
    from toolcall._findings import Finding

__all__ = [
    "CACHE_DIR",
    "CACHE_FORMAT",
    "cache_path",
    "dumps",
    "entry_findings",
    "entry_fingerprint",
    "entry_ir",
    "entry_tool",
    "fingerprint",
    "ir_parameters",
    "module_content",
    "refused_entry",
    "seal_holds",
    "sealed_head",
    "source_record",
    "tool_entry",
]


# Top-level lines of the text ``dumps`` writes. Nested lines are indented
# further and JSON strings hold no raw newline, so each marks one place.
_SEAL: Final = b'\n  "content_sha256": "'
_FORMAT_LINE: Final = '\n  "format": '
_TOOLS_LINE: Final = b'\n  "tools": '
#: The seal's length in hex digits, as each cache format wrote it: this one's, and the whole digest before format 6.
_SEAL_LENGTHS: Final = (DIGEST_HEX, 64)

# Which records of the file start lines (cache_layout.Shape); every other value is one compact line.
_LAYOUT: Final[Shape] = {
    "checked": {"messages": {}, "tools": {}},
    "sources": {},
    "tools": {},
    "types": {},
}


def cache_path(module_file: str | os.PathLike[str]) -> Path:
    """The cache file of the module whose source is ``module_file``."""
    source = Path(module_file)
    return source.parent / CACHE_DIR / f"{source.stem}.json"


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

    That is ``content`` laid out by
    ``cache_layout.laid_out`` (dict order kept), lone surrogates escaped as
    ``\\udcff``, with one more key, ``content_sha256``: the digest of the text
    without that line.
    """

    from toolcall._cache.layout import laid_out  # the writer's: a process that only reads caches never needs it

    text = _escape_surrogates(laid_out(content, _LAYOUT) + "\n")
    at = text.index(_FORMAT_LINE)
    seal = hashlib.sha256(text.encode()).hexdigest()[:DIGEST_HEX]
    return f'{text[:at]}{_SEAL.decode()}{seal}",{text[at:]}'


#: A lone surrogate; compiled by ``re`` on first use (a text with one is rare, and import time is start-up).
_SURROGATE: Final = "[\ud800-\udfff]"


def _escape_surrogates(text: str) -> str:
    """``text`` with each lone surrogate written as JSON's escape (raw, only a JSON string can hold one)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return re.sub(_SURROGATE, lambda match: f"\\u{ord(match.group()):04x}", text)
    return text


def seal_holds(data: bytes, any_version: bool = False) -> bool:
    """Whether a cache file's bytes carry a seal that is the digest of the rest of them.

    ``any_version``: a seal as any cache format wrote it (formats 2 to 5 wrote the whole digest), so that a
    file another toolcall wrote is told apart from a damaged one.
    """
    return any(_seal_end(data, length) is not None for length in (_SEAL_LENGTHS if any_version else (DIGEST_HEX,)))


def _seal_end(data: bytes, length: int = DIGEST_HEX) -> int | None:
    """Where the seal's line ends in ``data``, when the seal, ``length`` hex digits, holds."""
    start = data.find(_SEAL)
    end = start + len(_SEAL) + length
    if start < 0 or data[end : end + 2] != b'",':
        return None
    seal = hashlib.sha256(memoryview(data)[:start])
    seal.update(memoryview(data)[end + 2 :])
    return end if seal.hexdigest()[:length].encode() == data[start + len(_SEAL) : end] else None


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


def source_record(data: bytes, file: str | None) -> list[str | None]:
    """What the cache records of one source: ``[byte digest, layout-free token digest, file]``.

    ``data`` is the source's bytes; ``file`` its file relative to the tool
    module's directory, ``None`` for an installed module (its path would
    name this machine): where the plugin's next run looks whether it changed.
    """
    from toolcall._cache.freshness import source_digest

    digest = source_digest(data)
    return [digest.sha256, digest.tokens, file]


def module_content(
    module: str,
    sources: Mapping[str, list[str | None]],
    tools: Sequence[dict[str, Any]],
    checked: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole cache file for ``module`` but its seal; ``checked`` is the plugin's record, if any.

    ``sources`` maps each module a tool depends on to its ``source_record``;
    each entry of ``tools`` names its modules and holds its IR
    (``tool_entry``); the file holds the modules as indexes into the sorted
    table, and the IR encoded with the types the tools share written once.
    """
    names = sorted(sources)
    index = {name: position for position, name in enumerate(names)}
    shared = ir.SharedTypes.counted(entry["tool"] for entry in tools if "refused" not in entry)
    return {
        "checked": {} if checked is None else checked,
        "format": CACHE_FORMAT,
        "ir": IR_VERSION,
        "module": module,
        "sources": {name: list(sources[name]) for name in names},
        "tools": [entry if "refused" in entry else _encoded(entry, index, shared) for entry in tools],
        "types": shared.items,
    }


def _encoded(entry: dict[str, Any], index: dict[str, int], shared: ir.SharedTypes) -> dict[str, Any]:
    """A described entry as the file holds it: its modules as indexes into ``sources``, its IR encoded."""
    encoded = {"sources": sorted(index[name] for name in entry["sources"]), "ir": entry_ir(entry["tool"], shared)}
    if entry.get("findings"):
        encoded["findings"] = entry_findings(entry["findings"])
    return encoded


def tool_entry(tool: ir.Tool, sources: Iterable[str], findings: Sequence[Finding] = ()) -> dict[str, Any]:
    """One tool's cache entry: the modules its schema comes from (sorted, once each), its IR, its findings.

    ``findings`` are what introspecting the tool warns, in that order; an
    entry without any has no ``findings`` key.
    """
    entry: dict[str, Any] = {"sources": sorted(set(sources)), "tool": tool}
    if findings:
        entry["findings"] = tuple(findings)
    return entry


def entry_findings(findings: Iterable[Finding]) -> list[list[Any]]:
    """Findings as an entry holds them: ``[code, parameter, path, message]`` each (the tool is the entry's)."""
    return [[f.code, f.parameter, list(f.path), f.message] for f in findings]


def entry_ir(tool: ir.Tool, shared: ir.SharedTypes | None = None) -> Any:
    """A tool's IR as its entry holds it: ``ir.to_json`` without the module, which the file names once."""
    return ir.to_json(dataclasses.replace(tool, module=""), shared)


def entry_tool(data: Any, module: str, shared: tuple[ir.TypeNode, ...] = ()) -> ir.Tool:
    """The tool of an entry's ``ir`` (``entry_ir``) in ``module``; ``ValueError`` when it names a module itself.

    ``shared`` is the file's ``types``, decoded (``ir.decode_shared``).
    """
    tool = ir.from_json(data, ir.Tool, shared)
    if type(tool) is not ir.Tool or tool.module:
        raise ValueError("an entry's IR holds no module: the file names it")
    return dataclasses.replace(tool, module=module)


def entry_fingerprint(tool: ir.Tool) -> str:
    """The signature fingerprint of a described entry, from its IR."""
    return fingerprint(tool.name, tool.qualname, ir_parameters(tool))


def refused_entry(name: str, qualname: str, shape: Iterable[tuple[str, str, bool]], message: str) -> dict[str, Any]:
    """The entry of a tool the plugin could not describe: ``message`` says why (a silenced finding)."""
    return {"name": name, "qualname": qualname, "fingerprint": fingerprint(name, qualname, shape), "refused": message}
