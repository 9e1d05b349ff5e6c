"""The plugin never writes or removes a cache file through a symbolic link.

A ``__toolcall__`` directory that is a link, or a cache file that is one,
is someone's own arrangement: what it points to may be another package's
cache or no cache at all. The end-to-end cases run mypy with the plugin on
a small project (``tests.plugin_project``) and check every file the links
point to, byte for byte; the unit cases call ``write_cache_file`` and
``remove_cache_file`` directly, with and without ``dir_fd`` (Windows has none).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.plugin_project import Project
from toolcall._cache.constants import CACHE_DIR
from toolcall_mypy._cache import files
from toolcall_mypy._cache.files import Orphans, SymlinkRefusedError, locked, remove_cache_file, write_cache_file

# Files a symlinked cache directory points to: named like the project's tool module, its module
# without tools, and modules that do not exist (the orphan sweep's candidates).
FOREIGN = {
    "tools.json": b'{"not": "this project\'s"}\n',
    "plain.json": b"{}\n",
    "ghost.json": b'{"module": "app.ghost"}\n',
    "__init__.json": b"[]\n",
    "notes.txt": b"kept\n",
}


def link(target: Path, at: Path) -> None:
    """Make ``at`` a symbolic link to ``target``, or skip where links cannot be made (Windows without rights)."""
    try:
        at.symlink_to(target, target_is_directory=target.is_dir())
    except (OSError, NotImplementedError) as error:
        pytest.skip(f"no symbolic links here: {error}")


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory``, by relative path, with its bytes."""
    return {str(path.relative_to(directory)): path.read_bytes() for path in directory.rglob("*") if path.is_file()}


@pytest.fixture(params=["dir_fd", "paths"])
def platform(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each unit case twice: with ``dir_fd`` and ``O_NOFOLLOW`` where there are, and by paths and lstat alone."""
    if request.param == "dir_fd" and not files._AT:
        pytest.skip("no dir_fd or O_NOFOLLOW on this platform")
    if request.param == "paths":
        monkeypatch.setattr(files, "_AT", False)
    return str(request.param)


@pytest.mark.slow
def test_a_symlinked_cache_directory_is_left_alone(project: Project, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for name, data in FOREIGN.items():
        (elsewhere / name).write_bytes(data)
    cache_dir = project.root / "app" / CACHE_DIR
    link(elsewhere, cache_dir)
    cold = project.mypy()
    assert snapshot(elsewhere) == FOREIGN  # none changed, deleted or added
    assert "does not write through symlinks" in cold.stderr  # refused, and said so under -v
    project.mypy()  # and a warm run
    assert snapshot(elsewhere) == FOREIGN
    assert cache_dir.is_symlink()


@pytest.mark.slow
def test_a_symlinked_cache_file_is_left_alone(project: Project, tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    for name, data in FOREIGN.items():
        (shared / name).write_bytes(data)
    cache_dir = project.root / "app" / CACHE_DIR
    cache_dir.mkdir()
    # The tool module's file (written), the module without tools' (deleted) and an orphan's (swept).
    for name in ("tools.json", "plain.json", "ghost.json"):
        link(shared / name, cache_dir / name)
    result = project.mypy()
    assert snapshot(shared) == FOREIGN
    for name in ("tools.json", "plain.json", "ghost.json"):
        assert (cache_dir / name).is_symlink(), name  # neither replaced nor unlinked
        assert os.readlink(cache_dir / name) == str(shared / name)
    assert sorted(os.listdir(cache_dir)) == ["ghost.json", "plain.json", "tools.json"]  # no temporary left
    assert "does not write through symlinks" in result.stderr


def test_a_write_refuses_a_symlinked_directory(platform: str, tmp_path: Path) -> None:
    elsewhere, cache = linked_cache_dir(tmp_path)
    with pytest.raises(SymlinkRefusedError, match="does not write through symlinks") as refused:
        write_cache_file(cache / "tools.json", "{}\n")
    assert str(cache) in str(refused.value)
    assert snapshot(elsewhere) == {"tools.json": b"theirs\n"}


def test_a_write_refuses_a_dangling_symlinked_directory(platform: str, tmp_path: Path) -> None:
    cache = tmp_path / "pkg" / CACHE_DIR
    cache.parent.mkdir()
    link(tmp_path / "nowhere", cache)
    with pytest.raises(SymlinkRefusedError):
        write_cache_file(cache / "tools.json", "{}\n")
    assert not (tmp_path / "nowhere").exists()  # not created through the link


def test_a_remove_refuses_a_symlinked_directory(platform: str, tmp_path: Path) -> None:
    elsewhere, cache = linked_cache_dir(tmp_path)
    with pytest.raises(SymlinkRefusedError, match="does not write through symlinks"):
        remove_cache_file(cache / "tools.json")
    assert snapshot(elsewhere) == {"tools.json": b"theirs\n"}
    assert cache.is_symlink()


def test_a_symlinked_file_is_neither_written_nor_removed(platform: str, tmp_path: Path) -> None:
    target = tmp_path / "theirs.json"
    target.write_bytes(b"theirs\n")
    cache = tmp_path / "pkg" / CACHE_DIR
    cache.mkdir(parents=True)
    link(target, cache / "tools.json")
    with pytest.raises(SymlinkRefusedError, match=r"tools\.json is a symbolic link"):
        write_cache_file(cache / "tools.json", "theirs\n")  # not even when it would hold the same text
    with pytest.raises(SymlinkRefusedError):
        remove_cache_file(cache / "tools.json")
    assert target.read_bytes() == b"theirs\n"
    assert (cache / "tools.json").is_symlink()
    assert os.listdir(cache) == ["tools.json"]


def test_a_link_swapped_in_after_the_check_is_still_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not files._AT:
        pytest.skip("without O_NOFOLLOW only the lstat check guards the directory")
    elsewhere, cache = linked_cache_dir(tmp_path)
    monkeypatch.setattr(files, "_is_link", lambda path: False)  # the check saw a directory
    with pytest.raises(SymlinkRefusedError):
        write_cache_file(cache / "tools.json", "{}\n")
    with pytest.raises(SymlinkRefusedError):
        remove_cache_file(cache / "tools.json")
    assert snapshot(elsewhere) == {"tools.json": b"theirs\n"}


def test_a_write_and_a_remove_as_usual(platform: str, tmp_path: Path) -> None:
    cache = tmp_path / "pkg" / CACHE_DIR
    (tmp_path / "pkg").mkdir()
    text = '{\n  "module": "pkg.tools",\n  "name": "\u00e9t\u00e9"\n}\n'
    assert write_cache_file(cache / "tools.json", text)  # the directory is made
    assert (cache / "tools.json").read_bytes() == text.encode()
    umask = os.umask(0)
    os.umask(umask)
    if os.name == "posix":
        assert stat.S_IMODE((cache / "tools.json").stat().st_mode) == 0o666 & ~umask
    assert not write_cache_file(cache / "tools.json", text)  # the same text: not written again
    assert write_cache_file(cache / "tools.json", "{}\n")
    assert write_cache_file(str(cache / "other.json"), "[]\n")
    assert sorted(os.listdir(cache)) == ["other.json", "tools.json"]  # no temporary left
    assert remove_cache_file(cache / "tools.json")
    assert cache.is_dir()  # another module's file is still there
    assert not remove_cache_file(cache / "tools.json")
    assert remove_cache_file(cache / "other.json")
    assert not cache.exists()  # left empty: removed
    assert not remove_cache_file(cache / "other.json")  # no directory at all
    assert os.listdir(tmp_path / "pkg") == []


def test_locked_neither_creates_nor_locks_through_a_symlink(tmp_path: Path) -> None:
    cache = tmp_path / "pkg" / CACHE_DIR
    cache.parent.mkdir()
    link(tmp_path / "nowhere", cache)
    with locked(str(cache)):
        pass
    assert not (tmp_path / "nowhere").exists()


def test_the_orphan_sweep_skips_a_symlinked_directory(tmp_path: Path) -> None:
    elsewhere, _ = linked_cache_dir(tmp_path)
    (elsewhere / "ghost.json").write_bytes(b"{}\n")
    (tmp_path / "pkg" / "__init__.py").write_text("")
    logged: list[str] = []
    Orphans(logged.append).sweep(str(tmp_path / "pkg" / "__init__.py"), lambda module: True, "pkg")
    assert snapshot(elsewhere) == {"tools.json": b"theirs\n", "ghost.json": b"{}\n"}
    assert logged == []


def test_the_orphan_sweep_leaves_a_symlinked_file(platform: str, tmp_path: Path) -> None:
    target = tmp_path / "theirs.json"
    target.write_bytes(b"theirs\n")
    cache = tmp_path / "pkg" / CACHE_DIR
    cache.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    link(target, cache / "ghost.json")
    (cache / "gone.json").write_bytes(b"{}\n")
    logged: list[str] = []
    Orphans(logged.append).sweep(str(tmp_path / "pkg" / "__init__.py"), lambda module: True, "pkg")
    assert os.listdir(cache) == ["ghost.json"]  # the real orphan went, the link stays
    assert target.read_bytes() == b"theirs\n"
    assert any("ghost.json is a symbolic link" in line for line in logged), logged


def linked_cache_dir(root: Path) -> tuple[Path, Path]:
    """``root/pkg/__toolcall__``, a link to ``root/elsewhere``, which holds a ``tools.json``: (target, link)."""
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "tools.json").write_bytes(b"theirs\n")
    cache = root / "pkg" / CACHE_DIR
    cache.parent.mkdir()
    link(elsewhere, cache)
    return elsewhere, cache
