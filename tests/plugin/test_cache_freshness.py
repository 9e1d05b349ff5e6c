"""Freshness of the schema cache across modules, end to end: mypy with the plugin writes it, Python serves it.

Each case runs mypy in a subprocess on a small project whose tool takes a
TypedDict from another module, edits the project as a developer would,
and runs the service in a fresh interpreter (``python -OO`` where it
matters), as production would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.plugin_project import Project, environment

TYPES = '''\
"""Types shared by the tools."""

from typing import TypedDict


class Item(TypedDict):
    """An item to store."""

    name: str
    """What the item is called."""
'''

TOOLS = '''\
"""Inventory tools."""

import toolcall
from app.types_ import Item


@toolcall.tool
def add(item: Item, zeta: int = 1, alpha: str = "a") -> str:
    """Add an item to the inventory.

    Args:
        item: the item
        zeta: how many
    """
    return repr(sorted(item.items())) + str(zeta) + alpha


@toolcall.tool
def count() -> int:
    """Count the items."""
    return 0
'''

PROBE = """
import json, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import toolcall
    import app.tools as tools
    from toolcall._toolset.toolset import as_toolset, loaded_tools
    emitted = toolcall.emit(tools, "openai")
    from_cache = [t.cached for t in loaded_tools(as_toolset(tools))]
    result = toolcall.run(tools, "add", json.loads(sys.argv[1]))
add = emitted[0]["function"]
print(json.dumps({
    "description": add.get("description"),
    "item": add["parameters"]["properties"]["item"],
    "order": list(add["parameters"]["properties"]),
    "from_cache": from_cache,
    "result": result.value if result.ok else str(result.error),
    "warnings": [str(w.message) for w in caught],
}))
"""


@pytest.fixture
def inventory(tmp_path: Path) -> Project:
    project = Project(tmp_path / "project")
    project.write("app/types_.py", TYPES)
    project.write("app/tools.py", TOOLS)
    project.mypy()
    return project


def serve(project: Project, args: object, *flags: str, mode: str = "auto") -> subprocess.CompletedProcess[str]:
    env = {**environment(), "PYTHONPATH": str(project.root), "TOOLCALL_CACHE": mode}
    command = [sys.executable, *flags, "-c", PROBE, json.dumps(args)]
    return subprocess.run(command, cwd=project.root, env=env, capture_output=True, text=True, timeout=120)


def probe(project: Project, args: object, *flags: str, mode: str = "auto") -> dict[str, object]:
    run = serve(project, args, *flags, mode=mode)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def edit(project: Project, name: str, old: str, new: str) -> None:
    path = project.root / "app" / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    before = path.stat().st_mtime_ns
    path.write_text(text.replace(old, new), encoding="utf-8")
    later = max(path.stat().st_mtime_ns, before + 2_000_000_000)  # mypy's whole-second mtime check
    os.utime(path, ns=(later, later))


def test_served_from_the_cache_in_declaration_order(inventory: Project) -> None:
    seen = probe(inventory, {"item": {"name": "x"}}, "-OO", mode="require")
    assert seen["order"] == ["item", "zeta", "alpha"]
    assert seen["description"] == "Add an item to the inventory."
    assert seen["from_cache"] == [True, True]
    assert seen["warnings"] == []


def test_a_type_changed_in_another_module_makes_the_tool_stale(inventory: Project) -> None:
    edit(inventory, "types_.py", "    name: str\n", "    title: str\n")
    seen = probe(inventory, {"item": {"title": "x"}})
    assert seen["from_cache"] == [False, True]  # count() takes nothing from types_
    assert list(seen["item"]["properties"]) == ["title"]  # type: ignore[index]
    assert seen["result"] == "[('title', 'x')]1a"
    assert seen["warnings"] == [
        "the schema cache of 1 module is not served, so its tools are introspected instead: "
        "app.tools (app.types_ changed); run mypy with the toolcall plugin (or `toolcall check`) to refresh them"
    ]
    run = serve(inventory, {"item": {"title": "x"}}, mode="require")
    assert run.returncode != 0
    assert "TOOLCALL_CACHE=require: tool 'add' of 'app.tools': app.types_ changed" in run.stderr


def test_stale_under_optimized_python_says_descriptions_are_lost(inventory: Project) -> None:
    edit(inventory, "types_.py", "    name: str\n", "    name: int\n")
    seen = probe(inventory, {"item": {"name": 1}}, "-OO")
    assert seen["description"] is None
    (warning,) = seen["warnings"]  # type: ignore[misc]
    assert warning.endswith("under python -OO, so the docstrings are stripped and their descriptions lost")


def test_comment_and_layout_edits_keep_the_cache_current(inventory: Project) -> None:
    edit(inventory, "tools.py", "import toolcall\n", "import toolcall  # the library\n\n\n")
    edit(inventory, "types_.py", "    name: str\n", "    # a comment\n    name: str    \n")
    seen = probe(inventory, {"item": {"name": "x"}}, "-OO", mode="require")
    assert seen["from_cache"] == [True, True]
    assert seen["description"] == "Add an item to the inventory."
    assert seen["item"]["properties"]["name"]["description"] == "What the item is called."  # type: ignore[index]


def test_a_docstring_edit_is_stale_until_mypy_runs_again(inventory: Project) -> None:
    edit(inventory, "types_.py", '"""What the item is called."""', '"""The name of the item."""')
    seen = probe(inventory, {"item": {"name": "x"}})
    assert seen["from_cache"] == [False, True]
    assert seen["item"]["properties"]["name"]["description"] == "The name of the item."  # type: ignore[index]
    inventory.mypy()  # a warm run: only the attribute docstring of another module changed
    seen = probe(inventory, {"item": {"name": "x"}}, "-OO", mode="require")
    assert seen["from_cache"] == [True, True]
    assert seen["item"]["properties"]["name"]["description"] == "The name of the item."  # type: ignore[index]


def test_a_deleted_module_loses_its_cache_file(inventory: Project) -> None:
    orphan = inventory.root / "app" / "__toolcall__" / "tools.json"
    assert orphan.is_file()
    (inventory.root / "app" / "tools.py").unlink()
    result = inventory.mypy()
    assert not orphan.exists(), result.stderr
    assert "toolcall: removed" in result.stderr


def test_a_module_named_by_a_bare_file_name_is_checked_again(tmp_path: Path) -> None:
    # mypy gives such a module the path "tools.py": its directory is "", the working directory.
    project = Project(tmp_path / "project")
    project.write("tools.py", (project.root / "app" / "tools.py").read_text(encoding="utf-8"))
    command = [sys.executable, "-m", "mypy", "tools.py"]
    project.run(command)
    cache = project.root / "__toolcall__" / "tools.json"
    assert cache.is_file()
    result = project.run(command)  # the cache directory is there now: it is searched for orphans
    assert cache.is_file(), result.stderr


def test_a_silenced_finding_is_named_at_run_time_not_called_stale(tmp_path: Path) -> None:
    project = Project(tmp_path / "project")
    project.write(
        "app/tools.py",
        """\
        import socket

        import toolcall


        @toolcall.tool
        def connect(sock: socket.socket) -> None:  # type: ignore[toolcall-type]
            pass
        """,
    )
    project.mypy()
    written = (project.root / "app" / "__toolcall__" / "tools.json").read_bytes()
    project.mypy("--cache-dir", str(tmp_path / "cold"))  # a cold run over the committed file reuses the entry
    assert (project.root / "app" / "__toolcall__" / "tools.json").read_bytes() == written
    code = "import toolcall, app.tools as t; toolcall.emit(t, 'openai')"
    env = {**environment(), "PYTHONPATH": str(project.root), "TOOLCALL_CACHE": "require"}
    run = subprocess.run([sys.executable, "-c", code], cwd=project.root, env=env, capture_output=True, text=True)
    assert run.returncode != 0
    assert "the mypy plugin could not describe tool 'connect'" in run.stderr
    assert "socket" in run.stderr
    assert "stale" not in run.stderr


def test_every_tool_module_of_the_process_is_named_in_one_warning(inventory: Project) -> None:
    inventory.write("app/more.py", TOOLS.replace("def add(", "def add_more(").replace("def count(", "def count_more("))
    inventory.mypy()
    edit(inventory, "types_.py", "    name: str\n", "    title: str\n")
    code = textwrap.dedent(
        """
        import warnings, toolcall
        warnings.simplefilter("always")
        import app.tools, app.more
        with warnings.catch_warnings(record=True) as caught:
            toolcall.emit(app.tools, "openai")
            toolcall.emit(app.more, "openai")
        print(len(caught)); print(caught[0].message)
        """
    )
    env = {**environment(), "PYTHONPATH": str(inventory.root)}
    run = subprocess.run([sys.executable, "-c", code], cwd=inventory.root, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    count, message = run.stdout.splitlines()
    assert count == "1"
    assert "app.more (app.types_ changed); app.tools (app.types_ changed)" in message


def test_two_files_recording_different_digests_of_one_source_are_judged_each(inventory: Project) -> None:
    # app.more's file is from before the last edit of types_.py; app.tools' is current. Each is judged
    # against its own record, whichever module is used first.
    inventory.write("app/more.py", TOOLS.replace("def add(", "def add_more(").replace("def count(", "def count_more("))
    inventory.mypy()
    old = (inventory.root / "app" / "__toolcall__" / "more.json").read_bytes()
    edit(inventory, "types_.py", "    name: str\n", "    title: str\n")
    inventory.mypy()
    (inventory.root / "app" / "__toolcall__" / "more.json").write_bytes(old)
    code = textwrap.dedent(
        """
        import json, warnings, toolcall
        warnings.simplefilter("always")
        import app.tools, app.more
        from toolcall._toolset.toolset import as_toolset, loaded_tools
        with warnings.catch_warnings(record=True) as caught:
            toolcall.emit(app.tools, "openai")
            toolcall.emit(app.more, "openai")
        modules = (app.tools, app.more)
        served = {m.__name__: [t.cached for t in loaded_tools(as_toolset(m))] for m in modules}
        print(json.dumps([served, [str(w.message) for w in caught]]))
        """
    )
    env = {**environment(), "PYTHONPATH": str(inventory.root)}
    run = subprocess.run([sys.executable, "-c", code], cwd=inventory.root, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    served, warnings = json.loads(run.stdout)
    assert served == {"app.tools": [True, True], "app.more": [False, True]}
    assert warnings == [
        "the schema cache of 1 module is not served, so its tools are introspected instead: "
        "app.more (app.types_ changed); run mypy with the toolcall plugin (or `toolcall check`) to refresh them"
    ]
