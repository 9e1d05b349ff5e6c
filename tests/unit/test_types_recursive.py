"""Recursive types go to $defs; everything else is inlined."""

from __future__ import annotations

from typing import Union

from typing_extensions import TypeAliasType

import toolcall
from tests.corpus import introspected, recursive
from toolcall import _ir as ir

# Not in the corpus: mypy cannot resolve a recursive TypeAliasType call.
Nested = TypeAliasType("Nested", Union[int, list["Nested"]])  # type: ignore[misc]


@toolcall.tool
def flatten(values: Nested) -> list[int]:
    """Flatten nested lists of ints."""
    return []


STR, INT, NONE = ir.Primitive("str"), ir.Primitive("int"), ir.Primitive("none")


def test_forward_ref_alias_becomes_one_definition() -> None:
    tool = introspected(recursive.save_document).tool
    json_ref = ir.RefType("Json")
    assert tool.defs == (
        ir.NamedType(
            "Json",
            ir.UnionType(
                (
                    NONE,
                    ir.Primitive("bool"),
                    INT,
                    ir.Primitive("float"),
                    STR,
                    ir.ArrayType(json_ref),
                    ir.MapType(json_ref),
                )
            ),
        ),
    )
    # get_type_hints unrolls the alias once; folding makes it one reference again.
    assert tool.parameters[0].type == json_ref
    assert tool.parameters[1].type == ir.UnionType((ir.MapType(json_ref), NONE))


def test_recursive_type_alias_type() -> None:
    tool = introspected(flatten).tool
    assert tool.parameters[0].type == ir.RefType("Nested")
    assert tool.defs == (ir.NamedType("Nested", ir.UnionType((INT, ir.ArrayType(ir.RefType("Nested"))))),)
    assert tool.returns == ir.ArrayType(INT)


def test_recursive_typeddict() -> None:
    result = introspected(recursive.import_categories)
    root, extra = result.tool.parameters
    category = ir.ObjectType(
        "tests.corpus.recursive:Category",
        "typeddict",
        (ir.Field("name", STR), ir.Field("children", ir.ArrayType(ir.RefType("Category")))),
        "A category in the tree.",
    )
    assert result.tool.defs == (ir.NamedType("Category", category),)
    assert root.type == ir.RefType("Category")
    assert root.description == "A category in the tree."  # looked up through the reference
    assert extra.type == ir.UnionType((ir.ArrayType(ir.RefType("Category")), NONE))
    assert result.classes["tests.corpus.recursive:Category"] is recursive.Category


def test_recursive_dataclass() -> None:
    tool = introspected(recursive.post_thread).tool
    (definition,) = tool.defs
    assert definition.name == "Comment"
    assert definition.type.fields[1] == ir.Field("replies", ir.ArrayType(ir.RefType("Comment")), required=False)
    assert ir.from_json(ir.to_json(tool)) == tool
