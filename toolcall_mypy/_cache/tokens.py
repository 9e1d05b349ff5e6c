"""Each tool module's token in mypy's cache, worked out once and remembered while its files hold still.

mypy asks ``report_config_data`` about every module on every run, and
checks a module again when the answer differs from the one its cache
recorded. For a tool module the answer is ``[TOKEN, the digest of its cache
file, each source module changed since the file was written]``: a cache file
deleted or edited, or a type module whose docstrings changed (mypy does not
check the importers again for that), makes mypy check the module again, and
the hooks write its file anew.

Working that out reads the cache file's head and hashes the source files it
names. A warm run with nothing changed must not do that for every module, so
each answer is remembered in ``<mypy cache dir>/toolcall/tokens-<digest of
TOKEN>.jsonl``, with the stat of the cache file and of each source file it
compared (modification and change times in nanoseconds, size, inode). While
all of those hold, the bytes are the same and so is the answer; one that
moved (an edit, a fresh checkout, a restored cache) sends that module back
to reading its file. mypy's own cache works the same way: the stat first,
the bytes when it moved.

The file is appended to, one JSON line per answer worked out and one per set
of source files; the last line about a cache file wins. A line that does not
parse or has the wrong shape (a torn write, a hand edit) is skipped; a file
that is not a regular file is ignored; a file with a fifth of its lines
superseded, or any bad line, is written again, compact. Nothing here knows
about mypy, and nothing here imports the IR: a warm run imports this and
the settings only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Iterable
from typing import Any, Final

from toolcall import __version__
from toolcall._cache.constants import CACHE_FORMAT, IR_VERSION
from toolcall._cache.freshness import bytes_sha256, recorded_file, recorded_sha256
from toolcall_mypy._cache.files import cache_file

__all__ = ["TOKEN", "Tokens"]

#: What a tool module's token holds besides its file's digest: a new toolcall
#: release, cache layout or IR version makes mypy check every tool module
#: again, which regenerates its file.
TOKEN: Final = f"toolcall {__version__}; cache format {CACHE_FORMAT}; ir {IR_VERSION}"

#: A tokens file larger than this is not read (and is written again as the run goes).
MAX_TOKENS_FILE: Final = 64 * 1024 * 1024

_NONBLOCK: Final = getattr(os, "O_NONBLOCK", 0)  # a FIFO planted at the path must not block the run

_StatKey = tuple[int, int, int, int]
# cache file -> (its stat, the token's tail, the id of the source files compared, their stats' digest)
# cache file -> its line as read: (stat as a list, token tail, group id, group stats' digest); shapes checked on use
_Remembered = tuple[Any, Any, Any, Any]


def stat_key(path: str) -> _StatKey | None:
    """What says a file's bytes are unchanged while it holds, or ``None`` when there is no file."""
    try:
        file_stat = os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return None
    return (file_stat.st_mtime_ns, file_stat.st_ctime_ns, file_stat.st_size, file_stat.st_ino)


class Tokens:
    """The tokens of this run's tool modules, and each cache file's head and source digest, read once a run.

    ``cache_dir`` is mypy's cache directory; ``None`` (or ``os.devnull``)
    remembers nothing across runs.
    """

    def __init__(self, cache_dir: str | None) -> None:
        remember = cache_dir is not None and cache_dir != os.devnull
        digest = hashlib.sha256(TOKEN.encode()).hexdigest()[:16]
        self._file = os.path.join(cache_dir, "toolcall", f"tokens-{digest}.jsonl") if remember and cache_dir else None
        self._remembered: dict[str, _Remembered] | None = None  # read on the first token
        self._groups: dict[str, list[str]] = {}  # id -> the source files a token compared
        self._group_keys: dict[str, str] = {}  # id -> the digest of their stats now (once a run)
        self._written_groups: set[str] = set()
        self._fd: int | None = None
        # cache file -> (its stat, digest, sealed head): a run reads each file's head once
        self._heads: dict[str, tuple[_StatKey, str, dict[str, Any] | None]] = {}
        self._digests: dict[str, tuple[_StatKey, str]] = {}  # source file -> (stat, byte digest)

    def token(self, path: str) -> list[str] | None:
        """The token of the tool module whose source is ``path``, or ``None`` when it has no cache file."""
        target = cache_file(path)
        key = stat_key(target)
        if key is None:
            self._heads.pop(target, None)
            return None
        remembered = self._recall().get(target)
        if remembered is not None and remembered[0] == [*key] and self._holds(remembered):
            return [TOKEN, *remembered[1]]
        digest_and_head = self.head(target)
        self._heads.pop(target, None)  # the module's last reader in this run: keep no head for it
        if digest_and_head is None:
            return None
        tail, compared = self._tail(digest_and_head[0], digest_and_head[1], path)
        self._remember(target, key, tail, compared)
        return [TOKEN, *tail]

    def head(self, target: str) -> tuple[str, dict[str, Any] | None] | None:
        """A cache file's digest and sealed head (``None`` if unsealed), read once while its stat holds.

        A sealed file's seal is the digest of all of it but the seal: hashing
        it again would tell nothing more. ``None`` when there is no file.
        """
        from toolcall._cache.file_format import sealed_head  # the cache format, only where a file is read

        key = stat_key(target)
        if key is None:
            return None
        entry = self._heads.get(target)
        if entry is None or entry[0] != key:
            data = _read(target)
            if data is None:
                return None
            head = sealed_head(data)
            digest = str(head["content_sha256"]) if head is not None else bytes_sha256(data)
            entry = self._heads[target] = (key, digest, head)
        return entry[1], entry[2]

    def sha256(self, path: str) -> str | None:
        """A source file's byte digest, read again only when its stat moved (many tool modules share a source)."""
        key = stat_key(path)
        if key is None:
            return None
        entry = self._digests.get(path)
        if entry is None or entry[0] != key:
            data = _read(path)
            if data is None:
                return None
            entry = self._digests[path] = (key, bytes_sha256(data))
        return entry[1]

    def _tail(self, digest: str, head: dict[str, Any] | None, path: str) -> tuple[list[str], list[str]]:
        """The token after ``TOKEN``: the file's digest and each source module moved since; and the files compared."""
        sources = head.get("sources") if head is not None else None
        if not isinstance(sources, dict):
            return [digest, "unreadable"], []
        directory = os.path.dirname(path)
        own = os.path.basename(path)  # mypy checks a module whose own source changed again: no need to look
        moved, compared = [], []
        for name, record in sources.items():
            file = recorded_file(record)
            if file is None and recorded_sha256(record) is not None:
                continue  # an installed module: mypy sees its interface change, and the runtime its digests
            if file == own:
                continue
            current = None
            if file is not None:
                compared.append(os.path.normpath(os.path.join(directory, file)))
                current = self.sha256(compared[-1])
            if current is None or current != recorded_sha256(record):
                moved.append(name)
        return [digest, *moved], compared

    def _holds(self, remembered: _Remembered) -> bool:
        """Whether a remembered answer, its cache file's stat matching, is well formed and its sources unmoved.

        A warm run reads thousands of answers and uses each once: its shape is checked here, on use.
        """
        _, tail, group, group_key = remembered
        return (
            type(group) is str
            and type(group_key) is str
            and self._group_key(group) == group_key
            and type(tail) is list
            and all(type(part) is str for part in tail)
        )

    def _group_key(self, group: str) -> str | None:
        """The digest of the stats, now, of the source files ``group`` names (once a run)."""
        digest = self._group_keys.get(group)
        if digest is None:
            files = self._groups.get(group)
            if files is None:
                return None
            digest = self._group_keys[group] = _stats_digest(files)
        return digest

    def _remember(self, target: str, key: _StatKey, tail: list[str], compared: list[str]) -> None:
        group = hashlib.sha256("\0".join(compared).encode("utf-8", "surrogatepass")).hexdigest()[:16]
        self._groups.setdefault(group, compared)
        # A group's stats are taken once a run, after its first module's digests, so never newer than a
        # module's digests: a file changed in between reads as changed next run, never as unchanged.
        group_key = self._group_key(group) or ""
        remembered = self._recall()
        remembered[target] = ([*key], tail, group, group_key)
        lines = [] if group in self._written_groups else [["group", group, compared]]
        self._written_groups.add(group)
        self._append([*lines, ["file", target, list(key), tail, group, group_key]])

    def _recall(self) -> dict[str, _Remembered]:
        """The remembered tokens, read on first use."""
        if self._remembered is None:
            self._remembered = {}
            if self._file is not None:
                self._load(self._file)
        return self._remembered

    def _load(self, file: str) -> None:
        data = _read(file, limit=MAX_TOKENS_FILE, follow=False)
        if not data:
            return
        lines = _parsed_lines(data)
        valid = 0
        for line in lines:
            valid += self._take(line)
        assert self._remembered is not None
        live = len(self._remembered) + len(self._groups)
        # Compact once a fifth is superseded: every warm run reads the whole file, a rewrite happens once.
        if valid < len(lines) or len(lines) > live + live // 4 + 64:
            self._compact(file)
        else:
            self._written_groups.update(self._groups)

    def _take(self, line: Any) -> bool:
        """Take one parsed line; whether it had the right shape."""
        assert self._remembered is not None
        if _is_group(line):
            self._groups[line[1]] = line[2]
            return True
        if type(line) is list and len(line) == 6 and line[0] == "file" and type(line[1]) is str:
            self._remembered[line[1]] = (line[2], line[3], line[4], line[5])  # the rest is checked on use
            return True
        return False

    def _compact(self, file: str) -> None:
        """Write the file again with the last line about each cache file, and the groups they name."""
        assert self._remembered is not None
        used = {remembered[2] for remembered in self._remembered.values() if type(remembered[2]) is str}
        lines: list[list[Any]] = [["group", group, files] for group, files in self._groups.items() if group in used]
        for target, (key, tail, group, group_key) in self._remembered.items():
            lines.append(["file", target, key, tail, group, group_key])
        temporary = f"{file}.{os.urandom(8).hex()}.tmp"
        try:
            with open(temporary, "x", encoding="ascii") as handle:
                handle.write("".join(_line(line) for line in lines))
            os.replace(temporary, file)
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            self._file = None  # cannot write here: work out every token, remember none
            return
        self._written_groups.update(group for group in self._groups if group in used)

    def _append(self, lines: Iterable[list[Any]]) -> None:
        """Add lines at the end of the tokens file, in one write (appends of other processes do not interleave)."""
        if self._file is None:
            return
        try:
            if self._fd is None:
                os.makedirs(os.path.dirname(self._file), exist_ok=True)
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | _NONBLOCK
                self._fd = os.open(self._file, flags, 0o666)
                if not stat.S_ISREG(os.fstat(self._fd).st_mode):
                    raise OSError("not a regular file")
            os.write(self._fd, "".join(_line(line) for line in lines).encode("ascii"))
        except OSError:
            self._file = None  # a read-only or odd cache directory: remember nothing, work every token out


def _read(path: str, *, limit: int | None = None, follow: bool = True) -> bytes | None:
    """A regular file's bytes, or ``None``: no file, not a regular file, or more than ``limit`` bytes.

    ``follow``: a symbolic link is read through (else it is not read).
    """
    flags = os.O_RDONLY | _NONBLOCK | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        file_stat = os.fstat(fd)
        if not stat.S_ISREG(file_stat.st_mode) or (limit is not None and file_stat.st_size > limit):
            return None
        with open(fd, "rb", closefd=False) as handle:
            return handle.read()
    except OSError:
        return None
    finally:
        os.close(fd)


def _parsed_lines(data: bytes) -> list[Any]:
    """The file's lines as JSON values; a line that does not parse is ``None``."""
    text = data.rstrip(b"\n")
    try:
        parsed = json.loads(b"[" + text.replace(b"\n", b",") + b"]")  # one parse for the whole file
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        parsed = None
    if isinstance(parsed, list) and parsed.count(None) == 0 and len(parsed) == text.count(b"\n") + 1:
        return parsed
    lines: list[Any] = []
    for raw in text.split(b"\n"):  # a torn or edited line: the others still count
        try:
            lines.append(json.loads(raw))
        except (ValueError, RecursionError):
            lines.append(None)
    return lines


def _is_group(line: Any) -> bool:
    return (
        type(line) is list
        and len(line) == 3
        and line[0] == "group"
        and type(line[1]) is str
        and type(line[2]) is list
        and all(type(file) is str for file in line[2])
    )


def _stats_digest(files: list[str]) -> str:
    """A digest of the files' stats now (a missing file counts as one)."""
    return hashlib.sha256(repr([stat_key(file) for file in files]).encode()).hexdigest()[:16]


def _line(value: list[Any]) -> str:
    # ASCII: a lone surrogate of an undecodable file name is escaped, and the line stays valid UTF-8.
    return json.dumps(value, separators=(",", ":")) + "\n"
