"""Reading a file the loader does not control: opened once without blocking, checked as opened, read with a bound.

The cache loader reads a cache file, and the sources it names, on a tool
module's first use, while other threads may wait for that module. Whatever
sits at the path is checked on the file descriptor it opened, never on the
path beforehand: between a look at a path and its opening another file (a
FIFO, whose read blocks until a writer comes) can take its place. The open
does not block (a FIFO opens at once), ``fstat`` of the open file must say
it is a regular file of at most ``MAX_FILE_BYTES`` (a directory, a device
such as ``/dev/zero``, a huge sparse file are refused unread), and the read
stops one byte past the limit (a file that grows meanwhile, or claims size
0 as ``/proc`` files do). A symlink is followed: it is checked as the file
it opens.

A resource of another importer (a zip, a wheel on ``sys.path``) has no file
descriptor: a zip member's declared size is checked before it is inflated,
and any resource is read with the same bound, so one whose size is unknown
or false is cut off at the limit.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any, Final

from toolcall._cache.constants import MalformedCacheError

__all__ = ["MAX_FILE_BYTES", "read_file", "read_resource"]

#: A cache file larger than this is refused as corrupt (a real one is a few KB per tool); sources too.
MAX_FILE_BYTES: Final = 64 * 1024 * 1024
#: Open for reading without blocking (a FIFO opens at once, with no writer) and, on Windows, without newline changes.
_OPEN_FLAGS: Final = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_TOO_LARGE: Final = f"it is larger than {MAX_FILE_BYTES} bytes"


def read_file(path: Path) -> bytes | None:
    """The bytes of the regular file at ``path``; ``None``: nothing is there (a dangling symlink neither).

    ``MalformedCacheError`` where it is no regular file or too large; ``OSError`` where it cannot be read.
    """
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        return None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise MalformedCacheError("it is not a regular file")
        if status.st_size > MAX_FILE_BYTES:
            raise MalformedCacheError(_TOO_LARGE)
        with open(descriptor, "rb", closefd=False) as handle:
            return _bounded_read(handle)
    finally:
        os.close(descriptor)


def read_resource(target: Any) -> bytes | None:
    """The bytes of an ``importlib.resources`` file that is no path on disk; ``None``: there is none.

    ``MalformedCacheError`` where it is too large; whatever the importer's reader raises where it cannot be read.
    """
    if not target.is_file():
        return None
    declared = _declared_size(target)
    if declared is not None and declared > MAX_FILE_BYTES:
        raise MalformedCacheError(_TOO_LARGE)
    with target.open("rb") as stream:
        return _bounded_read(stream)


def _declared_size(target: Any) -> int | None:
    """The inflated size a zip member's directory entry declares (nothing inflated); ``None`` for anything else."""
    zipfile = sys.modules.get("zipfile")  # a zip's resources are ``zipfile.Path``: the reader imported it
    root, member = getattr(target, "root", None), getattr(target, "at", None)
    if zipfile is None or not isinstance(root, zipfile.ZipFile) or not isinstance(member, str):
        return None
    size: int = root.getinfo(member).file_size
    return size


def _bounded_read(stream: Any) -> bytes:
    """At most ``MAX_FILE_BYTES`` from ``stream``, to its end; ``MalformedCacheError`` where there is more."""
    chunks: list[bytes] = []
    left = MAX_FILE_BYTES + 1
    while left > 0:
        chunk = stream.read(left)  # a raw stream may return fewer bytes than asked before its end
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    if left <= 0:
        raise MalformedCacheError(_TOO_LARGE)
    return b"".join(chunks)  # one chunk is returned as is, not copied
