"""The production path: a module's schema cache is loaded, checked, and used without introspection.

Each case builds a small package in a temporary directory, writes its cache
with the same writer the mypy plugin uses (from the runtime IR here, so the
loader is tested on its own), and runs Python in a subprocess, as production
would: ``python -OO`` with the cache, stale caches, ``TOOLCALL_CACHE``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from toolcall.cache_format import CACHE_FORMAT
from toolcall.ir import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent

TOOLS = '''
"""Tools for the cache tests."""

from enum import Enum
from typing import Annotated, TypedDict

import toolcall
from toolcall import Param


class Unit(str, Enum):
    """Temperature unit."""

    C = "celsius"
    F = "fahrenheit"


class Place(TypedDict):
    """A place."""

    lat: Annotated[float, Param(ge=-90, le=90)]
    """Latitude in degrees."""


@toolcall.tool
def get_weather(city: str, days: int = 3, unit: Unit = Unit.C) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {"city": city, "days": days, "unit": unit.value}


@toolcall.tool
def where(place: Place) -> float:
    """Echo a latitude."""
    return place["lat"]
'''

WRITE_CACHE = """
import sys
import pkg.tools as tools
from toolcall import cache_format as cf
from toolcall.toolset import as_toolset

entries = [cf.tool_entry(t.ir) for t in as_toolset(tools)]
source = open(tools.__file__, "rb").read()
content = cf.module_content(tools.__name__, cf.source_sha256(source), entries)
cf.write_atomic(cf.cache_path(tools.__file__), cf.dumps(content))
"""

PROBE = """
import json, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import toolcall
    import pkg.tools as tools
    from toolcall.toolset import as_toolset
    emitted = toolcall.emit(tools, "openai")
    loaded = [t.cached is not None for t in as_toolset(tools)]
    introspected = "toolcall.introspect" in sys.modules
    result = toolcall.run(tools, "get_weather", {"city": "Oslo", "unit": "fahrenheit"})
print(json.dumps({
    "docstring": tools.get_weather.__doc__,
    "description": emitted[0]["function"]["description"],
    "city": emitted[0]["function"]["parameters"]["properties"]["city"].get("description"),
    "lat": emitted[1]["function"]["parameters"]["properties"]["place"]["properties"]["lat"].get("description"),
    "from_cache": loaded,
    "introspected": introspected,
    "result": result.value if result.ok else str(result.error),
    "warnings": [str(w.message) for w in caught],
}))
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tools.py").write_text(TOOLS)
    _python(tmp_path, WRITE_CACHE)
    assert (package / "__toolcall__" / "tools.json").is_file()
    return tmp_path


def replaced(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


def _python(cwd: Path, code: str, *flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "TOOLCALL_CACHE"}
    environment.update({"PYTHONPATH": f"{cwd}{os.pathsep}{ROOT}", **(env or {})})
    return subprocess.run(
        [sys.executable, *flags, "-c", code], cwd=cwd, env=environment, capture_output=True, text=True, check=False
    )


def _probe(cwd: Path, *flags: str, env: dict[str, str] | None = None) -> dict[str, object]:
    run = _python(cwd, PROBE, *flags, env=env)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def test_optimized_python_keeps_every_description_from_the_cache(project: Path) -> None:
    seen = _probe(project, "-OO")
    assert seen["docstring"] is None  # -OO stripped it ...
    assert seen["description"] == "Get the forecast for a city."  # ... the cache kept it
    assert seen["city"] == 'city name, e.g. "Oslo"'
    assert seen["lat"] == "Latitude in degrees."
    assert seen["from_cache"] == [True, True]
    assert seen["introspected"] is False
    assert seen["result"] == {"city": "Oslo", "days": 3, "unit": "fahrenheit"}
    assert seen["warnings"] == []


def test_without_a_cache_toolcall_introspects_quietly(project: Path) -> None:
    (project / "pkg" / "__toolcall__" / "tools.json").unlink()
    seen = _probe(project)
    assert seen["from_cache"] == [False, False]
    assert seen["introspected"] is True
    assert seen["warnings"] == []
    assert seen["description"] == "Get the forecast for a city."


def test_an_edited_module_makes_the_cache_stale(project: Path) -> None:
    tools = project / "pkg" / "tools.py"
    tools.write_text(tools.read_text().replace("days: int = 3", "days: int = 4"))
    seen = _probe(project)
    assert seen["from_cache"] == [False, False]
    assert any("changed since" in w and "introspecting" in w for w in seen["warnings"])  # type: ignore[union-attr]
    assert seen["result"] == {"city": "Oslo", "days": 4, "unit": "fahrenheit"}


def test_a_changed_signature_is_caught_without_the_source(project: Path) -> None:
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    content = json.loads(cache.read_text())
    content["tools"][0]["fingerprint"] = "0" * 32
    cache.write_text(json.dumps(content))
    seen = _probe(project)
    assert seen["from_cache"] == [False, True]
    assert any("signature changed" in w for w in seen["warnings"])  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "corrupt",
    [
        pytest.param(lambda text: text[: len(text) // 2], id="truncated"),
        pytest.param(lambda text: replaced(text, f'"format": {CACHE_FORMAT}', '"format": 999'), id="wrong-format"),
        pytest.param(lambda text: replaced(text, f'"ir": {SCHEMA_VERSION}', '"ir": 999'), id="wrong-ir-version"),
        pytest.param(lambda text: "junk \x00\xff", id="junk"),
        pytest.param(lambda text: "[]", id="not-an-object"),
        pytest.param(lambda text: json.dumps({**json.loads(text), "tools": [{"name": "x"}]}), id="bad-entry"),
    ],
)
def test_a_corrupt_cache_warns_and_falls_back(project: Path, corrupt: object) -> None:
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    cache.write_text(corrupt(cache.read_text()))  # type: ignore[operator]
    seen = _probe(project)
    assert seen["from_cache"] == [False, False]
    assert seen["warnings"], "a stale or corrupt cache must warn"
    assert seen["result"] == {"city": "Oslo", "days": 3, "unit": "fahrenheit"}


def test_require_fails_loudly_on_a_stale_or_missing_cache(project: Path) -> None:
    assert _probe(project, env={"TOOLCALL_CACHE": "require"})["from_cache"] == [True, True]
    (project / "pkg" / "__toolcall__" / "tools.json").write_text("{}")
    run = _python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert run.returncode != 0
    assert "TOOLCALL_CACHE=require" in run.stderr
    (project / "pkg" / "__toolcall__" / "tools.json").unlink()
    run = _python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert "no schema cache" in run.stderr


def test_off_ignores_the_cache(project: Path) -> None:
    seen = _probe(project, env={"TOOLCALL_CACHE": "off"})
    assert seen["from_cache"] == [False, False]
    assert seen["warnings"] == []


def test_an_unknown_mode_is_an_error(project: Path) -> None:
    run = _python(project, PROBE, env={"TOOLCALL_CACHE": "sometimes"})
    assert "TOOLCALL_CACHE='sometimes'" in run.stderr


def test_loading_a_cache_builds_nothing_until_first_use(project: Path) -> None:
    code = textwrap.dedent(
        """
        import sys, toolcall
        import pkg.tools as tools
        from toolcall.toolset import as_toolset
        toolset = as_toolset(tools)
        assert all(t._ir is None and t.dispatcher is None for t in toolset), "nothing decoded yet"
        first = toolcall.emit(tools, "anthropic")
        assert toolcall.emit(tools, "anthropic") is first
        assert all(t._ir is None for t in toolset), "emit used the cached text"
        assert "toolcall.introspect" not in sys.modules
        assert "toolcall.binder" not in sys.modules
        toolcall.run(tools, "where", {"place": {"lat": 1.5}})
        assert toolset.by_name["where"]._ir is not None and toolset.by_name["get_weather"]._ir is None
        print("ok")
        """
    )
    run = _python(project, code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


def test_cache_files_are_deterministic(project: Path) -> None:
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    first = cache.read_bytes()
    cache.unlink()
    _python(project, WRITE_CACHE, env={"PYTHONHASHSEED": "99"})
    assert cache.read_bytes() == first
    assert first.endswith(b"\n")
    assert json.dumps(json.loads(first), sort_keys=True, indent=2, ensure_ascii=False).encode() + b"\n" == first
