"""What a process imports the first time it serves tools from a schema cache: no introspection, no resources.

Production loads its caches at first use; every module imported there is
start-up time, so the cache path must not pull in the runtime front end
(``toolcall._introspect``, ``docstring_parser``), another provider's renderer,
the strict pass a plain rendering does without, the cache writer's layout or
the code generator a first copy does without, and a module read from a file
on disk finds its cache beside it without ``importlib.resources``.
"""

from __future__ import annotations

import json
from pathlib import Path

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
    }
    assert unused.isdisjoint(modules["new"])
