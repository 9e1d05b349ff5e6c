"""Gemini gets every tool: recursion unrolled to a fixed depth, enums of other scalars as string enums.

Each declaration is compared as ``json.dumps`` text (key order counts) and
checked with the Gemini rules checker.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import toolcall
from tests import gemini_enum_tools
from tests import render_samples as s
from tests.corpus import recursive
from tests.provider_rules import assert_valid
from toolcall import _ir as ir
from toolcall._findings import Finding
from toolcall._render.definitions import render_tool
from toolcall._render.gemini import UNROLL_DEPTH
from toolcall._toolset.toolset import as_toolset, find_tool

P = ir.Primitive
#: ``Nest = int | list[Nest]``: one recursive place, so each level is one array deeper.
NEST = ir.NamedType("Nest", ir.UnionType((P("int"), ir.ArrayType(ir.RefType("Nest")))))


def declaration(tool: ir.Tool) -> tuple[dict[str, Any], tuple[Finding, ...]]:
    rendered = render_tool(tool, "gemini")
    assert_valid("gemini", rendered.definition["parameters"])
    return rendered.definition, rendered.findings


def parameter(node: ir.TypeNode, *defs: ir.NamedType) -> tuple[str, tuple[Finding, ...]]:
    definition, findings = declaration(s.tool("t", s.param("x", node), defs=defs))
    return json.dumps(definition["parameters"]["properties"]["x"]), findings


def test_the_depth_is_three_levels() -> None:
    assert UNROLL_DEPTH == 3


def test_a_recursive_alias_is_inlined_three_times_then_takes_any_value() -> None:
    text, findings = parameter(ir.RefType("Nest"), NEST)
    deeper = {"description": "Any JSON value: Nest nested more than 3 levels deep."}
    level3 = {"anyOf": [{"type": "INTEGER"}, {"type": "ARRAY", "items": deeper}]}
    level2 = {"anyOf": [{"type": "INTEGER"}, {"type": "ARRAY", "items": level3}]}
    level1 = {"anyOf": [{"type": "INTEGER"}, {"type": "ARRAY", "items": level2}]}
    assert text == json.dumps(level1)
    (finding,) = findings
    assert finding.message == (
        "cannot express recursion; Nest is inlined 3 levels deep, "
        "and below that any JSON value is accepted (moved to the description)"
    )
    assert (finding.parameter, finding.path) == ("x", ("items", "items", "items"))


def test_a_nullable_recursive_reference_keeps_its_description() -> None:
    tool = s.tool("t", s.param("x", s.nullable(ir.RefType("Nest")), description="a nest"), defs=(NEST,))
    definition, _ = declaration(tool)
    x = definition["parameters"]["properties"]["x"]
    assert x["description"] == "a nest"
    assert [b["nullable"] for b in x["anyOf"]] == [True, True]
    assert json.dumps(x["anyOf"][1]["items"]["anyOf"][1]["items"]["anyOf"][1]["items"]) == json.dumps(
        {"description": "Any JSON value: Nest nested more than 3 levels deep."}
    )


def test_a_recursive_typeddict() -> None:
    (_, categories, _) = toolcall.emit(recursive, "gemini")
    loaded = find_tool(as_toolset(recursive), "import_categories")
    assert loaded is not None
    # The findings as the renderer gives them (emit warns them on the first use in the process only).
    findings = render_tool(loaded.ir, "gemini").findings
    deeper = {"description": "Any JSON value: Category nested more than 3 levels deep."}

    def category(children_items: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "OBJECT",
            "properties": {"name": {"type": "STRING"}, "children": {"type": "ARRAY", "items": children_items}},
            "required": ["name", "children"],
            "description": "A category in the tree.",
        }

    root = category(category(category(deeper)))
    assert json.dumps(categories["parameters"]["properties"]["root"]) == json.dumps(root)
    assert_valid("gemini", categories["parameters"])
    unrolled = [str(f) for f in findings if "Category is inlined" in f.message]
    # One finding per parameter that reaches the type (root and extra), not one per cut.
    assert [m.split(":")[0] for m in unrolled] == [
        "import_categories.root.children.items.children.items.children.items",
        "import_categories.extra.items.children.items.children.items.children.items",
    ]


def test_every_corpus_recursion_renders_and_passes_the_rules() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolcall.ToolcallWarning)
        declarations = toolcall.emit(recursive, "gemini")
    assert [d["name"] for d in declarations] == ["save_document", "import_categories", "post_thread"]
    for definition in declarations:
        assert_valid("gemini", definition["parameters"])
    assert "$ref" not in json.dumps(declarations)


def test_two_recursive_places_unroll_each_and_the_output_is_deterministic() -> None:
    pair = ir.ObjectType(
        "m:Pair", "typeddict", (ir.Field("left", ir.RefType("Pair")), ir.Field("right", s.nullable(ir.RefType("Pair"))))
    )
    tool = s.tool("t", s.param("x", ir.RefType("Pair")), defs=(ir.NamedType("Pair", pair),))
    first, findings = declaration(tool)
    assert json.dumps(first) == json.dumps(declaration(tool)[0])
    text = json.dumps(first)
    # 1 + 2 + 4 pairs inlined, and each of the 4 deepest has 2 cuts
    assert text.count("Any JSON value: Pair nested more than 3 levels deep.") == 2**UNROLL_DEPTH
    assert len(findings) == 1


def test_an_enum_of_integers_is_a_string_enum_without_a_finding() -> None:
    assert parameter(s.LEVEL) == (
        json.dumps({"type": "STRING", "description": "A level.", "format": "enum", "enum": ["1", "2", "3"]}),
        (),
    )
    assert parameter(ir.LiteralType((1, 2))) == (
        json.dumps({"type": "STRING", "format": "enum", "enum": ["1", "2"]}),
        (),
    )


def test_other_scalars_and_mixed_enums_are_string_enums_of_their_json_text() -> None:
    assert parameter(ir.LiteralType((True, 2.5, "a"))) == (
        json.dumps({"type": "STRING", "format": "enum", "enum": ["true", "2.5", "a"]}),
        (),
    )


def test_a_nullable_integer_enum() -> None:
    assert parameter(s.nullable(ir.LiteralType((1, 2))))[0] == json.dumps(
        {"type": "STRING", "format": "enum", "enum": ["1", "2"], "nullable": True}
    )
    assert parameter(ir.LiteralType((1, None)))[0] == json.dumps(
        {"type": "STRING", "format": "enum", "enum": ["1"], "nullable": True}
    )


def test_colliding_texts_keep_the_typed_schema_and_the_note() -> None:
    text, (finding,) = parameter(ir.LiteralType(("1", 1)))
    assert text == json.dumps(
        {
            "anyOf": [
                {"type": "STRING", "format": "enum", "enum": ["1"]},
                {"type": "INTEGER", "description": "One of: 1."},
            ]
        }
    )
    assert finding.message == "enums hold strings only; the integer values moved to the description ('one of: 1')"


def test_a_nested_integer_enum_in_a_list_of_typeddicts() -> None:
    loaded = find_tool(as_toolset(gemini_enum_tools), "levels")
    assert loaded is not None
    rendered = render_tool(loaded.ir, "gemini")
    # Lossless: no finding, but for ``either`` (``Level | str``), whose Level keeps its integers.
    assert [f.parameter for f in rendered.findings] == ["either"]
    levels = rendered.definition
    level = {"type": "STRING", "description": "How loud.", "format": "enum", "enum": ["1", "2"]}
    assert json.dumps(levels["parameters"]["properties"]["lines"]) == json.dumps(
        {
            "type": "ARRAY",
            "items": {
                "type": "OBJECT",
                "properties": {"sku": {"type": "STRING"}, "level": level},
                "required": ["sku", "level"],
                "description": "An order line.",
            },
        }
    )
    assert json.dumps(levels["parameters"]["properties"]["maybe"]) == json.dumps({**level, "nullable": True})


def test_mutually_recursive_types_are_counted_each_on_its_own() -> None:
    folder = ir.ObjectType("m:Folder", "typeddict", (ir.Field("files", ir.ArrayType(ir.RefType("File"))),))
    file = ir.ObjectType("m:File", "typeddict", (ir.Field("parent", s.nullable(ir.RefType("Folder"))),))
    defs = (ir.NamedType("File", file), ir.NamedType("Folder", folder))
    definition, findings = declaration(s.tool("t", s.param("x", ir.RefType("Folder")), defs=defs))
    node = definition["parameters"]["properties"]["x"]
    depth = 0
    while "properties" in node:  # Folder -> files -> File -> parent -> Folder ...
        node = node["properties"]["files"]["items"]["properties"]["parent"]
        depth += 1
    assert depth == UNROLL_DEPTH
    assert json.dumps(node) == json.dumps({"description": "Any JSON value: Folder nested more than 3 levels deep."})
    assert [f.message.split(";")[1].split(" is ")[0].strip() for f in findings] == ["Folder"]


def test_a_union_branch_whose_texts_another_branch_takes_keeps_its_type() -> None:
    level = {"type": "INTEGER", "description": "A level. One of: 1, 2, 3."}
    stringified = {"type": "STRING", "description": "A level.", "format": "enum", "enum": ["1", "2", "3"]}
    with_string, (finding,) = parameter(ir.UnionType((s.LEVEL, P("str"))))
    assert with_string == json.dumps({"anyOf": [level, {"type": "STRING"}]})
    assert "strings only" in finding.message
    with_any, _ = parameter(ir.UnionType((s.LEVEL, ir.AnyType())))
    assert with_any == json.dumps({"anyOf": [level, {}]})
    colliding, _ = parameter(ir.UnionType((ir.LiteralType(("1",)), s.LEVEL)))
    assert colliding == json.dumps({"anyOf": [{"type": "STRING", "format": "enum", "enum": ["1"]}, level]})
    apart = parameter(ir.UnionType((ir.LiteralType(("a",)), s.LEVEL)))
    assert apart == (json.dumps({"anyOf": [{"type": "STRING", "format": "enum", "enum": ["a"]}, stringified]}), ())
