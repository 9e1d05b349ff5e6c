"""A hostile file system under the cache loader: what first use meets instead of a cache file, and where it stops.

Each case puts something in a cache file's place (a FIFO swapped in after
the file was looked at, a zip member that inflates past the size limit or
lies about its size, a stream that never ends) or in a source module's, and
runs first use in a fresh interpreter, in a thread joined with a bound: it
must not hang, must not raise (but under ``TOOLCALL_CACHE=require``), must
not read more than the limit, and must introspect with the usual warning.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.cached_package import run_python, write_cached_package
from toolcall._cache.loader import MAX_FILE_BYTES

#: Left out of the fast loop (``-m "not slow"``): every case runs fresh interpreters.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(os, "mkfifo") or sys.platform == "win32", reason="POSIX file system only"),
]

#: How long first use may take before it counts as hung (a hang bound, not a timing).
HANG_BOUND = 30.0

#: Runs ``PREPARE``, then first use in a thread joined with a bound, and prints what it saw as JSON.
FIRST_USE = """
import json, os, sys, threading, tracemalloc, warnings
PREPARE
outcome = {}


def first_use():
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import toolcall
            import pkg.tools as tools
            from toolcall._toolset.toolset import as_toolset, loaded_tools

            tracemalloc.start()
            emitted = toolcall.emit(tools, "openai")
            outcome["peak"] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            outcome["emitted"] = json.dumps(emitted)
            outcome["from_cache"] = [t.cached for t in loaded_tools(as_toolset(tools))]
        outcome["warnings"] = [str(w.message) for w in caught]
    except BaseException as exc:
        outcome["error"] = f"{type(exc).__name__}: {exc}"


thread = threading.Thread(target=first_use, daemon=True)
thread.start()
thread.join(HANG_BOUND)
outcome["hung"] = thread.is_alive()
print(json.dumps(outcome), flush=True)
os._exit(0)  # a hung thread would keep the interpreter from exiting
"""

#: The warning of a cache file that is unusable, up to its reason.
UNUSABLE = (
    "the schema cache of 1 module is not served, so its tools are introspected instead: "
    "pkg.tools (its schema cache is unusable: "
)
#: The end of that warning.
REFRESH = "); run mypy with the toolcall plugin (or `toolcall check`) to refresh them"
#: The end of every ``require`` error about a cache that can be written.
WRITES_IT = (
    "run mypy with the toolcall plugin (or `toolcall check`) to write it, "
    "and ship the module's __toolcall__ directory with the module"
)


def first_use(cwd: Path, prepare: str = "", env: dict[str, str] | None = None) -> dict[str, Any]:
    """What first use of ``pkg.tools`` saw in a fresh interpreter in ``cwd``, after running ``prepare``."""
    code = FIRST_USE.replace("PREPARE", prepare).replace("HANG_BOUND", repr(HANG_BOUND))
    try:
        run = run_python(cwd, code, env=env, timeout=HANG_BOUND * 2)
    except subprocess.TimeoutExpired:
        pytest.fail("first use did not return, and its thread's bound did not end the process")
    assert run.returncode == 0, run.stderr
    outcome: dict[str, Any] = json.loads(run.stdout)
    assert outcome["hung"] is False, "first use hung"
    return outcome


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_cached_package(tmp_path)
    return tmp_path


@pytest.fixture
def introspected(project: Path) -> str:
    """What ``emit(pkg.tools, "openai")`` gives by introspection, as ``json.dumps`` text."""
    outcome = first_use(project, env={"TOOLCALL_CACHE": "off"})
    assert outcome["from_cache"] == [False, False]
    return str(outcome["emitted"])


def expect_introspected(outcome: dict[str, Any], introspected: str, reason: str) -> None:
    """First use was not served from the cache, warned once with ``reason``, and emitted the introspected schema."""
    assert "error" not in outcome, outcome["error"]
    assert outcome["from_cache"] == [False, False]
    assert outcome["warnings"] == [f"{UNUSABLE}{reason}{REFRESH}"]
    assert outcome["emitted"] == introspected


def expect_required_error(outcome: dict[str, Any], reason: str) -> None:
    """Under ``TOOLCALL_CACHE=require``: the ``RuntimeError`` that names what is wrong and the command."""
    assert outcome.get("error") == (
        "CacheRequiredError: TOOLCALL_CACHE=require: tool 'get_weather' of 'pkg.tools': "
        f"its schema cache is unusable: {reason}; {WRITES_IT}"
    )


#: ``os.stat`` sees a regular file at the cache's path, as it did before a FIFO was swapped in.
STAT_BEFORE_THE_SWAP = """
CACHE = os.path.abspath(os.path.join("pkg", "__toolcall__", "tools.json"))
_stat = os.stat
_REGULAR = _stat(os.path.join("pkg", "tools.py"))


def stat_before_the_swap(path, *args, **kwargs):
    if isinstance(path, (str, os.PathLike)) and os.path.abspath(os.fspath(path)) == CACHE:
        return _REGULAR
    return _stat(path, *args, **kwargs)


os.stat = stat_before_the_swap
"""


@pytest.mark.parametrize("mode", ["auto", "require"])
def test_a_fifo_swapped_in_after_the_file_was_looked_at_neither_blocks_nor_is_served(
    project: Path, introspected: str, mode: str
) -> None:
    """The file is checked as opened (without blocking), not as it was when a path lookup saw it."""
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    cache.unlink()
    os.mkfifo(cache)
    outcome = first_use(project, STAT_BEFORE_THE_SWAP, env={"TOOLCALL_CACHE": mode})
    if mode == "require":
        expect_required_error(outcome, "it is not a regular file")
    else:
        expect_introspected(outcome, introspected, "it is not a regular file")


def test_a_source_module_swapped_for_a_fifo_makes_the_entry_stale_without_blocking(project: Path) -> None:
    """The module was imported from a regular file; checking whether it changed opens it again, and finds a FIFO.

    Under ``require``, so that nothing introspects the module (which reads its source for descriptions).
    """
    swap = "import pkg.tools\nos.unlink(pkg.tools.__file__)\nos.mkfifo(pkg.tools.__file__)\n"
    outcome = first_use(project, swap, env={"TOOLCALL_CACHE": "require"})
    assert outcome.get("error") == (
        f"CacheRequiredError: TOOLCALL_CACHE=require: tool 'get_weather' of 'pkg.tools': pkg.tools changed; {WRITES_IT}"
    )


def _zip_package(project: Path, archive: Path, cache: list[bytes] | None = None) -> None:
    """``project/pkg`` as a zip, its cache file replaced by the pieces of ``cache`` if given."""
    package = project / "pkg"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for name in ("__init__.py", "tools.py"):
            out.write(package / name, f"pkg/{name}")
        if cache is None:
            out.write(package / "__toolcall__" / "tools.json", "pkg/__toolcall__/tools.json")
            return
        with out.open("pkg/__toolcall__/tools.json", "w", force_zip64=True) as member:
            for piece in cache:
                member.write(piece)


def _unzipped_removed(project: Path) -> None:
    """Leave ``pkg`` to import from its zip alone."""
    shutil.rmtree(project / "pkg")


ZIP_FIRST = "sys.path.insert(0, ARCHIVE)\n"
#: One piece of a zip member of zeros (the same object each time: the test itself holds 1 MiB).
MIB = bytes(1 << 20)


def test_a_cache_in_a_zip_is_served(project: Path, introspected: str) -> None:
    archive = project / "pkg.zip"
    _zip_package(project, archive)
    _unzipped_removed(project)
    outcome = first_use(project, ZIP_FIRST.replace("ARCHIVE", repr(str(archive))))
    assert "error" not in outcome, outcome["error"]
    assert outcome["from_cache"] == [True, True]
    assert outcome["warnings"] == []
    assert outcome["emitted"] == introspected


def test_a_zip_member_larger_than_the_limit_is_refused_before_it_is_inflated(project: Path, introspected: str) -> None:
    """Twice the limit of zeros, a few hundred KB zipped: refused from its declared size, never inflated."""
    archive = project / "pkg.zip"
    _zip_package(project, archive, [MIB] * (2 * MAX_FILE_BYTES // len(MIB)))
    assert archive.stat().st_size < MAX_FILE_BYTES // 64
    _unzipped_removed(project)
    outcome = first_use(project, ZIP_FIRST.replace("ARCHIVE", repr(str(archive))))
    expect_introspected(outcome, introspected, f"it is larger than {MAX_FILE_BYTES} bytes")
    assert outcome["peak"] < MAX_FILE_BYTES // 4, "the member was inflated before it was refused"


def _declare_size(archive: Path, member: str, size: int) -> None:
    """Make the zip's central directory, which zipfile reads sizes from, declare ``size`` as ``member``'s size."""
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zipped:
        assert zipped.getinfo(member).file_size < 0xFFFFFFFF  # a plain size field, no zip64 extra one
    central = data.rfind(b"PK\x01\x02")
    while data[central + 46 : central + 46 + len(member)] != member.encode():
        central = data.rfind(b"PK\x01\x02", 0, central)
    struct.pack_into("<I", data, central + 24, size)
    archive.write_bytes(bytes(data))
    with zipfile.ZipFile(archive) as zipped:
        assert zipped.getinfo(member).file_size == size


@pytest.mark.parametrize("mode", ["auto", "require"])
def test_a_zip_member_that_lies_about_its_size_is_refused_without_a_crash(
    project: Path, introspected: str, mode: str
) -> None:
    """A member that declares 1,000 bytes and inflates to a few MB: zipfile stops at 1,000 and fails its CRC."""
    archive = project / "pkg.zip"
    _zip_package(project, archive, [MIB] * 4)
    _declare_size(archive, "pkg/__toolcall__/tools.json", 1000)
    _unzipped_removed(project)
    outcome = first_use(project, ZIP_FIRST.replace("ARCHIVE", repr(str(archive))), env={"TOOLCALL_CACHE": mode})
    if mode == "require":
        expect_required_error(outcome, "it cannot be read (BadZipFile)")
    else:
        expect_introspected(outcome, introspected, "it cannot be read (BadZipFile)")


#: ``importlib.resources`` gives the package's cache file as a stream of twice the limit, with no size declared;
#: the module's loader is another importer's (a file's cache is read beside it, not as a resource).
ENDLESS_RESOURCE = """
import importlib.resources, io
import pkg.tools


class OtherImporter:
    pass


pkg.tools.__spec__.loader = OtherImporter()

LENGTH = 2 * LIMIT
MIB = bytes(1 << 20)
_files = importlib.resources.files


class Zeros(io.RawIOBase):
    def __init__(self):
        self.left = LENGTH

    def readable(self):
        return True

    def readinto(self, buffer):
        count = min(len(buffer), self.left, len(MIB))  # a raw stream may return less than asked
        buffer[:count] = MIB[:count]
        self.left -= count
        return count


class Resource:
    def __init__(self, name):
        self.name = name

    def joinpath(self, *parts):
        return Resource("/".join([self.name, *parts]))

    def is_file(self):
        return self.name.endswith(".json")

    def open(self, mode="r"):
        assert mode == "rb", mode
        return io.BufferedReader(Zeros())

    def read_bytes(self):
        with self.open("rb") as stream:
            return stream.read()


def files(anchor):
    return Resource("pkg") if getattr(anchor, "__name__", anchor) == "pkg" else _files(anchor)


importlib.resources.files = files
"""


def test_a_resource_stream_is_read_with_a_bound(project: Path, introspected: str) -> None:
    """Another importer's resource, whose size nothing declares: read up to the limit, and refused past it."""
    prepare = ENDLESS_RESOURCE.replace("LIMIT", str(MAX_FILE_BYTES))
    outcome = first_use(project, prepare)
    expect_introspected(outcome, introspected, f"it is larger than {MAX_FILE_BYTES} bytes")
    assert outcome["peak"] < 1.5 * MAX_FILE_BYTES, "the stream was read past the limit"
