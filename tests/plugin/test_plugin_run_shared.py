"""Class nodes shared by the tool modules of one mypy run (``toolcall_mypy._source.names.RunShared``).

Most tool modules take the same few classes: the plugin builds a class's
node once per run, for the later modules too, where every module it comes
from is one mypy is done with. These tests count how often a class's fields
are read, in-process with the real plugin, and check that the cache files
are the same bytes without the sharing.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mypy")

from mypy.build import BuildSource
from mypy.nodes import TypeInfo
from mypy.options import Options

from tests.inprocess_mypy import run_build
from tests.plugin_project import FINISH_HOOK
from toolcall_mypy._analysis import structs
from toolcall_mypy._hooks import ToolcallPlugin
from toolcall_mypy._source.names import RunShared

TYPES = '''
import dataclasses
import enum
from typing import TypedDict


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Point(TypedDict):
    """A point on the grid."""

    x: int
    y: int


@dataclasses.dataclass
class Box:
    """A box on the grid."""

    corner: Point
    color: Color
    label: str = "box"
'''

TOOLS = '''
import toolcall
from app.types_ import Box, Point


@toolcall.tool
def place_{n}(box: Box, at: Point) -> None:
    """Place a box.

    Args:
        box: The box.
        at: Where.
    """
'''

# A tool module with a class of its own, which another tool module imports: mypy is still
# checking the first module when its tools use the class.
OWNER = '''
import toolcall
from typing import TypedDict


class Size(TypedDict):
    width: int


@toolcall.tool
def measure(size: Size) -> None:
    """Measure."""
'''

BORROWER = '''
import toolcall
from app.owner import Size


@toolcall.tool
def resize(size: Size) -> None:
    """Resize."""
'''


def write_project(root: Path, modules: dict[str, str]) -> list[BuildSource]:
    package = root / "app"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    sources = [BuildSource(str(package / "__init__.py"), "app")]
    for name, text in modules.items():
        path = package / f"{name}.py"
        path.write_text(textwrap.dedent(text))
        sources.append(BuildSource(str(path), f"app.{name}"))
    return sources


def check(sources: list[BuildSource]) -> None:
    """One cold mypy run with the plugin, in-process (the cache files land beside the modules)."""
    options = Options()
    options.incremental = False
    options.cache_dir = os.devnull
    options.python_version = sys.version_info[:2]
    options.show_traceback = True
    plugin = ToolcallPlugin(options)
    result = run_build(sources, options, plugin)
    assert not [e for e in result.errors if "error:" in e], result.errors


def count_fields(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times the walks read each TypedDict's and dataclass's fields, by class."""
    counts: Counter[str] = Counter()

    def counting(read: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(w: Any, info: TypeInfo, *args: Any) -> Any:
            counts[info.fullname] += 1
            return read(w, info, *args)

        return wrapper

    monkeypatch.setattr(structs, "typeddict_fields", counting(structs.typeddict_fields))
    monkeypatch.setattr(structs, "dataclass_fields", counting(structs.dataclass_fields))
    return counts


def cache_files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("__toolcall__/*.json"))}


@pytest.mark.skipif(not FINISH_HOOK, reason="before mypy 2.4 no hook says a module was checked: nothing is shared")
def test_a_class_s_fields_are_read_once_for_the_modules_using_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = count_fields(monkeypatch)
    check(write_project(tmp_path, {"types_": TYPES, "a": TOOLS.format(n=1), "b": TOOLS.format(n=2)}))
    assert counts == {"app.types_.Box": 1, "app.types_.Point": 1}


def test_sharing_changes_no_byte_of_the_cache_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    modules = {"types_": TYPES, "a": TOOLS.format(n=1), "b": TOOLS.format(n=2), "owner": OWNER, "c": BORROWER}
    check(write_project(tmp_path / "shared", modules))
    with monkeypatch.context() as patch:
        patch.setattr(ToolcallPlugin, "_run_shared", None)  # each module builds its own nodes
        check(write_project(tmp_path / "alone", modules))
    shared, alone = cache_files(tmp_path / "shared"), cache_files(tmp_path / "alone")
    assert len(shared) == 4
    assert shared == alone


def test_a_class_of_a_module_being_checked_is_not_shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mypy may analyze such a module further (its import cycle), so its classes are read again elsewhere."""
    counts = count_fields(monkeypatch)
    check(write_project(tmp_path, {"owner": OWNER, "borrower": BORROWER}))
    assert counts == {"app.owner.Size": 2}


@pytest.mark.skipif(FINISH_HOOK, reason="mypy 2.4+ says when a module was checked")
def test_before_mypy_2_4_nothing_is_shared_across_modules() -> None:
    """Without the hook that says a module was checked, no class is known to be settled."""
    assert ToolcallPlugin(Options())._run_shared is None


def test_the_daemon_shares_nothing_across_modules() -> None:
    """dmypy analyzes a module again in place (one a deleted module imports) without parsing a file."""
    options = Options()
    options.fine_grained_incremental = True
    assert ToolcallPlugin(options)._run_shared is None


def test_only_values_from_settled_modules_are_kept_and_clear_forgets() -> None:
    settled = {"app.types_"}
    run = RunShared(settled.__contains__)
    run.offer("kept", 1, ["app.types_"])
    run.offer("refused", 2, ["app.types_", "app.tools"])
    assert (run.get("kept"), run.get("refused")) == (1, None)
    run.clear()
    assert run.get("kept") is None
