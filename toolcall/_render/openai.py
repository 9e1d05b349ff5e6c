"""The OpenAI non-strict pass: every array gets an ``items``.

Chat Completions and Responses reject ``array schema missing items`` even
without strict. toolcall's own arrays always have one; a custom type's
schema may not, and then gets ``items: {}`` (any item), which is what an
array without ``items`` means.
"""

from __future__ import annotations

from typing import Any

from toolcall._render.keywords import MANY, NAMED, ONE
from toolcall._render.schema import Location, Schema, as_schema, has_type, map_children

__all__ = ["changes_with_items", "with_items"]


def with_items(schema: Schema) -> Schema:
    """``schema`` with ``items: {}`` added to every array without ``items`` (the same meaning)."""
    return _node(schema, ())


def _node(value: Any, at: Location) -> Schema:
    schema = map_children(as_schema(value), at, _node)
    if has_type(schema, "array") and "items" not in schema:
        schema["items"] = {}
    return schema


def changes_with_items(schema: Schema) -> bool:
    """Whether ``with_items(schema)`` may differ from ``schema`` (or raise); ``False``: it is an equal copy.

    A read-only walk over the subschemas ``with_items`` visits, so that the
    usual schema, whose arrays all have ``items``, is not copied to no end.
    A visited value that is not a dict (a boolean schema, which ``as_schema``
    rewrites, or no schema at all, which it refuses) counts as a change.
    """
    todo: list[Any] = [schema]
    while todo:
        value = todo.pop()
        if not isinstance(value, dict) or (has_type(value, "array") and "items" not in value):
            return True
        for key, child in value.items():
            if key in ONE and isinstance(child, dict):
                todo.append(child)
            elif key in MANY and isinstance(child, list):
                todo.extend(child)
            elif key in NAMED and isinstance(child, dict):
                todo.extend(child.values())
    return False
