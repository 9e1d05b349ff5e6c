"""``toolcall check``: the plugin's findings for any project, through mypy's API.

Each test runs ``python -m toolcall check`` in a temporary project with an
empty ``.git`` directory at its root, where mypy (and check) stop looking
for configuration files. The projects that several tests share are checked
once (module fixtures) and copied, mypy's cache with them, so most runs
are warm.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.cached_package import entry_tool
from tests.mypy_settings import INI, PYPROJECT_OVERRIDES
from tests.paths import ROOT

MYPY = tuple(int(part) for part in version("mypy").split("+")[0].split(".")[:2])
#: mypy's own cache for check, under the project.
SCRATCH = ".toolcall_cache"

TOOLS = '''\
"""Tools with one toolcall finding, beside ordinary type errors."""

from toolcall import tool


@tool
def greet(name: str, times: int = 1) -> str:
    """Greet someone.

    Args:
        name: who to greet
        times: how many times
    """
    return name * times


@tool
def echo(text, loud: bool = False) -> str:
    """Echo the text back."""
    return str(text)


@tool
def shout(text, loud: bool = True) -> str:  # type: ignore[toolcall-param]
    """Shout the text back."""
    return str(text)


def broken() -> int:
    return "not an int"
'''

#: The mixed project: a toolcall finding in ``app/tools.py``, and mypy type errors there and in ``app/models.py``.
MIXED = {
    "pyproject.toml": "[tool.mypy]\n" + PYPROJECT_OVERRIDES,
    "app/__init__.py": "",
    "app/tools.py": TOOLS,
    "app/models.py": 'count: int = "three"\n',
}
ECHO_MESSAGE = "echo.text: has no annotation, so its schema is {} (any JSON value); annotate it"
ECHO_LINE = f"app/tools.py:18: error: {ECHO_MESSAGE}  [toolcall-param]\n"
CACHE = "app/__toolcall__/tools.json"


def write(root: Path, files: Mapping[str, str]) -> Path:
    """A project at ``root`` with ``files``, and a ``.git`` directory where configuration lookups stop."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def check(root: Path, *arguments: str, **environ: str) -> subprocess.CompletedProcess[str]:
    """``python -m toolcall check`` in ``root``, with ``environ`` added to the environment."""
    return run_python(root, "-m", "toolcall", "check", *arguments, **environ)


def run_python(root: Path, *arguments: str, **environ: str) -> subprocess.CompletedProcess[str]:
    unset = ("MYPY_CACHE_DIR", "MYPY_NUM_WORKERS", "GITHUB_WORKSPACE")
    env = {key: value for key, value in os.environ.items() if key not in unset} | environ
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, *arguments], cwd=root, env=env, capture_output=True, text=True, timeout=300)


def copy(project: Path, tmp_path: Path) -> Path:
    """A copy of ``project`` (mypy's cache included) to change."""
    return Path(shutil.copytree(project, tmp_path / "project", symlinks=True))


def snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    """Every file of the project but check's own scratch directory: its modification time and bytes."""
    found = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_file() and not relative.startswith((f"{SCRATCH}/", ".git/")):
            found[relative] = (path.stat().st_mtime_ns, path.read_bytes())
    return found


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The mixed project after one check, and that check's result."""
    root = write(tmp_path_factory.mktemp("mixed") / "project", MIXED)
    return root, check(root)


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mixed project with its finding fixed (its type errors left), after one check: every cache current."""
    root = write(tmp_path_factory.mktemp("clean") / "project", MIXED)
    edit(root / "app/tools.py", "def echo(text, ", "def echo(text: str, ")
    result = check(root)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    return root


# -- what it reports -------------------------------------------------------------------------------


def test_reports_only_the_toolcall_findings(mixed: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    _, result = mixed
    # Not mypy's own errors (app/models.py, broken()), not the ignored finding of shout().
    assert (result.returncode, result.stdout, result.stderr) == (1, ECHO_LINE, "")


def test_type_errors_alone_exit_0(mixed: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    root = copy(mixed[0], tmp_path)
    edit(root / "app/tools.py", "def echo(text, ", "def echo(text: str, ")
    result = check(root)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_format_json(mixed: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    result = check(mixed[0], "--format", "json")
    expected = [
        {
            "file": "app/tools.py",
            "line": 18,
            "column": 10,
            "code": "toolcall-param",
            "severity": "error",
            "message": ECHO_MESSAGE,
        }
    ]
    assert result.returncode == 1
    assert json.dumps(json.loads(result.stdout)) == json.dumps(expected)
    assert result.stdout == json.dumps(expected, indent=2) + "\n"


def test_format_github(mixed: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    result = check(mixed[0], "--format", "github")
    assert result.returncode == 1
    assert result.stdout == f"::error file=app/tools.py,line=18,col=10,title=toolcall-param::{ECHO_MESSAGE}\n"
    # In a workflow, a path is the checkout's: the project may be a directory of it.
    result = check(mixed[0], "--format", "github", GITHUB_WORKSPACE=str(mixed[0].parent))
    assert result.stdout.startswith("::error file=project/app/tools.py,line=18,")


def test_writes_the_caches_and_not_the_projects_mypy_cache(
    mixed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, _ = mixed
    cache = json.loads((root / CACHE).read_text(encoding="utf-8"))
    names = [entry["name"] if "refused" in entry else entry_tool(cache, entry).name for entry in cache["tools"]]
    assert (cache["module"], names) == ("app.tools", ["greet", "echo", "shout"])
    assert not (root / "app/__toolcall__/models.json").exists()
    assert not (root / ".mypy_cache").exists()
    assert (root / SCRATCH / "mypy").is_dir()


def test_leaves_an_existing_mypy_cache_alone(tmp_path: Path) -> None:
    root = write(tmp_path / "project", {**MIXED, ".mypy_cache/3.11/marker.json": "{}\n"})
    before = {path: data for path, data in snapshot(root).items() if path.startswith(".mypy_cache/")}
    assert check(root).returncode == 1
    assert {path: data for path, data in snapshot(root).items() if path.startswith(".mypy_cache/")} == before
    assert (root / CACHE).is_file()


# -- the project's own configuration ---------------------------------------------------------------

PYRIGHT = {
    "pyproject.toml": """\
        [project]
        name = "weather"
        version = "0.1.0"

        [tool.pyright]
        include = ["app"]
        typeCheckingMode = "strict"

        [tool.toolcall]
        strict = false
        providers = ["openai", "anthropic"]
        exclude = ["app.legacy"]
        """,
    "app/__init__.py": "",
    "app/tools.py": '''\
        from toolcall import tool


        @tool
        def tally(counts: dict[str, int]) -> int:
            """Add up the counts."""
            return sum(counts.values())
        ''',
    "app/legacy.py": '''\
        from toolcall import tool


        @tool
        def total(*numbers: int) -> int:
            """Add up the numbers."""
            return sum(numbers)
        ''',
}


def test_a_project_without_mypy_configuration_gets_its_toolcall_settings(tmp_path: Path) -> None:
    # strict = false and no Gemini: no toolcall-strict for dict[str, int]; exclude: app.legacy's *numbers is not
    # looked at.
    root = write(tmp_path / "project", PYRIGHT)
    result = check(root)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert (root / CACHE).is_file()
    assert not (root / "app/__toolcall__/legacy.json").exists()
    assert not (root / ".mypy_cache").exists()


def test_a_project_without_mypy_configuration_uses_the_defaults(tmp_path: Path) -> None:
    files = {name: text for name, text in PYRIGHT.items() if name != "pyproject.toml"}
    result = check(write(tmp_path / "project", files))
    assert result.returncode == 1
    assert [line.rsplit("  ", 1)[1] for line in result.stdout.splitlines()] == [
        "[toolcall-param]",  # app/legacy.py: *numbers
        "[toolcall-strict]",  # app/tools.py: counts' value type moved into Gemini's description (a note)
        "[toolcall-strict]",  # and counts under OpenAI, Anthropic and MCP strict (an error)
    ]
    assert [line.split(": ")[1] for line in result.stdout.splitlines()[1:]] == ["note", "error"]


OTHER_CONFIG = {
    # mypy's strict mode (many errors of its own), no plugin, only app checked; toolcall settings beside it.
    "mypy.ini": textwrap.dedent(
        """\
        [mypy]
        strict = True
        files = app
        """
    )
    + INI,
    "pyproject.toml": """\
        [tool.toolcall]
        strict = false
        providers = ["openai", "anthropic", "mcp"]
        """,
    "app/__init__.py": "",
    "app/tools.py": '''\
        from toolcall import tool


        def untyped(value):
            return value


        @tool
        def tally(counts: dict[str, int]) -> int:
            """Add up the counts."""
            return sum(counts.values())


        @tool
        def total(*numbers: int) -> int:
            """Add up the numbers."""
            return sum(numbers)
        ''',
    "other/__init__.py": "",
    "other/tools.py": '''\
        from toolcall import tool


        @tool
        def echo(text) -> str:
            """Echo."""
            return str(text)
        ''',
}


def test_a_project_with_another_mypy_configuration(tmp_path: Path) -> None:
    root = write(tmp_path / "project", OTHER_CONFIG)
    result = check(root)
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [
        "app/tools.py:15: error: total.numbers: *numbers cannot be sent by a model (tool arguments are named); "
        "replace it with a list parameter  [toolcall-param]"
    ]
    assert (root / CACHE).is_file()
    assert not (root / "other/__toolcall__").exists()  # not in mypy's files: not checked


@pytest.mark.skipif(MYPY < (1, 19), reason="disable_error_code takes plugin codes from mypy 1.19")
def test_the_projects_disabled_codes_stay_disabled(tmp_path: Path) -> None:
    files = dict(OTHER_CONFIG)
    files["mypy.ini"] = files["mypy.ini"].replace("files = app\n", "files = app\ndisable_error_code = toolcall-param\n")
    result = check(write(tmp_path / "project", files))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


# -- --frozen --------------------------------------------------------------------------------------


def test_frozen_on_a_current_tree_writes_nothing(clean: Path, tmp_path: Path) -> None:
    root = copy(clean, tmp_path)
    shutil.rmtree(root / SCRATCH)  # cold
    before = snapshot(root)
    for _ in range(2):  # cold, then warm
        result = check(root, "--frozen")
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
        assert snapshot(root) == before


def test_frozen_names_a_missing_cache_and_writes_nothing(clean: Path, tmp_path: Path) -> None:
    root = copy(clean, tmp_path)
    shutil.rmtree(root / "app/__toolcall__")
    before = snapshot(root)
    result = check(root, "--frozen")
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout == (
        f"{CACHE}: error: the schema cache of app.tools is missing: run toolcall check and commit it"
        "  [toolcall-frozen]\n"
    )
    assert snapshot(root) == before
    assert not (root / "app/__toolcall__").exists()


STALE = (
    f"{CACHE}: error: the schema cache of app.tools is out of date: run toolcall check and commit the change"
    "  [toolcall-frozen]\n"
)


def test_frozen_names_a_stale_cache_on_every_run_until_it_is_written(clean: Path, tmp_path: Path) -> None:
    root = copy(clean, tmp_path)
    edit(root / "app/tools.py", "who to greet", "whom to greet")
    before = snapshot(root)
    # Warm: mypy checks the edited module again. Then again: mypy's cache must not vouch for the old file.
    for _ in range(2):
        result = check(root, "--frozen")
        assert (result.returncode, result.stdout, result.stderr) == (1, STALE, "")
        assert snapshot(root) == before
    assert check(root).returncode == 0
    assert snapshot(root)[CACHE] != before[CACHE]
    assert check(root, "--frozen").returncode == 0


def test_frozen_names_a_stale_cache_cold(clean: Path, tmp_path: Path) -> None:
    root = copy(clean, tmp_path)
    shutil.rmtree(root / SCRATCH)
    edit(root / "app/tools.py", "how many times", "how often")
    before = snapshot(root)
    result = check(root, "--frozen")
    assert (result.returncode, result.stdout) == (1, STALE)
    assert snapshot(root) == before


def test_frozen_names_a_hand_edited_cache(clean: Path, tmp_path: Path) -> None:
    # The module's source is unchanged: only its cache metadata's record of the file tells mypy to look again.
    root = copy(clean, tmp_path)
    edit(root / CACHE, "Greet someone.", "Greet anyone.")
    before = snapshot(root)
    result = check(root, "--frozen")
    assert (result.returncode, result.stdout) == (1, STALE)
    assert snapshot(root) == before


def test_frozen_names_files_that_would_be_deleted(clean: Path, tmp_path: Path) -> None:
    root = copy(clean, tmp_path)
    data = (root / CACHE).read_bytes()
    (root / "app/__toolcall__/gone.json").write_bytes(data)  # its module does not exist
    (root / "app/plain.py").write_text("VALUE = 1\n", encoding="utf-8")
    (root / "app/__toolcall__/plain.json").write_bytes(data)  # its module has no tools
    before = snapshot(root)
    result = check(root, "--frozen", "--format", "json")
    expected = [
        {
            "file": "app/__toolcall__/gone.json",
            "line": None,
            "column": None,
            "code": "toolcall-frozen",
            "severity": "error",
            "message": "app.gone no longer exists: run toolcall check to delete its schema cache, and commit that",
        },
        {
            "file": "app/__toolcall__/plain.json",
            "line": None,
            "column": None,
            "code": "toolcall-frozen",
            "severity": "error",
            "message": "app.plain has no tools: run toolcall check to delete its schema cache, and commit that",
        },
    ]
    assert (result.returncode, result.stderr) == (1, "")
    assert json.dumps(json.loads(result.stdout)) == json.dumps(expected)
    assert snapshot(root) == before
    result = check(root, "--frozen", "--format", "github")
    assert result.stdout.splitlines() == [
        f"::error file={item['file']},title=toolcall-frozen::{item['message']}" for item in expected
    ]


# -- the command line ------------------------------------------------------------------------------


def test_help(tmp_path: Path) -> None:
    result = check(tmp_path, "--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: toolcall check")
    assert "--frozen" in result.stdout


@pytest.mark.parametrize("arguments", [["--no-such-option"], ["--format", "xml"]])
def test_usage_errors_exit_2(tmp_path: Path, arguments: list[str]) -> None:
    result = check(tmp_path, *arguments)
    assert (result.returncode, result.stdout) == (2, "")
    assert "usage: toolcall" in result.stderr
    assert arguments[-1] in result.stderr


def test_a_missing_path_exits_2(tmp_path: Path) -> None:
    result = check(write(tmp_path / "project", MIXED), "nowhere")
    assert (result.returncode, result.stdout, result.stderr) == (
        2,
        "",
        "toolcall: error: nowhere: no such file or directory\n",
    )
    assert not (tmp_path / "project" / SCRATCH).exists()


def test_without_mypy_it_says_what_to_install(tmp_path: Path) -> None:
    code = "import sys; sys.modules['mypy'] = None; from toolcall._cli import main; raise SystemExit(main(['check']))"
    result = run_python(write(tmp_path / "project", MIXED), "-c", code)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1
    assert "pip install 'toolcall[mypy]'" in result.stderr


def test_code_mypy_cannot_parse_exits_2(tmp_path: Path) -> None:
    root = write(tmp_path / "project", {**MIXED, "app/bad.py": "def broken(:\n    pass\n"})
    result = check(root)
    assert (result.returncode, result.stdout) == (2, "")
    lines = result.stderr.splitlines()
    assert lines[0].startswith("app/bad.py:1: error: ")
    assert lines[-1] == "toolcall: error: mypy stopped"


def test_paths_choose_what_is_checked(mixed: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    root = copy(mixed[0], tmp_path)
    result = check(root, "app/models.py")
    assert (result.returncode, result.stdout) == (0, "")
