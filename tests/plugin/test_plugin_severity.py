"""What the plugin reports about providers: notes and errors, one per site and problem, scoped to the providers.

A rule moved into a description while the dispatcher still enforces it is
a mypy note (the run passes); a schema a listed provider cannot use as
strict, or a tool it cannot take, is an error. ``[tool.toolcall]
providers`` limits both to the providers a project sends tools to, for
mypy, ``toolcall check`` and ``check --frozen`` alike.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

from tests.plugin_project import PYPROJECT, Project, environment

BOUNDED = '''\
from typing import Annotated

from toolcall import Param, tool


@tool
def search(query: str, limit: Annotated[int, Param(ge=1, le=50)] = 10) -> list[str]:
    """Search tickets."""
    return [query] * limit
'''

OPEN = '''\
from toolcall import tool


@tool
def tag(ticket: str, metadata: dict[str, list[int]]) -> str:
    """Tag a ticket."""
    return ticket
'''

GEMINI_NAME = '''\
from toolcall import tool


@tool(name="9lives")
def nine(x: int) -> int:
    """Nine."""
    return x
'''


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


def findings(project: Project, module: str, providers: str | None = None) -> tuple[int, list[str]]:
    """mypy's exit status and its lines about the module (``providers``: the setting's TOML value)."""
    project.write("app/tools.py", module)
    if providers is not None:
        project.write("pyproject.toml", f"{PYPROJECT}\n[tool.toolcall]\nproviders = {providers}\n")
    result = project.mypy("--cache-dir", str(project.root / f".cache-{providers}"))
    return result.returncode, [line for line in result.stdout.splitlines() if line.startswith("app/tools.py")]


def check(project: Project, *options: str) -> tuple[int, list[str]]:
    result = subprocess.run(
        [sys.executable, "-m", "toolcall", "check", *options, "app"],
        cwd=project.root,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, result.stdout.splitlines()


def test_a_rule_moved_into_a_description_is_a_note_and_mypy_passes(project: Project) -> None:
    status, lines = findings(project, BOUNDED)
    assert lines == [
        "app/tools.py:7: note: search.limit: Anthropic strict mode: cannot carry minimum, maximum; "
        "moved to the description ('between 1 and 50')"
    ]
    assert status == 0


def test_an_open_object_under_strict_is_one_error_naming_every_mode_and_the_type(project: Project) -> None:
    status, lines = findings(project, OPEN)
    strict = [line for line in lines if "strict mode" in line]
    assert strict == [
        "app/tools.py:5: error: tag.metadata: OpenAI, Anthropic and MCP strict mode: cannot express "
        "dict[str, list[int]] (an object with open keys); use a TypedDict or dataclass with known keys "
        "(the tool is rendered without strict)  [toolcall-strict]"
    ]
    assert status == 1


def test_providers_scope_the_findings(project: Project) -> None:
    assert findings(project, BOUNDED, '["openai", "gemini"]')[1] == []  # only Anthropic strict drops the bounds
    status, lines = findings(project, OPEN, '["openai"]')
    assert [line for line in lines if "strict mode" in line] == [
        "app/tools.py:5: error: tag.metadata: OpenAI strict mode: cannot express dict[str, list[int]] (an object "
        "with open keys); use a TypedDict or dataclass with known keys (the tool is rendered without strict)  "
        "[toolcall-strict]"
    ]
    assert status == 1


def test_a_tool_a_listed_provider_cannot_take_is_an_error(project: Project) -> None:
    status, lines = findings(project, GEMINI_NAME)
    assert status == 1
    assert len(lines) == 1, lines
    assert "error: 9lives: Gemini: function names start with a letter" in lines[0]
    assert lines[0].endswith("the tool is left out  [toolcall-name]")
    assert findings(project, GEMINI_NAME, '["openai", "anthropic", "mcp"]') == (0, [])


def test_a_note_is_silenced_like_an_error(project: Project) -> None:
    # The note is at the parameter's line, which is the function's line here: the ignore covers it.
    ignored = BOUNDED.replace("-> list[str]:", "-> list[str]:  # type: ignore[toolcall-strict]")
    assert findings(project, ignored) == (0, [])
    project.write("pyproject.toml", f"{PYPROJECT}\n")
    project.write("app/tools.py", "# mypy: disable-error-code=toolcall-strict\n" + BOUNDED)
    result = project.mypy("--cache-dir", str(project.root / ".cache-disabled"))
    assert "note:" not in result.stdout
    assert result.returncode == 0


def test_check_and_frozen_report_notes_without_failing_and_follow_providers(project: Project) -> None:
    project.write("app/tools.py", BOUNDED)
    status, lines = check(project)
    assert status == 0
    assert lines == [
        "app/tools.py:7: note: search.limit: Anthropic strict mode: cannot carry minimum, maximum; "
        "moved to the description ('between 1 and 50')  [toolcall-strict]"
    ]
    assert check(project, "--frozen") == (0, lines)
    status, json_lines = check(project, "--format", "json")
    assert (status, json.loads("\n".join(json_lines))[0]["severity"]) == (0, "note")
    status, github = check(project, "--format", "github")
    assert status == 0
    assert github[0].startswith("::notice file=app/tools.py,line=7,")
    project.write("pyproject.toml", f'{PYPROJECT}\n[tool.toolcall]\nproviders = ["openai"]\n')
    assert check(project) == (0, [])
    project.write("app/tools.py", GEMINI_NAME)
    project.write("pyproject.toml", f'{PYPROJECT}\n[tool.toolcall]\nproviders = ["gemini"]\n')
    status, lines = check(project, "--frozen")
    assert status == 1
    assert any("error: 9lives: Gemini:" in line for line in lines), lines
