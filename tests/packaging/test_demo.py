"""``scripts/demo.sh``, the README's first command, tells the story in under 40 lines.

The demo runs in a copy of ``scripts/`` and ``examples/`` without any cache, as a clean clone has
them, with this interpreter (``DEMO_PYTHON``: the dev extras hold what it uses). It runs twice:
cold, then warm with ``--full``. Every value it prints is checked against what this process computes
from the example tools by introspection, for the very calls the demo says it made.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

import pytest

import toolcall
from examples import weather
from tests.paths import ROOT

LIMIT: Final = 40
FULL_HINT: Final = "bash scripts/demo.sh --full"
CODES: Final = ("toolcall-param", "toolcall-type", "toolcall-default")
# What the demo writes into the tree, as .gitignore keeps it out of a clone.
GENERATED: Final = shutil.ignore_patterns("__toolcall__", "__pycache__", ".mypy_cache")

# A demo run in the checkout leaves examples/__toolcall__/weather.json for the module ``weather``;
# imported here as ``examples.weather``, the tools are introspected, which is what these tests compare with.
pytestmark = pytest.mark.filterwarnings("ignore:the schema cache of 1 module is not served:toolcall.ToolcallWarning")


def run_demo(tree: Path, *arguments: str) -> str:
    """``bash scripts/demo.sh`` in ``tree``: stdout and stderr as one stream, as a terminal shows them."""
    env = {key: value for key, value in os.environ.items() if key != "TOOLCALL_CACHE"}
    result = subprocess.run(
        ["bash", str(tree / "scripts" / "demo.sh"), *arguments],
        env=env | {"DEMO_PYTHON": sys.executable},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout
    return result.stdout


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's part of a clean clone: ``scripts/`` and ``examples/``, no cache of any kind."""
    tree = tmp_path_factory.mktemp("clone")
    for directory in ("scripts", "examples"):
        shutil.copytree(ROOT / directory, tree / directory, ignore=GENERATED)
    return tree


@pytest.fixture(scope="module")
def cold(clone: Path) -> str:
    return run_demo(clone)


@pytest.fixture(scope="module")
def warm(clone: Path, cold: str) -> str:
    return run_demo(clone, "--full")


def matches(pattern: str, output: str) -> list[re.Match[str]]:
    return list(re.finditer(pattern, output, flags=re.MULTILINE))


def the_match(pattern: str, output: str) -> re.Match[str]:
    [found] = matches(pattern, output)
    return found


def the_call(found: re.Match[str]) -> tuple[str, dict[str, Any]]:
    """The tool name and arguments a printed call names."""
    arguments = json.loads(found["arguments"])
    assert isinstance(arguments, dict)
    return found["name"], arguments


def test_the_story_fits_in_under_40_lines(cold: str) -> None:
    lines = cold.splitlines()
    assert len(lines) < LIMIT, cold
    assert cold.endswith("\n")
    assert "Traceback" not in cold


def test_mypy_passes_the_example_and_reports_each_flaw_of_the_flawed_tool(cold: str) -> None:
    assert "Success: no issues found in 1 source file" in cold
    for code in CODES:
        the_match(rf"^examples/demo/flawed\.py:\d+: error: send_report\b.*  \[{code}\]$", cold)
    assert "Found 3 errors in 1 file" in cold
    # A rule moved into a description is a note beside the errors, and the example passes with its notes.
    the_match(r"^examples/demo/flawed\.py:\d+: note: recent_reports\.limit: Anthropic strict mode: cannot carry", cold)
    the_match(r"^   \(3 notes, which pass: Anthropic strict mode moves bounds into descriptions\)$", cold)


def test_the_cache_is_shown_with_its_size_and_the_flawed_tool_gets_none(clone: Path, cold: str) -> None:
    cache = clone / "examples" / "__toolcall__" / "weather.json"
    found = the_match(
        r"^examples/__toolcall__/weather\.json: (?P<size>[\d,]+) bytes on disk, (?P<tools>\d+) tools", cold
    )
    assert int(found["size"].replace(",", "")) == cache.stat().st_size
    assert int(found["tools"]) == len(toolcall.tool_names(weather))
    assert not (clone / "examples" / "demo" / "__toolcall__").exists()


def test_emit_under_OO_names_the_tools_and_shows_the_first_lines_of_one_definition(cold: str) -> None:
    found = the_match(r"^get_weather\.__doc__ is None \(-OO\), yet the cache serves (?P<names>.+)$", cold)
    assert found["names"] == ", ".join(toolcall.tool_names(weather))
    header = the_match(r"^.*the first (?P<shown>\d+) of (?P<total>\d+) lines:$", cold)
    text = json.dumps(toolcall.emit(weather.get_weather, "anthropic")[0], indent=2)
    shown = cold[header.end() + 1 :].splitlines()[: int(header["shown"])]
    assert shown == text.splitlines()[: len(shown)]
    assert int(header["total"]) == len(text.splitlines())
    assert '  "description": "Get the forecast for a city.",' in shown  # from the cache: -OO removed the docstring


def test_the_good_call_shows_the_tools_value(cold: str) -> None:
    found = the_match(r"^toolcall\.run (?P<name>[\w-]+)\((?P<arguments>.*)\) -> Ok: (?P<value>.*)$", cold)
    result = toolcall.run(weather, *the_call(found))
    assert result.ok
    assert found["value"] == json.dumps(result.value)


def test_the_bad_call_shows_the_error_the_model_sees(cold: str) -> None:
    found = the_match(
        r"^toolcall\.run (?P<name>[\w-]+)\((?P<arguments>.*)\) -> Err, the model reads:\n"
        r"  (?P<text>.*)\n  to_json\(\): (?P<json>.*)$",
        cold,
    )
    result = toolcall.run(weather, *the_call(found))
    assert not result.ok
    assert found["text"] == str(result)
    assert found["json"] == json.dumps(result.to_json())


def test_export_wrote_the_strict_openai_definitions(clone: Path, cold: str) -> None:
    found = the_match(r"^wrote (?P<path>\S+): (?P<count>\d+) tools \((?P<names>.*)\), (?P<size>[\d,]+) bytes$", cold)
    written = clone / found["path"]
    assert json.dumps(json.loads(written.read_text())) == json.dumps(toolcall.emit(weather, "openai", strict=True))
    assert int(found["size"].replace(",", "")) == written.stat().st_size
    assert found["names"] == ", ".join(toolcall.tool_names(weather))


def test_the_mcp_round_trip_lists_the_tools_and_shows_a_result_and_an_error(cold: str) -> None:
    assert the_match(r"^initialize -> server toolcall (?P<version>\S+), protocol \S+$", cold)["version"] == (
        toolcall.__version__
    )
    assert the_match(r"^tools/list -> (?P<names>.*)$", cold)["names"] == ", ".join(toolcall.tool_names(weather))
    calls = matches(r"^tools/call (?P<name>[\w-]+)\((?P<arguments>.*)\) -> isError=(?P<error>\w+): (?P<text>.*)$", cold)
    assert sorted(found["error"] for found in calls) == ["False", "True"]
    for found in calls:
        result = toolcall.run(weather, *the_call(found))
        assert found["text"] == (str(result) if found["error"] == "True" else json.dumps(result.value))


def test_it_says_how_to_see_the_full_json(cold: str) -> None:
    assert FULL_HINT in cold.splitlines()[-1]


def test_a_warm_run_tells_the_same_story_and_full_adds_every_format(clone: Path, cold: str, warm: str) -> None:
    story = cold.splitlines()[:-1]  # all but the hint, which --full replaces with the JSON
    lines = warm.splitlines()
    assert lines[: len(story)] == story
    assert lines[len(story)].startswith("== every provider format")
    full = lines[len(story) + 1 :]
    introspected = subprocess.run(
        [sys.executable, "-W", "always", str(clone / "examples" / "emit_all.py")],
        env={key: value for key, value in os.environ.items() if key != "TOOLCALL_CACHE"} | {"TOOLCALL_CACHE": "off"},
        capture_output=True,
        text=True,
        check=True,
    )
    # The same JSON as from the cache, and the same warnings (the demo's stream holds both, interleaved).
    assert _without_warnings(full, clone / "examples" / "emit_all.py") == introspected.stdout.splitlines()
    assert _warnings(full) == _warnings(introspected.stderr.splitlines())
    assert _warnings(full)  # Anthropic strict mode moves the example's bounds into descriptions


def _without_warnings(lines: list[str], script: Path) -> list[str]:
    """``lines`` without each warning and the line of ``script`` Python shows after it."""
    code = {line.strip() for line in script.read_text(encoding="utf-8").splitlines() if line.strip()}
    kept: list[str] = []
    shown = False
    for line in lines:
        if "ToolcallWarning: " in line:
            shown = True
        elif shown and line.strip() in code:
            shown = False
        else:
            shown = False
            kept.append(line)
    return kept


def _warnings(lines: list[str]) -> list[str]:
    """The ``ToolcallWarning`` messages among ``lines``, without the file and line they were raised at."""
    return [line.partition("ToolcallWarning: ")[2] for line in lines if "ToolcallWarning: " in line]
