"""``Annotated`` metadata rules: what ``Param``, ``Injected`` and ``annotated_types`` items add to a type.

Both front ends find the items of an annotation in their own world (the
runtime as live objects, the mypy plugin as the calls written in the
source) and merge them here, in order (``MetadataMerge``):

* later items win: the last ``Param(description=...)`` given (``""``
  included), each constraint's last value;
* ``Param(wire="string_integer")`` anywhere sends the ``int`` as a string,
  ``Injected`` anywhere marks the parameter injected;
* an ``annotated_types`` item (``Gt``, ``Ge``, ``Lt``, ``Le``,
  ``MultipleOf``, ``MinLen``, ``MaxLen``, ``Len``, ``Interval``; by class
  name, so nothing is imported) sets the ``Constraints`` fields its
  arguments name (``ANNOTATED_TYPES``). An unset argument bounds nothing
  (``None``, and ``Len``'s default ``min_length`` of 0); a bound must be a
  finite int or float, a length an int. Any other metadata is ignored.

``constrain`` then puts the constraints on the type's node: on the node,
or through a union on each option they fit, ``None`` staying plain.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Any, Final

from toolcall import _ir as ir
from toolcall._records import Record, record, set_field
from toolcall._rules import messages
from toolcall._rules.bounds import param_constraints

if TYPE_CHECKING:
    from toolcall._declarations.params import Param

__all__ = [
    "ANNOTATED_TYPES",
    "NO_CONSTRAINTS",
    "NO_METADATA",
    "ConstraintsUnfit",
    "Metadata",
    "MetadataMerge",
    "constrain",
]

#: ``annotated_types`` class name → the ``Constraints`` fields it sets, in its positional order
#: (its attributes have the same names).
ANNOTATED_TYPES: Final[dict[str, tuple[str, ...]]] = {
    "Gt": ("gt",),
    "Ge": ("ge",),
    "Lt": ("lt",),
    "Le": ("le",),
    "MultipleOf": ("multiple_of",),
    "MinLen": ("min_length",),
    "MaxLen": ("max_length",),
    "Len": ("min_length", "max_length"),
    "Interval": ("gt", "ge", "lt", "le"),
}

#: No constraint set (what an annotation without metadata has).
NO_CONSTRAINTS: Final = ir.Constraints()

_NUMERIC: Final = frozenset({"ge", "le", "gt", "lt", "multiple_of"})
_LENGTHS: Final = frozenset({"min_length", "max_length"})
_CONSTRAINT_FIELDS: Final = (*_NUMERIC, *_LENGTHS, "pattern")


@record(frozen=True, slots=True)
class Metadata(Record):
    """What the ``Annotated`` metadata of one annotation adds to its type.

    ``description`` is the last ``Param(description=...)`` given (``""``
    included), ``None`` when no ``Param`` set one. ``problems`` are metadata
    the runtime refuses (or the plugin cannot read), in order; each makes
    the type unusable, with the message saying why.
    """

    constraints: ir.Constraints = NO_CONSTRAINTS
    description: str | None = None
    string_integer: bool = False
    injected: bool = False
    problems: tuple[str, ...] = ()

    def __init__(
        self,
        constraints: ir.Constraints = NO_CONSTRAINTS,
        description: str | None = None,
        string_integer: bool = False,
        injected: bool = False,
        problems: tuple[str, ...] = (),
    ) -> None:
        set_field(self, "constraints", constraints)
        set_field(self, "description", description)
        set_field(self, "string_integer", string_integer)
        set_field(self, "injected", injected)
        set_field(self, "problems", problems)


#: The metadata of an annotation without any.
NO_METADATA: Final = Metadata()


class MetadataMerge:
    """Merges the metadata items of one annotation, given in order; ``result`` is their ``Metadata``."""

    __slots__ = ("_constraints", "_description", "_injected", "_problems", "_string_integer")

    def __init__(self) -> None:
        self._constraints = NO_CONSTRAINTS
        self._description: str | None = None
        self._string_integer = False
        self._injected = False
        self._problems: list[str] = []

    def add_injected(self) -> None:
        """An ``Injected`` marker."""
        self._injected = True

    def add_param(self, param: Param) -> None:
        """A ``Param(...)``: its constraints and wire format, and its description when it gives one."""
        later = param_constraints(param)
        self._constraints = later if self._constraints is NO_CONSTRAINTS else self._constraints.merged(later)
        if param.description is not None:
            self._description = param.description
        self._string_integer = self._string_integer or param.wire == "string_integer"

    def add_bound(self, owner: str, field: str, value: object) -> None:
        """One argument of an ``annotated_types`` item of class ``owner`` (``Gt(5)``: ``"Gt", "gt", 5``).

        A field ``owner`` does not have and an unset value are ignored; a
        value the runtime refuses is a problem.
        """
        if field not in ANNOTATED_TYPES[owner] or value is None or (field == "min_length" and value == 0):
            return
        problem = _bound_problem(owner, field, value)
        if problem is not None:
            self._problems.append(problem)
            return
        bound: dict[str, Any] = {field: value}  # a checked number, for a field of Constraints
        self._constraints = dataclasses.replace(self._constraints, **bound)

    def add_problem(self, message: str) -> None:
        """Metadata the front end cannot read; ``message`` says why and how to fix it."""
        self._problems.append(message)

    def result(self) -> Metadata:
        """The merged metadata."""
        return Metadata(
            self._constraints, self._description, self._string_integer, self._injected, tuple(self._problems)
        )


def _bound_problem(owner: str, field: str, value: object) -> str | None:
    ok_types = (int,) if field in _LENGTHS else (int, float)
    if isinstance(value, bool) or not isinstance(value, ok_types):
        return messages.bound_not_numeric(owner, value)
    if isinstance(value, float) and not math.isfinite(value):
        return messages.bound_not_finite(owner, value)
    return None


class ConstraintsUnfit(Exception):
    """Constraints that fit no part of a type; ``constraints`` are all those on it (``messages.constraints_misfit``)."""

    def __init__(self, constraints: ir.Constraints) -> None:
        super().__init__(constraints)
        self.constraints: ir.Constraints = constraints


def constrain(node: ir.TypeNode, constraints: ir.Constraints) -> ir.TypeNode:
    """``node`` with ``constraints``; through a union, on each option they fit (``None`` stays plain).

    Constraints already on ``node`` are merged with them (later ones
    winning). Raises ``ConstraintsUnfit`` when they fit nothing: numeric
    bounds fit numbers, lengths strings, arrays and objects, ``pattern`` strings.
    """
    if constraints.is_empty():
        return node
    if isinstance(node, ir.Constrained):
        return constrain(node.base, node.constraints.merged(constraints))
    if isinstance(node, ir.UnionType):
        options = tuple(_constrain_if_fits(option, constraints) for option in node.options)
        if options != node.options:
            return ir.UnionType(options)
    elif _fits(node, constraints):
        return ir.Constrained(node, constraints)
    raise ConstraintsUnfit(constraints)


def _constrain_if_fits(node: ir.TypeNode, constraints: ir.Constraints) -> ir.TypeNode:
    if isinstance(node, ir.Constrained) and _fits(node.base, node.constraints.merged(constraints)):
        return ir.Constrained(node.base, node.constraints.merged(constraints))
    return ir.Constrained(node, constraints) if _fits(node, constraints) else node


def _fits(node: ir.TypeNode, constraints: ir.Constraints) -> bool:
    used = {name for name in _CONSTRAINT_FIELDS if getattr(constraints, name) is not None}
    if isinstance(node, ir.Primitive) and node.name in ("int", "float", "string_integer", "decimal"):
        return used <= _NUMERIC
    if isinstance(node, ir.Primitive) and node.name == "str":
        return used <= {*_LENGTHS, "pattern"}
    if isinstance(node, (ir.ArrayType, ir.MapType)):
        return used <= _LENGTHS
    return False
