"""What a module's cache file lets the plugin skip: the tools it has rendered already.

A tool's cache entry and its ``toolcall-strict`` findings follow from its IR
and toolcall's renderers alone. So the plugin records, in the file's
``checked`` block, each tool's IR digest and strict findings, with a digest
of the renderers' sources::

    "checked": {
      "renderer": "...",
      "messages": [[code, severity, [modes], "text"], ...],
      "tools": [["qualname", "ir_sha256", [source indexes], clean, [finding, ...]]]
    }

A later run (a cold mypy cache on a checkout that commits the files) that
analyses a tool to the same IR takes the findings from there and the entry
from the file, instead of rendering again; when every tool of a module is
so, in the same order, with the same source modules, each of the same
digest, the file is left as it is. The file's seal (``file_format.sealed_head``) makes a hand
edit void all of this: the module is rendered afresh. Nothing here knows
about mypy.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import toolcall
from toolcall import _ir as ir
from toolcall._cache import file_format
from toolcall._cache.constants import DIGEST_HEX, IR_VERSION
from toolcall._cache.freshness import recorded_file
from toolcall._findings import CODES, Finding

if TYPE_CHECKING:
    from toolcall._cache.shapes import CachedEntry

__all__ = [
    "Checked",
    "Previous",
    "analysis_digest",
    "checked_block",
    "ir_sha256",
    "previous_from_head",
    "previous_of",
    "read_previous",
    "renderer_digest",
]


@dataclass(frozen=True)
class Checked:
    """One tool as a cache file records it: the digest of its IR, its source modules and its variants' findings."""

    ir_sha256: str
    sources: tuple[str, ...]
    variants: tuple[Finding, ...]  # what its provider variants lose (variant_findings)
    #: the analysis found nothing to report: a later run over the same sources may take the record as it is
    clean: bool = False


def ir_sha256(tool: ir.Tool, findings: tuple[Finding, ...] = ()) -> str:
    """The digest of a tool's entry: its IR and the findings it records, from their ``repr`` (128 bits).

    The IR is frozen dataclasses (with their generated ``repr``) of strings,
    numbers, ``None`` and tuples, so its ``repr`` is the same in every
    process and tells apart any two IRs whose JSON differs; it takes a
    quarter of the time of ``to_json`` and a JSON dump. The findings (frozen
    too) count, so a finding that changes alone (a docstring entry that names
    no parameter, renamed) makes the entry new. It tells entries apart, it
    protects nothing.
    """
    text = repr(tool) if not findings else f"{tool!r}\0{findings!r}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@functools.cache
def renderer_digest() -> str:
    """The digest of toolcall's version and its package's sources: what renders the entries.

    Any change to them, released or not, voids every recorded entry.
    """
    return _package_digest(toolcall.__version__, Path(toolcall.__file__).parent)


@functools.cache
def analysis_digest(settings: str) -> str:
    """The digest of what turns sources into a tool's record: toolcall and its plugin, and the settings.

    ``settings`` is the digest of the plugin's settings. A record made
    under another digest is never replayed without analysis. mypy's version
    is left out: the file is committed, and two machines with two mypy
    releases must not rewrite it back and forth (the IR follows the types as
    written, which a mypy release does not change).
    """
    return _package_digest(f"{renderer_digest()}\0{settings}", Path(__file__).parent)


def _package_digest(prefix: str, root: Path) -> str:
    """The SHA-256 of ``prefix`` and every ``.py`` file under ``root``, each with its relative path."""
    digest = hashlib.sha256(prefix.encode() + b"\0")
    for source in sorted(root.rglob("*.py")):
        digest.update(source.relative_to(root).as_posix().encode() + b"\0")
        digest.update(source.read_bytes())
    return digest.hexdigest()[:DIGEST_HEX]


def checked_block(tools: list[tuple[str, Checked]], sources: Sequence[str], analysis: str) -> dict[str, Any]:
    """The ``checked`` block of a module's file, for its ``(qualname, Checked)`` in declaration order.

    ``sources`` is the file's sorted ``sources`` table, which a tool's
    modules are indexes into (``file_format.module_content``); it records
    each one's file too, where mypy's next run finds whether it changed. ``analysis`` is
    ``analysis_digest`` of this run. Each tool is one compact array,
    ``[qualname, ir_sha256, sources, clean, findings]``, each finding
    ``[parameter, path, message]``, with the tool's name after it where that
    is not the qualname; its message is a position in ``messages``, each
    ``[code, severity, modes, text]`` (the same few recur over a module's
    tools, so each is written once).
    """
    index = {name: position for position, name in enumerate(sources)}
    messages: dict[tuple[Any, ...], int] = {}
    records = [
        [
            qualname,
            c.ir_sha256,
            sorted(index[name] for name in c.sources),
            c.clean,
            [_finding_json(f, qualname, messages) for f in c.variants],
        ]
        for qualname, c in tools
    ]
    return {
        "renderer": renderer_digest(),
        "analysis": analysis,
        "messages": [[code, severity, list(modes), text] for code, severity, modes, text in messages],
        "tools": records,
    }


@dataclass
class Previous:
    """A module's cache file as found before this run wrote it, sealed and by the same renderers."""

    data: bytes
    #: the file's ``sources`` table: module -> its recorded digests
    sources: dict[str, Any]
    #: the ``checked`` record's files: module -> its file, relative to the module's directory
    files: dict[str, Any]
    #: qualname -> what the file records of it, in the file's order
    checked: dict[str, Checked]
    #: the ``analysis_digest`` of the run that wrote the file
    analysis: Any = None
    #: the file's seal, which names its text
    seal: Any = None
    #: where the file is, once ``data`` is released
    path: Path | None = None
    #: the module the file is of
    module: str = ""
    _entries: dict[str, dict[str, Any]] | None = field(default=None, repr=False)

    def release(self, path: Path) -> None:
        """Drop the file's bytes (a large project holds thousands): ``entry`` reads them again from ``path``."""
        self.data, self.path = b"", path

    def _text(self) -> bytes:
        """The file's bytes, read again if released: only while the file is still the one sealed so."""
        if self.data or self.path is None:
            return self.data
        try:
            data = self.path.read_bytes()
        except OSError:
            return b""
        head = file_format.sealed_head(data)
        return data if head is not None and head.get("content_sha256") == self.seal else b""

    def findings(self, qualname: str, digest: str) -> tuple[Finding, ...] | None:
        """The strict findings recorded for a tool of this IR digest, or ``None`` when it must be rendered."""
        record = self.checked.get(qualname)
        return record.variants if record is not None and record.ir_sha256 == digest else None

    def replayable(self, qualname: str, analysis: str) -> Checked | None:
        """The record of a tool that a run under the same ``analysis`` found clean, if there is one."""
        record = self.checked.get(qualname)
        return record if record is not None and record.clean and self.analysis == analysis else None

    def holds(self, tools: list[tuple[str, Checked]], sources: dict[str, Any], analysis: str) -> bool:
        """Whether the file records exactly these tools, in this order, from these sources (files too) and analysis."""
        return self.sources == sources and self.analysis == analysis and list(self.checked.items()) == tools

    def entry(self, qualname: str) -> dict[str, Any] | None:
        """The file's entry for a tool (the whole file is parsed on the first call)."""
        if self._entries is None:
            self._entries = _entries(self._text(), self.module)
        return self._entries.get(qualname)


def read_previous(path: Path, module: str) -> Previous | None:
    """The module's cache file at ``path``, if it can be reused: sealed, this format, these renderers."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return previous_of(data, module)


def previous_of(data: bytes, module: str) -> Previous | None:
    """A cache file's bytes as ``read_previous`` takes them (the text a run has just written, too)."""
    return previous_from_head(file_format.sealed_head(data), module, data)


def previous_from_head(head: dict[str, Any] | None, module: str, data: bytes = b"") -> Previous | None:
    """A cache file as its sealed head gives it (``file_format.sealed_head``); ``data``: its bytes, if at hand.

    Without ``data``, call ``release`` with the file's path before ``entry``.
    """
    if head is None or not _reusable(head, module):
        return None
    try:
        names, messages = list(head["sources"]), head["checked"]["messages"]
        checked = {t[0]: _checked(t, names, messages) for t in head["checked"]["tools"]}
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    analysis = head["checked"].get("analysis")
    files = {name: recorded_file(record) for name, record in head["sources"].items()}
    seal = head.get("content_sha256")
    return Previous(data, head["sources"], files, checked, analysis, seal, module=module)


def _checked(recorded: list[Any], names: list[str], messages: list[Any]) -> Checked:
    qualname, digest, sources, clean, strict = recorded
    if type(digest) is not str or any(type(i) is not int or i < 0 for i in sources):
        raise ValueError("not a record")
    findings = tuple(_finding(finding, qualname, messages) for finding in strict)
    return Checked(digest, tuple(names[i] for i in sources), findings, clean is True)


def _reusable(head: dict[str, Any], module: str) -> bool:
    checked = head.get("checked")
    return (
        head.get("format") == file_format.CACHE_FORMAT
        and head.get("ir") == IR_VERSION
        and head.get("module") == module
        and isinstance(checked, dict)
        and checked.get("renderer") == renderer_digest()
        and isinstance(checked.get("tools"), list)
        and isinstance(checked.get("messages"), list)
        and isinstance(head.get("sources"), dict)
    )


_SEVERITIES = ("error", "note")


def _finding_json(finding: Finding, qualname: str, messages: dict[tuple[Any, ...], int]) -> list[Any]:
    kind = (finding.code, finding.severity, finding.modes, finding.message)
    at = messages.setdefault(kind, len(messages))
    named = [] if finding.tool == qualname else [finding.tool]
    return [finding.parameter, list(finding.path), at, *named]


def _finding(recorded: list[Any], qualname: str, messages: list[Any]) -> Finding:
    parameter, path, at, *named = recorded
    if type(at) is not int or at < 0 or len(named) > 1:
        raise ValueError("not a finding")
    code, severity, modes, message = messages[at]
    if (
        code not in CODES
        or severity not in _SEVERITIES
        or type(message) is not str
        or type(modes) is not list
        or not all(type(mode) is str for mode in modes)
    ):
        raise ValueError("not a finding")
    return Finding(code, message, named[0] if named else qualname, parameter, tuple(path), severity, tuple(modes))


def _entries(data: bytes, module: str) -> dict[str, dict[str, Any]]:
    """A file's entries by qualname, as ``file_format.tool_entry`` and ``refused_entry`` make them.

    Checked as the runtime checks them (``toolcall._cache.shapes``): a sealed
    file can still be hand-made, and its IR is encoded again from here.
    An entry that is not so is not taken (the tool is rendered afresh).
    """
    from toolcall._cache.shapes import check_entries, check_sources

    try:
        content = json.loads(data)
        entries = check_entries(content, module, check_sources(content))
    except (ValueError, RecursionError):  # MalformedCacheError is a ValueError
        return {}
    return {entry.qualname: _entry_of(entry) for entry in entries}


def _entry_of(entry: CachedEntry) -> dict[str, Any]:
    if entry.tool is not None:
        return file_format.tool_entry(entry.tool, entry.sources, entry.findings)
    return {"name": entry.name, "qualname": entry.qualname, "fingerprint": entry.fingerprint, "refused": entry.refused}
