"""Placing ``Constraints`` on a rendered schema.

A constraint goes on the schema (or on each ``anyOf`` branch) whose JSON type
carries it: numeric bounds on integers and numbers, lengths on strings,
arrays and objects, patterns on strings. What no branch can carry (bounds on
a ``string_integer``, a second pattern on a ``Decimal``) becomes a note in the
description; the dispatcher enforces every constraint either way.
"""

from __future__ import annotations

from typing import Any

from toolcall import _ir as ir
from toolcall._render.notes import append_note, notes_for
from toolcall._render.schema import Schema, types_of

__all__ = ["constrain"]

_NUMBERS = frozenset({"integer", "number"})
_NUMERIC = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}
_LENGTH = {
    "string": ("minLength", "maxLength"),
    "array": ("minItems", "maxItems"),
    "object": ("minProperties", "maxProperties"),
}
# Lower bounds tighten upwards, upper bounds downwards, when a schema already has one.
_LOWER = frozenset({"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"})
_UPPER = frozenset({"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"})


def constrain(schema: Schema, constraints: ir.Constraints) -> Schema:
    """``schema`` with ``constraints`` placed on it, the unplaceable ones as a description note."""
    unplaced: dict[str, Any] = {}
    for field, value in _set_fields(constraints):
        if not any(_place(target, field, value) for target in _targets(schema)):
            unplaced[_keyword(field, schema)] = value
    append_note(schema, notes_for(unplaced))
    return schema


def _set_fields(constraints: ir.Constraints) -> list[tuple[str, Any]]:
    names = ("ge", "gt", "le", "lt", "multiple_of", "min_length", "max_length", "pattern")
    return [(n, getattr(constraints, n)) for n in names if getattr(constraints, n) is not None]


def _targets(schema: Schema) -> list[Schema]:
    """The schema itself, or the branches of a plain ``anyOf`` (null branches carry nothing)."""
    if "anyOf" in schema and "type" not in schema:
        return [b for b in schema["anyOf"] if isinstance(b, dict) and "null" not in types_of(b)]
    return [schema]


def _kind(schema: Schema) -> str | None:
    types = types_of(schema)
    return next(iter(types)) if len(types) == 1 else None


def _keyword(field: str, schema: Schema) -> str:
    """The JSON Schema keyword for ``field`` (a length keyword follows the schema's type)."""
    if field in _NUMERIC:
        return _NUMERIC[field]
    if field == "multiple_of":
        return "multipleOf"
    if field == "pattern":
        return "pattern"
    low, high = _LENGTH.get(_kind(schema) or "", _LENGTH["string"])
    return low if field == "min_length" else high


def _carries(schema: Schema, keyword: str) -> bool:
    """True when ``schema``'s single type gives ``keyword`` a meaning."""
    kind = _kind(schema)
    if kind is None or "$ref" in schema:
        return False
    if keyword in _NUMERIC.values() or keyword == "multipleOf":
        return kind in _NUMBERS
    if keyword == "pattern":
        return kind == "string"
    return keyword in _LENGTH.get(kind, ())


def _place(schema: Schema, field: str, value: Any) -> bool:
    keyword = _keyword(field, schema)
    if not _carries(schema, keyword):
        return False
    if keyword not in schema:
        schema[keyword] = value
    elif keyword in _LOWER:
        schema[keyword] = max(schema[keyword], value)
    elif keyword in _UPPER:
        schema[keyword] = min(schema[keyword], value)
    else:
        # A second pattern or multipleOf cannot share one schema.
        return bool(schema[keyword] == value)
    return True
