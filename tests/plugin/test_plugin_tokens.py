"""Each tool module's token for mypy's cache (``toolcall_mypy._cache.tokens``), remembered across runs.

A warm run must not read every cache file: the token of a module whose cache
file and source files have not moved comes from the tokens file in mypy's
cache directory. These tests use no mypy: a ``Tokens`` is one run.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from toolcall._cache import file_format
from toolcall._cache.freshness import bytes_sha256
from toolcall_mypy._cache import tokens
from toolcall_mypy._cache.files import cache_file
from toolcall_mypy._cache.tokens import TOKEN, Tokens

TOOLS_SOURCE = "def f(x: int) -> int:\n    return x\n"
TYPES_SOURCE = "class Item:\n    '''An item.'''\n"


def write_module(root: Path, name: str = "tools") -> str:
    """``pkg/<name>.py`` and its cache file, whose records name ``pkg/types_.py`` as a source; the module's path."""
    package = root / "pkg"
    package.mkdir(exist_ok=True)
    (package / f"{name}.py").write_text(TOOLS_SOURCE)
    types_ = package / "types_.py"
    if not types_.exists():
        types_.write_text(TYPES_SOURCE)
    sources = {
        f"pkg.{name}": file_format.source_record((package / f"{name}.py").read_bytes(), f"{name}.py"),
        "pkg.types_": file_format.source_record(types_.read_bytes(), "types_.py"),
    }
    checked: dict[str, object] = {"tools": []}
    text = file_format.dumps(file_format.module_content(f"pkg.{name}", sources, [], checked))
    target = Path(cache_file(str(package / f"{name}.py")))
    target.parent.mkdir(exist_ok=True)
    target.write_text(text)
    return str(package / f"{name}.py")


def seal(path: str) -> str:
    head = file_format.sealed_head(Path(cache_file(path)).read_bytes())
    assert head is not None
    return str(head["content_sha256"])


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every file ``tokens`` reads, in order."""
    seen: list[str] = []
    real: Callable[..., bytes | None] = tokens._read

    def counting(path: str, **options: object) -> bytes | None:
        seen.append(path)
        return real(path, **options)

    monkeypatch.setattr(tokens, "_read", counting)
    return seen


def run(cache_dir: Path, paths: list[str]) -> list[list[str] | None]:
    """One run's tokens of ``paths``."""
    found = Tokens(str(cache_dir))
    return [found.token(path) for path in paths]


def tokens_file(cache_dir: Path) -> Path:
    (found,) = (cache_dir / "toolcall").glob("tokens-*.jsonl")
    return found


def test_a_token_names_the_file_digest_and_nothing_moved(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    assert Tokens(str(tmp_path / "cache")).token(path) == [TOKEN, seal(path)]


def test_a_module_without_a_cache_file_has_no_token(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    os.unlink(cache_file(path))
    assert Tokens(str(tmp_path / "cache")).token(path) is None


def test_the_next_run_reads_no_cache_file_while_nothing_moved(tmp_path: Path, reads: list[str]) -> None:
    paths = [write_module(tmp_path, f"tools_{i}") for i in range(5)]
    first = run(tmp_path / "cache", paths)
    reads.clear()
    assert run(tmp_path / "cache", paths) == first
    assert reads == [str(tokens_file(tmp_path / "cache"))]  # the tokens file alone


def test_an_edited_cache_file_is_read_again(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    before = Tokens(str(tmp_path / "cache")).token(path)
    sealed = seal(path)
    target = Path(cache_file(path))
    target.write_text(target.read_text().replace('"tools": []', '"tools": [ ]'))  # the seal no longer holds
    after = Tokens(str(tmp_path / "cache")).token(path)
    assert before == [TOKEN, sealed]
    assert after == [TOKEN, bytes_sha256(target.read_bytes()), "unreadable"]


def test_a_deleted_cache_file_has_no_token_though_remembered(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    Tokens(str(tmp_path / "cache")).token(path)
    os.unlink(cache_file(path))
    assert Tokens(str(tmp_path / "cache")).token(path) is None


def test_a_changed_source_module_is_named_though_remembered(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    assert Tokens(str(tmp_path / "cache")).token(path) == [TOKEN, seal(path)]
    (tmp_path / "pkg" / "types_.py").write_text(TYPES_SOURCE.replace("An item.", "One item."))
    assert Tokens(str(tmp_path / "cache")).token(path) == [TOKEN, seal(path), "pkg.types_"]
    (tmp_path / "pkg" / "types_.py").write_text(TYPES_SOURCE)  # back as recorded: same bytes, new stat
    assert Tokens(str(tmp_path / "cache")).token(path) == [TOKEN, seal(path)]


def test_a_deleted_source_module_is_named(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    Tokens(str(tmp_path / "cache")).token(path)
    os.unlink(tmp_path / "pkg" / "types_.py")
    assert Tokens(str(tmp_path / "cache")).token(path) == [TOKEN, seal(path), "pkg.types_"]


def test_without_a_cache_directory_nothing_is_remembered(tmp_path: Path, reads: list[str]) -> None:
    path = write_module(tmp_path)
    for cache_dir in (None, os.devnull):
        Tokens(cache_dir).token(path)
        reads.clear()
        assert Tokens(cache_dir).token(path) == [TOKEN, seal(path)]
        assert reads == [cache_file(path), str(tmp_path / "pkg" / "types_.py")]
    assert not any(tmp_path.glob("**/tokens-*.jsonl"))


@pytest.mark.parametrize(
    "garbage",
    [
        b"not json\n",
        b'["file", "x"\n',  # torn
        b"\xff\xfe\x00 not utf-8\n",
        b'["file", 1, [1, 2, 3, 4], [], "g", "k"]\n',  # wrong shapes
        b'["group", "g", [1]]\n',
        b"[" * 100_000 + b"\n",  # deeper than the parser goes
        b'"\\udcff"\n',
        b"\n\n\n",
    ],
)
def test_a_damaged_tokens_file_costs_reads_not_answers(tmp_path: Path, garbage: bytes, reads: list[str]) -> None:
    paths = [write_module(tmp_path, f"tools_{i}") for i in range(3)]
    expected = run(tmp_path / "cache", paths)
    file = tokens_file(tmp_path / "cache")
    lines = file.read_bytes().splitlines(keepends=True)
    file.write_bytes(b"".join(lines[:2]) + garbage + b"".join(lines[2:]))
    assert run(tmp_path / "cache", paths) == expected
    # The damaged file was written again, compact: the next run reads no cache file.
    reads.clear()
    assert run(tmp_path / "cache", paths) == expected
    assert reads == [str(file)]
    assert all(json.loads(line) for line in file.read_text("ascii").splitlines())


def test_a_truncated_last_line_loses_only_that_answer(tmp_path: Path, reads: list[str]) -> None:
    paths = [write_module(tmp_path, f"tools_{i}") for i in range(3)]
    expected = run(tmp_path / "cache", paths)
    file = tokens_file(tmp_path / "cache")
    file.write_bytes(file.read_bytes()[:-7])
    reads.clear()
    assert run(tmp_path / "cache", paths) == expected
    # Only the torn answer is worked out again: its cache file and the source it compares.
    assert reads == [str(file), cache_file(paths[2]), str(tmp_path / "pkg" / "types_.py")]


def test_a_huge_tokens_file_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_module(tmp_path)
    Tokens(str(tmp_path / "cache")).token(path)
    monkeypatch.setattr(tokens, "MAX_TOKENS_FILE", 10)
    assert Tokens(str(tmp_path / "cache")).token(path) == [TOKEN, seal(path)]


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links and FIFOs")
def test_a_planted_link_or_fifo_is_not_followed(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    Tokens(str(tmp_path / "cache")).token(path)
    file = tokens_file(tmp_path / "cache")
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n")
    file.unlink()
    file.symlink_to(outside)
    assert Tokens(str(tmp_path / "cache")).token(path) == [TOKEN, seal(path)]
    assert outside.read_text() == "keep me\n"  # neither read as tokens nor appended to
    file.unlink()
    os.mkfifo(file)
    done: list[list[str] | None] = []
    worker = threading.Thread(target=lambda: done.append(Tokens(str(tmp_path / "cache")).token(path)), daemon=True)
    worker.start()
    worker.join(10)
    assert done == [[TOKEN, seal(path)]]  # no hang on the FIFO


def test_a_cache_directory_that_takes_no_file_still_gives_answers(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / "toolcall").write_text("a file where the directory would be")
    for _ in range(2):
        assert Tokens(str(cache_dir)).token(path) == [TOKEN, seal(path)]
    assert (cache_dir / "toolcall").read_text() == "a file where the directory would be"


def test_superseded_lines_are_compacted(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    target = Path(cache_file(path))
    for _ in range(80):  # each run sees a new stat of the cache file and appends its answer
        os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 1))
        Tokens(str(tmp_path / "cache")).token(path)
    lines = tokens_file(tmp_path / "cache").read_text().splitlines()
    assert len(lines) < 80
    assert Tokens(str(tmp_path / "cache")).token(path) == [TOKEN, seal(path)]


def test_runs_appending_at_once_leave_whole_lines(tmp_path: Path) -> None:
    paths = [write_module(tmp_path, f"tools_{i}") for i in range(40)]
    barrier = threading.Barrier(8)

    def run() -> None:
        barrier.wait()
        found = Tokens(str(tmp_path / "cache"))
        for path in paths:
            found.token(path)

    workers = [threading.Thread(target=run) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    for line in tokens_file(tmp_path / "cache").read_text("ascii").splitlines():
        assert json.loads(line)[0] in ("file", "group")


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="a file name that is not UTF-8")
def test_an_undecodable_module_path_round_trips(tmp_path: Path) -> None:
    name = os.fsdecode(b"tools_\xff")
    path = write_module(tmp_path, name)
    expected = Tokens(str(tmp_path / "cache")).token(path)
    assert expected == [TOKEN, seal(path)]
    assert Tokens(str(tmp_path / "cache")).token(path) == expected
    tokens_file(tmp_path / "cache").read_text("ascii")  # escaped, valid UTF-8


def test_a_remembered_answer_of_the_wrong_shape_is_worked_out_again(tmp_path: Path) -> None:
    path = write_module(tmp_path)
    expected = Tokens(str(tmp_path / "cache")).token(path)
    found = os.stat(cache_file(path))
    key = [found.st_mtime_ns, found.st_ctime_ns, found.st_size, found.st_ino]
    file = tokens_file(tmp_path / "cache")
    for tail, group, group_key in (([5], "g", "k"), (["x"], ["g"], "k"), (["x"], "g", {}), ("x", "g", "k")):
        with file.open("a", encoding="ascii") as handle:  # the cache file's own stat: only the shape is wrong
            handle.write(json.dumps(["file", cache_file(path), key, tail, group, group_key]) + "\n")
        assert Tokens(str(tmp_path / "cache")).token(path) == expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("venv/lib/python3.11/site-packages/pkg/tools.py", True),
        ("C:\\venv\\Lib\\site-packages\\pkg\\tools.py", True),
        ("/usr/lib/python3/dist-packages/pkg/tools.py", True),
        ("project/site-packages-notes/tools.py", False),
        ("project/pkg/tools.py", False),
    ],
)
def test_installed_files_are_never_ours(path: str, expected: bool) -> None:
    from toolcall_mypy._cache.files import installed

    assert installed(path) is expected
