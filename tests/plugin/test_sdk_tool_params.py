"""emit's result types are toolcall's own copies of the SDKs' tool types: no SDK to analyse, no drift unseen.

A project that calls ``emit`` for every provider, checked by mypy with a
fresh cache, must leave no ``openai`` or ``anthropic`` module in that cache.
The copies must be exact: a copy of ``toolcall`` whose
``toolcall/_toolset/sdk_tool_params.py`` drifts from the SDKs (a value type,
a missing key, a required key), put first on the path, makes both checkers
refuse each of tests/typing_sdk/emit_to_sdks.py's three ``tools=``, the
negative control of tests/plugin/test_sdk_typing.py's accepting runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT, TESTS

CASE = TESTS / "typing_sdk" / "emit_to_sdks.py"
PYRIGHT = Path(sys.executable).parent / "pyright"

PROJECT = """\
import toolcall


@toolcall.tool
def get_weather(city: str) -> str:
    \"\"\"Get the forecast for a city.\"\"\"
    return city


def count() -> int:
    providers = ("openai", "openai-responses", "anthropic", "mcp", "gemini")
    return len(toolcall.emit(get_weather, "openai")) + len(toolcall.emit(get_weather, "openai-responses")) + len(
        toolcall.emit(get_weather, "anthropic")
    ) + sum(len(toolcall.emit(get_weather, provider)) for provider in providers)
"""

#: (what the copy says, what the drifted copy says instead): one drift per TypedDict ``emit`` returns.
DRIFTS = (
    # OpenAIChatTool's function: a value type (the SDK's ``strict`` may be None).
    ("    strict: NotRequired[Optional[bool]]\n", "    strict: NotRequired[bool]\n"),
    # OpenAIResponsesTool: a key of the SDK's missing.
    ("    output_schema: NotRequired[Optional[dict[str, object]]]\n", ""),
    # AnthropicTool: a key the SDK leaves optional, required.
    ('    type: NotRequired[Optional[Literal["custom"]]]\n', '    type: Required[Optional[Literal["custom"]]]\n'),
)
REFUSED_TYPES = ("list[OpenAIChatTool]", "list[OpenAIResponsesTool]", "list[AnthropicTool]")


def _environment(path_first: Path | None = None) -> dict[str, str]:
    # pyright resolves imports through the python of the active environment, which reads PYTHONPATH.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    if path_first is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(path_first), env.get("PYTHONPATH")]))
    return env


def _cached_modules(cache: Path) -> set[str]:
    """The modules whose meta record a mypy run wrote to ``cache`` (as files, or in its SQLite database)."""
    paths = [str(path.relative_to(cache)) for path in cache.rglob("*") if path.is_file()]
    for database in cache.rglob("cache*.db"):
        with contextlib.closing(sqlite3.connect(database)) as connection:
            tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            paths += [path for table in tables for (path,) in connection.execute(f"SELECT path FROM {table}")]
    suffixes = (".meta.json", ".meta.ff")
    found = set()
    for path in paths:
        if path.endswith(suffixes):
            parts = Path(path).parts
            found.add(".".join(parts[1:] if parts[0][0].isdigit() else parts).rsplit(".meta.", 1)[0])
    return {module.removesuffix(".__init__") for module in found}


def test_mypy_follows_no_sdk_for_a_project_that_calls_emit(tmp_path: Path) -> None:
    (tmp_path / "project.py").write_text(PROJECT)
    cache = tmp_path / "cache"
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "project.py"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env=_environment(),
    )
    assert run.returncode == 0, run.stdout + run.stderr
    modules = _cached_modules(cache)
    assert {"project", "toolcall", "toolcall._toolset.emit", "toolcall._toolset.sdk_tool_params"} <= modules
    followed = sorted(module for module in modules if module.split(".")[0] in ("openai", "anthropic", "google"))
    assert followed == []


def _drifted_toolcall(target: Path) -> Path:
    """A copy of ``toolcall`` under ``target`` whose SDK tool types drift; the directory to put first on the path.

    The case file is copied beside it and the checkers run there: both look
    in their working directory before the environment's paths, so the copy
    is what they find (``PYTHONPATH`` alone did not win over this checkout).
    """
    shutil.copytree(ROOT / "toolcall", target / "toolcall", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(CASE, target / CASE.name)
    module = target / "toolcall" / "_toolset" / "sdk_tool_params.py"
    text = module.read_text()
    for exact, drifted in DRIFTS:
        assert text.count(exact) == 1, exact
        text = text.replace(exact, drifted)
    module.write_text(text)
    return target


def test_mypy_refuses_a_drifted_copy_of_each_sdk_tool_type(tmp_path: Path) -> None:
    library = _drifted_toolcall(tmp_path / "lib")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir=/dev/null", CASE.name],
        capture_output=True,
        text=True,
        check=False,
        cwd=library,
        env=_environment(library),
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    for refused in REFUSED_TYPES:
        assert any('Argument "tools"' in line and f'"{refused}"' in line for line in errors), (refused, run.stdout)


def test_pyright_refuses_a_drifted_copy_of_each_sdk_tool_type(tmp_path: Path) -> None:
    pyright = str(PYRIGHT) if PYRIGHT.exists() else shutil.which("pyright")
    assert pyright, "pyright comes with the dev extra"
    library = _drifted_toolcall(tmp_path / "lib")
    run = subprocess.run(
        [pyright, "--outputjson", CASE.name],
        capture_output=True,
        text=True,
        check=False,
        cwd=library,
        env=_environment(library),
    )
    messages = [d["message"] for d in json.loads(run.stdout)["generalDiagnostics"] if d["severity"] == "error"]
    for refused in REFUSED_TYPES:
        assert any(f'"{refused}"' in m and 'parameter "tools"' in m for m in messages), (refused, messages)
