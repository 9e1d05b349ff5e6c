"""A cold mypy run over current cache files: what the plugin takes from them, and when it renders again.

Each run here has a fresh mypy cache directory, as a CI checkout that
commits the ``__toolcall__`` files has, so mypy checks every module and
the plugin sees every tool.
"""

from __future__ import annotations

import json
from itertools import count
from pathlib import Path

import pytest

pytest.importorskip("mypy")

from tests.plugin_project import FINISH_HOOK, PYPROJECT, Project
from toolcall import _ir as ir
from toolcall._cache import file_format
from toolcall._cache.tables import unpack
from toolcall._findings import STRICT, Finding
from toolcall_mypy._cache import reuse

_RUNS = count()

BOUNDED = '''\
from typing import Annotated

import toolcall
from toolcall import Param


@toolcall.tool
def pick(n: Annotated[int, Param(ge=1)]) -> int:
    """Pick one."""
    return n
'''

# A mypy run whose renderers look like another toolcall build's.
OTHER_RENDERER = (
    "import toolcall_mypy._cache.reuse as reuse; reuse.renderer_digest = lambda: 'another build'; "
    "from mypy.__main__ import console_entry; console_entry()"
)


def fresh_cache(project: Project) -> str:
    return str(project.root / f".cold-cache-{next(_RUNS)}")


def cold(project: Project) -> str:
    """A mypy run with a mypy cache of its own; its stderr (``-v``: the plugin's log)."""
    return project.mypy("--cache-dir", fresh_cache(project)).stderr


def cold_output(project: Project) -> list[str]:
    """What a cold run reports, one line per finding."""
    result = project.mypy("--cache-dir", fresh_cache(project))
    return [line for line in result.stdout.splitlines() if "error:" in line]


def reseal(path: Path, change: dict[str, object]) -> None:
    """Rewrite a cache file with top-level fields changed, sealed again as the writer seals it."""
    content = unpack(json.loads(path.read_text(encoding="utf-8")))
    del content["content_sha256"]
    path.write_text(file_format.dumps(content | change), encoding="utf-8")


def test_current_files_are_kept_as_they_are(project: Project, reference: bytes) -> None:
    project.mypy()
    before = project.cache.stat().st_mtime_ns
    log = cold(project)
    assert project.cache.read_bytes() == reference
    if FINISH_HOOK:  # before mypy 2.4 every tool writes its module's file through, so it changes on the way
        assert "toolcall: kept" in log
        assert "toolcall: wrote" not in log
        assert project.cache.stat().st_mtime_ns == before


# A mypy run that says on stderr each time it tokenizes a source.
COUNT_TOKENIZE = (
    "import sys, toolcall._cache.freshness as digest\n"
    "original = digest.tokens_sha256\n"
    "def counted(data):\n"
    "    print('test: tokenized a source', file=sys.stderr)\n"
    "    return original(data)\n"
    "digest.tokens_sha256 = counted\n"
    "from mypy.__main__ import console_entry\n"
    "console_entry()\n"
)


def test_a_cold_run_over_current_files_tokenizes_no_unchanged_source(project: Project, reference: bytes) -> None:
    project.mypy()
    project.write("app/extra.py", "import toolcall\n\n\n@toolcall.tool\ndef ping() -> str:\n    return 'pong'\n")
    project.mypy()  # a file for the new module too
    result = project.mypy("--cache-dir", fresh_cache(project), start=COUNT_TOKENIZE)
    assert "test: tokenized" not in result.stderr
    assert project.cache.read_bytes() == reference
    # An edited module's record is made afresh: its token digest is computed, once.
    project.edit("def convert_units(", "def convert_units(  ")
    result = project.mypy("--cache-dir", fresh_cache(project), start=COUNT_TOKENIZE)
    assert result.stderr.count("test: tokenized a source") == 1


# A mypy run that says on stderr which tools it analyses.
COUNT_ANALYSIS = (
    "import sys, toolcall_mypy._analysis.tool as collect\n"
    "original = collect.collect_tool\n"
    "def counted(func, **kwargs):\n"
    "    print('test: analysed', func.name, file=sys.stderr)\n"
    "    return original(func, **kwargs)\n"
    "collect.collect_tool = counted\n"
    "from mypy.__main__ import console_entry\n"
    "console_entry()\n"
)


def analysed(project: Project, *options: str) -> list[str]:
    """The tools a cold run analyses (in order), asserting it reports what a fresh analysis reports."""
    result = project.mypy("--cache-dir", fresh_cache(project), *options, start=COUNT_ANALYSIS)
    return [line.split()[-1] for line in result.stderr.splitlines() if line.startswith("test: analysed ")]


def test_a_cold_run_over_current_files_analyses_no_clean_tool(project: Project, reference: bytes) -> None:
    project.write("app/bounded.py", BOUNDED)
    findings = cold_output(project)
    assert any("[toolcall-strict]" in line for line in findings), findings
    assert analysed(project) == []
    assert cold_output(project) == findings  # the recorded strict findings, reported as before
    assert project.cache.read_bytes() == reference
    # An edit to a source the tool's schema comes from: that tool is analysed again, the others are not.
    project.write("app/kinds.py", "Value = float\n")
    project.edit("def convert_units(value: float,", "def convert_units(value: Value,")
    project.edit("from toolcall import tool\n", "from toolcall import tool\n\nfrom app.kinds import Value\n")
    assert sorted(analysed(project)) == ["convert_units", "get_weather"]  # the tool module itself changed
    assert analysed(project) == []
    project.write("app/kinds.py", "Value = int  # now a whole number\n")
    assert analysed(project) == ["convert_units"]
    assert project.content()["tools"][1]["describe"]["parameters"]["properties"]["value"] == {"type": "integer"}  # type: ignore[index]


def test_a_tool_with_findings_is_analysed_on_every_run(project: Project) -> None:
    project.write("app/loose.py", "import toolcall\n\n\n@toolcall.tool\ndef loose(x, y: int) -> int:\n    return y\n")
    findings = cold_output(project)
    assert any("[toolcall-param]" in line and "loose.py" in line for line in findings), findings
    assert analysed(project) == ["loose"]
    assert cold_output(project) == findings


def test_other_settings_analyse_every_tool_again(project: Project) -> None:
    project.mypy()
    assert analysed(project) == []
    project.write("pyproject.toml", f"{PYPROJECT}\n[tool.toolcall]\nstrict = false\n")
    assert sorted(analysed(project)) == ["convert_units", "get_weather"]
    assert analysed(project) == []


def test_a_hand_edited_file_is_rendered_afresh(project: Project, reference: bytes) -> None:
    project.mypy()
    text = project.cache.read_text(encoding="utf-8")
    project.cache.write_text(text.replace("forecast", "FORECAST"), encoding="utf-8")
    log = cold(project)
    assert "toolcall: kept" not in log
    assert project.cache.read_bytes() == reference


def test_a_forged_record_is_not_trusted_without_the_seal(project: Project, reference: bytes) -> None:
    # The record says convert's IR is get_weather's: only a broken seal stops the plugin believing it.
    project.mypy()
    content = json.loads(project.cache.read_text(encoding="utf-8"))
    content["tools"][1] = content["tools"][0] | {"qualname": "convert_units"}
    project.cache.write_text(json.dumps(content, sort_keys=True, indent=2) + "\n", encoding="utf-8")
    cold(project)
    assert project.cache.read_bytes() == reference


def test_a_comment_edit_rewrites_only_the_source_digest(project: Project, tmp_path: Path) -> None:
    project.mypy()
    before = project.content()
    project.edit('"""Weather tools."""', '"""Weather tools, and a conversion."""')
    log = cold(project)
    assert "toolcall: wrote" in log
    after = project.content()
    assert after["tools"] == before["tools"]
    assert after["sources"] != before["sources"]
    other = Project(tmp_path / "other")
    other.write("app/tools.py", (project.root / "app" / "tools.py").read_text(encoding="utf-8"))
    other.mypy()
    assert other.cache.read_bytes() == project.cache.read_bytes()


def test_a_changed_type_in_another_module_renders_that_tool_again(project: Project, tmp_path: Path) -> None:
    # The module's source is the same; only the IR digest can tell the tool changed.
    project.write("app/kinds.py", "Value = float\n")
    project.edit("def convert_units(value: float,", "def convert_units(value: Value,")
    project.edit("from toolcall import tool\n", "from toolcall import tool\n\nfrom app.kinds import Value\n")
    project.mypy()
    project.write("app/kinds.py", "Value = int\n")
    cold(project)
    entry = project.content()["tools"][1]  # type: ignore[index]
    assert entry["describe"]["parameters"]["properties"]["value"] == {"type": "integer"}
    other = Project(tmp_path / "other")
    for name in ("app/tools.py", "app/kinds.py"):
        other.write(name, (project.root / name).read_text(encoding="utf-8"))
    other.mypy()
    assert other.cache.read_bytes() == project.cache.read_bytes()


def test_strict_findings_are_reported_from_the_record(project: Project) -> None:
    project.write("app/bounded.py", BOUNDED)
    first = cold_output(project)
    assert any("[toolcall-strict]" in line and "bounded.py:8" in line for line in first), first
    assert cold_output(project) == first  # the same findings, now from the record
    path = project.root / "app" / "__toolcall__" / "bounded.json"
    content = json.loads(path.read_text(encoding="utf-8"))
    recorded = content["checked"]["tools"][0]["strict"]
    assert recorded
    assert all(f["parameter"] == "n" and f["tool"] == "pick" for f in recorded)
    for found in recorded:
        found["message"] = "recorded, not rendered"
    reseal(path, {"checked": content["checked"]})
    assert any("pick.n: recorded, not rendered  [toolcall-strict]" in line for line in cold_output(project))


def test_other_renderers_render_everything_again(project: Project, reference: bytes) -> None:
    project.mypy()
    assert "toolcall: wrote" in project.mypy("--cache-dir", fresh_cache(project), start=OTHER_RENDERER).stderr
    assert project.content()["checked"]["renderer"] == "another build"  # type: ignore[index]
    assert project.content()["tools"] == unpack(json.loads(reference))["tools"]
    assert "toolcall: wrote" in cold(project)  # and back
    assert project.cache.read_bytes() == reference


TOOL = ir.Tool(name="t", module="app.tools", qualname="t", description="", parameters=())


def _file(tmp_path: Path, module: str = "app.tools", checked: dict[str, object] | None = None) -> Path:
    tool = TOOL
    found = (Finding(STRICT, "lost", "t", "x", ("a", 1)),)
    recorded = [("t", reuse.Checked(reuse.ir_sha256(tool), (module,), found))]
    block = checked or reuse.checked_block(recorded, {module: "tools.py"}, "a")
    sources = {module: {"sha256": "f" * 64, "tokens": None}}
    content = file_format.module_content(module, sources, [file_format.tool_entry(tool, [module])], block)
    path = tmp_path / "tools.json"
    path.write_text(file_format.dumps(content), encoding="utf-8")
    return path


def test_a_record_reads_back_as_written(tmp_path: Path) -> None:
    tool = TOOL
    previous = reuse.read_previous(_file(tmp_path), "app.tools")
    assert previous is not None
    assert previous.sources == {"app.tools": {"sha256": "f" * 64, "tokens": None}}
    assert previous.files == {"app.tools": "tools.py"}
    assert previous.findings("t", reuse.ir_sha256(tool)) == (Finding(STRICT, "lost", "t", "x", ("a", 1)),)
    assert previous.findings("t", "0" * 64) is None  # another IR
    assert previous.findings("u", reuse.ir_sha256(tool)) is None  # another tool
    assert previous.entry("t") == file_format.tool_entry(tool, ["app.tools"])


def test_a_released_record_reads_its_entries_again_only_from_the_same_file(tmp_path: Path) -> None:
    path = _file(tmp_path)
    for edited, expected in ((False, file_format.tool_entry(TOOL, ["app.tools"])), (True, None)):
        previous = reuse.previous_of(path.read_bytes(), "app.tools")
        assert previous is not None
        previous.release(path)
        assert previous.data == b""
        if edited:  # another file in its place: its entries are not this record's
            _file(tmp_path, checked=reuse.checked_block([], {"app.tools": "tools.py"}, "other"))
        assert previous.entry("t") == expected


@pytest.mark.parametrize(
    "checked",
    [
        pytest.param(lambda: {"renderer": "another build", "tools": []}, id="other-renderers"),
        pytest.param(lambda: {"tools": []}, id="no-renderers"),
        pytest.param(lambda: {"renderer": reuse.renderer_digest(), "files": {}, "tools": {}}, id="tools-not-a-list"),
        pytest.param(
            lambda: {"renderer": reuse.renderer_digest(), "files": {}, "tools": [{"qualname": "t"}]}, id="no-digest"
        ),
        pytest.param(lambda: {"renderer": reuse.renderer_digest(), "tools": []}, id="no-files"),
    ],
)
def test_a_record_of_other_renderers_or_malformed_is_not_reused(tmp_path: Path, checked: object) -> None:
    assert reuse.read_previous(_file(tmp_path, checked=checked()), "app.tools") is None  # type: ignore[operator]


def test_a_record_of_another_module_or_format_is_not_reused(tmp_path: Path) -> None:
    assert reuse.read_previous(_file(tmp_path), "app.tools") is not None
    assert reuse.read_previous(_file(tmp_path, module="app.other"), "app.tools") is None
    path = _file(tmp_path)
    reseal(path, {"format": file_format.CACHE_FORMAT + 1})
    assert reuse.read_previous(path, "app.tools") is None
    assert reuse.read_previous(tmp_path / "missing.json", "app.tools") is None


def test_the_ir_digest_tells_apart_what_the_ir_json_tells_apart() -> None:
    one = ir.Tool(name="t", qualname="t", module="m", description="", parameters=())
    same = ir.Tool(name="t", qualname="t", module="m", description="", parameters=())
    other = ir.Tool(name="t", qualname="t", module="m", description=" ", parameters=())
    assert reuse.ir_sha256(one) == reuse.ir_sha256(same)
    assert reuse.ir_sha256(one) != reuse.ir_sha256(other)


# mypy in this process, then whether the plugin imported the renderers.
RENDERERS_IMPORTED = (
    "import sys; from mypy import api; api.run(sys.argv[1:]); "
    "print('renderers imported:', 'toolcall._render.definitions' in sys.modules)"
)


@pytest.mark.parametrize(("settings", "renders"), [("strict = false\ncache = false", False), ("cache = false", True)])
def test_nothing_is_rendered_when_nothing_reads_it(project: Project, settings: str, renders: bool) -> None:
    project.write("pyproject.toml", f"{PYPROJECT}\n[tool.toolcall]\n{settings}\n")
    result = project.mypy("--cache-dir", fresh_cache(project), start=RENDERERS_IMPORTED)
    assert f"renderers imported: {renders}" in result.stdout
    assert not project.cache.exists()
