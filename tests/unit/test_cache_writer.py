"""The cache writer's text: its records laid out over lines, each tool entry compact on its line, dict order kept."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.corpus import MODULES, scalars
from toolcall import _ir as ir
from toolcall._cache import file_format
from toolcall._cache.layout import Shape, compact, laid_out
from toolcall._cache.loader import live_fingerprint
from toolcall._declarations.tool import module_tools
from toolcall._introspect import introspect
from toolcall_mypy._cache.files import write_cache_file

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()  # control characters, quotes, backslashes and newlines included
)
JSON_LIKE = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=40,
)
SHAPES: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.just({}),
    lambda children: st.dictionaries(st.sampled_from(["*", "a", "b", ""]), children, max_size=3),
    max_leaves=8,
)


@given(JSON_LIKE, SHAPES)
def test_laid_out_text_reads_back_as_the_same_value_in_the_same_order(value: Any, shape: Shape | None) -> None:
    text = laid_out(value, shape)
    assert json.dumps(json.loads(text)) == json.dumps(value)


@given(JSON_LIKE)
def test_with_no_shape_a_value_is_one_compact_line(value: Any) -> None:
    assert laid_out(value, None) == compact(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert "\n" not in laid_out(value, None)


def test_a_shaped_container_starts_a_line_per_item_and_the_rest_is_compact() -> None:
    value = {"zeta": {"b": [1, {"x": 2}]}, "alpha": [{"k": "v"}, []], "middle": {}}
    text = laid_out(value, {"zeta": {}, "alpha": {"*": {}}})
    assert text == (
        '{\n  "zeta": {\n    "b": [1,{"x":2}]\n  },\n  "alpha": [\n    {\n      "k": "v"\n    },\n    []\n  ],'
        '\n  "middle": {}\n}'
    )


def scalars_content(checked: dict[str, Any] | None = None) -> dict[str, Any]:
    entries = [file_format.tool_entry(introspect(d).tool, [scalars.__name__]) for d in module_tools(scalars.__name__)]
    sources: dict[str, list[str | None]] = {scalars.__name__: ["0" * 32, None]}
    return file_format.module_content(scalars.__name__, sources, entries, checked)


def test_a_file_with_lone_surrogates_is_valid_utf_8_and_reads_back_the_same() -> None:
    tool = ir.Tool("t", "m", "t", "A lone \udcff surrogate.", (), providers=("m:\udcff",))
    content = file_format.module_content("m", {"m": ["0" * 32, None]}, [file_format.tool_entry(tool, ["m"])])
    text = file_format.dumps(content)
    assert "\\udcff" in text
    (entry,) = json.loads(text.encode("utf-8"))["tools"]
    assert entry == {"sources": [0], "ir": ["t", "t", "A lone \udcff surrogate.", [], [], None, ["m:\udcff"]]}
    assert file_format.entry_tool(entry["ir"], "m") == tool


def test_a_real_cache_file_reads_back_as_its_content_in_the_same_order() -> None:
    for checked in (None, {"renderer": "r", "tools": [["q", "0" * 32, [0], True, []]]}):
        content = scalars_content(checked)
        text = file_format.dumps(content)
        loaded = json.loads(text)
        assert list(loaded) == ["checked", "content_sha256", "format", "ir", "module", "sources", "tools", "types"]
        assert list(content) == ["checked", "format", "ir", "module", "sources", "tools", "types"]
        del loaded["content_sha256"]
        assert json.dumps(loaded) == json.dumps(content)


def test_a_real_cache_file_has_a_line_per_record_and_each_tool_entry_on_one_line() -> None:
    content = scalars_content()
    text = file_format.dumps(content)
    lines = text.splitlines()
    assert lines[0] == "{"
    assert lines[-1] == "}"
    assert text.endswith("}\n")
    assert all(line.startswith("  ") for line in lines[1:-1])
    tools = content["tools"]
    assert len(tools) > 1
    start = lines.index('  "tools": [')
    assert lines[start + 1 : start + len(tools) + 2] == [
        *(f"    {compact(entry)}," for entry in tools[:-1]),
        f"    {compact(tools[-1])}",
        "  ],",
    ]
    assert content["types"] == [], "a module of scalars shares no type"
    assert lines[-2] == '  "types": []'
    shared = ir.decode_shared(content["types"])
    for entry in tools:  # each description is stored once: in the IR, nothing rendered beside it
        description = file_format.entry_tool(entry["ir"], scalars.__name__, shared).description
        assert text.count(json.dumps(description, ensure_ascii=False)) == 1


def test_a_tool_entry_is_its_sorted_sources_and_its_ir() -> None:
    for declaration in module_tools(scalars.__name__):
        tool = introspect(declaration).tool
        entry = file_format.tool_entry(tool, ["b.types", scalars.__name__, "a.types", "b.types"])
        assert entry == {"sources": ["a.types", "b.types", scalars.__name__], "tool": tool}
        encoded = file_format.entry_ir(tool)
        assert encoded == ir.to_json(dataclasses.replace(tool, module=""))  # the file names the module, once
        assert scalars.__name__ not in json.dumps(encoded)
        assert file_format.entry_tool(json.loads(json.dumps(encoded)), scalars.__name__) == tool
        with pytest.raises(ValueError, match="holds no module"):
            file_format.entry_tool(ir.to_json(tool), scalars.__name__)
    entry = file_format.tool_entry(tool, iter([scalars.__name__]))  # any iterable
    assert entry["sources"] == [scalars.__name__]


def test_the_file_holds_an_entrys_sources_as_indexes_into_the_sorted_table() -> None:
    tools = [introspect(d).tool for d in module_tools(scalars.__name__)][:2]
    record: list[str | None] = ["0" * 32, None]
    sources = dict.fromkeys(("z.types", scalars.__name__, "a.types"), record)
    refused = file_format.refused_entry("r", "r", [], "toolcall-type: no schema")
    entries = [
        file_format.tool_entry(tools[0], [scalars.__name__, "z.types"]),
        refused,
        file_format.tool_entry(tools[1], ["a.types", scalars.__name__]),
    ]
    content = file_format.module_content(scalars.__name__, sources, entries)
    assert list(content["sources"]) == ["a.types", scalars.__name__, "z.types"]
    shared = ir.SharedTypes()
    assert content["tools"] == [
        {"sources": [1, 2], "ir": file_format.entry_ir(tools[0], shared)},
        refused,  # names its tool itself: no sources
        {"sources": [0, 1], "ir": file_format.entry_ir(tools[1], shared)},
    ]
    assert content["types"] == shared.items
    assert [list(entry) for entry in content["tools"]] == [["sources", "ir"], list(refused), ["sources", "ir"]]


def test_a_refused_entry_is_its_names_fingerprint_and_reason() -> None:
    shape = [("city", "positional_or_keyword", False)]
    entry = file_format.refused_entry("f", "C.f", shape, "toolcall-type: no schema")
    fingerprint = file_format.fingerprint("f", "C.f", shape)
    assert json.dumps(entry) == json.dumps(
        {"name": "f", "qualname": "C.f", "fingerprint": fingerprint, "refused": "toolcall-type: no schema"}
    )


@pytest.mark.parametrize("module", MODULES)
def test_the_fingerprint_of_an_ir_is_the_live_functions(module: str) -> None:
    """What the runtime compares: the fingerprint that follows from the IR, and the live function's."""
    importlib.import_module(module)
    declarations = module_tools(module)
    assert declarations
    for declaration in declarations:
        tool = introspect(declaration).tool
        fingerprint = file_format.entry_fingerprint(tool)
        assert fingerprint == live_fingerprint(declaration)
        assert fingerprint == file_format.fingerprint(tool.name, tool.qualname, file_format.ir_parameters(tool))


def test_the_fingerprint_of_an_ir_follows_its_signature() -> None:
    tool = introspect(module_tools(scalars.__name__)[0]).tool
    first, *rest = tool.parameters
    fingerprint = file_format.entry_fingerprint(tool)
    changed = [
        dataclasses.replace(tool, parameters=(dataclasses.replace(first, name="town"), *rest)),
        dataclasses.replace(tool, parameters=(dataclasses.replace(first, kind="keyword_only"), *rest)),
        dataclasses.replace(tool, parameters=(dataclasses.replace(first, required=not first.required), *rest)),
        dataclasses.replace(tool, parameters=tuple(rest)),
        dataclasses.replace(tool, name="other"),
        dataclasses.replace(tool, qualname="C.other"),
    ]
    assert len({fingerprint, *map(file_format.entry_fingerprint, changed)}) == len(changed) + 1
    # What no signature carries does not change it.
    assert file_format.entry_fingerprint(dataclasses.replace(tool, description="other")) == fingerprint


def test_the_seal_is_the_digest_of_the_text_without_its_line() -> None:
    text = file_format.dumps(scalars_content({"renderer": "r", "tools": []}))
    lines = text.splitlines(keepends=True)
    (line,) = [x for x in lines if x.startswith('  "content_sha256": ')]
    unsealed = "".join(x for x in lines if x is not line)
    assert line == f'  "content_sha256": "{hashlib.sha256(unsealed.encode()).hexdigest()[:32]}",\n'
    assert json.loads(unsealed) == {k: v for k, v in json.loads(text).items() if k != "content_sha256"}


def test_the_sealed_head_is_every_field_but_the_tools() -> None:
    content = scalars_content({"renderer": "r", "tools": [["q", "0" * 32, [0], True, []]]})
    head = file_format.sealed_head(file_format.dumps(content).encode())
    assert head is not None
    assert head.pop("content_sha256")
    assert head == {key: value for key, value in content.items() if key not in ("tools", "types")}


@pytest.mark.parametrize(
    "edit",
    [
        lambda text: text.replace('"Oslo"', '"Bergen"', 1) if '"Oslo"' in text else text.replace("a", "b", 1),
        lambda text: text.replace('"r"', '"s"'),  # inside the head
        lambda text: text[:-40],  # truncated
        lambda text: text.replace('  "content_sha256": "', '  "content_sha256": "0'),
        lambda text: "".join(line for line in text.splitlines(True) if "content_sha256" not in line),
        lambda text: text + " ",
        lambda text: "junk",
    ],
)
def test_any_edit_breaks_the_seal(edit: Any) -> None:
    text = file_format.dumps(scalars_content({"renderer": "r", "tools": []}))
    edited = edit(text)
    assert edited != text
    assert file_format.sealed_head(edited.encode()) is None


def test_a_cache_file_is_readable_like_any_file_written_under_the_umask(tmp_path: Path) -> None:
    target = tmp_path / "__toolcall__" / "tools.json"
    previous = os.umask(0o022)
    try:
        assert write_cache_file(str(target), "{}\n")
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
        os.umask(0o077)
        assert write_cache_file(str(target), "[]\n")
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
        assert not write_cache_file(str(target), "[]\n")  # unchanged text: not written again
    finally:
        os.umask(previous)


def test_the_classes_a_files_tools_share_are_written_once() -> None:
    point = ir.ObjectType("m:Point", "typeddict", (ir.Field("x", ir.Primitive("int"), description="The x."),))
    tools = [ir.Tool(name, "m", name, "", (ir.Parameter("p", "positional_or_keyword", point),)) for name in "ab"]
    sources: dict[str, list[str | None]] = {"m": ["0" * 32, None, "m.py"]}
    content = file_format.module_content("m", sources, [file_format.tool_entry(tool, ["m"]) for tool in tools])
    text = file_format.dumps(content)
    assert text.count("The x.") == 1
    assert text.endswith(f'  "types": [\n    {compact(content["types"][0])}\n  ]\n}}\n'), "a line per class"
    assert content["types"] == [ir.to_json(point)]
    assert [entry["ir"] for entry in content["tools"]] == [["a", "a", "", [["p", 0]]], ["b", "b", "", [["p", 0]]]]
    loaded = json.loads(text)
    assert list(loaded)[-1] == "types", "after the tools: the head a run reads first stays small"
    shared = ir.decode_shared(loaded["types"])
    assert [file_format.entry_tool(entry["ir"], "m", shared) for entry in loaded["tools"]] == tools
