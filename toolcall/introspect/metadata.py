"""``Annotated`` metadata: ``Param``, ``Injected`` and ``annotated_types`` constraints.

``annotated_types`` is not a dependency: its objects are recognised by their
class's module and name, so nothing is imported. Unknown metadata (a plain
string, another library's marker) is ignored.
"""

from __future__ import annotations

import math
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Final

from toolcall import ir
from toolcall.bounds import param_constraints
from toolcall.params import InjectedMarker, Param

__all__ = ["Metadata", "SchemaError", "apply_constraints", "declared_description", "read_metadata"]


class SchemaError(TypeError):
    """A type no schema can describe; the message says which and how to fix it."""


@dataclass(frozen=True)
class Metadata:
    """What ``Annotated[T, ...]`` adds to ``T``.

    ``description`` is the last ``Param(description=...)`` given (``""``
    included); ``None`` when no ``Param`` set one.
    """

    constraints: ir.Constraints = field(default_factory=ir.Constraints)
    description: str | None = None
    string_integer: bool = False
    injected: bool = False


_NUMERIC: Final = ("ge", "le", "gt", "lt", "multiple_of")
_LENGTH: Final = ("min_length", "max_length")
# annotated_types class name -> (attribute, Constraints field) pairs it carries.
_ANNOTATED_TYPES: Final = {
    "Gt": (("gt", "gt"),),
    "Ge": (("ge", "ge"),),
    "Lt": (("lt", "lt"),),
    "Le": (("le", "le"),),
    "MultipleOf": (("multiple_of", "multiple_of"),),
    "MinLen": (("min_length", "min_length"),),
    "MaxLen": (("max_length", "max_length"),),
    "Len": (("min_length", "min_length"), ("max_length", "max_length")),
    "Interval": (("gt", "gt"), ("ge", "ge"), ("lt", "lt"), ("le", "le")),
}


def read_metadata(items: tuple[Any, ...]) -> Metadata:
    """Merge the metadata of one ``Annotated``, later items winning."""
    constraints = ir.Constraints()
    description: str | None = None
    string_integer = injected = False
    for item in items:
        if isinstance(item, InjectedMarker):
            injected = True
        elif isinstance(item, Param):
            constraints = constraints.merged(param_constraints(item))
            description = item.description if item.description is not None else description
            string_integer = string_integer or item.wire == "string_integer"
        elif _is_annotated_types(item):
            constraints = constraints.merged(_annotated_types_constraints(item))
    return Metadata(constraints, description, string_integer, injected)


def _is_annotated_types(item: object) -> bool:
    cls = type(item)
    return cls.__module__ == "annotated_types" and cls.__name__ in _ANNOTATED_TYPES


def _annotated_types_constraints(item: object) -> ir.Constraints:
    values: dict[str, Any] = {}
    for attribute, field_name in _ANNOTATED_TYPES[type(item).__name__]:
        value = getattr(item, attribute, None)
        if value is None or (field_name == "min_length" and value == 0):
            continue  # unset (Len's min_length defaults to 0, which bounds nothing)
        values[field_name] = _checked_bound(type(item).__name__, field_name, value)
    return ir.Constraints(**values)


def _checked_bound(owner: str, name: str, value: object) -> int | float:
    ok_types = (int,) if name in _LENGTH else (int, float)
    if isinstance(value, bool) or not isinstance(value, ok_types):
        raise SchemaError(f"annotated_types.{owner}({value!r}): toolcall supports only numeric bounds here")
    if isinstance(value, float) and not math.isfinite(value):
        raise SchemaError(f"annotated_types.{owner}({value!r}): use a finite bound")
    return value


def apply_constraints(node: ir.TypeNode, constraints: ir.Constraints, where: str) -> ir.TypeNode:
    """``node`` with ``constraints``; through a union, to each option they fit (None stays plain).

    ``where`` names the annotation for the error when the constraints fit nothing.
    """
    if constraints.is_empty():
        return node
    if isinstance(node, ir.Constrained):
        return apply_constraints(node.base, node.constraints.merged(constraints), where)
    if isinstance(node, ir.UnionType):
        options = tuple(_constrain_if_fits(option, constraints) for option in node.options)
        if options != node.options:
            return ir.UnionType(options)
    elif _fits(node, constraints):
        return ir.Constrained(node, constraints)
    raise SchemaError(f"{where}: {_describe(constraints)} cannot apply to this type; {_FIT_HELP}")


_FIT_HELP: Final = "numeric bounds fit int and float, lengths fit str, lists, sets and dicts, pattern fits str"


def _constrain_if_fits(node: ir.TypeNode, constraints: ir.Constraints) -> ir.TypeNode:
    if isinstance(node, ir.Constrained) and _fits(node.base, node.constraints.merged(constraints)):
        return ir.Constrained(node.base, node.constraints.merged(constraints))
    return ir.Constrained(node, constraints) if _fits(node, constraints) else node


def _fits(node: ir.TypeNode, constraints: ir.Constraints) -> bool:
    used = {name for name in (*_NUMERIC, *_LENGTH, "pattern") if getattr(constraints, name) is not None}
    if isinstance(node, ir.Primitive) and node.name in ("int", "float", "string_integer", "decimal"):
        return used <= set(_NUMERIC)
    if isinstance(node, ir.Primitive) and node.name == "str":
        return used <= {*_LENGTH, "pattern"}
    if isinstance(node, (ir.ArrayType, ir.MapType)):
        return used <= set(_LENGTH)
    return False


def _describe(constraints: ir.Constraints) -> str:
    shown = [f"{name}={getattr(constraints, name)!r}" for name in (*_NUMERIC, *_LENGTH, "pattern")]
    return ", ".join(s for s in shown if not s.endswith("=None"))


def declared_description(hint: Any) -> str | None:
    """The ``Param(description=...)`` written on a parameter's or field's own annotation.

    Looked up on the annotation itself, through TypedDict qualifiers
    (``Required[...]``) and through ``X | None``; ``""`` means "no description".
    """
    import typing_extensions as te

    for layer in _outer_layers(hint, te):
        if te.get_origin(layer) in (typing.Annotated, te.Annotated):
            found = read_metadata(te.get_args(layer)[1:]).description
            if found is not None:
                return found
    return None


def _outer_layers(hint: Any, te: Any) -> list[Any]:
    layers = [hint]
    origin = te.get_origin(hint)
    if origin in (typing.Annotated, te.Annotated):
        layers.extend(_outer_layers(te.get_args(hint)[0], te))
    elif origin is typing.Union or isinstance(hint, types.UnionType):
        options = [a for a in te.get_args(hint) if a is not type(None)]
        if len(options) == 1:
            layers.extend(_outer_layers(options[0], te))
    elif getattr(origin, "_name", None) in ("Required", "NotRequired", "ReadOnly"):
        layers.extend(_outer_layers(te.get_args(hint)[0], te))
    return layers
