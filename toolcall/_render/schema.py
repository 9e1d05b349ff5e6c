"""Helpers over JSON Schema dicts, shared by the canonical renderer and the passes.

The passes read and write plain JSON Schema (not IR), so a custom type's own
schema goes through the same rewrites as the schemas toolcall builds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from toolcall._ir import canonical_json
from toolcall._render.keywords import MANY, NAMED, ONE
from toolcall._rules.json_literals import json_kind

__all__ = [
    "Location",
    "Schema",
    "accepts_null",
    "as_schema",
    "children",
    "def_name",
    "distinct",
    "enum_groups",
    "has_type",
    "is_plain_scalar",
    "iter_schemas",
    "map_children",
    "plain",
    "recursive_defs",
    "ref_to",
    "subschemas",
    "tuple_items",
    "types_of",
]

Schema = dict[str, Any]
#: Where a subschema sits: the JSON-pointer parts from the root, e.g. ``("properties", "days")``.
Location = tuple[str | int, ...]

_SUBSCHEMA_KEYWORDS = ONE | MANY | NAMED

_DEFS_PREFIX = "#/$defs/"


def plain(value: Any) -> Any:
    """A fresh copy of JSON data with no shared sub-objects; ``ValueError`` for NaN or an infinity.

    Equal to decoding its JSON text, and built without it where ``value``
    holds only ``dict`` (``str`` keys), ``list``, ``str``, ``int``, ``bool``,
    ``None`` and finite floats, nested at most ``_COPY_DEPTH`` deep: about
    twice as fast as encoding and decoding a schema. Anything else (a
    tuple, a subclass, a non-string key, NaN, an integer of over 600 digits)
    goes through the JSON text.
    """
    try:
        if type(value) is dict:
            return _plain_dict(value, 0)
        if type(value) is list:
            return _plain_list(value, 0)
    except _NotPlain:
        pass
    return json.loads(json.dumps(value, allow_nan=False))


#: How deep ``plain`` copies containers itself before it leaves the rest to the JSON text (no deep recursion).
_COPY_DEPTH: Final = 64
_isfinite: Final = math.isfinite
#: Integers up to this many bits are within any int-string limit (640 digits, the lowest allowed limit);
#: a longer one goes through the JSON text, which refuses it past the interpreter's limit.
_INT_BITS: Final = 2000


def is_plain_scalar(value: object) -> bool:
    """Whether ``plain`` keeps ``value`` as it is: a ``str``, ``bool``, ``None``, short ``int`` or finite ``float``."""
    if type(value) is int:
        return value.bit_length() <= _INT_BITS
    if type(value) is float:
        return _isfinite(value)
    return type(value) is str or type(value) is bool or value is None


class _NotPlain(Exception):
    """A value ``plain`` does not copy itself: it goes through the JSON text instead."""


# The test of a leaf is written out in both functions: a call for each leaf would cost what they save.
def _plain_dict(value: dict[Any, Any], depth: int) -> dict[str, Any]:
    if depth > _COPY_DEPTH:
        raise _NotPlain
    copied: dict[str, Any] = {}
    for key, item in value.items():
        kind = type(item)
        if type(key) is not str:
            raise _NotPlain
        if kind is str or kind is bool or item is None or (kind is int and item.bit_length() <= _INT_BITS):
            copied[key] = item
        elif kind is dict:
            copied[key] = _plain_dict(item, depth + 1)
        elif kind is list:
            copied[key] = _plain_list(item, depth + 1)
        elif kind is float and _isfinite(item):
            copied[key] = item
        else:
            raise _NotPlain
    return copied


def _plain_list(value: list[Any], depth: int) -> list[Any]:
    if depth > _COPY_DEPTH:
        raise _NotPlain
    copied: list[Any] = []
    for item in value:
        kind = type(item)
        if kind is str or kind is bool or item is None or (kind is int and item.bit_length() <= _INT_BITS):
            copied.append(item)
        elif kind is dict:
            copied.append(_plain_dict(item, depth + 1))
        elif kind is list:
            copied.append(_plain_list(item, depth + 1))
        elif kind is float and _isfinite(item):
            copied.append(item)
        else:
            raise _NotPlain
    return copied


def as_schema(value: Any) -> Schema:
    """A schema dict for ``value``; the boolean schemas become ``{}`` and ``{"not": {}}``."""
    if value is True:
        return {}
    if value is False:
        return {"not": {}}
    if not isinstance(value, dict):
        raise ValueError(f"not a JSON Schema: {value!r}")
    return dict(value)


def enum_groups(values: Sequence[Any]) -> list[tuple[str, list[Any]]]:
    """Enum values grouped by JSON type, in first-seen order; integers join numbers when both occur."""
    kinds = [json_kind(v) for v in values]
    if "integer" in kinds and "number" in kinds:
        # Every integer is a number: one "number" group keeps them in one branch.
        kinds = ["number" if k == "integer" else k for k in kinds]
    groups: dict[str, list[Any]] = {}
    for kind, value in zip(kinds, values, strict=True):
        groups.setdefault(kind, []).append(value)
    return list(groups.items())


def distinct(schemas: Sequence[Schema]) -> list[Schema]:
    """``schemas`` without repeats (by value), in first-seen order."""
    seen: dict[str, Schema] = {}
    for schema in schemas:
        seen.setdefault(canonical_json(schema), schema)
    return list(seen.values())


def tuple_items(positions: Sequence[Any]) -> Schema:
    """An ``items`` admitting every tuple position: the one schema when all agree, else their ``anyOf``."""
    unique = distinct([as_schema(p) for p in positions])
    return unique[0] if len(unique) == 1 else {"anyOf": unique}


def has_type(schema: Schema, name: str) -> bool:
    """``name in types_of(schema)``, without building the set (this runs once or more per node)."""
    declared = schema.get("type")
    if isinstance(declared, str):
        return declared == name
    return isinstance(declared, list) and name in declared


def types_of(schema: Schema) -> set[str]:
    """The names in ``schema["type"]`` (a string or a list), else the empty set."""
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    return set()


def accepts_null(schema: Schema) -> bool:
    """True when ``schema`` visibly admits ``null`` (by type, enum, const or an anyOf branch)."""
    if has_type(schema, "null") or schema.get("const", 0) is None:
        return True
    if None in schema.get("enum", ()):
        return True
    return any(accepts_null(as_schema(b)) for b in schema.get("anyOf", ()))


def ref_to(name: str) -> str:
    """The local ``$ref`` for the named type ``name`` (JSON-pointer escaped)."""
    return _DEFS_PREFIX + name.replace("~", "~0").replace("/", "~1")


def def_name(ref: str) -> str | None:
    """The named type a local ``#/$defs/...`` reference points to, else ``None``."""
    if not ref.startswith(_DEFS_PREFIX):
        return None
    return ref[len(_DEFS_PREFIX) :].replace("~1", "/").replace("~0", "~")


def map_children(schema: Schema, at: Location, visit: Callable[[Any, Location], Schema]) -> Schema:
    """``schema`` with every subschema replaced by ``visit(subschema, location)``.

    Boolean single-subschema values (``additionalProperties: false``) are kept as they are.
    """
    out: Schema = {}
    for key, value in schema.items():
        if key not in _SUBSCHEMA_KEYWORDS:
            out[key] = value  # most keywords (type, description, enum, ...) hold no subschema
        elif key in ONE and isinstance(value, dict):
            out[key] = visit(value, (*at, key))
        elif key in MANY and isinstance(value, list):
            out[key] = [visit(v, (*at, key, i)) for i, v in enumerate(value)]
        elif key in NAMED and isinstance(value, dict):
            out[key] = {name: visit(v, (*at, key, name)) for name, v in value.items()}
        else:
            out[key] = value
    return out


def children(schema: Schema, at: Location = ()) -> list[tuple[Location, Any]]:
    """The direct subschemas of ``schema`` (booleans included), with their locations."""
    child_schemas: list[tuple[Location, Any]] = []
    for key, value in schema.items():
        if key in ONE:
            child_schemas.append(((*at, key), value))
        elif key in MANY and isinstance(value, list):
            child_schemas.extend(((*at, key, i), item) for i, item in enumerate(value))
        elif key in NAMED and isinstance(value, dict):
            child_schemas.extend(((*at, key, name), item) for name, item in value.items())
    return child_schemas


def subschemas(schema: Schema) -> list[tuple[str, Any]]:
    """``children`` without the locations: each direct subschema with the keyword it sits under."""
    child_schemas: list[tuple[str, Any]] = []
    for key, value in schema.items():
        if key in ONE:
            child_schemas.append((key, value))
        elif key in MANY and isinstance(value, list):
            child_schemas.extend((key, item) for item in value)
        elif key in NAMED and isinstance(value, dict):
            child_schemas.extend((key, item) for item in value.values())
    return child_schemas


def iter_schemas(schema: Any, at: Location = ()) -> Iterator[tuple[Location, Schema]]:
    """Every dict subschema of ``schema`` (itself first, then depth-first), with its location."""
    todo = [(at, schema)]  # a stack, not nested generators: each level of those costs every item passed up
    while todo:
        where, node = todo.pop()
        if isinstance(node, dict):
            yield where, node
            todo.extend(reversed(children(node, where)))


def recursive_defs(root: Schema) -> list[str]:
    """The names of the root's ``$defs`` that reach themselves through ``$ref``s."""
    defs = root.get("$defs", {})
    edges = {name: _refs_in(body) for name, body in defs.items()}
    return [name for name in defs if _reaches(edges, name, name)]


def _refs_in(schema: Any) -> set[str]:
    names = (def_name(s["$ref"]) for _, s in iter_schemas(schema) if isinstance(s.get("$ref"), str))
    return {n for n in names if n is not None}


def _reaches(edges: dict[str, set[str]], start: str, target: str) -> bool:
    seen: set[str] = set()
    todo = list(edges.get(start, ()))
    while todo:
        name = todo.pop()
        if name == target:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(edges.get(name, ()))
    return False
