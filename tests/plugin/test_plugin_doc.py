"""``toolcall-doc`` through mypy itself: off by default, on where enabled, silenced like every code.

Each test runs ``python -m mypy`` (or ``toolcall check``) on a small
project in a temporary directory. mypy takes a plugin's codes in
``enable_error_code`` from its config file and command line from 1.19; the
inline ``# mypy: enable-error-code=`` works on every supported version, and
``toolcall check`` registers the codes before mypy reads the config.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

from tests.corpus_gen import write_corpus
from tests.mypy_settings import PYPROJECT_OVERRIDES
from tests.plugin.test_cli_check import check, write
from tests.plugin_project import MYPY, MYPY_TABLE, Project, environment
from toolcall._render.limits import OPENAI_MAX_DESCRIPTION
from toolcall_mypy._analysis.tool import description_limits

TOOLS = '''\
"""Tools whose docstrings lose text."""

from typing import Annotated

import toolcall
from toolcall import tool


@tool
def search(query: str, limit: int = 10, conn: Annotated[object, toolcall.Injected] = None) -> str:
    """Search the catalogue.

    Note:
        Slow on large catalogues.

    Args:
        query: What to find.
    """
    return query


@tool
def bare(x: int) -> int:
    return x


@tool
def paged(query: str, page: int = 1) -> str:
    """Search, one page at a time.

    Args:
        query: What to find.

    Keyword Args:
        page: Which page, from 1.
    """
    return query
'''

ENABLED = (
    "app/tools.py:9: error: search: the docstring's 'Note:' section is not part of the tool's description: a "
    "model never sees it; move what the model needs into the description (the text before the first section)  "
    "[toolcall-doc]",
    "app/tools.py:10: error: search.limit: has no description: document it in the docstring (Args:, "
    "Parameters, :param name:) or with Param(description=...)  [toolcall-doc]",
    "app/tools.py:22: error: bare: has no description, so a model sees only its name: add a docstring (its text "
    "before the first section describes the tool) or @tool(description=...)  [toolcall-doc]",
    "app/tools.py:23: error: bare.x: has no description: document it in the docstring (Args:, Parameters, "
    ":param name:) or with Param(description=...)  [toolcall-doc]",
)
INLINE = '# mypy: enable-error-code="toolcall-doc"\n'
needs_config_codes = pytest.mark.skipif(MYPY < (1, 19), reason="enable_error_code takes plugin codes from mypy 1.19")


def doc_lines(result: subprocess.CompletedProcess[str], shift: int = 0) -> list[str]:
    """The ``toolcall-doc`` errors of a mypy run, their lines moved up by ``shift``."""
    found = []
    for line in result.stdout.splitlines():
        if line.endswith("[toolcall-doc]"):
            path, number, rest = line.split(":", 2)
            found.append(f"{path}:{int(number) - shift}:{rest}")
    return found


def project(root: Path, tools: str = TOOLS, table: str = MYPY_TABLE) -> Project:
    made = Project(root)
    made.write("pyproject.toml", table + PYPROJECT_OVERRIDES)
    made.write("app/tools.py", tools)
    return made


def test_off_by_default(tmp_path: Path) -> None:
    result = project(tmp_path).mypy()
    assert doc_lines(result) == []
    assert "[toolcall-" not in result.stdout.replace("[toolcall-strict]", "")


def test_on_inline_on_every_supported_mypy(tmp_path: Path) -> None:
    result = project(tmp_path, INLINE + TOOLS).mypy()
    assert doc_lines(result, shift=1) == list(ENABLED)


def test_an_ignore_comment_silences_it(tmp_path: Path) -> None:
    tools = INLINE + TOOLS.replace("@tool\ndef bare", "@tool  # type: ignore[toolcall-doc]\ndef bare")
    tools = tools.replace("def bare(x: int) -> int:", "def bare(x: int) -> int:  # type: ignore[toolcall-doc]")
    result = project(tmp_path, tools).mypy("--warn-unused-ignores")
    assert doc_lines(result, shift=1) == list(ENABLED[:2])
    assert "unused" not in result.stdout


@needs_config_codes
def test_on_with_enable_error_code(tmp_path: Path) -> None:
    table = MYPY_TABLE + 'enable_error_code = ["toolcall-doc"]\n'
    assert doc_lines(project(tmp_path, table=table).mypy()) == list(ENABLED)
    assert doc_lines(project(tmp_path / "cli").mypy("--enable-error-code", "toolcall-doc")) == list(ENABLED)


@needs_config_codes
def test_a_committed_cache_does_not_hide_it(tmp_path: Path) -> None:
    # A cold run over current cache files replays clean tools without analysis; their records hold no
    # toolcall-doc findings, so where the code is on, the tools are analysed.
    made = project(tmp_path)
    made.mypy()
    (tmp_path / ".mypy_cache").rename(tmp_path / "old-cache")
    assert doc_lines(made.mypy("--enable-error-code", "toolcall-doc")) == list(ENABLED)


def test_a_description_over_openais_limit(tmp_path: Path) -> None:
    words = "Look things up. " * 70  # 1,120 characters
    tools = INLINE + f'from toolcall import tool\n\n\n@tool\ndef look(query: str) -> str:\n    """{words.strip()}\n\n'
    tools += '    Args:\n        query: What to find.\n    """\n    return query\n'
    assert doc_lines(project(tmp_path, tools).mypy()) == [
        f"app/tools.py:5: error: look: its description has {len(words.strip())} characters; OpenAI Chat "
        f"Completions accepts at most {OPENAI_MAX_DESCRIPTION}: shorten the docstring's description or pass "
        "@tool(description=...)  [toolcall-doc]"
    ]
    assert description_limits({"anthropic", "mcp", "gemini"}) == ()  # only OpenAI documents one


def test_keyword_args_describe_their_parameter_in_the_cache(tmp_path: Path) -> None:
    made = project(tmp_path)
    made.mypy()
    page = made.properties("paged")["page"]
    assert page["description"] == "Which page, from 1."
    (search,) = [tool for tool in made.tools() if not isinstance(tool, str) and tool.name == "search"]
    assert search.description == "Search the catalogue."  # the Note: section is not in it


# -- toolcall check ----------------------------------------------------------------------------------


def test_check_reports_it_only_where_the_config_enables_it(tmp_path: Path) -> None:
    files = {"pyproject.toml": "[tool.mypy]\n" + PYPROJECT_OVERRIDES, "app/__init__.py": "", "app/tools.py": TOOLS}
    off = check(write(tmp_path / "off", files))
    assert (off.returncode, off.stdout, off.stderr) == (0, "", "")
    files["pyproject.toml"] = '[tool.mypy]\nenable_error_code = ["toolcall-doc"]\n' + PYPROJECT_OVERRIDES
    on = check(write(tmp_path / "on", files))
    assert (on.returncode, on.stderr) == (1, "")
    assert on.stdout.splitlines() == list(ENABLED)  # on every supported mypy: check registers the codes first


# -- a realistic set -----------------------------------------------------------------------------------

CORPUS_MODULES = 200
STRICT_OFF = "\n[tool.toolcall]\nstrict = false\n"
DOC_LINE = re.compile(r"error: (.*)  \[toolcall-doc\]$")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("corpus")
    package = write_corpus(root, modules=CORPUS_MODULES, seed=11).package
    # Its bounds move into descriptions under Anthropic strict: no strict findings, on every mypy.
    (root / "pyproject.toml").write_text(MYPY_TABLE + PYPROJECT_OVERRIDES + STRICT_OFF, encoding="utf-8")
    return root, package


def corpus_mypy(root: Path, package: str, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mypy", "--cache-dir", "/dev/null", *options, "-p", package]
    result = subprocess.run(command, cwd=root, env=environment(), capture_output=True, text=True, timeout=600)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return result


def test_a_realistic_set_reports_nothing_by_default(corpus: tuple[Path, str]) -> None:
    result = corpus_mypy(*corpus)
    assert "toolcall-doc" not in result.stdout
    assert result.returncode == 0, result.stdout


@needs_config_codes
def test_a_realistic_set_loses_no_docstring_text(corpus: tuple[Path, str]) -> None:
    # Long Google docstrings with Args:, Returns:, Raises: lose nothing; only the parameters the
    # generator leaves undocumented (and with no class docstring to fall back on) are reported.
    result = corpus_mypy(*corpus, "--enable-error-code", "toolcall-doc")
    messages = [match[1] for match in map(DOC_LINE.search, result.stdout.splitlines()) if match]
    assert messages
    suffix = ": has no description: document it in the docstring (Args:, Parameters, :param name:) or with "
    assert [m for m in messages if suffix + "Param(description=...)" not in m] == []
