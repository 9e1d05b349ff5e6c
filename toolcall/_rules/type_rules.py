"""Rules that build IR type nodes from the facts each front end finds.

The runtime front end (``toolcall._introspect``) reads live annotations, the
mypy plugin (``toolcall_mypy``) mypy's types. Each finds the facts (the
options of a union, the values one ``Literal[...]`` lists, which class a
container is) in its own world and builds the node with these rules, so
both give the same IR:

* ``MAX_DEPTH``: how many levels a type may nest.
* ``QUALIFIERS``: the TypedDict key qualifiers (``typing`` and
  ``typing_extensions`` alike), which say whether a key is required, not
  its type: a walk goes through them.
* ``ARRAY_CLASSES`` and ``MAP_CLASSES``: the container classes, by the
  full names mypy gives them (the runtime resolves each to its live class),
  as ``ir.PRIMITIVE_CLASSES`` names the primitives. ``Sequence``,
  ``MutableSequence``, ``Collection`` and ``Iterable`` are received as a
  list; ``AbstractSet`` (``collections.abc.Set``) as a frozenset,
  ``MutableSet`` as a set.
* ``union_of``: the options of nested unions flattened, each kept once, in
  the order first written (so ``None`` stays where it was written).
* ``literal_union``: one ``Literal[...]``: its plain values in one
  ``LiteralType``, Enum members in one node per class listing only those
  members' values, in order of appearance; a mix is a union of both.
* ``as_string_integer``: ``Param(wire="string_integer")`` applies to
  ``int``, also under constraints and among a union's options (which
  ``X | None`` is).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, Literal, TypeVar

from toolcall import _ir as ir

__all__ = [
    "ARRAY_CLASSES",
    "MAP_CLASSES",
    "MAX_DEPTH",
    "QUALIFIERS",
    "as_string_integer",
    "literal_union",
    "union_of",
]

#: How many levels a type may nest: far beyond any provider's nesting limit,
#: well within Python's stack. The plugin bounds the defaults it evaluates by it too.
MAX_DEPTH: Final = 32

#: The names of the TypedDict key qualifiers, in ``typing`` and ``typing_extensions``.
QUALIFIERS: Final = ("Required", "NotRequired", "ReadOnly")

#: Full name → the container a homogeneous array of that class is received as (``tuple[T, ...]`` apart).
ARRAY_CLASSES: Final[dict[str, Literal["list", "set", "frozenset"]]] = {
    "builtins.list": "list",
    "typing.Sequence": "list",
    "typing.MutableSequence": "list",
    "typing.Collection": "list",
    "typing.Iterable": "list",
    "builtins.set": "set",
    "typing.MutableSet": "set",
    "builtins.frozenset": "frozenset",
    "typing.AbstractSet": "frozenset",
}

#: Full names of the classes received as a ``dict`` (a JSON object; their keys must be ``str``).
MAP_CLASSES: Final = frozenset({"builtins.dict", "typing.Mapping", "typing.MutableMapping"})

_INT: Final = ir.Primitive("int")
_STRING_INTEGER: Final = ir.Primitive("string_integer")

_Group = TypeVar("_Group")


def union_of(nodes: Iterable[ir.TypeNode]) -> ir.TypeNode:
    """The union of ``nodes``: nested unions flattened, repeated options dropped; one option is itself."""
    flat: list[ir.TypeNode] = []
    for node in nodes:
        for option in node.options if isinstance(node, ir.UnionType) else (node,):
            if option not in flat:
                flat.append(option)
    return flat[0] if len(flat) == 1 else ir.UnionType(tuple(flat))


def literal_union(
    values: Iterable[tuple[_Group | None, ir.JsonScalar]],
    enum_node: Callable[[_Group, tuple[ir.JsonScalar, ...]], ir.TypeNode],
) -> ir.TypeNode:
    """The node of one ``Literal[...]`` from its values in order, each with its Enum class (``None``: a plain value).

    Plain values make one ``LiteralType``; the members of each Enum class
    make ``enum_node(the class, their values)``; the groups are in the order
    each first appears, and more than one is a union (``union_of``).
    """
    groups: dict[_Group | None, list[ir.JsonScalar]] = {}
    for group, value in values:
        groups.setdefault(group, []).append(value)
    return union_of(
        ir.LiteralType(tuple(listed)) if group is None else enum_node(group, tuple(listed))
        for group, listed in groups.items()
    )


def as_string_integer(node: ir.TypeNode) -> ir.TypeNode | None:
    """``node`` with its ``int`` sent as a decimal string (``Param(wire="string_integer")``); ``None`` if it has none.

    The ``int`` may be constrained, or one of a union's options.
    """
    if node == _INT:
        return _STRING_INTEGER
    if isinstance(node, ir.Constrained) and node.base == _INT:
        return ir.Constrained(_STRING_INTEGER, node.constraints)
    if isinstance(node, ir.UnionType) and _INT in node.options:
        return ir.UnionType(tuple(_STRING_INTEGER if option == _INT else option for option in node.options))
    return None
