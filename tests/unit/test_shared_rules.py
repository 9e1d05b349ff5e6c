"""The rules both front ends share (docs/internal/architecture.md, "Shared rules"), called on their own.

Each front end only finds facts (live objects at run time, mypy's types in
the plugin) and hands them to these modules; the differential tests check
that the two agree end to end, these check each rule directly.
"""

from __future__ import annotations

import enum
import pkgutil
import subprocess
import sys
from typing import Any

import pytest

import toolcall._declarations
import toolcall._rules
from toolcall import TypeProvider
from toolcall import _ir as ir
from toolcall._declarations.params import Param
from toolcall._findings import PARAM, TYPE, Finding
from toolcall._rules import messages
from toolcall._rules.annotated import ANNOTATED_TYPES, NO_METADATA, ConstraintsUnfit, MetadataMerge, constrain
from toolcall._rules.custom_schemas import NONE_ARGUMENT, provider_coerces, schema_text
from toolcall._rules.descriptions import (
    class_description,
    field_description,
    parameter_description,
    sole_option,
    tool_description,
    type_description,
)
from toolcall._rules.folding import fold, fold_defs
from toolcall._rules.json_literals import is_json, is_json_scalar
from toolcall._rules.tool_rules import (
    assemble_tool,
    claimed,
    injected_parameter,
    is_required,
    stray_entries,
    unannotated_parameter,
)
from toolcall._rules.type_rules import (
    ARRAY_CLASSES,
    MAP_CLASSES,
    MAX_DEPTH,
    QUALIFIERS,
    as_string_integer,
    literal_union,
    union_of,
)

STR, INT, FLOAT, NONE = ir.Primitive("str"), ir.Primitive("int"), ir.Primitive("float"), ir.Primitive("none")
WIRE_INT = ir.Primitive("string_integer")
#: Every module of the packages both front ends use (the shared rules, the declarations), found on disk:
#: a new module there is checked without an edit here.
SHARED = tuple(
    f"{package.__name__}.{module.name}"
    for package in (toolcall._rules, toolcall._declarations)
    for module in pkgutil.iter_modules(package.__path__)
)


def test_every_rule_module_is_checked() -> None:
    names = {name.rpartition(".")[2] for name in SHARED}
    assert {"defaults", "docstrings", "recursion", "bounds", "messages", "tool_rules", "params", "custom"} <= names


def test_shared_modules_import_neither_front_end() -> None:
    code = (
        "import sys\n"
        f"for name in {SHARED!r}: __import__(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('toolcall._introspect', 'toolcall_mypy', 'mypy'))))"
    )
    imported = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "[]"


# -- type_rules --------------------------------------------------------------------------------


def test_union_of_flattens_and_keeps_first_places() -> None:
    nested = ir.UnionType((INT, NONE))
    assert union_of([STR, nested, INT, FLOAT]) == ir.UnionType((STR, INT, NONE, FLOAT))
    assert union_of([NONE, STR]) == ir.UnionType((NONE, STR))  # None stays where it was written
    assert union_of([INT, INT]) == INT


def test_literal_union_groups_plain_values_and_enum_members_in_order() -> None:
    made: list[tuple[str, tuple[ir.JsonScalar, ...]]] = []

    def enum_node(cls: str, values: tuple[ir.JsonScalar, ...]) -> ir.TypeNode:
        made.append((cls, values))
        return ir.EnumType(cls, values)

    values = [("m:Color", "red"), (None, 1), ("m:Size", 2), (None, None), ("m:Color", "blue")]
    node = literal_union(values, enum_node)
    assert node == ir.UnionType(
        (ir.EnumType("m:Color", ("red", "blue")), ir.LiteralType((1, None)), ir.EnumType("m:Size", (2,)))
    )
    assert made == [("m:Color", ("red", "blue")), ("m:Size", (2,))]
    assert literal_union([(None, "a"), (None, "b")], enum_node) == ir.LiteralType(("a", "b"))


def test_string_integer_applies_to_int_only() -> None:
    bounded = ir.Constraints(ge=0)
    assert as_string_integer(INT) == WIRE_INT
    assert as_string_integer(ir.Constrained(INT, bounded)) == ir.Constrained(WIRE_INT, bounded)
    assert as_string_integer(ir.UnionType((INT, NONE))) == ir.UnionType((WIRE_INT, NONE))
    assert as_string_integer(STR) is None
    assert as_string_integer(ir.UnionType((STR, NONE))) is None
    assert as_string_integer(ir.ArrayType(INT)) is None


def test_container_tables_name_the_runtime_classes() -> None:
    import collections.abc

    import typing_extensions as te

    from toolcall._declarations.custom import resolve_ref

    def live(fullname: str) -> Any:
        found = resolve_ref(":".join(fullname.rsplit(".", 1)))
        return te.get_origin(found) or found

    arrays = {live(name): container for name, container in ARRAY_CLASSES.items()}
    assert arrays[collections.abc.Sequence] == "list"
    assert arrays[collections.abc.Set] == "frozenset"
    assert arrays[collections.abc.MutableSet] == "set"
    assert {live(name) for name in MAP_CLASSES} == {dict, collections.abc.Mapping, collections.abc.MutableMapping}
    assert MAX_DEPTH == 32
    assert set(QUALIFIERS) == {"Required", "NotRequired", "ReadOnly"}


# -- annotated ---------------------------------------------------------------------------------


def test_metadata_merges_in_order_later_items_winning() -> None:
    merge = MetadataMerge()
    merge.add_param(Param("first", ge=1, max_length=3))
    merge.add_bound("Ge", "ge", 5)
    merge.add_param(Param(wire="string_integer"))
    merge.add_param(Param("", le=9))
    merge.add_injected()
    found = merge.result()
    assert found.constraints == ir.Constraints(ge=5, le=9, max_length=3)
    assert found.description == ""  # the last description given, "" included
    assert found.string_integer
    assert found.injected
    assert found.problems == ()
    assert MetadataMerge().result() == NO_METADATA


def test_annotated_types_bounds() -> None:
    merge = MetadataMerge()
    merge.add_bound("Len", "min_length", 0)  # Len's default: bounds nothing
    merge.add_bound("Interval", "gt", None)  # unset
    merge.add_bound("Gt", "lt", 3)  # not a field of Gt
    merge.add_bound("MaxLen", "max_length", 1.5)
    merge.add_bound("Ge", "ge", True)
    merge.add_bound("Lt", "lt", float("inf"))
    merge.add_bound("Len", "max_length", 4)
    found = merge.result()
    assert found.constraints == ir.Constraints(max_length=4)
    assert found.problems == (
        "annotated_types.MaxLen(1.5): toolcall supports only numeric bounds here",
        "annotated_types.Ge(True): toolcall supports only numeric bounds here",
        "annotated_types.Lt(inf): use a finite bound",
    )
    assert ANNOTATED_TYPES["Interval"] == ("gt", "ge", "lt", "le")  # the positional order the plugin reads


def test_constrain_fits_options_and_leaves_none_plain() -> None:
    lengths = ir.Constraints(max_length=5)
    assert constrain(STR, ir.Constraints()) == STR
    assert constrain(STR, lengths) == ir.Constrained(STR, lengths)
    assert constrain(ir.UnionType((STR, NONE)), lengths) == ir.UnionType((ir.Constrained(STR, lengths), NONE))
    inner = ir.Constrained(INT, ir.Constraints(ge=0, le=3))
    assert constrain(inner, ir.Constraints(le=9)) == ir.Constrained(INT, ir.Constraints(ge=0, le=9))


def test_constraints_that_fit_nothing_name_all_on_the_type() -> None:
    with pytest.raises(ConstraintsUnfit) as raised:
        constrain(ir.Constrained(STR, ir.Constraints(min_length=1)), ir.Constraints(ge=1))
    assert raised.value.constraints == ir.Constraints(ge=1, min_length=1)
    assert messages.constraints_misfit("Annotated[str, ...]", raised.value.constraints) == (
        "Annotated[str, ...]: ge=1, min_length=1 cannot apply to this type; numeric bounds fit int and float, "
        "lengths fit str, lists, sets and dicts, pattern fits str"
    )
    with pytest.raises(ConstraintsUnfit):
        constrain(ir.UnionType((ir.Primitive("bool"), NONE)), ir.Constraints(ge=1))


# -- descriptions ------------------------------------------------------------------------------


def test_parameter_description_first_that_exists_wins() -> None:
    obj = ir.ObjectType("m:Point", "dataclass", (), "A point.")
    optional = ir.UnionType((obj, NONE))
    assert parameter_description("declared", "entry", obj, {}) == "declared"
    assert parameter_description("", "entry", obj, {}) is None  # "" stops the fallback
    assert parameter_description(None, "entry", obj, {}) == "entry"
    assert parameter_description(None, None, optional, {}) == "A point."
    assert parameter_description(None, None, ir.RefType("Point"), {"Point": obj}) == "A point."
    assert parameter_description(None, None, ir.UnionType((obj, STR)), {}) is None
    assert parameter_description(None, None, ir.EnumType("m:E", (1,), "An enum."), {}) == "An enum."


def test_field_tool_and_class_descriptions() -> None:
    assert field_description("declared", "doc") == "declared"
    assert field_description("", "doc") is None
    assert field_description(None, "doc") == "doc"
    assert tool_description("explicit", "documented") == "explicit"
    assert tool_description("", "documented") == ""
    assert tool_description(None, "documented") == "documented"
    assert class_description("A point.\n\nAttributes:\n    x: across") == "A point."
    assert class_description("  \n ") is None
    assert class_description(None) is None
    assert type_description(STR, {}) is None


def test_sole_option() -> None:
    assert sole_option([INT, NONE], lambda o: o == NONE) == INT
    assert sole_option([INT, STR, NONE], lambda o: o == NONE) is None
    assert sole_option([NONE], lambda o: o == NONE) is None


# -- json_literals and custom_schemas ---------------------------------------------------------


class _Color(enum.IntEnum):
    RED = 1


@pytest.mark.parametrize(("value", "scalar"), [(None, True), (True, True), (1, True), ("a", True), (1.5, True)])
def test_json_scalars(value: object, scalar: bool) -> None:
    assert is_json_scalar(value) is scalar


@pytest.mark.parametrize("value", [float("nan"), float("inf"), b"x", [1], {"a": 1}, (1,), object()])
def test_not_json_scalars(value: object) -> None:
    assert not is_json_scalar(value)


def test_json_values() -> None:
    assert is_json({"a": [1, None, {"b": "c"}], "d": 1.5})
    assert not is_json({"a": [1, float("nan")]})
    assert not is_json({1: "a"})
    assert not is_json({"a": (1, 2)})
    assert is_json(_Color.RED)  # an int


def test_schema_text_is_canonical_json_of_a_json_dict() -> None:
    assert schema_text({"type": "string", "format": "x"}) == '{"format":"x","type":"string"}'
    assert schema_text(["type"]) is None
    assert schema_text({"type": {1, 2}}) is None
    assert NONE_ARGUMENT == "builtins.None"


class _Plain(TypeProvider):
    def resolve(self, fullname: str, args: tuple[str, ...]) -> dict[str, ir.JsonValue] | None:
        return None


class _Coercing(_Plain):
    def coerce(self, fullname: str, value: ir.JsonValue) -> object:
        return value


def test_a_provider_coerces_when_it_overrides_coerce() -> None:
    assert not provider_coerces(_Plain)
    assert provider_coerces(_Coercing)


# -- tool_rules and folding ----------------------------------------------------------------------


def test_parameter_rules() -> None:
    assert is_required(False, "keyword_only")
    assert not is_required(True, "positional_or_keyword")
    assert not is_required(False, "var_keyword")
    parameter, finding = unannotated_parameter("x", "positional_or_keyword", True, "the x", "tool")
    assert parameter == ir.Parameter("x", "positional_or_keyword", ir.AnyType("unannotated"), True, None, "the x")
    assert finding == Finding(PARAM, messages.UNANNOTATED_PARAMETER, "tool", "x")
    assert injected_parameter("db", "keyword_only", False) == ir.Parameter(
        "db", "keyword_only", ir.AnyType("any"), False, None, None, injected=True
    )


def test_stray_entries_and_claimed_findings() -> None:
    found = stray_entries(["b", "a", "zz"], {"a", "b"}, "tool")
    assert found == [Finding(PARAM, messages.stray_entry("zz"), "tool")]
    assert claimed(Finding(TYPE, "m", path=("f",)), "tool", "p") == Finding(TYPE, "m", "tool", "p", ("f",))
    assert claimed(Finding(TYPE, "m", parameter="own"), "tool", "p").parameter == "own"


def test_assemble_tool_folds_definitions_and_picks_the_description() -> None:
    body = ir.ArrayType(ir.RefType("Tree"))
    defs = {"Tree": body}
    param = ir.Parameter("t", "positional_or_keyword", ir.MapType(body))
    tool = assemble_tool(
        name="t",
        module="m",
        qualname="f",
        description=None,
        documented="Doc.",
        parameters=[param],
        defs=defs,
        returns=body,
        providers=["m:P"],
    )
    assert tool.description == "Doc."
    assert tool.parameters[0].type == ir.MapType(ir.RefType("Tree"))
    assert tool.returns == ir.RefType("Tree")
    assert tool.defs == (ir.NamedType("Tree", body),)
    assert tool.providers == ("m:P",)


def test_folding() -> None:
    body = ir.UnionType((INT, ir.ArrayType(ir.RefType("J"))))
    bodies = {body: "J"}
    assert fold(ir.MapType(body), bodies) == ir.MapType(ir.RefType("J"))
    assert fold_defs({"J": body, "K": ir.ArrayType(body)}) == {"J": body, "K": ir.ArrayType(ir.RefType("J"))}


# -- messages ------------------------------------------------------------------------------------


def test_messages_both_front_ends_show() -> None:
    assert messages.nests_too_deep("Box[Box[int]]") == (
        "Box[Box[int]] nests more than 32 levels deep; simplify the type"
    )
    assert messages.no_schema("socket").startswith("socket has no JSON schema; mark it Injected")
    assert messages.not_carried("type[int]", "a class object").startswith(
        "type[int] is a class object, which JSON cannot carry; mark it Injected"
    )
    assert messages.literal_not_scalar(b"x") == (
        "Literal value b'x' is not a JSON scalar; use str, int, float, bool or None"
    )
    assert messages.enum_value_not_scalar("m.E", "(1, 2)", "A") == (
        "enum m.E has the value (1, 2) (A), which is not a JSON scalar; "
        "give its members str or int values (e.g. a StrEnum)"
    )
    assert messages.shorten("x" * 60) == "x" * 60
    assert messages.shorten("x" * 61) == "x" * 57 + "..."
    assert messages.default_not_json("{1, 2} (a set)") == (
        "the default {1, 2} (a set) is not JSON, so the schema omits it; "
        "use a str, int, float, bool, list or str-keyed dict default, or None and set the value in the body"
    )
