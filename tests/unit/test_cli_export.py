"""``toolcall export``, run as users run it: a subprocess in a project directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.paths import ROOT, TESTS

GOLDEN = TESTS / "golden" / "export"
VARIANTS = [
    ("openai", False),
    ("openai", True),
    ("openai-responses", False),
    ("openai-responses", True),
    ("anthropic", False),
    ("anthropic", True),
    ("mcp", False),
    ("mcp", True),
    ("gemini", False),
]


def toolcall(
    cwd: Path, *arguments: str, env: dict[str, str] | None = None, flags: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``python -m toolcall ...`` in ``cwd``, with toolcall importable from this checkout."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, *flags, "-m", "toolcall", *arguments],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def golden(provider: str, strict: bool) -> Path:
    return GOLDEN / f"weather-{provider}{'-strict' if strict else ''}.json"


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    """A copy of ``examples/`` without any schema cache."""
    target = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", target, ignore=shutil.ignore_patterns("__toolcall__", "__pycache__"))
    return target


def write_package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


TOOL = '''
import toolcall

@toolcall.tool
def {name}(city: str) -> str:
    """{doc}"""
    return city
'''


@pytest.mark.parametrize(("provider", "strict"), VARIANTS)
def test_the_examples_export_as_the_golden_file(examples: Path, provider: str, strict: bool) -> None:
    result = toolcall(examples, "export", "weather", "--format", provider, *(["--strict"] if strict else []))
    assert result.returncode == 0, result.stderr
    assert result.stdout == golden(provider, strict).read_text(encoding="ascii")
    # What Anthropic strict mode moves into descriptions is said, one line each.
    warnings = result.stderr.splitlines()
    assert all(line.startswith("toolcall: warning: ") for line in warnings)
    assert len(warnings) == (3 if (provider, strict) == ("anthropic", True) else 0)


@pytest.mark.slow  # runs mypy with the plugin
def test_export_from_the_schema_cache_is_the_same_under_OO(examples: Path) -> None:
    pytest.importorskip("mypy")
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "weather.py"],
        cwd=examples,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert (examples / "__toolcall__" / "weather.json").is_file()
    served = toolcall(examples, "export", "weather", env={"TOOLCALL_CACHE": "require"}, flags=("-OO",))
    assert served.returncode == 0, served.stderr
    assert served.stdout == golden("openai", False).read_text(encoding="ascii")  # every description kept


def test_the_same_output_byte_for_byte_across_runs_and_out_file(examples: Path) -> None:
    first = toolcall(examples, "export", "weather", "--format", "anthropic")
    again = toolcall(examples, "export", "weather", "--format", "anthropic", "--out", "tools.json")
    assert again.returncode == 0
    count = len(json.loads(first.stdout))
    assert again.stdout == f"wrote {count} tools to tools.json\n"
    assert again.stderr == ""
    assert (examples / "tools.json").read_bytes() == first.stdout.encode("ascii")
    assert not [p.name for p in examples.iterdir() if p.name.endswith(".tmp")]


def test_package_discovery_sorts_modules_and_imports_each_once(tmp_path: Path) -> None:
    log = str(tmp_path / "imports.log")
    counting = f"with open({log!r}, 'a') as log:\n    log.write(__name__ + '\\n')\n"
    write_package(
        tmp_path,
        {
            "app/__init__.py": counting,
            "app/tools_a.py": counting + TOOL.format(name="alpha", doc="Alpha."),
            "app/helpers.py": counting + "VALUE = 1\n",
            "app/sub/__init__.py": counting,
            "app/sub/tools_b.py": counting + TOOL.format(name="beta", doc="Beta."),
            "app/__main__.py": "raise SystemExit('the package command line ran')\n",
        },
    )
    result = toolcall(tmp_path, "export", "--package", "app", "--format", "mcp")
    assert result.returncode == 0, result.stderr
    assert [tool["name"] for tool in json.loads(result.stdout)] == ["beta", "alpha"]  # app.sub.tools_b < app.tools_a
    imported = (tmp_path / "imports.log").read_text().split()
    assert (
        sorted(imported) == sorted(set(imported)) == ["app", "app.helpers", "app.sub", "app.sub.tools_b", "app.tools_a"]
    )


def test_a_module_that_fails_to_import_is_named_without_a_traceback(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/good.py": TOOL.format(name="alpha", doc="A."),
            "app/bad.py": "import missing_dependency\n",
        },
    )
    for arguments in (["--package", "app"], ["app.bad"]):
        result = toolcall(tmp_path, "export", *arguments)
        assert result.returncode == 1
        assert result.stdout == ""
        assert result.stderr == (
            "toolcall: error: cannot import app.bad: ModuleNotFoundError: No module named 'missing_dependency'\n"
        )


def test_a_name_used_by_two_modules_is_refused_naming_both(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {"one.py": TOOL.format(name="lookup", doc="One."), "two.py": TOOL.format(name="lookup", doc="Two.")},
    )
    result = toolcall(tmp_path, "export", "two", "one")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == "toolcall: error: tool name 'lookup' is used by one, two; a model cannot tell them apart\n"


def test_a_module_without_tools_is_an_error_when_named(tmp_path: Path) -> None:
    write_package(tmp_path, {"plain.py": "VALUE = 1\n"})
    result = toolcall(tmp_path, "export", "plain")
    assert (result.returncode, result.stdout) == (1, "")
    assert "plain has no tools" in result.stderr


def test_output_is_ascii_whatever_the_descriptions_hold(tmp_path: Path) -> None:
    write_package(tmp_path, {"intl.py": TOOL.format(name="wetter", doc="Wetter für Köln, 東京 ☂.")})
    result = toolcall(tmp_path, "export", "intl")
    assert result.returncode == 0, result.stderr
    assert result.stdout.isascii()
    assert json.loads(result.stdout)[0]["function"]["description"] == "Wetter für Köln, 東京 ☂."


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([], "name at least one MODULE, or --package PKG"),
        (["weather", "--format", "gemini", "--strict"], "gemini has no strict mode"),
        (["weather", "--format", "cohere"], "invalid choice: 'cohere'"),
    ],
)
def test_usage_errors_exit_2(examples: Path, arguments: list[str], message: str) -> None:
    result = toolcall(examples, "export", *arguments)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_one_tool_written_is_said_in_the_singular(tmp_path: Path) -> None:
    write_package(tmp_path, {"solo.py": TOOL.format(name="solo", doc="Solo.")})
    result = toolcall(tmp_path, "export", "solo", "--out", "out.json")
    assert (result.returncode, result.stdout) == (0, "wrote 1 tool to out.json\n")


def test_file_paths_import_as_their_dotted_names(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/sub/__init__.py": "",
            "app/sub/tools_b.py": TOOL.format(name="beta", doc="Beta.") + "\nassert __name__ == 'app.sub.tools_b'\n",
            "scripts/loose.py": TOOL.format(name="loose", doc="Loose.") + "\nassert __name__ == 'loose'\n",
        },
    )
    by_name = toolcall(tmp_path, "export", "app.sub.tools_b", "--format", "mcp")
    by_path = toolcall(tmp_path, "export", "app/sub/tools_b.py", "scripts/loose.py", "--format", "mcp")
    assert by_path.returncode == 0, by_path.stderr
    assert [tool["name"] for tool in json.loads(by_path.stdout)] == ["beta", "loose"]  # app.sub.tools_b < loose
    assert json.loads(by_path.stdout)[0] == json.loads(by_name.stdout)[0]
    elsewhere = toolcall(tmp_path / "scripts", "export", "../app/sub/tools_b.py", "--package", "../app")
    assert elsewhere.returncode == 0, elsewhere.stderr
    assert [tool["function"]["name"] for tool in json.loads(elsewhere.stdout)] == ["beta"]


def test_a_file_path_shadowed_by_another_module_is_refused(tmp_path: Path) -> None:
    write_package(tmp_path, {"scripts/json.py": TOOL.format(name="shadowed", doc="Shadowed.")})
    result = toolcall(tmp_path, "export", "scripts/json.py")
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("toolcall: error: scripts/json.py imports as json, which is ")


@pytest.mark.parametrize("path", ["missing.py", "app/missing.py", "app/"])
def test_a_file_path_that_does_not_exist_is_a_usage_error(tmp_path: Path, path: str) -> None:
    (tmp_path / "app").mkdir()  # a directory, but not a package
    result = toolcall(tmp_path, "export", "weather", path)
    assert result.returncode == 2
    assert result.stderr == f"toolcall: error: {path}: no such Python file\n"
    assert result.stdout == ""


def test_an_unwritable_out_file_is_an_error(examples: Path) -> None:
    result = toolcall(examples, "export", "weather", "--out", str(examples / "missing" / "tools.json"))
    assert result.returncode == 1
    assert result.stderr.startswith("toolcall: error: cannot write ")
    assert len(result.stderr.splitlines()) == 1


def test_every_tool_a_provider_cannot_take_is_named_and_the_rest_exported(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "app.py": TOOL.format(name="fine", doc="Fine.")
            + '\n@toolcall.tool(name="9lives")\ndef nine(x: int) -> int:\n    """Nine."""\n    return x\n'
            + '\n@toolcall.tool(name="8ball")\ndef eight(x: int) -> int:\n    """Eight."""\n    return x\n'
        },
    )
    result = toolcall(tmp_path, "export", "app", "--format", "gemini")
    assert (result.returncode, result.stdout) == (1, "")
    rule = "function names start with a letter or '_', then letters, digits, '_', '.', ':' or '-' (at most 64)"
    assert result.stderr.splitlines() == [
        f'toolcall: warning: 9lives: Gemini: {rule}; rename it with @tool(name="..."); the tool is left out '
        "[toolcall-name]",
        f'toolcall: warning: 8ball: Gemini: {rule}; rename it with @tool(name="..."); the tool is left out '
        "[toolcall-name]",
        "toolcall: error: app: gemini cannot take 9lives, 8ball",
    ]
    assert toolcall(tmp_path, "export", "app", "--format", "openai").returncode == 0
