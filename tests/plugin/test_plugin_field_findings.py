"""Findings about a class's field across mypy runs: reported once, where an ignore comment works, warm or cold.

A finding about a field of a class in the module mypy checks is reported at
the field's line; one about a field of another module's class, once per tool
module, at its first tool that reaches the field (mypy has reported the other
module's errors before it checks the tools: docs/decisions.md, "Findings about
class fields"). Each test runs mypy on a small project (``tests/plugin_project.py``)
with a persistent ``.mypy_cache`` and ``warn_unused_ignores``, edits it, and
runs it again.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

pytest.importorskip("mypy")

from tests.mypy_settings import PYPROJECT_OVERRIDES
from tests.plugin_project import MYPY, MYPY_TABLE, Project, rechecked

WORKERS = [()] + ([("--num-workers", "2")] if MYPY >= (2, 0) else [])

MODELS = """\
import socket
from dataclasses import dataclass


@dataclass
class Conn:
    host: str
    sock: socket.socket
"""

TOOLS_USING_MODELS = """\
import toolcall
from app.models import Conn


@toolcall.tool
def connect(conn: Conn) -> str:  # type: ignore[toolcall-type]
    return conn.host
"""

TOOLS_WITH_THE_CLASS = """\
import socket
from dataclasses import dataclass

import toolcall


@dataclass
class Conn:
    host: str
    sock: socket.socket  # type: ignore[toolcall-type]


@toolcall.tool
def connect(conn: Conn) -> str:
    return conn.host
"""

SECOND_TOOL = """

@toolcall.tool
def close(conn: Conn, force: bool = False) -> str:
    return conn.host
"""


def setup(project: Project, tools: str, models: str | None = None) -> None:
    # Diagnostics only: the schema cache has tests of its own (test_plugin_incremental.py).
    project.write(
        "pyproject.toml",
        f"{MYPY_TABLE}warn_unused_ignores = true\n{PYPROJECT_OVERRIDES}\n[tool.toolcall]\ncache = false\n",
    )
    project.write("app/tools.py", tools)
    if models is not None:
        project.write("app/models.py", models)


def add_second_tool(project: Project) -> None:
    text = (project.root / "app" / "tools.py").read_text(encoding="utf-8")
    project.edit(text, text + SECOND_TOOL)


def edit_models(project: Project, text: str) -> None:
    path = project.root / "app" / "models.py"
    before = path.stat().st_mtime_ns
    project.write("app/models.py", text)
    later = max(path.stat().st_mtime_ns, before + 2_000_000_000)  # as Project.edit: mypy sees the change
    os.utime(path, ns=(later, later))


def errors(result: subprocess.CompletedProcess[str]) -> list[str]:
    """mypy's error lines, without the summary."""
    return [line for line in result.stdout.splitlines() if re.match(r"\S+:\d+: (error|note):", line)]


@pytest.mark.parametrize("options", WORKERS, ids=lambda options: " ".join(options) or "sequential")
def test_ignore_on_the_field_line_holds_after_an_edit_of_the_tools(project: Project, options: tuple[str, ...]) -> None:
    setup(project, TOOLS_WITH_THE_CLASS)
    cold = project.mypy(*options)
    assert errors(cold) == [], cold.stdout
    add_second_tool(project)  # a second tool reaches the ignored field
    warm = project.mypy(*options)
    assert rechecked(warm, "app.tools")
    assert errors(warm) == [], warm.stdout  # still silenced, and the ignore is used
    assert warm.returncode == 0


@pytest.mark.parametrize("options", WORKERS, ids=lambda options: " ".join(options) or "sequential")
def test_field_of_another_module_is_reported_once_per_tool_module(project: Project, options: tuple[str, ...]) -> None:
    setup(project, TOOLS_USING_MODELS, MODELS)
    cold = project.mypy(*options)
    assert errors(cold) == [], cold.stdout  # reported at connect's parameter, and ignored there
    add_second_tool(project)  # only tools.py changes: models.py comes from mypy's cache
    warm = project.mypy(*options)
    assert rechecked(warm, "app.tools")
    assert not rechecked(warm, "app.models")
    assert errors(warm) == [], warm.stdout  # close reaches the same field: no second error, no unused ignore
    project.edit("def connect(conn: Conn) -> str:  # type: ignore[toolcall-type]", "def connect(conn: str) -> str:")
    project.edit("return conn.host\n\n\n@toolcall", "return conn\n\n\n@toolcall")
    moved = project.mypy(*options)
    (line,) = errors(moved)  # the first tool that reaches the field is now close
    assert re.match(
        r"app[/\\]tools\.py:\d+: error: close\.conn\.sock \(field app\.models\.Conn\.sock\): "
        r"socket\.socket has no JSON schema; .*\[toolcall-type\]$",
        line,
    ), line


def test_a_new_field_finding_in_another_module_reaches_the_warm_tools(project: Project) -> None:
    setup(project, TOOLS_USING_MODELS.replace("  # type: ignore[toolcall-type]", ""), MODELS)
    edit_models(project, MODELS.replace("    sock: socket.socket\n", ""))
    cold = project.mypy()
    assert errors(cold) == [], cold.stdout
    edit_models(project, MODELS)  # the class changes: mypy checks the tools again
    warm = project.mypy()
    assert rechecked(warm, "app.models")
    assert [re.sub(r"; .*", "", line.replace(os.sep, "/")) for line in errors(warm)] == [
        "app/tools.py:6: error: connect.conn.sock (field app.models.Conn.sock): socket.socket has no JSON schema"
    ]
