"""emit's overloads and the adapters: their results go to the official SDKs without a cast.

Runs ``mypy --strict`` and ``pyright`` (strict for the file of emit's
results), both from the environment running the tests, on tests/typing_sdk/:
``emit_to_sdks.py`` passes ``emit``'s results (one of them changed first) to
openai's Chat Completions and Responses and to anthropic's Messages, and
``adapters_to_sdks.py`` passes the adapters' results back to each SDK with
the next request; neither may give an error. ``emit_to_wrong_sdk.py`` passes MCP's plain dicts to
anthropic and Anthropic tools to openai, and each of those lines must be an
error, so the check can fail. Both checkers run with the case directory as
the working directory, so ``toolcall`` is found as the installed package.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.paths import TESTS

CASES = TESTS / "typing_sdk"
ACCEPTED = CASES / "emit_to_sdks.py"
ADAPTERS = CASES / "adapters_to_sdks.py"
REFUSED = CASES / "emit_to_wrong_sdk.py"
PYRIGHT = Path(sys.executable).parent / "pyright"


def _error_lines(path: Path) -> list[int]:
    """The lines ``path`` marks with ``# error:``."""
    return [i for i, line in enumerate(path.read_text().splitlines(), 1) if "# error:" in line]


def _environment() -> dict[str, str]:
    # pyright resolves imports through the python of the active environment.
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


def test_mypy_accepts_emit_for_each_sdk_and_refuses_the_wrong_one() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir=/dev/null",
            ACCEPTED.name,
            ADAPTERS.name,
            REFUSED.name,
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=CASES,
        env=_environment(),
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert [line for line in errors if line.startswith((ACCEPTED.name, ADAPTERS.name))] == []
    refused = [int(line.split(":")[1]) for line in errors if line.startswith(REFUSED.name)]
    assert refused == _error_lines(REFUSED), run.stdout
    assert all('Argument "tools"' in line for line in errors), run.stdout


def test_pyright_accepts_emit_for_each_sdk_and_refuses_the_wrong_one() -> None:
    pyright = str(PYRIGHT) if PYRIGHT.exists() else shutil.which("pyright")
    assert pyright, "pyright comes with the dev extra"
    run = subprocess.run(
        [pyright, "--outputjson", ACCEPTED.name, ADAPTERS.name, REFUSED.name],
        capture_output=True,
        text=True,
        check=False,
        cwd=CASES,
        env=_environment(),
    )
    diagnostics = json.loads(run.stdout)["generalDiagnostics"]
    errors = [d for d in diagnostics if d["severity"] == "error"]
    assert [d["message"] for d in errors if Path(d["file"]).name in (ACCEPTED.name, ADAPTERS.name)] == []
    refused = sorted(d["range"]["start"]["line"] + 1 for d in errors if Path(d["file"]).name == REFUSED.name)
    assert refused == _error_lines(REFUSED), errors
    assert all('parameter "tools"' in d["message"] for d in errors), errors
