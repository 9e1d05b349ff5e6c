"""``Examples:`` through mypy: a rejected example is a ``toolcall-example`` error at the tool, left out of the cache.

Each test runs mypy with the plugin on a small project
(``tests/plugin_project.py``), then Python in it: the IR the cache holds is
the one introspection builds and checks, and Anthropic's ``input_examples``
served from the cache are introspection's, byte for byte.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

from tests.paths import ROOT
from tests.plugin_project import Project, environment
from toolcall import _ir as ir

TOOLS = '''\
"""Trip tools."""

import enum
from typing import Annotated, TypedDict

import toolcall


class Unit(enum.Enum):
    C = "c"
    F = "f"


class Stop(TypedDict):
    name: str
    minutes: int


@toolcall.tool
def plan(city: str, days: Annotated[int, toolcall.Param(ge=1, le=7)] = 3, unit: Unit = Unit.C,
         stops: list[Stop] | None = None) -> str:
    """Plan a trip.

    Examples:
        {"city": "Oslo", "unit": "f"}
        {"city": "Oslo", "days": 9}
        {"city": "Oslo", "stops": [{"name": "Fram", "minutes": 10}]}
        {"city": "Oslo", "stops": [{"name": "Fram"}]}
        {"city": "Oslo",
    """
    return city


@toolcall.tool  # type: ignore[toolcall-example]
def quiet(n: int) -> int:
    """Count.

    Examples:
        {"n": "one"}
    """
    return n
'''

#: The runtime's side, in the project: introspection and the examples' check, and what emit serves.
RUNTIME = """\
import json, os, sys, warnings
from toolcall import _ir as ir
from toolcall._declarations.tool import module_tools
from toolcall._dispatch.examples import check_examples
from toolcall._introspect import introspect
import toolcall, app.tools

warnings.simplefilter("ignore")
checked = [check_examples(introspect(d).tool)[0] for d in module_tools("app.tools")]
print(json.dumps([ir.to_json(t) for t in checked]))
print(json.dumps(toolcall.emit(app.tools, "anthropic")))
print(json.dumps(toolcall.emit(app.tools, "anthropic", strict=True)))
"""


def runtime(project: Project, cache: str) -> list[str]:
    env = environment()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(project.root), str(ROOT), env.get("PYTHONPATH"))))
    env["TOOLCALL_CACHE"] = cache
    result = subprocess.run(
        [sys.executable, "-c", RUNTIME], cwd=project.root, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_a_rejected_example_is_an_error_at_the_tool_and_left_out_of_the_cache(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.write("app/tools.py", TOOLS)
    result = project.mypy()
    errors = [line for line in result.stdout.splitlines() if "[toolcall-example]" in line]
    assert errors == [
        "app/tools.py:19: error: plan: example 5 is not JSON: invalid JSON on line 5 of the section: "
        "write each example as a JSON object of arguments, one after another; "
        "it and the ones after it are left out  [toolcall-example]",
        'app/tools.py:19: error: plan: example 2 is rejected: invalid argument "days": '
        "out of range (must be at most 7), got 9; fix it to match the parameters or remove it from the Examples: "
        "section  [toolcall-example]",
        'app/tools.py:19: error: plan: example 4 is rejected: invalid argument "stops" at '
        "[0].minutes: a required field is missing (field 'minutes' is required); fix it to match the parameters "
        "or remove it from the Examples: section  [toolcall-example]",
    ], result.stdout
    plan, quiet = project.tools()
    assert isinstance(plan, ir.Tool)
    assert isinstance(quiet, ir.Tool)
    assert plan.examples == ('{"city":"Oslo","unit":"f"}', '{"city":"Oslo","stops":[{"name":"Fram","minutes":10}]}')
    assert quiet.examples == ()

    introspected, plain, strict = runtime(project, "off")
    runtime_tools = [ir.from_json(entry) for entry in json.loads(introspected)]
    assert [dataclasses.replace(t, module=plan.module) for t in runtime_tools] == [plan, quiet]

    served = runtime(project, "require")
    assert served[1:] == [plain, strict], "the cache serves introspection's definitions, byte for byte"
    (definition, _) = json.loads(plain)
    assert json.dumps(definition["input_examples"]) == (
        '[{"city": "Oslo", "unit": "f"}, {"city": "Oslo", "stops": [{"name": "Fram", "minutes": 10}]}]'
    )


#: What loading the module's tools warns, one warning a line.
WARNINGS = """\
import warnings
warnings.simplefilter("always")
warnings.showwarning = lambda message, *rest: print(str(message))
import toolcall, app.tools
toolcall.emit(app.tools, "openai")
"""


def test_a_rejected_example_is_warned_alike_from_the_cache_and_introspected(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.write("app/tools.py", TOOLS)
    project.mypy("--cache-dir", str(tmp_path / ".mypy_cache"))
    env = environment()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(project.root), str(ROOT), env.get("PYTHONPATH"))))
    printed = {}
    for cache in ("require", "off"):
        result = subprocess.run(
            [sys.executable, "-c", WARNINGS],
            cwd=project.root,
            env={**env, "TOOLCALL_CACHE": cache},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
        printed[cache] = [line for line in result.stdout.splitlines() if line.endswith("[toolcall-example]")]
    assert printed["require"] == printed["off"]
    assert len(printed["off"]) == 4, printed
