"""The plugin's cache files on disk: where each one is, which are ours, their lock, and the orphans.

Everything here runs on warm runs too, for every module mypy reports on,
so it imports neither the IR nor the cache format: paths are strings, and
a file is only read or removed by the callers that need its content.
In a frozen run (``toolcall_mypy._cache.frozen``) the orphans are recorded, not removed.

The plugin writes and removes cache files only here (``write_cache_file``,
``remove_cache_file``), and never through a symbolic link: a ``__toolcall__``
directory or a cache file that is a link is someone's own arrangement, and
what it points to may be another package's cache or no cache at all. The
directory is opened without following a link and every later step is taken
relative to that open directory (``dir_fd``), so swapping in a link between
the check and the write cannot redirect it. Where the platform has no
``O_NOFOLLOW`` or ``dir_fd`` (Windows), ``lstat`` checks alone guard it.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import Final

from toolcall._cache.constants import CACHE_DIR

if sys.platform != "win32":
    import fcntl
else:  # pragma: no cover - atomic replace alone on Windows
    fcntl = None

__all__ = [
    "Orphans",
    "SymlinkRefusedError",
    "cache_file",
    "installed",
    "locked",
    "remove_cache_file",
    "write_cache_file",
]

_NOFOLLOW: Final[int] = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY: Final[int] = getattr(os, "O_DIRECTORY", 0)
# Every call below takes ``dir_fd`` (``os.replace`` with ``rename``: one implementation, listed under
# ``rename``); without them all, paths are used whole, guarded by lstat checks.
_AT: Final = bool(_NOFOLLOW) and {os.open, os.mkdir, os.stat, os.unlink, os.rmdir, os.rename} <= os.supports_dir_fd


class SymlinkRefusedError(OSError):
    """A cache file or its ``__toolcall__`` directory is a symbolic link: the plugin neither writes nor removes it."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path} is a symbolic link: the toolcall plugin does not write through symlinks")
        self.path = path


@functools.cache  # a run asks for each module's file several times (thousands of modules)
def cache_file(path: str) -> str:
    """The cache file of the module whose source is ``path`` (``pkg/tools.py`` → ``pkg/__toolcall__/tools.json``)."""
    directory, name = os.path.split(path)
    return os.path.join(directory, CACHE_DIR, f"{os.path.splitext(name)[0]}.json")


def installed(path: str) -> bool:
    """Whether ``path`` is an installed package's file (under ``site-packages``): never ours to write."""
    if "-packages" not in path:  # most paths, asked for every module on every run
        return False
    parts = path.replace("\\", "/").split("/")
    return "site-packages" in parts or "dist-packages" in parts


@contextlib.contextmanager
def locked(directory: str) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (created if missing) while the block runs.

    A ``directory`` that is a symbolic link is neither followed nor locked:
    the block's ``write_cache_file`` or ``remove_cache_file`` refuses it.
    """
    if fcntl is None:  # no fcntl on Windows
        yield  # type: ignore[unreachable, unused-ignore]
        return
    while True:
        fd = _lock_target(directory)
        if fd is None:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                same = os.path.samestat(os.fstat(fd), os.lstat(directory))
            except FileNotFoundError:
                same = False  # removed while we waited: lock the new one
            if same:
                yield
                return
        finally:
            os.close(fd)  # releases the lock


def _lock_target(directory: str) -> int | None:
    """``directory`` (created if missing) opened to lock, or ``None`` when it is a symbolic link."""
    if _is_link(directory):
        return None
    with contextlib.suppress(FileExistsError):  # a link put there meanwhile: the open below tells
        os.makedirs(directory, exist_ok=True)
    try:
        return os.open(directory, os.O_RDONLY | _DIRECTORY | _NOFOLLOW)
    except OSError:  # a link fails as ELOOP, ENOTDIR or EMLINK, by platform: look at it instead
        if _is_link(directory):
            return None
        raise


def write_cache_file(path: str | os.PathLike[str], text: str) -> bool:
    """Write ``text`` to the cache file ``path`` atomically, through no symlink; return whether it changed.

    Skipped when the file holds ``text`` already. The ``__toolcall__``
    directory is created when missing. Raises ``SymlinkRefusedError`` when
    the directory or the file is a symbolic link: nothing is read or written.
    """
    path = os.fspath(path)
    with _CacheDirectory(os.path.dirname(path), create=True) as directory:
        name = os.path.basename(path)
        if directory.holds(name, text):
            return False
        directory.replace(name, text)
    return True


def remove_cache_file(path: str | os.PathLike[str]) -> bool:
    """Delete the cache file ``path`` (and its directory when left empty), through no symlink; whether it existed.

    Raises ``SymlinkRefusedError`` when the ``__toolcall__`` directory or the
    file is a symbolic link. Unlinking a link would leave its target as it
    is, but the link is someone's own, as it is for ``write_cache_file``:
    it stays. Should a link replace the file between the check and the
    unlink, only the link goes (``unlink`` never follows one).
    """
    path = os.fspath(path)
    try:
        directory = _CacheDirectory(os.path.dirname(path), create=False)
    except FileNotFoundError:
        return False  # no cache directory, so no file
    with directory:
        name = os.path.basename(path)
        if directory.mode(name) is None:
            return False
        try:
            os.unlink(directory.at(name), dir_fd=directory.fd)
        except FileNotFoundError:
            return False
        directory.remove_if_empty()
    return True


def _is_link(path: str) -> bool:
    """Whether ``path`` is a symbolic link (or, on Windows, a junction), without following it."""
    return os.path.islink(path) or getattr(os.path, "isjunction", _never)(path)


def _never(path: str) -> bool:
    """No path is a junction (Python before 3.12 cannot tell)."""
    return False


class _CacheDirectory:
    """A cache directory opened without following a link; its files are reached through it (``at``, ``fd``).

    ``fd`` is ``None`` where the platform lacks ``dir_fd`` or ``O_NOFOLLOW``:
    then ``at`` gives whole paths, checked with ``lstat`` only.
    """

    def __init__(self, path: str, *, create: bool) -> None:
        parent, name = os.path.split(path)
        if not name:
            raise ValueError(f"{path!r}: a cache file lives in a directory of its own")
        self.path = path
        self.fd: int | None = None
        self._parent: int | None = None
        if not _AT:
            self._check_path(create)
            return
        if create:
            os.makedirs(parent or os.curdir, exist_ok=True)
        self._parent = os.open(parent or os.curdir, os.O_RDONLY | _DIRECTORY)
        try:
            self.fd = self._open(name, create)
        except BaseException:
            os.close(self._parent)
            raise

    def _open(self, name: str, create: bool) -> int:
        """The directory ``name`` of the parent, opened without following a link (made first if ``create``)."""
        if create:
            with contextlib.suppress(FileExistsError):  # as Path.mkdir: 0777 less the umask
                os.mkdir(name, dir_fd=self._parent)
        try:
            return os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=self._parent)
        except OSError as error:  # a link fails as ELOOP, ENOTDIR or EMLINK, by platform: look at it instead
            if self._linked(name):
                raise SymlinkRefusedError(self.path) from error
            raise

    def _linked(self, name: str) -> bool:
        """Whether the entry ``name`` of the parent is a symbolic link (``False`` when there is none)."""
        try:
            return stat.S_ISLNK(os.stat(name, dir_fd=self._parent, follow_symlinks=False).st_mode)
        except OSError:
            return False

    def _check_path(self, create: bool) -> None:
        """Without ``dir_fd``: refuse a linked directory (create it if ``create``), by ``lstat`` alone."""
        if _is_link(self.path):
            raise SymlinkRefusedError(self.path)
        if create:
            os.makedirs(self.path, exist_ok=True)
        elif not os.path.isdir(self.path):
            raise FileNotFoundError(errno.ENOENT, "no cache directory", self.path)

    def __enter__(self) -> _CacheDirectory:
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in (self.fd, self._parent):
            if fd is not None:
                os.close(fd)
        self.fd = self._parent = None

    def at(self, name: str) -> str:
        """What to pass with ``dir_fd=self.fd`` for the file ``name`` in this directory."""
        return name if self.fd is not None else os.path.join(self.path, name)

    def mode(self, name: str) -> int | None:
        """The mode of the file ``name`` (``None``: there is none); refused when it is a symbolic link."""
        try:
            mode = os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False).st_mode
        except FileNotFoundError:
            return None
        if stat.S_ISLNK(mode) or (not _AT and _is_link(os.path.join(self.path, name))):
            raise SymlinkRefusedError(os.path.join(self.path, name))
        return mode

    def holds(self, name: str, text: str) -> bool:
        """Whether the file ``name`` holds ``text`` (read as ``open`` reads text); refused when it is a link."""
        mode = self.mode(name)
        if mode is None or not stat.S_ISREG(mode):  # reading a FIFO would wait for a writer
            return False
        try:
            fd = os.open(self.at(name), os.O_RDONLY | _NOFOLLOW, dir_fd=self.fd)
        except OSError:
            self.mode(name)  # refused if it became a link since it was looked at
            return False
        try:
            with open(fd, encoding="utf-8") as handle:
                return handle.read() == text
        except (OSError, UnicodeDecodeError):
            return False

    def replace(self, name: str, text: str) -> None:
        """Write ``text`` to a new temporary file here, renamed to ``name`` (replacing a link there, not its target)."""
        temporary = f".{name}.{os.urandom(8).hex()}.tmp"
        # Not mkstemp, which makes the file private (0600): created with 0666, the umask
        # applies as to any other new file. O_EXCL|O_NOFOLLOW: never an existing name, never a link.
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
        fd = os.open(self.at(temporary), flags, 0o666, dir_fd=self.fd)
        try:
            with open(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(self.at(temporary), self.at(name), src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(self.at(temporary), dir_fd=self.fd)
            raise

    def remove_if_empty(self) -> None:
        """Remove this directory if no file is left in it (``rmdir`` never follows a link, and fails on one)."""
        with contextlib.suppress(OSError):  # other modules' caches are still there
            if self._parent is None:
                os.rmdir(self.path)
            else:
                os.rmdir(os.path.basename(self.path), dir_fd=self._parent)


class Orphans:
    """Removes the cache files whose module file is gone, once per directory per run."""

    def __init__(self, log: Callable[[str], None] | None = None) -> None:
        self._log = log
        self._swept: set[str] = set()

    def sweep(self, path: str, handles: Callable[[str], bool], module: str) -> None:
        """Remove the orphaned cache files of ``module``'s directory; ``handles`` says which modules are ours."""
        directory = os.path.dirname(path)
        if directory in self._swept:
            return
        self._swept.add(directory)
        package = module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]
        for stem in _orphans(directory):
            name = package if stem == "__init__" else f"{package}.{stem}" if package else stem
            if handles(name):
                self._remove(os.path.join(directory, CACHE_DIR, f"{stem}.json"), name)

    def _remove(self, orphan: str, module: str) -> None:
        from toolcall_mypy._cache.frozen import active_frozen

        frozen = active_frozen()
        if frozen is not None:
            frozen.delete(orphan, module, gone=True)
            return
        try:
            with locked(os.path.dirname(orphan)):
                removed = remove_cache_file(orphan)
        except SymlinkRefusedError as refused:
            if self._log is not None:
                self._log(f"toolcall: left {orphan} ({refused})")
            return
        if removed and self._log is not None:
            self._log(f"toolcall: removed {orphan} ({module} no longer exists)")


def _orphans(directory: str) -> list[str]:
    """The stems of the cache files in ``directory``'s cache directory whose module file is gone."""
    directory = directory or os.curdir  # a module given as a bare file name lives in the working directory
    cache = os.path.join(directory, CACHE_DIR)
    if _is_link(cache):  # what it lists is another directory's: none of them are this one's orphans
        return []
    try:
        cached = os.listdir(cache)
    except OSError:
        return []
    present = set(os.listdir(directory))
    return [
        name[:-5]
        for name in sorted(cached)
        if name.endswith(".json") and not name.startswith(".") and f"{name[:-5]}.py" not in present
    ]
