"""``toolcall clean``: orphaned cache files go, everything else stays."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

TOOLS = "import toolcall\n\n@toolcall.tool\ndef f(x: int) -> int:\n    return x\n"


def clean(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolcall", "clean", *arguments],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def project(root: Path, modules: dict[str, str | None]) -> None:
    """Each module's source (``None``: the module is gone) and a cache file for each."""
    for name, source in modules.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if source is not None:
            path.write_text(source)
        cache = path.parent / "__toolcall__" / f"{path.stem}.json"
        cache.parent.mkdir(exist_ok=True)
        cache.write_text("{}\n")


def cache_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("__toolcall__/*"))


def test_removes_orphans_and_says_why(tmp_path: Path) -> None:
    project(
        tmp_path,
        {
            "app/tools.py": TOOLS,
            "app/gone.py": None,
            "app/plain.py": "VALUE = 1\n",
            "app/aliased.py": "from toolcall import tool as expose\n\n@expose\ndef f() -> None: ...\n",
            "app/called.py": "import toolcall as tc\n\n@tc.tool(name='x')\ndef f() -> None: ...\n",
            "app/broken.py": "def f(:\n",  # cannot be parsed: kept
            "app/sub/gone_too.py": None,
        },
    )
    result = clean(tmp_path)
    assert result.returncode == 0, result.stderr
    sep = os.sep
    assert result.stdout.splitlines() == [
        f"removed .{sep}app{sep}__toolcall__{sep}gone.json (.{sep}app{sep}gone.py no longer exists)",
        f"removed .{sep}app{sep}__toolcall__{sep}plain.json (.{sep}app{sep}plain.py has no @tool)",
        f"removed .{sep}app{sep}sub{sep}__toolcall__{sep}gone_too.json "
        f"(.{sep}app{sep}sub{sep}gone_too.py no longer exists)",
    ]
    assert cache_files(tmp_path) == [
        "app/__toolcall__/aliased.json",
        "app/__toolcall__/broken.json",
        "app/__toolcall__/called.json",
        "app/__toolcall__/tools.json",
    ]
    assert not (tmp_path / "app" / "sub" / "__toolcall__").exists()  # left empty: removed too


def test_dry_run_lists_and_removes_nothing(tmp_path: Path) -> None:
    project(tmp_path, {"app/gone.py": None, "app/tools.py": TOOLS})
    before = cache_files(tmp_path)
    result = clean(tmp_path, "--dry-run", "app")
    assert result.returncode == 0
    cache, source = os.path.join("app", "__toolcall__", "gone.json"), os.path.join("app", "gone.py")
    assert result.stdout == f"would remove {cache} ({source} no longer exists)\n"
    assert cache_files(tmp_path) == before


def test_hidden_and_installed_directories_are_not_walked(tmp_path: Path) -> None:
    project(
        tmp_path,
        {".venv/lib/site-packages/pkg/gone.py": None, ".git/x/gone.py": None, "lib/site-packages/pkg/gone.py": None},
    )
    before = cache_files(tmp_path)
    result = clean(tmp_path)
    assert (result.returncode, result.stdout) == (0, "no orphaned cache files; nothing removed\n")
    assert cache_files(tmp_path) == before


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
def test_a_linked_cache_directory_is_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    project(elsewhere, {"gone.py": None})
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__toolcall__").symlink_to(elsewhere / "__toolcall__")
    result = clean(tmp_path, "app")
    assert (result.returncode, result.stdout) == (0, "no orphaned cache files; nothing removed\n")
    assert (elsewhere / "__toolcall__" / "gone.json").exists()


@pytest.mark.parametrize("path", ["missing", "missing.py", "notes.txt"])
def test_a_path_that_is_neither_a_directory_nor_a_module_file_is_a_usage_error(tmp_path: Path, path: str) -> None:
    project(tmp_path, {"app/gone.py": None})
    (tmp_path / "notes.txt").write_text("")
    result = clean(tmp_path, "app", path)
    assert result.returncode == 2
    assert result.stderr == f"toolcall: error: {path}: no such directory or Python file\n"
    assert result.stdout == ""
    assert cache_files(tmp_path) == ["app/__toolcall__/gone.json"]  # nothing removed before the error


def test_nothing_to_remove_is_said(tmp_path: Path) -> None:
    project(tmp_path, {"app/tools.py": TOOLS})
    assert clean(tmp_path).stdout == "no orphaned cache files; nothing removed\n"
    assert clean(tmp_path, "--dry-run").stdout == "no orphaned cache files to remove\n"
    assert cache_files(tmp_path) == ["app/__toolcall__/tools.json"]


def test_a_module_file_path_cleans_that_module_only(tmp_path: Path) -> None:
    project(tmp_path, {"app/gone.py": None, "app/plain.py": "VALUE = 1\n", "app/tools.py": TOOLS})
    gone, plain = os.path.join("app", "gone.py"), os.path.join("app", "plain.py")
    dry = clean(tmp_path, "--dry-run", gone)
    assert dry.stdout == f"would remove {os.path.join('app', '__toolcall__', 'gone.json')} ({gone} no longer exists)\n"
    result = clean(tmp_path, gone, plain, os.path.join("app", "tools.py"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"removed {os.path.join('app', '__toolcall__', 'gone.json')} ({gone} no longer exists)",
        f"removed {os.path.join('app', '__toolcall__', 'plain.json')} ({plain} has no @tool)",
    ]
    assert cache_files(tmp_path) == ["app/__toolcall__/tools.json"]


def test_a_file_found_twice_is_removed_once(tmp_path: Path) -> None:
    project(tmp_path, {"app/gone.py": None})
    result = clean(tmp_path, "app", os.path.join("app", "gone.py"))
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 1


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="POSIX permissions (root ignores them)")
def test_a_file_that_cannot_be_removed_is_an_error(tmp_path: Path) -> None:
    project(tmp_path, {"app/gone.py": None})
    directory = tmp_path / "app" / "__toolcall__"
    directory.chmod(0o500)
    try:
        result = clean(tmp_path)
    finally:
        directory.chmod(0o700)
    assert result.returncode == 1
    assert result.stderr.startswith("toolcall: error: cannot remove ")
