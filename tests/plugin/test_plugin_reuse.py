"""A cold mypy run over current cache files: what the plugin takes from them, and when it renders again.

Each run here has a fresh mypy cache directory, as a CI checkout that
commits the ``__toolcall__`` files has, so mypy checks every module and
the plugin sees every tool.
"""

from __future__ import annotations

import dataclasses
import json
from itertools import count
from pathlib import Path

import pytest

pytest.importorskip("mypy")

from tests.cached_package import entry_tool
from tests.plugin_project import FINISH_HOOK, PYPROJECT, Project
from toolcall import _ir as ir
from toolcall._cache import file_format
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
    """What a cold run reports, one line per finding (an error or a note)."""
    result = project.mypy("--cache-dir", fresh_cache(project))
    return [line for line in result.stdout.splitlines() if ": error: " in line or ": note: " in line]


def reseal(path: Path, change: dict[str, object]) -> None:
    """Rewrite a cache file with top-level fields changed, sealed again as the writer seals it."""
    content = json.loads(path.read_text(encoding="utf-8"))
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
    assert any("Anthropic strict mode: cannot carry" in line for line in findings), findings
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
    assert project.properties("convert")["value"] == {"type": "integer"}


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
    weather = entry_tool(content, content["tools"][0])
    assert entry_tool(content, content["tools"][1]).qualname == "convert_units"
    content["tools"][1]["ir"] = file_format.entry_ir(dataclasses.replace(weather, qualname="convert_units"))
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
    assert project.properties("convert")["value"] == {"type": "integer"}
    other = Project(tmp_path / "other")
    for name in ("app/tools.py", "app/kinds.py"):
        other.write(name, (project.root / name).read_text(encoding="utf-8"))
    other.mypy()
    assert other.cache.read_bytes() == project.cache.read_bytes()


#: Positions in a ``checked`` record (``reuse.checked_block``) and in each of its variants' findings.
RECORD_QUALNAME, RECORD_IR_SHA256, RECORD_SOURCES, RECORD_CLEAN, RECORD_VARIANTS = range(5)
FINDING_PARAMETER, FINDING_PATH, FINDING_MESSAGE, FINDING_TOOL = range(4)  # the tool: only where not the qualname
MESSAGE_CODE, MESSAGE_SEVERITY, MESSAGE_MODES, MESSAGE_TEXT = range(4)


def test_strict_findings_are_reported_from_the_record(project: Project) -> None:
    project.write("app/bounded.py", BOUNDED)
    first = cold_output(project)
    assert any("note: pick.n: Anthropic strict mode: cannot carry" in line and "bounded.py:8" in line for line in first)
    assert cold_output(project) == first  # the same findings, now from the record
    path = project.root / "app" / "__toolcall__" / "bounded.json"
    content = json.loads(path.read_text(encoding="utf-8"))
    (record,) = content["checked"]["tools"]  # [qualname, ir_sha256, sources, clean, variants]
    assert record[RECORD_QUALNAME] == "pick"
    recorded = record[RECORD_VARIANTS]
    assert recorded
    assert all(len(f) == FINDING_TOOL and f[FINDING_PARAMETER] == "n" for f in recorded)  # the tool is "pick"
    messages = content["checked"]["messages"]
    kinds = [messages[f[FINDING_MESSAGE]][:MESSAGE_TEXT] for f in recorded]
    assert kinds == [["toolcall-strict", "note", ["anthropic:strict"]]]
    messages = content["checked"]["messages"]
    assert sorted({f[FINDING_MESSAGE] for f in recorded}) == list(range(len(messages))), "each message once"
    content["checked"]["messages"] = [[*kind[:MESSAGE_TEXT], "recorded, not rendered"] for kind in messages]
    reseal(path, {"checked": content["checked"]})
    assert any("pick.n: Anthropic strict mode: recorded, not rendered" in line for line in cold_output(project))


def test_other_renderers_render_everything_again(project: Project, reference: bytes) -> None:
    project.mypy()
    assert "toolcall: wrote" in project.mypy("--cache-dir", fresh_cache(project), start=OTHER_RENDERER).stderr
    assert project.content()["checked"]["renderer"] == "another build"  # type: ignore[index]
    assert project.content()["tools"] == json.loads(reference)["tools"]
    assert "toolcall: wrote" in cold(project)  # and back
    assert project.cache.read_bytes() == reference


TOOL = ir.Tool(name="t", module="app.tools", qualname="t", description="", parameters=())
FOUND = (Finding(STRICT, "lost", "t", "x", ("a", 1)),)


def _file(
    tmp_path: Path, module: str = "app.tools", checked: dict[str, object] | None = None, also: tuple[str, ...] = ()
) -> Path:
    """A cache file of ``module`` with ``TOOL``, whose schema comes from ``module`` and the modules ``also``."""
    names = (module, *also)
    table = sorted(names)
    recorded = [("t", reuse.Checked(reuse.ir_sha256(TOOL), names, FOUND))]
    block = checked or reuse.checked_block(recorded, table, "a")
    sources: dict[str, list[str | None]] = {name: ["f" * 32, None, f"{name[4:]}.py"] for name in names}
    content = file_format.module_content(module, sources, [file_format.tool_entry(TOOL, names)], block)
    path = tmp_path / "tools.json"
    path.write_text(file_format.dumps(content), encoding="utf-8")
    return path


def test_a_record_is_one_array_per_tool_with_its_sources_as_indexes(tmp_path: Path) -> None:
    digest = reuse.ir_sha256(TOOL)
    assert len(digest) == 32
    assert int(digest, 16) >= 0  # hex digits
    checked = reuse.Checked(digest, ("app.tools", "app.kinds"), FOUND, clean=False)
    block = reuse.checked_block([("t", checked)], ["app.kinds", "app.tools"], "a")
    # Its tool is the qualname's.
    assert block["tools"] == [["t", digest, [0, 1], False, [["x", ["a", 1], 0]]]]
    assert block["messages"] == [["toolcall-strict", "error", [], "lost"]]
    assert list(block) == ["renderer", "analysis", "messages", "tools"]
    renamed = reuse.Checked(digest, ("app.tools",), (*FOUND, *FOUND, Finding(STRICT, "lost", "u", "y")), clean=False)
    block = reuse.checked_block([("t", renamed)], ["app.tools"], "a")
    assert block["tools"][0][RECORD_VARIANTS] == [["x", ["a", 1], 0], ["x", ["a", 1], 0], ["y", [], 0, "u"]]
    assert block["messages"] == [["toolcall-strict", "error", [], "lost"]], "each message once"
    clean = reuse.Checked(digest, ("app.tools",), (), clean=True)
    block = reuse.checked_block([("t", clean)], ["app.kinds", "app.tools"], "a")
    assert block["tools"] == [["t", digest, [1], True, []]]
    content = json.loads(_file(tmp_path, also=("app.kinds",)).read_text(encoding="utf-8"))
    assert list(content["sources"]) == ["app.kinds", "app.tools"]
    (record,) = content["checked"]["tools"]
    assert record[RECORD_SOURCES] == [0, 1]
    assert [entry["sources"] for entry in content["tools"]] == [[0, 1]]


def test_a_record_reads_back_as_written(tmp_path: Path) -> None:
    tool = TOOL
    previous = reuse.read_previous(_file(tmp_path), "app.tools")
    assert previous is not None
    assert previous.sources == {"app.tools": ["f" * 32, None, "tools.py"]}
    assert previous.files == {"app.tools": "tools.py"}
    assert previous.checked == {"t": reuse.Checked(reuse.ir_sha256(tool), ("app.tools",), FOUND)}
    assert previous.findings("t", reuse.ir_sha256(tool)) == FOUND
    assert previous.findings("t", "0" * 32) is None  # another IR
    assert previous.findings("u", reuse.ir_sha256(tool)) is None  # another tool
    assert previous.entry("t") == file_format.tool_entry(tool, ["app.tools"])


def test_a_records_source_indexes_read_back_as_the_modules_they_name(tmp_path: Path) -> None:
    previous = reuse.read_previous(_file(tmp_path, also=("app.kinds", "app.zones")), "app.tools")
    assert previous is not None
    assert list(previous.sources) == ["app.kinds", "app.tools", "app.zones"]
    assert previous.checked["t"].sources == ("app.kinds", "app.tools", "app.zones")
    entry = previous.entry("t")
    assert entry == file_format.tool_entry(TOOL, ["app.kinds", "app.tools", "app.zones"])


def test_a_released_record_reads_its_entries_again_only_from_the_same_file(tmp_path: Path) -> None:
    path = _file(tmp_path)
    for edited, expected in ((False, file_format.tool_entry(TOOL, ["app.tools"])), (True, None)):
        previous = reuse.previous_of(path.read_bytes(), "app.tools")
        assert previous is not None
        previous.release(path)
        assert previous.data == b""
        if edited:  # another file in its place: its entries are not this record's
            _file(tmp_path, checked=reuse.checked_block([], ["app.tools"], "other"))
        assert previous.entry("t") == expected


def _recorded(
    *tools: object, code: str = "toolcall-strict", severity: str = "error", modes: object = None
) -> dict[str, object]:
    """A ``checked`` block of these renderers, holding ``tools`` as its records and one message of this kind."""
    return {
        "renderer": reuse.renderer_digest(),
        "analysis": "a",
        "messages": [[code, severity, [] if modes is None else modes, "lost"]],
        "tools": list(tools),
    }


@pytest.mark.parametrize(
    "checked",
    [
        pytest.param(lambda: {"renderer": "another build", "tools": []}, id="other-renderers"),
        pytest.param(lambda: {"tools": []}, id="no-renderers"),
        pytest.param(lambda: {"renderer": reuse.renderer_digest(), "messages": [], "tools": {}}, id="tools-not-a-list"),
        pytest.param(lambda: {"renderer": reuse.renderer_digest(), "tools": []}, id="no-messages"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True, [["x", [], 1]]]), id="message-out-of-range"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True, [["x", [], "lost"]]]), id="message-a-text"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True, [["x", [], 0, "u", "v"]]]), id="finding-long"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True, [["x", [], 0]]], code="toolcall-bogus"), id="code"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True, [["x", [], 0]]], severity="fatal"), id="severity"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True, [["x", [], 0]]], modes=[1]), id="modes"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True, [["x", [], 0]]], modes="gemini"), id="modes-text"),
        pytest.param(lambda: _recorded(["t"]), id="no-digest"),
        pytest.param(lambda: _recorded(["t", 5, [0], True, []]), id="digest-not-a-string"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True]), id="no-findings"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True, [], "extra"]), id="a-field-more"),
        pytest.param(lambda: _recorded(["t", "0" * 32, ["app.tools"], True, []]), id="source-a-name"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [1], True, []]), id="source-out-of-range"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [-1], True, []]), id="source-negative"),
        pytest.param(lambda: _recorded(["t", "0" * 32, [0], True, [["x", ["a", 1]]]]), id="finding-short"),
        pytest.param(
            lambda: _recorded({"qualname": "t", "ir_sha256": "0" * 32, "sources": [0], "strict": [], "clean": True}),
            id="an-object",
        ),
    ],
)
def test_a_record_of_other_renderers_or_malformed_is_not_reused(tmp_path: Path, checked: object) -> None:
    assert reuse.read_previous(_file(tmp_path, checked=checked()), "app.tools") is None  # type: ignore[operator]


def test_a_well_formed_record_of_these_renderers_is_reused(tmp_path: Path) -> None:
    """The malformed records above differ from this one only where their ids say."""
    path = _file(tmp_path, checked=_recorded(["t", "0" * 32, [0], True, [["x", ["a", 1], 0], ["y", [], 0, "u"]]]))
    previous = reuse.read_previous(path, "app.tools")
    assert previous is not None
    found = (*FOUND, Finding(STRICT, "lost", "u", "y"))
    assert previous.checked == {"t": reuse.Checked("0" * 32, ("app.tools",), found, clean=True)}


@pytest.mark.parametrize(
    "sources",
    [
        pytest.param([1], id="out-of-range"),
        pytest.param([-1], id="negative"),
        pytest.param(["app.tools"], id="a-name"),
        pytest.param("app.tools", id="a-string"),
        pytest.param(None, id="null"),
    ],
)
def test_an_entry_whose_sources_are_not_indexes_of_the_table_is_not_taken(tmp_path: Path, sources: object) -> None:
    path = _file(tmp_path)
    content = json.loads(path.read_text(encoding="utf-8"))
    assert content["tools"][0]["sources"] == [0]
    reseal(path, {"tools": [{"sources": sources, "ir": content["tools"][0]["ir"]}]})
    previous = reuse.read_previous(path, "app.tools")
    assert previous is not None  # the record is the head's: still read
    assert previous.entry("t") is None


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


@pytest.mark.parametrize(
    ("settings", "renders"),
    [
        ('strict = false\ncache = false\nproviders = ["openai", "anthropic"]', False),
        ("strict = false\ncache = false", True),  # Gemini's findings are still reported
        ("cache = false", True),
    ],
)
def test_nothing_is_rendered_when_nothing_reads_it(project: Project, settings: str, renders: bool) -> None:
    project.write("pyproject.toml", f"{PYPROJECT}\n[tool.toolcall]\n{settings}\n")
    result = project.mypy("--cache-dir", fresh_cache(project), start=RENDERERS_IMPORTED)
    assert f"renderers imported: {renders}" in result.stdout
    assert not project.cache.exists()
