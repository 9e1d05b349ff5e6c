"""The cache writer's text: exactly ``json.dumps(indent=2, ensure_ascii=False)``, dict order kept."""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.corpus import scalars
from toolcall import cache_format
from toolcall.definition import module_tools
from toolcall.introspect import introspect
from toolcall.pretty_json import indented


def reference(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and the infinities included: they go to json.dumps
    | st.text()  # lone surrogates, control characters, quotes and backslashes included
)
JSON_LIKE = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=40,
)


@given(JSON_LIKE)
def test_same_text_as_json_dumps(value: Any) -> None:
    assert indented(value) == reference(value)


@given(st.dictionaries(st.text(max_size=3), JSON_LIKE, min_size=1, max_size=4), st.data())
def test_a_dict_reached_more_than_once_is_written_the_same_at_every_place(shared: Any, data: st.DataObject) -> None:
    # As the rendered variants of a tool share their schemas: the same object at several depths.
    places = data.draw(st.lists(st.integers(min_value=0, max_value=3), min_size=2, max_size=5))
    value: Any = {}
    for index, depth in enumerate(places):
        holder = shared
        for level in range(depth):
            holder = {"level": level, "inner": [holder, "text\nwith a newline"]}
        value[f"place {index}"] = holder
    assert indented(value) == reference(value)


@given(
    st.dictionaries(
        st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False) | st.text(max_size=3), SCALARS
    )
    .filter(lambda d: len({str(k) for k in d}) == len(d))
    .filter(lambda d: len({type(k) for k in d}) <= 1 or all(type(k) is str for k in d))
)
def test_non_string_keys_are_left_to_json(value: dict[Any, Any]) -> None:
    # json.dumps turns non-str keys into strings: both writers agree.
    assert indented(value) == reference(value)


def test_tuples_subclasses_and_special_floats_are_left_to_json() -> None:
    class Text(str):
        pass

    for value in ([1, (2, 3)], {"a": Text("x")}, [math.nan, -math.inf, math.inf], {"a": True, "b": 1.0, "c": -0.0}):
        assert indented(value) == reference(value)


def scalars_content(checked: dict[str, Any] | None = None) -> dict[str, Any]:
    entries = [cache_format.tool_entry(introspect(d).tool, [scalars.__name__]) for d in module_tools(scalars.__name__)]
    sources = {scalars.__name__: {"sha256": "0" * 64, "tokens": None}}
    return cache_format.module_content(scalars.__name__, sources, entries, checked)


def test_keys_keep_their_order_at_every_depth() -> None:
    value = {"zeta": 1, "alpha": {"item": [{"z": None, "a": True}], "b": "x"}, "middle": []}
    assert indented(value) == json.dumps(value, indent=2)
    assert indented(value).index('"zeta"') < indented(value).index('"alpha"') < indented(value).index('"middle"')


def test_a_file_with_lone_surrogates_is_valid_utf_8_and_reads_back_the_same() -> None:
    content = cache_format.module_content(
        "m", {"m": {"sha256": "0" * 64, "tokens": None}}, [{"enum": ["\udcff", "ok"]}]
    )
    text = cache_format.dumps(content)
    assert "\\udcff" in text
    assert json.loads(text.encode("utf-8"))["tools"] == [{"enum": ["\udcff", "ok"]}]


def test_a_real_cache_file_is_written_as_json_dumps_writes_it() -> None:
    for checked in (None, {"renderer": "r", "tools": [{"qualname": "q"}]}):
        content = scalars_content(checked)
        text = cache_format.dumps(content)
        loaded = json.loads(text)
        assert text == reference(loaded) + "\n"
        assert list(loaded) == ["checked", "content_sha256", *list(content)[1:]]
        del loaded["content_sha256"]
        assert json.dumps(loaded) == json.dumps(content)


def test_the_seal_is_the_digest_of_the_text_without_its_line() -> None:
    text = cache_format.dumps(scalars_content({"renderer": "r", "tools": []}))
    lines = text.splitlines(keepends=True)
    (line,) = [x for x in lines if x.startswith('  "content_sha256": ')]
    unsealed = "".join(x for x in lines if x is not line)
    assert line == f'  "content_sha256": "{hashlib.sha256(unsealed.encode()).hexdigest()}",\n'
    assert json.loads(unsealed) == {k: v for k, v in json.loads(text).items() if k != "content_sha256"}


def test_the_sealed_head_is_every_field_but_the_tools() -> None:
    content = scalars_content({"renderer": "r", "tools": [{"qualname": "q"}]})
    head = cache_format.sealed_head(cache_format.dumps(content).encode())
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
    text = cache_format.dumps(scalars_content({"renderer": "r", "tools": []}))
    edited = edit(text)
    assert edited != text
    assert cache_format.sealed_head(edited.encode()) is None


def test_a_cache_file_is_readable_like_any_file_written_under_the_umask(tmp_path: Path) -> None:
    target = tmp_path / "__toolcall__" / "tools.json"
    previous = os.umask(0o022)
    try:
        assert cache_format.write_atomic(target, "{}\n")
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
        os.umask(0o077)
        assert cache_format.write_atomic(target, "[]\n")
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
        assert not cache_format.write_atomic(target, "[]\n")  # unchanged text: not written again
    finally:
        os.umask(previous)
