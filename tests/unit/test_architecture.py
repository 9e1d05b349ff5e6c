"""The package layout: no import cycles, imports only down the layers, every package placed and documented.

The graph and the layer table are ``scripts/module_graph.py``'s (run it to
see the whole graph); the map of packages is ``docs/internal/architecture.md``.
Each check also runs on a small package written to a temporary directory,
where it must find what was planted there.
"""

from __future__ import annotations

import importlib.util
import pkgutil
import re
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

import toolcall
import toolcall_mypy

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "internal" / "architecture.md"
#: The section of the architecture document that lists every package and top-level module, one line each.
MAP_HEADING = "## Packages and modules"


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("module_graph", ROOT / "scripts" / "module_graph.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("module_graph", module)
    spec.loader.exec_module(module)
    return module


graph_script = _load_script()


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (path → source) under ``root``; return ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def map_section(text: str) -> str:
    """The architecture document's map of packages: from its heading to the next heading of its level."""
    start = text.index(MAP_HEADING)
    following = text.find("\n## ", start + len(MAP_HEADING))
    return text[start:] if following == -1 else text[start:following]


def undocumented(root: Path, text: str) -> list[str]:
    """The packages and top-level modules under ``root`` without a line of their own in the map of ``text``.

    A package is written as its directory (``toolcall/_cache/``), a top-level
    module as its file (``toolcall/_ir.py``, ``toolcall/__init__.py``), at
    the start of a line, followed by what it holds.
    """
    section = map_section(text)
    return [
        path
        for path in graph_script.packages(root).values()
        if re.search(rf"^\s*{re.escape(path)}[ \t]+\S", section, re.MULTILINE) is None
    ]


def public_modules(paths: list[str]) -> set[str]:
    """The submodules and subpackages in ``paths`` whose names do not start with an underscore."""
    return {info.name for info in pkgutil.iter_modules(paths) if not info.name.startswith("_")}


# A tiny toolcall: the layer table's own names, with a planted cycle, an upward
# import, an import across one layer, and imports that break no rule.
SYNTHETIC = {
    "toolcall/__init__.py": """
        from toolcall._toolset.run import run
        """,
    "toolcall/_warning.py": "",
    "toolcall/_ir.py": """
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from toolcall._toolset import run  # type-only: no edge
        """,
    "toolcall/_findings.py": """
        import toolcall._warning
        """,
    "toolcall/_render/__init__.py": """
        from toolcall._render import envelopes
        from toolcall._ir import Tool
        """,
    "toolcall/_render/envelopes.py": """
        from . import __name__ as package_name
        from .._dispatch.binder import prepare  # across: render and dispatch share a layer
        """,
    "toolcall/_dispatch/__init__.py": "",
    "toolcall/_dispatch/binder.py": """
        def prepare():
            from toolcall._findings import warn  # run on the first call: an edge
        """,
    "toolcall/_toolset/__init__.py": "",
    "toolcall/_toolset/run.py": """
        from toolcall._toolset import toolset
        """,
    "toolcall/_toolset/toolset.py": """
        import typing

        if typing.TYPE_CHECKING:
            pass
        else:
            from toolcall._toolset.run import run  # a cycle inside the package
        """,
    "toolcall/_wire/__init__.py": "",
    "toolcall/_wire/scalars.py": """
        from toolcall._wire import scalars  # itself
        from toolcall import _ir as ir
        from toolcall._cache.loader import cache_entry  # up from the wire values to the cache
        """,
    "toolcall/_cache/__init__.py": "",
    "toolcall/_cache/loader.py": "",
    "toolcall/_novel/__init__.py": "",
    "toolcall/_novel/thing.py": "",
    "toolcall_mypy/__init__.py": """
        def plugin(version):
            from toolcall_mypy._hooks import Plugin
        """,
    "toolcall_mypy/_hooks.py": """
        import toolcall._render.envelopes
        from toolcall._cli import main  # the command line sits above the plugin
        """,
    "toolcall/_cli/__init__.py": "",
}


@pytest.fixture
def synthetic(tmp_path: Path) -> Path:
    return write_tree(tmp_path, SYNTHETIC)


def test_graph_resolves_imports_as_they_run(synthetic: Path) -> None:
    graph = graph_script.module_graph(synthetic)
    assert graph["toolcall"] == {"toolcall._toolset.run"}
    assert graph["toolcall._ir"] == set(), "an import under `if TYPE_CHECKING:` does not run"
    assert graph["toolcall._findings"] == {"toolcall._warning"}, "`import a.b` is an edge to a.b only"
    assert graph["toolcall._render"] == {"toolcall._render.envelopes", "toolcall._ir"}
    assert graph["toolcall._render.envelopes"] == {"toolcall._render", "toolcall._dispatch.binder"}
    assert graph["toolcall._dispatch.binder"] == {"toolcall._findings"}, "an import inside a function runs"
    assert graph["toolcall._toolset.toolset"] == {"toolcall._toolset.run"}, "the else of TYPE_CHECKING runs"
    assert graph["toolcall._wire.scalars"] == {"toolcall._wire.scalars", "toolcall._ir", "toolcall._cache.loader"}
    assert graph["toolcall_mypy._hooks"] == {"toolcall._render.envelopes", "toolcall._cli"}


def test_cycles_are_found(synthetic: Path) -> None:
    assert graph_script.cycles(graph_script.module_graph(synthetic)) == [
        ["toolcall._render", "toolcall._render.envelopes"],
        ["toolcall._toolset.run", "toolcall._toolset.toolset"],
        ["toolcall._wire.scalars"],
    ]
    assert graph_script.cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_import_cycles() -> None:
    found = graph_script.cycles(graph_script.module_graph(ROOT))
    assert found == [], f"import cycles (python scripts/module_graph.py shows the import lines): {found}"


def test_layer_violations_are_found(synthetic: Path) -> None:
    assert graph_script.layer_violations(graph_script.module_graph(synthetic)) == [
        ("toolcall._render.envelopes", "toolcall._dispatch.binder"),
        ("toolcall._wire.scalars", "toolcall._cache.loader"),
        ("toolcall_mypy._hooks", "toolcall._cli"),
    ]


def test_no_layer_violations() -> None:
    found = graph_script.layer_violations(graph_script.module_graph(ROOT))
    assert found == [], f"imports against the layers (python scripts/module_graph.py shows the lines): {found}"


def test_unplaced_modules_are_found(synthetic: Path) -> None:
    graph = graph_script.module_graph(synthetic)
    assert graph_script.unplaced(graph) == ["toolcall._novel", "toolcall._novel.thing"]


def test_every_module_has_a_layer() -> None:
    graph = graph_script.module_graph(ROOT)
    assert len(graph) > 50
    assert graph_script.unplaced(graph) == [], "place each new package in LAYERS (scripts/module_graph.py)"


def test_the_layer_table_names_each_package_once() -> None:
    named = [package for _, members in graph_script.LAYERS for package in members]
    assert len(named) == len(set(named))


def test_undocumented_packages_are_found(synthetic: Path) -> None:
    text = f"{MAP_HEADING}\n\n```\ntoolcall/__init__.py   the public API\ntoolcall/_render/   renderers\n```\n"
    missing = undocumented(synthetic, text)
    assert "toolcall/_render/" not in missing
    assert "toolcall/__init__.py" not in missing
    assert {"toolcall/_novel/", "toolcall/_ir.py", "toolcall_mypy/__init__.py", "toolcall_mypy/_hooks.py"} <= set(
        missing
    )
    # Named elsewhere in a line, or without what it holds, is not listed.
    assert "toolcall/_ir.py" in undocumented(synthetic, f"{MAP_HEADING}\n\nsee toolcall/_ir.py\ntoolcall/_ir.py\n")


def test_every_package_is_in_the_architecture_map() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert len(graph_script.packages(ROOT)) > 20
    assert undocumented(ROOT, text) == [], f"add a line for each to {MAP_HEADING!r} in {ARCHITECTURE.name}"


def test_public_modules_are_found(synthetic: Path) -> None:
    assert public_modules([str(synthetic / "toolcall")]) == set()
    write_tree(synthetic, {"toolcall/extra.py": "", "toolcall/more/__init__.py": ""})
    assert public_modules([str(synthetic / "toolcall")]) == {"extra", "more"}


def test_public_modules_are_exactly_those_without_an_underscore() -> None:
    assert public_modules(list(toolcall.__path__)) == {
        "errors",
        "openai",
        "anthropic",
        "gemini",
        "langchain",
        "openai_agents",
        "pydantic_ai",
    }
    assert public_modules(list(toolcall_mypy.__path__)) == set()


def documented_layers(text: str) -> list[list[str]]:
    """The layers as the architecture document's diagram lists them: each numbered line's module names, in order."""
    start = text.index("## Import direction")
    block = text[text.index("```", start) + 3 :]
    block = block[: block.index("```")]
    layers: list[list[str]] = []
    for line in block.splitlines():
        numbered = re.match(r"\s*(\d+)\s+(.*)", line)
        if numbered is None:
            continue
        assert int(numbered.group(1)) == len(layers), f"layer numbers out of order at {line!r}"
        names = re.split(r"\s{2,}\(", numbered.group(2))[0]  # a comment follows two spaces
        layers.append(re.findall(r"toolcall(?:_mypy)?(?:\.\w+)?", names))
    return layers


def test_the_documented_layers_are_the_table() -> None:
    table = [list(members) for _, members in graph_script.LAYERS]
    assert documented_layers(ARCHITECTURE.read_text(encoding="utf-8")) == table
    moved = "## Import direction\n\n```\n 0  toolcall._ir\n 1  toolcall._warning  (a leaf)\n```\n"
    assert documented_layers(moved) == [["toolcall._ir"], ["toolcall._warning"]]
