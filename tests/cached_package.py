"""A package with a schema cache, written the way the mypy plugin writes it, for tests that run Python on it.

``pkg/tools.py`` holds ``TOOLS``; ``WRITE_CACHE`` writes its cache with the same
writer the plugin uses, from the runtime IR (so the loader is tested on its
own); ``run_python`` runs code in a fresh interpreter as production would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.paths import ROOT
from toolcall import _ir as ir
from toolcall._cache import file_format

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
from toolcall._cache import file_format as cf
from toolcall_mypy._cache.files import write_cache_file
from toolcall._toolset.toolset import as_toolset, loaded_tools

entries = [cf.tool_entry(t.ir, [tools.__name__]) for t in loaded_tools(as_toolset(tools))]
source = open(tools.__file__, "rb").read()
content = cf.module_content(tools.__name__, {tools.__name__: cf.source_record(source, "tools.py")}, entries, {})
write_cache_file(str(cf.cache_path(tools.__file__)), cf.dumps(content))
"""


def run_python(
    cwd: Path, code: str, *flags: str, env: dict[str, str] | None = None, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """``python *flags -c code`` in ``cwd``, which and the checkout are importable, without ``TOOLCALL_CACHE``.

    ``timeout``: a bound on a run that might hang (``subprocess.TimeoutExpired`` past it).
    """
    environment = {k: v for k, v in os.environ.items() if k != "TOOLCALL_CACHE"}
    environment.update({"PYTHONPATH": f"{cwd}{os.pathsep}{ROOT}", **(env or {})})
    return subprocess.run(
        [sys.executable, *flags, "-c", code],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def write_cached_package(root: Path) -> None:
    """``root/pkg``: an empty ``__init__.py``, ``tools.py`` (``TOOLS``) and its schema cache."""
    package = root / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tools.py").write_text(TOOLS)
    written = run_python(root, WRITE_CACHE)
    assert written.returncode == 0, written.stderr
    assert (package / "__toolcall__" / "tools.json").is_file()


def entry_tool(content: dict[str, Any], entry: dict[str, Any]) -> ir.Tool:
    """The tool of a described entry of a cache file's ``content``: its IR with the file's shared classes."""
    return file_format.entry_tool(entry["ir"], content["module"], ir.decode_shared(content["types"]))
