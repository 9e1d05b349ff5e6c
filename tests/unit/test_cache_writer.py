"""The cache writer's text: its records laid out over lines, each stored value compact, dict order kept."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.corpus import scalars
from toolcall._cache import file_format
from toolcall._cache.layout import Shape, compact, laid_out
from toolcall._cache.tables import unpack
from toolcall._declarations.tool import module_tools
from toolcall._introspect import introspect

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
    sources = {scalars.__name__: {"sha256": "0" * 64, "tokens": None}}
    return file_format.module_content(scalars.__name__, sources, entries, checked)


def test_a_file_with_lone_surrogates_is_valid_utf_8_and_reads_back_the_same() -> None:
    content = file_format.module_content("m", {"m": {"sha256": "0" * 64, "tokens": None}}, [{"enum": ["\udcff", "ok"]}])
    text = file_format.dumps(content)
    assert "\\udcff" in text
    assert json.loads(text.encode("utf-8"))["tools"] == [{"enum": ["\udcff", "ok"]}]


def test_a_real_cache_file_reads_back_as_its_content_in_the_same_order() -> None:
    for checked in (None, {"renderer": "r", "tools": [{"qualname": "q"}]}):
        content = scalars_content(checked)
        text = file_format.dumps(content)
        loaded = json.loads(text)
        assert list(loaded) == ["checked", "content_sha256", *list(content)[1:], "schemas", "texts"]
        del loaded["content_sha256"]
        assert json.dumps(unpack(loaded)) == json.dumps(content)


def test_a_real_cache_file_has_a_line_per_record_and_stores_each_description_once() -> None:
    content = scalars_content()
    text = file_format.dumps(content)
    lines = text.splitlines()
    assert lines[0] == "{"
    assert lines[-1] == "}"
    assert text.endswith("}\n")
    assert all(line.startswith("  ") for line in lines[1:-1])
    tool = content["tools"][0]
    assert text.count(json.dumps(tool["ir"]["description"], ensure_ascii=False)) == 1
    assert sum(line.startswith(f'      "{key}": ') for line in lines for key in tool) == len(tool) * len(
        content["tools"]
    )
    variants = [line for line in lines if line.startswith('        "openai:strict": ')]
    assert len(variants) == len(content["tools"])


def test_the_seal_is_the_digest_of_the_text_without_its_line() -> None:
    text = file_format.dumps(scalars_content({"renderer": "r", "tools": []}))
    lines = text.splitlines(keepends=True)
    (line,) = [x for x in lines if x.startswith('  "content_sha256": ')]
    unsealed = "".join(x for x in lines if x is not line)
    assert line == f'  "content_sha256": "{hashlib.sha256(unsealed.encode()).hexdigest()}",\n'
    assert json.loads(unsealed) == {k: v for k, v in json.loads(text).items() if k != "content_sha256"}


def test_the_sealed_head_is_every_field_but_the_tools() -> None:
    content = scalars_content({"renderer": "r", "tools": [{"qualname": "q"}]})
    head = file_format.sealed_head(file_format.dumps(content).encode())
    assert head is not None
    assert head.pop("content_sha256")
    assert head == {key: value for key, value in content.items() if key != "tools"}


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
        assert file_format.write_atomic(target, "{}\n")
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
        os.umask(0o077)
        assert file_format.write_atomic(target, "[]\n")
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
        assert not file_format.write_atomic(target, "[]\n")  # unchanged text: not written again
    finally:
        os.umask(previous)
