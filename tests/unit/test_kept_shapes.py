"""A node's schema is kept by the node's identity, and each tool still gets its own schema, the same as built afresh.

``toolcall._render.canonical`` keeps the schema of a node built from other
nodes or values (an object, an array, a union, an enum...) that refers to
no named type and holds no custom one. A module's tools share such nodes,
so a type many tools use is rendered once; each rendering gets a copy.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import corpus
from tests.repeated_types import module_source
from tests.written_modules import imported_corpus, tool_declarations, written_module
from toolcall import _ir as ir
from toolcall._providers import VARIANTS
from toolcall._render import canonical
from toolcall._render.definitions import render_variants
from toolcall._toolset.toolset import load_tool


def rendered(tools: list[ir.Tool]) -> list[str]:
    """Every variant of every tool, as ordered JSON text (or the refusal's message)."""
    texts = []
    for tool in tools:
        for variant, result in render_variants(tool, VARIANTS).items():
            texts.append(json.dumps([variant, result if isinstance(result, str) else result.definition]))
    return texts


def afresh(tools: list[ir.Tool], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``rendered`` with no schema kept."""
    with monkeypatch.context() as patch:
        patch.setattr(canonical, "_KEPT_KINDS", frozenset())
        return rendered(tools)


def ir_of(modules: list[str]) -> list[ir.Tool]:
    return [load_tool(declaration).ir for declaration in tool_declarations(modules)]


def test_every_corpus_tool_renders_as_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    tools = ir_of(list(corpus.MODULES))
    expected = afresh(tools, monkeypatch)
    assert rendered(tools) == expected
    assert rendered(tools) == expected  # every node's schema now kept


def test_a_generated_corpus_renders_as_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with imported_corpus(tmp_path, modules=60, seed=5) as written:
        tools = ir_of(list(written.modules))
        assert len(tools) == written.tools
        expected = afresh(tools, monkeypatch)
        assert rendered(tools) == expected
        assert rendered(tools) == expected


TOOL = '''def tool_{i}(items: list[Item], tree: Tree | None = None, unit: Unit = Unit.C) -> None:
    """Tool {i}.

    Args:
        items: the order
    """
'''


@pytest.fixture
def shared_types(tmp_path: Path) -> Iterator[list[ir.Tool]]:
    with written_module(tmp_path, "kept_shapes_tools", module_source(20, [TOOL])) as module:
        yield ir_of([module.__name__])


def test_a_type_twenty_tools_share_is_built_twice(shared_types: list[ir.Tool], monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    real = canonical._Builder.object

    def spy(builder: Any, node: ir.ObjectType) -> Any:
        built.append(node.ref)
        return real(builder, node)

    monkeypatch.setattr(canonical._Builder, "object", spy)
    texts = rendered(shared_types)
    # Met once, then kept the second time: most nodes are met once, and keeping one costs a copy.
    assert built.count(shared_types[0].parameters[0].type.items.ref) == 2  # type: ignore[attr-defined]
    assert texts == afresh(shared_types, monkeypatch)


def test_a_node_that_refers_to_a_named_type_is_not_kept(shared_types: list[ir.Tool]) -> None:
    rendered(shared_types)
    tree = shared_types[0].parameters[1].type
    assert isinstance(tree, ir.UnionType)
    assert canonical._KEPT_SHAPES[id(tree)][1] is None  # its schema names $defs/Tree, which is the tool's own
    assert canonical._KEPT_SHAPES[id(shared_types[0].parameters[0].type)][1] is not None


def test_each_rendering_gets_its_own_schema(shared_types: list[ir.Tool]) -> None:
    tool = shared_types[0]
    first, second = (render_variants(tool, [("openai", False)])[("openai", False)] for _ in range(2))
    assert not isinstance(first, str)
    assert not isinstance(second, str)
    expected = json.dumps(second.definition)
    items = first.definition["function"]["parameters"]["properties"]["items"]
    items["items"]["properties"]["name"]["type"] = "changed"
    items["items"]["required"].append("changed")
    third = render_variants(tool, [("openai", False)])[("openai", False)]
    assert not isinstance(third, str)
    assert json.dumps(third.definition) == json.dumps(second.definition) == expected


def test_the_kept_schemas_are_let_go_when_too_many(
    shared_types: list[ir.Tool], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(canonical, "_KEPT_MAX", 3)
    expected = afresh(shared_types, monkeypatch)
    assert rendered(shared_types) == expected
    assert len(canonical._KEPT_SHAPES) <= 3


def test_a_schema_json_cannot_hold_is_not_kept() -> None:
    node = ir.LiteralType(("a",))
    canonical._keep_shape(node, {"enum": [float("nan")]})
    assert id(node) not in canonical._KEPT_SHAPES
    canonical._keep_shape(node, {"enum": ["a"]})
    assert canonical._KEPT_SHAPES[id(node)] == (node, {"enum": ["a"]})


def test_folding_keeps_the_nodes_it_does_not_change() -> None:
    item = ir.ObjectType("m:Item", "typeddict", (ir.Field("name", ir.Primitive("str"), True, None, None),), None)
    listed = ir.ArrayType(item, "list")
    assert ir.replace_child_types(listed, lambda child: child) is listed
    assert ir.replace_child_types(item, lambda child: child) is item
    changed = ir.replace_child_types(listed, lambda child: ir.RefType("Item"))
    assert changed == ir.ArrayType(ir.RefType("Item"), "list")
