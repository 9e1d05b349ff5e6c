"""Introspection errors and findings: types no schema describes, bad annotations, naming of $defs."""

# No ``from __future__ import annotations``: several tools here use classes
# local to this module's functions, which only eager annotations can see.

import enum
import sqlite3
import sys
import types
from collections.abc import Callable
from typing import Annotated, Any, Generic, Literal, Optional, TypedDict, TypeVar

import pytest
import typing_extensions

import toolcall
from tests.corpus import introspected
from toolcall import Injected, Param
from toolcall import _ir as ir
from toolcall._findings import PARAM, TYPE
from toolcall._ir import JsonValue

FIX = "mark it Injected (Annotated[T, toolcall.Injected]) or give it a schema"
T = TypeVar("T")


class Opaque:
    pass


class TupleEnum(enum.Enum):
    A = (1, 2)


class Holder(TypedDict):
    inner: list[Opaque]


class NotJsonSchema:
    __toolcall_schema__ = {"type": "string", "bad": {1, 2}}


def _raises(fn: Callable[..., Any], *needles: str) -> str:
    with pytest.raises(TypeError) as info:
        introspected(fn)
    message = str(info.value)
    for needle in needles:
        assert needle in message, message
    return message


def test_unknown_class_names_tool_parameter_type_and_fix() -> None:
    @toolcall.tool
    def connect(db: sqlite3.Connection) -> None:
        """Connect."""

    _raises(connect, "'connect'", "parameter 'db'", "sqlite3.Connection", FIX, "TypeProvider")


@pytest.mark.parametrize(
    ("annotation", "needle"),
    [
        (Callable[[int], int], "a callable"),
        (type[int], "a class object"),
        (dict[int, str], "mapping keys must be str"),
        (TupleEnum, "not a JSON scalar"),
        (Literal[b"x"], "not a JSON scalar"),
        (NotJsonSchema, "__toolcall_schema__ must be a JSON-literal dict"),
        (Annotated[str, Param(ge=1)], "cannot apply"),
        (Annotated[list[int], Param(pattern="x")], "cannot apply"),
        (Annotated[str, Param(wire="string_integer")], "applies to int"),
        (list[Annotated[int, Injected]], "Injected marks a tool parameter"),
        (Optional[Opaque], "Opaque"),
        ([int], "has no JSON schema"),
    ],
)
def test_types_without_a_schema(annotation: Any, needle: str) -> None:
    def tool_fn(value: int) -> None:
        """A tool."""

    tool_fn.__annotations__["value"] = annotation
    _raises(toolcall.tool(tool_fn), "parameter 'value'", needle)


def test_nested_failure_says_where() -> None:
    @toolcall.tool
    def hold(holder: Holder) -> None:
        """Hold."""

    _raises(hold, "Opaque has no JSON schema", "(at inner)")


def test_unresolvable_forward_reference() -> None:
    @toolcall.tool
    def later(x: int, y: "list[Missing]") -> None:  # type: ignore[name-defined]  # noqa: F821
        """Later."""

    _raises(later, "tool 'later'", "parameter 'y': cannot resolve the annotation: name 'Missing' is not defined")


class Unfinished(TypedDict):
    done: "Nowhere"  # type: ignore[name-defined]  # noqa: F821


def test_unresolvable_forward_reference_in_a_field() -> None:
    @toolcall.tool
    def finish(item: Unfinished) -> None:
        """Finish."""

    _raises(finish, "parameter 'item': field 'done' of tests.unit.test_introspect_errors.Unfinished", "'Nowhere'")


def test_provider_schema_must_be_json() -> None:
    class BadProvider(toolcall.TypeProvider):
        def resolve(self, fullname: str, args: tuple[str, ...]) -> dict[str, JsonValue] | None:
            return {"type": float("nan")} if fullname.endswith("Opaque") else None

    toolcall.use_types(BadProvider)  # registers for this test module

    @toolcall.tool
    def use(value: Opaque) -> None:
        """Use."""

    try:
        _raises(use, "BadProvider", "JSON-literal dict")
    finally:
        from toolcall._declarations import custom

        custom._MODULE_PROVIDERS.pop(__name__, None)


def test_unannotated_parameter_is_any_with_a_finding() -> None:
    @toolcall.tool
    def loose(x, y: int = 1):  # type: ignore[no-untyped-def]
        """Loose.

        Args:
            x: anything
        """

    result = introspected(loose)
    x = result.tool.parameters[0]
    assert (x.type, x.description) == (ir.AnyType("unannotated"), "anything")
    (finding,) = result.findings
    assert (finding.code, finding.tool, finding.parameter) == (PARAM, "loose", "x")
    assert result.tool.returns is None


def test_return_type_is_best_effort() -> None:
    @toolcall.tool
    def opened(path: str) -> sqlite3.Connection:
        """Open."""
        raise NotImplementedError

    result = introspected(opened)
    assert result.tool.returns is None
    assert result.findings == ()


def test_failed_return_walk_leaves_nothing_behind() -> None:
    class Tagged(enum.Enum):
        A = "a"

    @toolcall.tool
    def odd(x: int) -> tuple[Tagged, Opaque]:
        """Odd."""
        raise NotImplementedError

    result = introspected(odd)
    assert result.tool.returns is None
    assert dict(result.classes) == {}


class Box(typing_extensions.TypedDict, Generic[T]):  # typing's generic TypedDict needs 3.11
    item: T


def test_generic_typeddict_substitutes_arguments_and_reports_unbound() -> None:
    @toolcall.tool
    def boxes(ints: Box[int], anything: Box) -> None:  # type: ignore[type-arg]
        """Boxes."""

    result = introspected(boxes)
    ints, anything = result.tool.parameters
    assert ints.type.fields == (ir.Field("item", ir.Primitive("int")),)
    assert anything.type.fields == (ir.Field("item", ir.AnyType("typevar")),)
    (finding,) = result.findings
    assert (finding.code, finding.parameter, finding.path) == (TYPE, "anything", ("item",))


def _node_from_another_module() -> Any:
    module = types.ModuleType("tests_clash_module")
    sys.modules[module.__name__] = module
    exec(
        "from typing import TypedDict\nclass Node(TypedDict):\n    children: 'list[Node]'\n",
        module.__dict__,
    )
    return module.Node


class Node(TypedDict):
    value: int
    next: Optional["Node"]


def test_definition_names_clash_gets_a_suffix() -> None:
    other = _node_from_another_module()

    @toolcall.tool
    def two_nodes(a: Node, b: other, again: Node) -> None:  # type: ignore[valid-type]
        """Two different recursive classes named Node."""

    tool = introspected(two_nodes).tool
    assert [d.name for d in tool.defs] == ["Node", "Node_2"]
    assert [p.type for p in tool.parameters] == [ir.RefType("Node"), ir.RefType("Node_2"), ir.RefType("Node")]


class Left(TypedDict):
    right: "Optional[Right]"


class Right(TypedDict):
    left: "Optional[Left]"


def test_mutual_recursion_defines_the_first_type_reached() -> None:
    @toolcall.tool
    def mutual(start: Left) -> None:
        """Mutual."""

    tool = introspected(mutual).tool
    assert tool.parameters[0].type == ir.RefType("Left")
    (definition,) = tool.defs
    right = definition.type.fields[0].type.options[0]
    assert right.ref.endswith(":Right")
    assert right.fields[0].type == ir.UnionType((ir.RefType("Left"), ir.Primitive("none")))


def test_none_default_does_not_make_the_type_optional() -> None:
    # Python 3.10's get_type_hints would turn ``int = None`` into Optional[int].
    @toolcall.tool
    def maybe(x: int = None) -> None:  # type: ignore[assignment]  # noqa: RUF013
        """Maybe."""

    x = introspected(maybe).tool.parameters[0]
    assert (x.type, x.required, x.default) == (ir.Primitive("int"), False, None)


# Built from text: mypy itself overflows its stack on this class.
_GROWING_SOURCE = """
from typing import Generic, TypeVar
from typing_extensions import TypedDict
R = TypeVar("R")
class Growing(TypedDict, Generic[R]):
    deeper: "Growing[list[R]]"
"""


def test_a_generic_type_growing_without_end_is_an_error() -> None:
    module = types.ModuleType("tests_growing_module")
    sys.modules[module.__name__] = module
    exec(_GROWING_SOURCE, module.__dict__)

    @toolcall.tool
    def grow(g: int) -> None:
        """Grow."""

    grow.__annotations__["g"] = module.Growing[int]

    _raises(grow, "levels deep")
