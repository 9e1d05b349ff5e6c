"""A tool module used while another thread is still importing its package: no thread waits for the other.

A package's ``__init__`` may import its tool module and then use its tools
(``TOOLS = toolcall.emit(tools, ...)``). Meanwhile another thread can
already hold the tool module (``importlib.import_module("pkg.tools")``
returns it as soon as it is complete) and use it first. If that first use
waits for the package's import while holding the tool's lock, and the
package's ``__init__`` then waits for that lock, neither thread ever goes
on. So reading a module's cache never imports a package that is already in
``sys.modules``. Here the package's ``__init__`` stays inside its import
until the other thread's first use is done, and notes whether it had to
give up waiting.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import sys
import threading
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import toolcall
from toolcall._cache import file_format

pytestmark = pytest.mark.threads

#: How long the package's ``__init__`` waits for the other thread before giving up (only a failing run waits).
PATIENCE = 20

INIT = """
import {gate}
from {package} import tools

{gate}.registered.set()
{gate}.waited = {gate}.used.wait({patience})
"""

TOOLS = """
import toolcall


@toolcall.tool
def double(n: int) -> int:
    \"\"\"Double a number.\"\"\"
    return 2 * n
"""

OTHER = """
import toolcall


@toolcall.tool
def negate(n: int) -> int:
    \"\"\"Negate a number.\"\"\"
    return -n
"""

_numbers = itertools.count()


class Names:
    """Fresh module names for one test: the package, the gate its ``__init__`` waits at, another tool module."""

    def __init__(self) -> None:
        number = next(_numbers)
        self.package = f"during_import_pkg{number}"
        self.gate = f"during_import_gate{number}"
        self.other = f"during_import_other{number}"


@pytest.fixture
def names(tmp_path: Path) -> Iterator[Names]:
    names = Names()
    gate = types.ModuleType(names.gate)
    gate.registered = threading.Event()  # type: ignore[attr-defined]
    gate.used = threading.Event()  # type: ignore[attr-defined]
    sys.modules[names.gate] = gate
    package = tmp_path / names.package
    package.mkdir()
    (package / "__init__.py").write_text(
        INIT.format(gate=names.gate, package=names.package, patience=PATIENCE), encoding="utf-8"
    )
    (package / "tools.py").write_text(TOOLS, encoding="utf-8")
    (tmp_path / f"{names.other}.py").write_text(OTHER, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    importlib.invalidate_caches()
    try:
        yield names
    finally:
        sys.path.remove(str(tmp_path))
        del sys.modules[names.gate]


def write_cache_naming_a_module_not_imported(names: Names, directory: Path) -> None:
    """A cache of ``pkg.tools`` that names ``pkg.gone`` as a source: reading it looks for that module."""
    tools = directory / names.package / "tools.py"
    name = f"{names.package}.tools"
    sources = {
        name: file_format.source_record(tools.read_bytes(), "tools.py"),
        f"{names.package}.gone": file_format.source_record(b"GONE = 1\n", "gone.py"),
    }
    entry = {"name": "double", "qualname": "double", "fingerprint": "0" * 32, "refused": "a test"}
    text = file_format.dumps(file_format.module_content(name, sources, [entry]))
    cache = tools.parent / file_format.CACHE_DIR
    cache.mkdir()
    (cache / "tools.json").write_text(text, encoding="utf-8")


def first_use_during_import(names: Names, use: str) -> bool:
    """Import the package in one thread and make the first use in this one meanwhile; whether it went unblocked."""
    gate = sys.modules[names.gate]
    importer = threading.Thread(target=importlib.import_module, args=(names.package,))
    importer.start()
    try:
        assert gate.registered.wait(PATIENCE), "the package's __init__ did not start"
        tools = importlib.import_module(f"{names.package}.tools")  # complete, while its package is not
        if use == "the tool module":
            assert toolcall.emit(tools, "openai")[0]["function"]["name"] == "double"
        else:  # its cache is unusable: the warning reads every other module's cache, the package's too
            other = importlib.import_module(names.other)
            assert toolcall.run(other, "negate", {"n": 2}).value == -2
    finally:
        gate.used.set()
        importer.join()
    return bool(gate.waited)


@pytest.mark.parametrize("use", ["the tool module", "another module, whose cache is unusable"])
def test_first_use_does_not_wait_for_the_package_s_import(names: Names, tmp_path: Path, use: str) -> None:
    if use != "the tool module":
        cache = tmp_path / file_format.CACHE_DIR
        cache.mkdir()
        (cache / f"{names.other}.json").write_bytes(b"not a cache")
    with pytest.warns(toolcall.ToolcallWarning) if use != "the tool module" else contextlib.nullcontext():
        assert first_use_during_import(names, use), "the first use waited until the package's import gave up"


def test_a_cache_naming_a_module_not_imported_does_not_wait_either(names: Names, tmp_path: Path) -> None:
    write_cache_naming_a_module_not_imported(names, tmp_path)
    with pytest.warns(toolcall.ToolcallWarning, match="could not describe"):
        assert first_use_during_import(names, "the tool module"), "the first use waited until the import gave up"
