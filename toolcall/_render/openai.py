"""The OpenAI non-strict pass: every array gets an ``items``.

Chat Completions and Responses reject ``array schema missing items`` even
without strict. toolcall's own arrays always have one; a custom type's
schema may not, and then gets ``items: {}`` (any item), which is what an
array without ``items`` means.
"""

from __future__ import annotations

from typing import Any

from toolcall._render.schema import Location, Schema, as_schema, has_type, map_children

__all__ = ["with_items"]


def with_items(schema: Schema) -> Schema:
    """``schema`` with ``items: {}`` added to every array without ``items`` (the same meaning)."""
    return _node(schema, ())


def _node(value: Any, at: Location) -> Schema:
    schema = map_children(as_schema(value), at, _node)
    if has_type(schema, "array") and "items" not in schema:
        schema["items"] = {}
    return schema
