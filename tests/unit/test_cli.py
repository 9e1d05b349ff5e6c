"""The ``toolcall`` command line as a whole: one program, two names, its help and statuses."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mypy_settings import PYPROJECT_OVERRIDES
from tests.paths import ROOT, TESTS
from toolcall._cli import COMMANDS

GOLDEN = TESTS / "golden" / "export"


def python_m(*arguments: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolcall", *arguments],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def console_script() -> str | None:
    """The installed ``toolcall`` script beside this interpreter, if the package is installed."""
    found = Path(sys.executable).parent / ("toolcall.exe" if sys.platform == "win32" else "toolcall")
    return str(found) if found.exists() else None


def test_help_lists_every_command() -> None:
    result = python_m("--help")
    assert result.returncode == 0
    for command in COMMANDS:
        assert command in result.stdout


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_has_help(command: str) -> None:
    result = python_m(command, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: toolcall {command}")


def test_version() -> None:
    import toolcall

    result = python_m("--version")
    assert (result.returncode, result.stdout) == (0, f"toolcall {toolcall.__version__}\n")


@pytest.mark.parametrize("arguments", [[], ["frobnicate"], ["export", "--no-such-option"]])
def test_usage_errors_exit_2(arguments: list[str]) -> None:
    result = python_m(*arguments)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "usage: toolcall" in result.stderr


def test_the_console_script_is_the_same_program(tmp_path: Path) -> None:
    script = console_script()
    if script is None:
        pytest.skip("toolcall is not installed in this interpreter's environment")
    shutil.copy(ROOT / "examples" / "weather.py", tmp_path / "weather.py")
    # Run from the project directory, as a user would: the script finds the module there, as python -m does.
    by_script = subprocess.run([script, "export", "weather"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert by_script.returncode == 0, by_script.stderr
    assert by_script.stdout == (GOLDEN / "weather-openai.json").read_text(encoding="ascii")
    helps = [
        subprocess.run([*runner, "--help"], capture_output=True, text=True, timeout=120).stdout
        for runner in ([script], [sys.executable, "-m", "toolcall"])
    ]
    assert helps[0] == helps[1]


def test_import_toolcall_loads_no_command_line() -> None:
    code = "import sys, toolcall; print(sorted(m for m in sys.modules if m.startswith('toolcall._cli')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout == "[]\n"


def on_terminal(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """Run ``command`` with stderr on a pseudo-terminal: its status, stdout and what the terminal showed."""
    import pty

    leader, follower = pty.openpty()
    try:
        shown = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=follower, timeout=300)
        os.close(follower)
        follower = -1
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    return shown.returncode, shown.stdout, seen


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.parametrize(
    ("arguments", "counter"),
    [
        (["export", "--package", "app"], b"\rexport: 3/3"),
        pytest.param(["check", "app"], b"\rchecking 4 files", marks=pytest.mark.slow),  # runs mypy
    ],
)
def test_progress_shows_on_a_terminal_only(tmp_path: Path, arguments: list[str], counter: bytes) -> None:
    if arguments[0] == "check":
        pytest.importorskip("mypy")
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n" + PYPROJECT_OVERRIDES)
    package = tmp_path / "app"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for index in range(3):
        (package / f"tools_{index}.py").write_text(
            f"import toolcall\n\n@toolcall.tool\ndef tool_{index}(x: int) -> int:\n    return x\n"
        )
    command = [sys.executable, "-m", "toolcall", *arguments]
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    piped = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    assert (piped.returncode, piped.stderr) == (0, "")
    shutil.rmtree(tmp_path / ".toolcall_cache", ignore_errors=True)  # check's counter: every module checked again
    status, stdout, seen = on_terminal(command, tmp_path, environment)
    assert status == 0
    assert stdout == piped.stdout.encode()  # the output does not change when someone watches
    assert counter in seen
