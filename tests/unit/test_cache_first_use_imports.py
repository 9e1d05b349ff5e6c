"""What a process imports the first time it serves tools from a schema cache: no introspection, no resources.

Production loads its caches at first use; every module imported there is
start-up time, so the cache path must not pull in the runtime front end
(``toolcall._introspect``, ``docstring_parser``), another provider's renderer,
the strict pass a plain rendering does without, the cache writer's layout,
the code generator a first copy does without or the report of entries not
served; and a module read from a file on disk finds its cache beside it
without ``importlib.resources``. Nor does it compile the regular expressions
of values these tools never take (dates, durations, UUIDs, a lone surrogate
in a cache being written).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cached_package import run_python, write_cached_package

FIRST_USE = """
import json, sys
import toolcall
import pkg.tools
before = set(sys.modules)
toolcall.emit(pkg.tools, "openai")
print(json.dumps({"new": sorted(set(sys.modules) - before), "all": sorted(sys.modules)}))
"""


def test_serving_from_the_cache_imports_neither_introspection_nor_resources(tmp_path: Path) -> None:
    write_cached_package(tmp_path)
    run = run_python(tmp_path, FIRST_USE, env={"TOOLCALL_CACHE": "require"})
    assert run.returncode == 0, run.stderr
    modules = json.loads(run.stdout)
    assert "toolcall._cache.loader" in modules["new"]  # the cache was read at first use, not before
    assert not [name for name in modules["all"] if name.startswith("importlib.resources")]
    assert not [name for name in modules["new"] if name.startswith(("toolcall._introspect", "docstring_parser"))]
    unused = {
        "toolcall._render.gemini",
        "toolcall._render.strict",
        "toolcall._cache.layout",
        "toolcall._dispatch.codegen",
        "toolcall._cache.report",  # every entry is served: nothing to warn about
    }
    assert unused.isdisjoint(modules["new"])


def test_introspecting_with_the_cache_off_does_not_import_its_reader(tmp_path: Path) -> None:
    write_cached_package(tmp_path)
    run = run_python(tmp_path, FIRST_USE, env={"TOOLCALL_CACHE": "off"})
    assert run.returncode == 0, run.stderr
    new = json.loads(run.stdout)["new"]
    assert "toolcall._introspect" in new  # the tools were introspected at first use
    assert not [name for name in new if name.startswith("toolcall._cache.") and name != "toolcall._cache.mode"]


#: Records every pattern ``re`` compiles from the first use on (what was compiled before is in ``re``'s cache).
COMPILED = """
import json, re, sys
import toolcall
import pkg.tools
compiled = []
compile_pattern = re._compile
def spy(pattern, flags):
    compiled.append(str(pattern))
    return compile_pattern(pattern, flags)
re._compile = spy
toolcall.emit(pkg.tools, "openai")
print(json.dumps(compiled))
"""

#: Patterns of values the cached package's tools do not take: a date, a duration, a UUID, a lone surrogate.
UNUSED_PATTERNS = ("(\\d{4})-(\\d{2})", "P(?:", "[0-9a-fA-F]{8}-", "\ud800")


@pytest.mark.parametrize("mode", ["require", "off"])
def test_first_use_compiles_no_pattern_of_a_value_it_does_not_take(tmp_path: Path, mode: str) -> None:
    write_cached_package(tmp_path)
    run = run_python(tmp_path, COMPILED, env={"TOOLCALL_CACHE": mode})
    assert run.returncode == 0, run.stderr
    compiled = json.loads(run.stdout)
    assert compiled  # the spy saw the first use compile something (a docstring's patterns, at least)
    assert [p for p in compiled if any(unused in p for unused in UNUSED_PATTERNS)] == []
