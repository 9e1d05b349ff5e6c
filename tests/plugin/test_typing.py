"""@tool keeps exact signatures: mypy and pyright see through it.

Runs both checkers over tests/typing_cases/decorated.py, which reveals the
decorated functions' types and makes two wrongly typed calls.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.paths import TESTS

CASE = TESTS / "typing_cases" / "decorated.py"


def _line(text: str) -> int:
    return next(i for i, line in enumerate(CASE.read_text().splitlines(), 1) if line.startswith(text))


def test_mypy_sees_exact_signatures() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir=/dev/null", str(CASE)],
        capture_output=True,
        text=True,
        check=False,
    )
    out = run.stdout.replace("builtins.", "")  # mypy before 2.0 spells builtins.str
    assert "Untyped decorator" not in out
    assert 'Revealed type is "def (city: str, days: int =) -> dict[str, object]"' in out
    assert 'Revealed type is "def (str, *, limit: int =) -> list[str]"' in out
    assert "Coroutine[Any, Any, bytes]" in out
    assert 'Revealed type is "toolcall._declarations.tool.ToolDecorator"' in out
    assert f'decorated.py:{_line("get_weather(1)")}: error: Argument 1 to "get_weather"' in out
    assert f'decorated.py:{_line("search(")}: error: Argument "limit" to "search"' in out
    assert out.count(": error:") == 2, out


PYRIGHT = Path(sys.executable).parent / "pyright"


def test_pyright_sees_exact_signatures() -> None:
    pyright = str(PYRIGHT) if PYRIGHT.exists() else shutil.which("pyright")
    assert pyright, "pyright comes with the dev extra"
    run = subprocess.run(
        [pyright, "--outputjson", str(CASE)],
        capture_output=True,
        text=True,
        check=False,
        cwd=CASE.parent,
        # pyright resolves imports through the python of the active environment.
        env={**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"},
    )
    diagnostics = json.loads(run.stdout)["generalDiagnostics"]
    by_line = {d["range"]["start"]["line"] + 1: d for d in diagnostics}
    revealed = [d["message"] for d in diagnostics if d["severity"] == "information"]
    assert 'Type of "get_weather" is "(city: str, days: int = 3) -> dict[str, object]"' in revealed
    assert 'Type of "search" is "(query: str, /, *, limit: int = 10) -> list[str]"' in revealed
    assert any(m.startswith('Type of "fetch" is "(url: str) -> Coroutine') for m in revealed)
    assert 'Type of "toolcall.tool(name="x")" is "ToolDecorator"' in revealed
    errors = [d for d in diagnostics if d["severity"] == "error"]
    assert len(errors) == 2
    assert by_line[_line("get_weather(1)")]["severity"] == "error"
    assert by_line[_line("search(")]["severity"] == "error"
