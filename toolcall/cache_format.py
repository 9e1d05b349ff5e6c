"""The schema cache file: where it lives, what it holds, how it is written.

One file per tool module, ``<package dir>/__toolcall__/<module stem>.json``
(``pkg/tools.py`` → ``pkg/__toolcall__/tools.json``; a package's
``__init__.py`` → ``__init__.json``). The mypy plugin writes it; the runtime
loader (``toolcall.cache_loader``) reads it. Its content::

    {
      "checked": {...},                  # the plugin's own record (toolcall_mypy.reuse)
      "content_sha256": "...",           # the seal: of this text without this line
      "format": CACHE_FORMAT,            # this layout
      "ir": ir.SCHEMA_VERSION,           # the IR's meaning
      "module": "pkg.tools",
      "source_sha256": "...",            # of the module source mypy checked
      "tools": [                         # declaration order
        {
          "name": ..., "qualname": ...,
          "fingerprint": ...,            # signature_fingerprint(...)
          "ir": {...},                   # ir.to_json(tool)
          "describe": {...},             # describe()'s entry
          "rendered": {"openai": {...}, "openai:strict": {...}, ..., "gemini": {"error": "..."}}
        }
      ]
    }

Written deterministically (sorted keys, 2-space indent, a final newline) and
atomically (a temporary file in the same directory, then ``os.replace``).
The seal lets the plugin trust the file's ``checked`` record without
parsing the rest: any edit to the text breaks it. The runtime loader needs
neither; it checks the format, the IR version, the source and the
fingerprints.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from toolcall import ir

if TYPE_CHECKING:
    from toolcall.render import Rendered

__all__ = [
    "CACHE_DIR",
    "CACHE_FORMAT",
    "VARIANTS",
    "cache_path",
    "dumps",
    "fingerprint",
    "ir_parameters",
    "module_content",
    "remove",
    "sealed_head",
    "source_sha256",
    "tool_entry",
    "variant_key",
    "write_atomic",
]

#: Bumped whenever the file layout changes.
CACHE_FORMAT: Final = 2
CACHE_DIR: Final = "__toolcall__"

# Top-level lines of the text ``dumps`` writes. Nested lines are indented
# further and JSON strings hold no raw newline, so each marks one place.
_SEAL: Final = b'\n  "content_sha256": "'
_FORMAT_LINE: Final = '\n  "format": '
_TOOLS_LINE: Final = b'\n  "tools": '

#: Every provider variant the cache holds, as ``(provider, strict)``.
VARIANTS: Final[tuple[tuple[str, bool], ...]] = (
    ("openai", False),
    ("openai", True),
    ("openai-responses", False),
    ("openai-responses", True),
    ("anthropic", False),
    ("anthropic", True),
    ("mcp", False),
    ("mcp", True),
    ("gemini", False),
)


def variant_key(provider: str, strict: bool) -> str:
    """The key of a rendered variant in the cache: ``"openai"`` or ``"openai:strict"``."""
    return f"{provider}:strict" if strict else provider


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

    That is ``json.dumps(..., sort_keys=True, indent=2, ensure_ascii=False)``
    of ``content`` with one more key, ``content_sha256``: the digest of the
    text without that line.
    """
    from toolcall.pretty_json import indented

    text = indented(content) + "\n"
    at = text.index(_FORMAT_LINE)
    seal = hashlib.sha256(text.encode()).hexdigest()
    return f'{text[:at]}{_SEAL.decode()}{seal}",{text[at:]}'


def sealed_head(data: bytes) -> dict[str, Any] | None:
    """Every top-level field but ``tools`` of a cache file's bytes, or ``None`` unless its seal holds.

    Only the head is parsed: the plugin reads its ``checked`` record on
    each tool module's first tool, and most of a file is its tools.
    """
    start = data.find(_SEAL)
    end = start + len(_SEAL) + 64
    stop = data.find(_TOOLS_LINE)
    if start < 0 or stop < end or data[end : end + 2] != b'",':
        return None
    seal = hashlib.sha256(memoryview(data)[:start])
    seal.update(memoryview(data)[end + 2 :])
    if seal.hexdigest().encode() != data[start + len(_SEAL) : end]:
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


def module_content(
    module: str, source_digest: str, tools: Sequence[dict[str, Any]], checked: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The whole cache file for ``module`` but its seal; ``checked`` is the plugin's record, if any."""
    return {
        **({} if checked is None else {"checked": checked}),
        "format": CACHE_FORMAT,
        "ir": ir.SCHEMA_VERSION,
        "module": module,
        "source_sha256": source_digest,
        "tools": list(tools),
    }


def tool_entry(tool: ir.Tool, rendered: Mapping[tuple[str, bool], Rendered | str] | None = None) -> dict[str, Any]:
    """One tool's cache entry: its IR, ``describe`` entry and every rendered variant.

    ``rendered`` is ``render_variants(tool, VARIANTS, copies=False)`` when
    the caller has it already (the plugin reads its findings too); the entry
    may share its parts, so it is for writing out, not for handing out. A variant the provider
    cannot take is recorded as ``{"error": message}`` and raised again as
    ``ValueError`` when emitted.
    """
    from toolcall.render import parameters_schema, render_variants

    if rendered is None:
        rendered = render_variants(tool, VARIANTS, copies=False)  # only written out
    variants = {
        variant_key(provider, strict): found.definition if not isinstance(found, str) else {"error": found}
        for (provider, strict), found in rendered.items()
    }
    return {
        "name": tool.name,
        "qualname": tool.qualname,
        "fingerprint": fingerprint(tool.name, tool.qualname, ir_parameters(tool)),
        "ir": ir.to_json(tool),
        "describe": {
            "module": tool.module,
            "name": tool.name,
            "description": tool.description,
            "parameters": parameters_schema(tool),
        },
        "rendered": variants,
    }
