"""The mypy plugin's schema cache across runs: incremental mode, workers, no cache dir, dmypy.

Each test makes a small project in a temporary directory and runs
``python -m mypy`` there (a subprocess, with a persistent ``.mypy_cache``)
step by step, asserting after each step what ``app/__toolcall__/tools.json``
holds and that it is byte-identical to what a cold run writes. ``-v`` makes
mypy log why it re-checks a module and the plugin log each file it writes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

from tests.plugin_project import FINISH_HOOK, MYPY, MYPY_TABLE, PYPROJECT, Project, environment, rechecked, wrote
from toolcall import _ir as ir
from toolcall._cache import file_format

# A mypy run whose plugin token differs, as after a toolcall upgrade.
BUMPED = (
    "import toolcall_mypy._cache.tokens as tokens; tokens.TOKEN += ' (upgraded)'; "
    "from mypy.__main__ import console_entry; console_entry()"
)


def test_cold_run_writes_the_cache(project: Project, reference: bytes) -> None:
    result = project.mypy()
    assert wrote(result)
    assert project.cache.read_bytes() == reference  # deterministic across processes and directories
    content = project.content()
    assert content["module"] == "app.tools"
    assert project.tool_names() == ["get_weather", "convert"]  # declaration order
    source = (project.root / "app" / "tools.py").read_bytes()
    from toolcall._cache.file_format import source_record

    assert content["sources"] == {"app.tools": source_record(source, "tools.py")}
    assert not (project.root / "app" / "__toolcall__" / "plain.json").exists()
    text = project.cache.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    written = json.loads(text)
    del written["content_sha256"]
    assert file_format.dumps(written) == text  # the writer's layout, as it reads back


def test_the_runtime_accepts_what_the_plugin_wrote(project: Project) -> None:
    project.mypy()
    check = (
        "import toolcall, app.tools; "
        "print(len(toolcall.emit(app.tools, 'openai')), len(toolcall.emit(app.tools, 'anthropic', strict=True)))"
    )
    env = environment() | {"TOOLCALL_CACHE": "require", "PYTHONPATH": str(project.root)}
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", check], cwd=project.root, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["2", "2"]


def test_warm_run_changes_nothing(project: Project, reference: bytes) -> None:
    project.mypy()
    before = project.cache.stat().st_mtime_ns
    result = project.mypy()
    assert not rechecked(result, "app.tools")
    assert not wrote(result)
    assert project.cache.read_bytes() == reference
    assert project.cache.stat().st_mtime_ns == before


# mypy in this process, then which of toolcall's heavier modules the plugin imported.
IMPORTED = (
    "import sys; from mypy import api; out, err, status = api.run(sys.argv[1:]); sys.stderr.write(err); "
    "heavy = ('toolcall._ir', 'toolcall._cache.file_format', 'toolcall_mypy._cache.writer'); "
    "print('imported:', [name for name in heavy if name in sys.modules])"
)


def test_a_warm_run_imports_neither_the_ir_nor_the_cache_format(project: Project) -> None:
    cold = project.mypy(start=IMPORTED)
    assert "imported: ['toolcall._ir', 'toolcall._cache.file_format', 'toolcall_mypy._cache.writer']" in cold.stdout
    warm = project.mypy(start=IMPORTED)
    assert not rechecked(warm, "app.tools")
    assert "imported: []" in warm.stdout  # importing the IR alone was a tenth of a small warm run


def test_deleted_cache_file_is_regenerated(project: Project, reference: bytes) -> None:
    project.mypy()
    project.cache.unlink()
    result = project.mypy()
    assert "Metadata abandoned for app.tools: plugin configuration differs" in result.stderr
    assert not rechecked(result, "app.plain")  # only the tool module is checked again
    assert project.cache.read_bytes() == reference
    assert not rechecked(project.mypy(), "app.tools")  # and then it is fresh again


def test_deleted_cache_directory_is_regenerated(project: Project, reference: bytes) -> None:
    project.mypy()
    shutil.rmtree(project.cache.parent)
    project.mypy()
    assert project.cache.read_bytes() == reference


def test_edited_cache_file_is_regenerated(project: Project, reference: bytes) -> None:
    project.mypy()
    project.cache.write_text(project.cache.read_text(encoding="utf-8").replace("forecast", "FORECAST"))
    result = project.mypy()
    assert rechecked(result, "app.tools")
    assert project.cache.read_bytes() == reference


def test_edited_module_regenerates_its_cache(project: Project, tmp_path: Path) -> None:
    project.mypy()
    project.edit("def get_weather(city: str, days: int = 3)", "def get_weather(city: str, days: int = 5)")
    result = project.mypy()
    assert wrote(result)
    assert project.properties("get_weather")["days"]["default"] == 5
    edited = project.cache.read_bytes()
    # the same source, checked cold elsewhere, gives the same bytes
    other = Project(tmp_path / "other")
    shutil.copy(project.root / "app" / "tools.py", other.root / "app" / "tools.py")
    other.mypy()
    assert other.cache.read_bytes() == edited


def test_removed_tool_leaves_the_cache(project: Project) -> None:
    project.mypy()
    project.edit('@tool(name="convert", description="Convert a temperature.")\n', "")
    project.mypy()
    assert project.tool_names() == ["get_weather"]
    project.edit("def not_a_tool(x: int)", "@tool\ndef not_a_tool(x: int)")
    project.mypy()
    assert project.tool_names() == ["get_weather", "not_a_tool"]


def test_module_without_tools_loses_its_file(project: Project) -> None:
    project.mypy()
    project.edit("@toolcall.tool\n", "")
    project.edit('@tool(name="convert", description="Convert a temperature.")\n', "")
    result = project.mypy()
    assert not project.cache.exists()
    assert not project.cache.parent.exists()  # the empty __toolcall__ directory goes too
    assert "toolcall: removed" in result.stderr
    again = project.mypy()
    assert not rechecked(again, "app.tools")
    assert not project.cache.exists()


def test_providers_that_describe_nothing_stay_out_of_the_ir(project: Project) -> None:
    # As at run time, a tool's IR lists only the providers that described one of its types.
    project.write(
        "app/money.py",
        """\
        from toolcall import TypeProvider

        class MoneyTypes(TypeProvider):
            def resolve(self, fullname: str, args: tuple[str, ...]) -> dict[str, object] | None:
                return None
        """,
    )
    project.edit(
        "from toolcall import tool\n",
        "from toolcall import tool\n\nfrom app.money import MoneyTypes\n\ntoolcall.use_types(MoneyTypes)\n",
    )
    project.mypy()
    tools = project.tools()
    assert len(tools) == 2
    assert all(isinstance(tool, ir.Tool) and tool.providers == () for tool in tools)


def test_module_that_cannot_resolve_toolcall_keeps_its_file(project: Project, reference: bytes) -> None:
    project.mypy()
    project.write(
        "pyproject.toml",
        PYPROJECT + '\n[[tool.mypy.overrides]]\nmodule = ["toolcall", "toolcall.*"]\nfollow_imports = "skip"\n',
    )
    result = project.mypy()
    assert project.cache.read_bytes() == reference
    if FINISH_HOOK:
        assert "mypy cannot resolve this module's toolcall imports" in result.stderr


@pytest.mark.skipif(MYPY < (2, 0), reason="--num-workers is new in mypy 2.0")
def test_parallel_workers_end_with_a_complete_cache(project: Project, reference: bytes) -> None:
    project.mypy("--num-workers", "2")
    assert project.cache.read_bytes() == reference
    project.cache.unlink()
    project.mypy("--num-workers", "2")
    assert project.cache.read_bytes() == reference
    project.edit('@tool(name="convert", description="Convert a temperature.")\n', "")
    project.mypy("--num-workers", "2")
    assert project.tool_names() == ["get_weather"]


def test_no_cache_dir_still_writes_the_cache(project: Project, reference: bytes) -> None:
    result = project.mypy(f"--cache-dir={os.devnull}")
    assert project.cache.read_bytes() == reference
    assert "plugin configuration" not in result.stderr
    project.cache.unlink()
    project.mypy(f"--cache-dir={os.devnull}")  # every run checks everything: regenerated
    assert project.cache.read_bytes() == reference


@pytest.mark.skipif(not FINISH_HOOK, reason="before mypy 2.4 every tool writes its module's file through")
def test_no_incremental_rewrites_nothing_needlessly(project: Project, reference: bytes) -> None:
    project.mypy("--no-incremental")
    assert project.cache.read_bytes() == reference
    assert not wrote(project.mypy("--no-incremental"))


def test_plugin_upgrade_rechecks_the_tool_modules(project: Project, reference: bytes) -> None:
    project.mypy()
    result = project.mypy(start=BUMPED)
    assert "Metadata abandoned for app.tools: plugin configuration differs" in result.stderr
    assert not rechecked(result, "app.plain")
    assert project.cache.read_bytes() == reference
    assert not rechecked(project.mypy(start=BUMPED), "app.tools")


def test_changed_settings_recheck_and_cache_false_writes_nothing(project: Project, reference: bytes) -> None:
    project.write("pyproject.toml", PYPROJECT + "\n[tool.toolcall]\ncache = false\n")
    project.mypy()
    assert not project.cache.exists()
    project.write("pyproject.toml", PYPROJECT + "\n[tool.toolcall]\ncache = true\n")
    result = project.mypy()
    assert "Metadata abandoned for app.tools: plugin configuration differs" in result.stderr
    assert project.cache.read_bytes() == reference


def test_unknown_setting_warns_once(project: Project) -> None:
    project.write("pyproject.toml", PYPROJECT + "\n[tool.toolcall]\nstritc = true\n")
    options = ("--num-workers", "2") if MYPY >= (2, 0) else ()
    result = project.mypy(*options)
    warning = (
        "toolcall: warning: pyproject.toml: [tool.toolcall]: unknown setting 'stritc' "
        "(known: cache, exclude, include, providers, strict); it is ignored"
    )
    assert result.stderr.count(warning) == 1, result.stderr


def test_concurrent_runs_never_tear_the_file(project: Project, reference: bytes, tmp_path: Path) -> None:
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "mypy", f"--cache-dir={tmp_path / f'cache{i}'}", "app"],
            cwd=project.root,
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for i in range(3)
    ]
    for run in runs:
        assert run.wait(timeout=600) in (0, 1)
    assert project.cache.read_bytes() == reference
    assert [p.name for p in project.cache.parent.iterdir()] == ["tools.json"]  # no temporary files left


@pytest.mark.skipif(sys.platform == "win32", reason="the daemon test runs on POSIX systems")
def test_dmypy_picks_up_edits(project: Project, reference: bytes) -> None:
    # dmypy crashes on the SDK overrides (KeyError in find_reachable_changed_modules): it follows the SDKs.
    project.write("pyproject.toml", MYPY_TABLE)
    status = project.root / ".dmypy.json"
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(status)]

    def run() -> None:
        project.run([*dmypy, "run", "--", "app"])

    try:
        run()
        assert project.cache.read_bytes() == reference
        project.edit("days: int = 3", "days: int = 4")
        run()
        assert project.tool_names() == ["get_weather", "convert"]
        # A type from another module changes: dmypy re-checks only that function, the rest of the entry stays.
        project.write("app/kinds.py", "Value = float\n")
        project.edit("def convert_units(value: float,", "def convert_units(value: Value,")
        project.edit("from toolcall import tool\n", "from toolcall import tool\n\nfrom app.kinds import Value\n")
        run()
        project.write("app/kinds.py", "Value = int\n")
        run()
        assert project.properties("convert")["value"] == {"type": "integer"}
        assert project.tool_names() == ["get_weather", "convert"]
        project.edit('@tool(name="convert", description="Convert a temperature.")\n', "")
        run()
        assert project.tool_names() == ["get_weather"]
        if FINISH_HOOK:  # before mypy 2.4, dmypy never says a module was checked
            project.edit("@toolcall.tool\n", "")
            run()
            assert not project.cache.exists()
    finally:
        subprocess.run([*dmypy, "stop"], cwd=project.root, env=environment(), capture_output=True, timeout=120)


# A mypy run in which tokenizing a source fails: a warm run must not need it.
NO_TOKENIZE = (
    "import toolcall._cache.freshness as digest\n"
    "def refuse(data):\n"
    "    raise AssertionError('a warm run tokenized a source')\n"
    "digest.tokens_sha256 = refuse\n"
    "from mypy.__main__ import console_entry\n"
    "console_entry()\n"
)


def test_a_warm_run_compares_byte_digests_only(project: Project) -> None:
    project.mypy()
    before = project.cache.read_bytes()
    result = project.mypy(start=NO_TOKENIZE)
    assert "tokenized" not in result.stdout + result.stderr
    assert not wrote(result)
    assert project.cache.read_bytes() == before
