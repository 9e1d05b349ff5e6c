"""A small mypy project in a temporary directory, for the plugin's cache tests.

``app/tools.py`` has two tools and ``app/plain.py`` none; ``Project.mypy``
runs ``python -m mypy -v`` there, with a persistent ``.mypy_cache``, so mypy
logs why it re-checks a module and the plugin logs each file it writes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib.metadata import version
from pathlib import Path
from typing import Any

from tests.cached_package import entry_tool
from tests.mypy_settings import PYPROJECT_OVERRIDES
from toolcall import _ir as ir

MYPY = tuple(int(part) for part in version("mypy").split("+")[0].split(".")[:2])
# From mypy 2.4 the plugin learns when a module has been checked (get_additional_indirect_deps),
# in every mode: it writes each file once, and deletes the file of a module left without tools.
FINISH_HOOK = MYPY >= (2, 4)

# [tool.mypy] alone; PYPROJECT, what a Project starts with, adds the SDK overrides after it.
MYPY_TABLE = '[tool.mypy]\nplugins = ["toolcall_mypy"]\n'

PYPROJECT = MYPY_TABLE + PYPROJECT_OVERRIDES

TOOLS = '''\
"""Weather tools."""

import toolcall
from toolcall import tool


@toolcall.tool
def get_weather(city: str, days: int = 3) -> str:
    """Get the forecast for a city.

    Args:
        city: city name
        days: how many days ahead
    """
    return city * days


@tool(name="convert", description="Convert a temperature.")
def convert_units(value: float, *, exact: bool = False) -> float:
    return value


def not_a_tool(x: int) -> int:
    return x
'''

PLAIN = """\
def helper(x: int) -> int:
    return x
"""


class Project:
    """A temporary project: ``app/tools.py`` (two tools) and ``app/plain.py`` (none)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "app").mkdir(parents=True)
        self.write("pyproject.toml", PYPROJECT)
        self.write("app/__init__.py", "")
        self.write("app/tools.py", TOOLS)
        self.write("app/plain.py", PLAIN)
        self.cache = root / "app" / "__toolcall__" / "tools.json"

    def write(self, name: str, text: str) -> None:
        (self.root / name).write_text(textwrap.dedent(text), encoding="utf-8")

    def edit(self, old: str, new: str) -> None:
        path = self.root / "app" / "tools.py"
        text = path.read_text(encoding="utf-8")
        assert old in text
        before = path.stat().st_mtime_ns
        path.write_text(text.replace(old, new), encoding="utf-8")
        # mypy takes a file with the same size and whole-second mtime as unchanged: move the mtime on.
        later = max(path.stat().st_mtime_ns, before + 2_000_000_000)
        os.utime(path, ns=(later, later))

    def mypy(self, *options: str, start: str | None = None) -> subprocess.CompletedProcess[str]:
        """``mypy -v OPTIONS app``; ``start``: Python code that starts mypy instead of ``-m mypy``."""
        command = [sys.executable, "-m", "mypy"] if start is None else [sys.executable, "-c", start]
        return self.run([*command, "-v", *options, "app"])

    def run(self, command: list[str]) -> subprocess.CompletedProcess[str]:
        """``command`` in the project directory; it must end as mypy does when it checked (0 or 1)."""
        result = subprocess.run(
            command,
            cwd=self.root,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode in (0, 1), result.stdout + result.stderr
        assert "INTERNAL ERROR" not in result.stderr, result.stderr
        return result

    def content(self) -> dict[str, object]:
        """The cache file's content, parsed."""
        return json.loads(self.cache.read_text(encoding="utf-8"))

    def tool_names(self) -> list[str]:
        return [tool.name if isinstance(tool, ir.Tool) else tool for tool in self.tools()]

    def tools(self) -> list[ir.Tool | str]:
        """Each entry of the cache file: its IR, or the name of a tool the plugin refused."""
        content = self.content()
        tools = content["tools"]
        assert isinstance(tools, list)
        return [entry_tool(content, entry) if "ir" in entry else entry["name"] for entry in tools]

    def properties(self, tool: str) -> dict[str, Any]:
        """The ``describe`` properties of a tool, rendered from the IR its cache entry holds."""
        from toolcall._render.definitions import parameters_schema

        (found,) = [t for t in self.tools() if isinstance(t, ir.Tool) and t.name == tool]
        properties: dict[str, Any] = parameters_schema(found)["properties"]
        return properties


def environment() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("MYPY_CACHE_DIR", "MYPY_FORCE_COLOR", "TOOLCALL_CACHE"):
        env.pop(name, None)
    return env


def rechecked(result: subprocess.CompletedProcess[str], module: str) -> bool:
    """Whether mypy threw away the cached metadata of ``module`` in this run."""
    return f"Metadata abandoned for {module}:" in result.stderr


def wrote(result: subprocess.CompletedProcess[str]) -> bool:
    return "toolcall: wrote" in result.stderr
