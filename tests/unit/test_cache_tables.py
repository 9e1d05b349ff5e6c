"""The cache file's tables: ``unpack`` is the exact inverse of ``pack``, and refuses any table it cannot trust."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.corpus import scalars
from toolcall._cache import file_format
from toolcall._cache.constants import MAX_DEPTH, MalformedCacheError
from toolcall._cache.tables import MAX_EXPANDED, pack, unpack
from toolcall._declarations.tool import module_tools
from toolcall._introspect import introspect

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=12,
)
KEYWORDS = st.sampled_from(
    ["type", "description", "default", "enum", "properties", "items", "anyOf", "prefixItems", "$defs",
     "additionalProperties", "not", "const", "required", "x"]
)  # fmt: skip
# Schema-like objects: keyword places holding schemas, ints, booleans, data and "description" anywhere.
SCHEMA = st.recursive(
    JSON,
    lambda children: (
        st.dictionaries(KEYWORDS, children | st.dictionaries(st.text(max_size=12), children), max_size=5)
        | st.lists(children, max_size=3)
    ),
    max_leaves=20,
)


def entry(name: str, parameters: Any, description: Any, ir: Any) -> dict[str, Any]:
    named = {"name": name, "description": description, "parameters": parameters}
    return {
        "name": name,
        "qualname": name,
        "fingerprint": "0" * 32,
        "sources": ["m"],
        "ir": ir,
        "describe": {"module": "m", "name": name, "description": description, "parameters": parameters},
        "rendered": {
            "openai": {"type": "function", "function": named | {"strict": False}},
            "openai:strict": {"type": "function", "function": named | {"parameters": parameters}},
            "anthropic": {"name": name, "description": description, "input_schema": parameters},
            "mcp": {"name": name, "inputSchema": parameters, "outputSchema": parameters, "description": description},
            "gemini": {"error": "no"},
            "unknown": {"name": name, "description": 1, "parameters": 2},
        },
    }


def content_of(tools: list[Any]) -> dict[str, Any]:
    return file_format.module_content("m", {"m": {"sha256": "0" * 64, "tokens": None}}, tools)


def round_trip(content: dict[str, Any]) -> dict[str, Any]:
    return unpack(json.loads(json.dumps(pack(content))))


@settings(max_examples=300)
@given(SCHEMA, JSON, SCHEMA, SCHEMA)
def test_unpack_gives_back_exactly_what_was_packed(parameters: Any, description: Any, ir: Any, other: Any) -> None:
    content = content_of([entry("a", parameters, description, ir), entry("b", other, description, parameters)])
    assert json.dumps(round_trip(content)) == json.dumps(content)


@given(st.lists(JSON, max_size=3))
def test_entries_not_of_the_written_shape_pass_through_both_ways(tools: list[Any]) -> None:
    content = content_of([*tools, {"name": "r", "refused": "why"}, {"ir": 1, "describe": 2, "rendered": 3}])
    assert json.dumps(round_trip(content)) == json.dumps(content)


def test_a_real_module_round_trips_and_stores_each_description_and_schema_once() -> None:
    tools = [introspect(d).tool for d in module_tools(scalars.__name__)]
    content = content_of([file_format.tool_entry(tool, [scalars.__name__]) for tool in tools])
    packed = pack(content)
    assert json.dumps(round_trip(content)) == json.dumps(content)
    texts = [json.dumps(text) for text in packed["texts"]]
    assert len(texts) == len(set(texts))
    schemas = [json.dumps(schema) for schema in packed["schemas"]]
    assert len(schemas) == len(set(schemas))
    first = packed["tools"][0]
    assert first["rendered"]["openai"]["function"]["parameters"] == first["describe"]["parameters"]
    assert first["rendered"]["anthropic"]["description"] == first["ir"]["description"]


def test_unpacked_variants_share_one_schema_object() -> None:
    content = content_of([entry("a", {"type": "object", "properties": {"x": {"type": "string"}}}, "d", {})])
    tool = round_trip(content)["tools"][0]
    assert tool["rendered"]["anthropic"]["input_schema"] is tool["describe"]["parameters"]


def packed_file(schemas: list[Any], root: Any = 0, texts: list[Any] | None = None) -> dict[str, Any]:
    named = {"name": "a", "description": 0, "parameters": root}
    tool = {
        "name": "a",
        "ir": {},
        "describe": {"description": 0, "parameters": root},
        "rendered": {"openai": {"type": "function", "function": named}},
    }
    return {"module": "m", "tools": [tool], "schemas": schemas, "texts": ["d"] if texts is None else texts}  # fmt: skip


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (packed_file([{"properties": {"x": 0}}]), "schema 0 refers to schema 0, which does not come before it"),
        (packed_file([{"items": 1}, {"type": "string"}]), "refers to schema 1"),
        (packed_file([{"anyOf": [-1]}]), "refers to schema -1"),
        (packed_file([{}], root=1), "'parameters' is 1, not the index of a schema"),
        (packed_file([{}], root=True), "is True, not the index of a schema"),
        (packed_file([{}], root="0"), "is '0', not the index of a schema"),
        (packed_file([{"description": "inline"}]), "a schema's description is 'inline', not the index of a text"),
        (packed_file([{"description": 3}]), "is 3, not the index of a text"),
        (packed_file([{}], texts=[]), "'description' is 0, not the index of a text"),
        (packed_file({}), "the cache's 'schemas' is {}, not an array"),  # type: ignore[arg-type]
        ({"tools": [], "schemas": []}, "the cache's 'texts' is None, not an array"),
        (
            {"tools": [{"ir": {"description": "x"}, "describe": {}, "rendered": {}}], "schemas": [], "texts": []},
            "tool entry 0: 'ir': a description is 'x'",
        ),
    ],
)  # fmt: skip
def test_a_table_that_cannot_be_trusted_is_refused(content: dict[str, Any], reason: str) -> None:
    with pytest.raises(MalformedCacheError, match=reason.replace("(", r"\(").replace(")", r"\)").replace("$", r"\$")):
        unpack(content)


def test_a_schema_that_expands_without_bound_is_refused_at_once() -> None:
    # Each schema names the one before it twice: 2**60 nodes from 61 lines.
    schemas: list[Any] = [{"type": "string"}] + [{"properties": {"a": i, "b": i}} for i in range(60)]
    with pytest.raises(MalformedCacheError, match=f"expand to more than {MAX_EXPANDED} nodes"):
        unpack(packed_file(schemas, root=60))


def test_a_chain_of_references_deeper_than_the_limit_is_refused() -> None:
    schemas: list[Any] = [{"type": "string"}] + [{"items": i} for i in range(MAX_DEPTH + 1)]
    with pytest.raises(MalformedCacheError, match=f"nests deeper than {MAX_DEPTH} levels"):
        unpack(packed_file(schemas, root=len(schemas) - 1))


def test_an_inline_schema_nested_past_the_stack_is_refused_not_a_crash() -> None:
    deep: Any = {"type": "string"}
    for _ in range(50_000):
        deep = {"items": deep}
    with pytest.raises(MalformedCacheError, match="nested too deeply"):
        unpack(packed_file([deep]))
