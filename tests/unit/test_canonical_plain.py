"""A plain canonical schema, or a strict schema made from it, is handed out as it is, once; the rest is copied.

``canonical_schema`` says whether the schema it built is plain JSON data
made for this call alone (``Canonical.plain``): every dict and list is new,
and each value placed in it (defaults, enum and literal values, bounds) is
a plain JSON scalar. A strict pass makes every dict of its schema afresh
from it. Rendering then gives the first of these parts handed out to its
variant without the copy every other part gets.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tests import corpus
from tests import render_samples as s
from tests.written_modules import imported_corpus, tool_declarations
from toolcall import _ir as ir
from toolcall._introspect import introspect
from toolcall._providers import VARIANTS
from toolcall._render import definitions
from toolcall._render.canonical import canonical_schema
from toolcall._render.definitions import render_tool, render_variants
from toolcall._render.schema import plain


def containers(value: Any) -> list[Any]:
    """Every dict and list inside ``value``, itself included."""
    if isinstance(value, dict):
        return [value, *(found for child in value.values() for found in containers(child))]
    if isinstance(value, list):
        return [value, *(found for child in value for found in containers(child))]
    return []


def leaves(value: Any) -> list[Any]:
    """Every value inside ``value`` that is neither a dict nor a list, the keys included."""
    if isinstance(value, dict):
        return [*value, *(found for child in value.values() for found in leaves(child))]
    if isinstance(value, list):
        return [found for child in value for found in leaves(child)]
    return [value]


def corpus_tools(tmp_path: Path) -> list[ir.Tool]:
    tools = [introspect(declaration).tool for declaration in tool_declarations(corpus.MODULES)]
    with imported_corpus(tmp_path, modules=40, seed=11) as written:
        tools += [introspect(declaration).tool for declaration in tool_declarations(list(written.modules))]
    return tools


def test_a_plain_schema_is_json_data_that_shares_nothing(tmp_path: Path) -> None:
    tools = corpus_tools(tmp_path) + list(s.SAMPLES.values())
    vouched = 0
    for tool in tools:
        first, second = canonical_schema(tool), canonical_schema(tool)  # the second from kept shapes
        assert json.dumps(first.schema) == json.dumps(second.schema), tool.name
        if not first.plain:
            continue
        vouched += 1
        assert json.dumps(plain(first.schema)) == json.dumps(first.schema), tool.name
        assert all(type(leaf) in (str, int, float, bool, type(None)) for leaf in leaves(first.schema)), tool.name
        assert not any(isinstance(leaf, float) and not math.isfinite(leaf) for leaf in leaves(first.schema))
        ids = [id(found) for found in containers(first.schema) + containers(second.schema)]
        assert len(ids) == len(set(ids)), f"{tool.name}: a dict or list held twice"
    assert vouched > len(tools) // 2  # most tools are plain: the copy is saved where it matters


NAN_DEFAULT = s.tool("nan_default", s.param("x", s.P("float"), required=False, default=ir.Default("NaN")))
LONG_DEFAULT = s.tool("long_default", s.param("n", s.P("int"), required=False, default=ir.Default("9" * 700)))

#: Tools whose canonical schema holds a value the builder does not vouch for, and what rendering must do.
NOT_VOUCHED: dict[str, tuple[ir.Tool, str]] = {
    "an infinite bound": (s.tool("bound", s.param("n", s.constrained(s.P("float"), ge=-math.inf))), "refused"),
    "a NaN bound": (s.tool("nan_bound", s.param("n", s.constrained(s.P("float"), lt=math.nan))), "refused"),
    "a NaN literal": (s.tool("nan_literal", s.param("v", ir.LiteralType((1.0, math.nan)))), "refused"),
    "an infinite enum value": (
        s.tool("inf_enum", s.param("v", ir.EnumType(ref="samples:Big", values=(math.inf,)))),
        "refused",
    ),
    "a NaN default": (NAN_DEFAULT, "refused"),
    "an integer past the copy's own limit": (LONG_DEFAULT, "copied"),
    "a list default": (s.tool("list_default", s.optional("tags", ir.ArrayType(s.P("str")), ["a", "b"])), "copied"),
    "a custom schema": (s.CUSTOM, "copied"),
    "a str subclass in a literal": (
        s.tool("subclass", s.param("v", ir.LiteralType((type("Label", (str,), {})("a"),)))),
        "copied",
    ),
}


@pytest.mark.parametrize("case", sorted(NOT_VOUCHED))
def test_a_value_the_builder_cannot_vouch_for_makes_the_schema_not_plain(case: str) -> None:
    tool, outcome = NOT_VOUCHED[case]
    assert not canonical_schema(tool).plain
    for provider, strict in (("openai", False), ("anthropic", False), ("mcp", False)):
        if outcome == "refused":
            with pytest.raises(ValueError):
                render_tool(tool, provider, strict=strict)
            continue
        schema = render_tool(tool, provider, strict=strict).definition
        assert all(type(leaf) in (str, int, float, bool, type(None)) for leaf in leaves(schema)), case


@pytest.mark.parametrize("strict", [False, True])
def test_a_plain_tool_is_rendered_without_copying_its_schema(strict: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    copied: list[Any] = []

    def counting(value: Any) -> Any:
        copied.append(value)
        return plain(value)

    monkeypatch.setattr(definitions, "plain", counting)
    tool = s.WEATHER
    assert canonical_schema(tool).plain
    first = render_tool(tool, "openai", strict=strict)
    assert copied == []  # the canonical schema itself, or the strict pass's
    assert first.definition["function"].get("strict", False) is strict
    second = render_tool(tool, "openai", strict=strict)
    assert json.dumps(first.definition) == json.dumps(second.definition)
    emptied(first.definition)
    assert json.dumps(render_tool(tool, "openai", strict=strict).definition) == json.dumps(second.definition)


def emptied(value: Any) -> None:
    """Every dict and list inside ``value`` cleared, deepest first."""
    for found in reversed(containers(value)):
        found.clear()


def test_a_strict_schema_made_from_a_plain_one_is_json_data_of_its_own(tmp_path: Path) -> None:
    vouched = 0
    for tool in corpus_tools(tmp_path) + list(s.SAMPLES.values()):
        if not canonical_schema(tool).plain:
            continue
        for provider in ("openai", "anthropic"):
            try:
                first = render_tool(tool, provider, strict=True).definition
            except ValueError:
                continue
            vouched += 1
            second = render_tool(tool, provider, strict=True).definition
            text = json.dumps(second)
            assert json.dumps(first) == text == json.dumps(plain(first)), tool.name
            assert all(type(leaf) in (str, int, float, bool, type(None)) for leaf in leaves(first)), tool.name
            ids = [id(found) for found in containers(first) + containers(second)]
            assert len(ids) == len(set(ids)), f"{tool.name} ({provider}): a dict or list held twice"
            emptied(first)
            assert json.dumps(render_tool(tool, provider, strict=True).definition) == text, tool.name
    assert vouched > 100


def test_the_variants_of_one_rendering_share_no_dict_or_list(tmp_path: Path) -> None:
    for tool in corpus_tools(tmp_path) + list(s.SAMPLES.values()):
        rendered = render_variants(tool, VARIANTS)
        held = [
            id(found)
            for variant in rendered.values()
            if not isinstance(variant, str)
            for found in containers(variant.definition)
        ]
        assert len(held) == len(set(held)), tool.name
