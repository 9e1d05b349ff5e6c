"""The strict pass: canonical schema -> OpenAI Structured Outputs or Anthropic strict tool schema.

One pass, driven by a ``Profile``. Per node it (1) rewrites what the mode
spells differently without loss (``oneOf`` -> ``anyOf``, an untyped enum ->
typed branches, a tuple -> ``items`` plus a note), (2) records a fallback for
what no strict schema can say (open objects, untyped values, recursion where
the mode forbids it), (3) moves the keywords the profile lacks into the
description, (4) recurses, then (5) closes objects and, for OpenAI, makes every
property required and the optional ones nullable. A ``$ref`` never keeps
siblings: it is wrapped in a one-branch ``anyOf``.
"""

from __future__ import annotations

from typing import Any

from toolcall._render.losses import Losses
from toolcall._render.notes import append_note, describe_type, python_type
from toolcall._render.profiles import Profile, carry
from toolcall._render.schema import (
    Location,
    Schema,
    accepts_null,
    as_schema,
    distinct,
    enum_groups,
    has_type,
    map_children,
    recursive_defs,
    tuple_items,
)
from toolcall._rules.json_literals import json_kind

__all__ = ["strict_schema"]

_NON_STRICT = "the tool is rendered without strict"
_TYPING = ("type", "anyOf", "$ref", "enum", "const")


def strict_schema(canonical: Schema, profile: Profile, losses: Losses) -> Schema:
    """The strict form of ``canonical``; ``losses.fallbacks`` says whether it can be used."""
    if not profile.recursion:
        for name in recursive_defs(canonical):
            losses.fallback(
                ("$defs", name),
                f"cannot express the recursive type {name}; use a non-recursive type or strict=False ({_NON_STRICT})",
            )
    return _Strict(profile, losses).node(canonical, ())


class _Strict:
    def __init__(self, profile: Profile, losses: Losses) -> None:
        self.profile = profile
        self.losses = losses

    def node(self, value: Any, at: Location) -> Schema:
        if type(value) is dict and value.keys() <= self.profile.leaf_keywords:
            kind = value.get("type")
            if type(kind) is str and kind != "object" and kind != "array":
                # A typed leaf the mode carries whole (most nodes): the steps below would give this copy.
                return dict(value)
        schema = self.rewrite(as_schema(value), at)
        self.check_open(schema, at)
        schema = carry(self.profile, schema, at, self.losses)
        self.check_typed(schema, at)
        schema = map_children(schema, at, self.node)
        if has_type(schema, "object"):
            schema = self.close(schema)
        return _lift_ref(schema)

    def rewrite(self, schema: Schema, at: Location) -> Schema:
        """Lossless respellings (and the tuple rewrite, which reports its loss)."""
        if "oneOf" in schema and "anyOf" not in schema:
            schema["anyOf"] = schema.pop("oneOf")
            self.losses.lost(at, "has no oneOf; rewritten as anyOf (exclusivity not checked)")
        if "properties" in schema and "type" not in schema:
            schema["type"] = "object"
        if "type" not in schema and "const" in schema:
            schema["type"] = json_kind(schema["const"])
        if "type" not in schema and "enum" in schema:
            schema = typed_enum(schema)
        if "prefixItems" in schema:
            schema = self.tuple(schema, at)
        return schema

    def tuple(self, schema: Schema, at: Location) -> Schema:
        """A tuple as an array whose ``items`` admits every position; the order becomes a note."""
        positions = schema.pop("prefixItems")
        if schema.get("items") is False:
            schema.setdefault("maxItems", len(positions))
        if not isinstance(schema.get("items"), dict):
            schema["items"] = tuple_items(positions)
        if len(distinct([*positions, schema["items"]])) == 1:
            return schema  # every position has the items' type: the order says nothing more
        note = "items in order: " + ", ".join(describe_type(p) for p in positions)
        append_note(schema, note)
        self.losses.lost(at, f"has no prefixItems (tuples); moved to the description ({note!r})")
        return schema

    def check_open(self, schema: Schema, at: Location) -> None:
        """Record a fallback for an object that admits keys the schema does not name."""
        if not (has_type(schema, "object") or "properties" in schema):
            return
        extra = schema.get("additionalProperties")
        opened = "patternProperties" in schema or schema.get("unevaluatedProperties", False) is not False
        if not opened and extra is False:
            return
        if not opened and extra is None and "properties" in schema:
            schema["additionalProperties"] = False  # a custom schema that names its keys means them
            return
        what = "**kwargs (extra parameters)" if at == () else f"{python_type(schema)} (an object with open keys)"
        fix = "declare the parameters explicitly" if at == () else "use a TypedDict or dataclass with known keys"
        where = ("additionalProperties",) if at == () else at  # names the **kwargs parameter
        self.losses.fallback(where, f"cannot express {what}; {fix} ({_NON_STRICT})")

    def check_typed(self, schema: Schema, at: Location) -> None:
        """Record a fallback for a value of unknown type, or an array of them."""
        if schema.keys().isdisjoint(_TYPING):
            self.losses.fallback(
                at,
                "cannot express a value of any type (Any, object, an unbounded TypeVar or no annotation); "
                f"annotate a concrete type ({_NON_STRICT})",
            )
        elif has_type(schema, "array") and not isinstance(schema.get("items"), dict):
            self.losses.fallback(at, f"cannot express an array without an item type ({_NON_STRICT})")

    def close(self, schema: Schema) -> Schema:
        """Close the object; OpenAI also wants every property required (optional ones nullable)."""
        schema["additionalProperties"] = False
        if not self.profile.all_required:
            return schema
        properties: Schema = schema.get("properties", {})
        required = set(schema.get("required", ()))
        schema["properties"] = {n: s if n in required else nullable(s) for n, s in properties.items()}
        if properties:
            schema["required"] = list(properties)
        return schema


def typed_enum(schema: Schema) -> Schema:
    """An untyped enum as a typed one, or as ``anyOf`` of one typed enum per JSON type."""
    groups = enum_groups(schema["enum"])
    branches = [{"type": kind} if kind == "null" else {"type": kind, "enum": values} for kind, values in groups]
    rest = {k: v for k, v in schema.items() if k != "enum"}
    if len(branches) == 1:
        return {**branches[0], **rest}
    return {"anyOf": branches, **rest}


def nullable(schema: Schema) -> Schema:
    """``schema`` or ``null``; the description moves to the wrapper, where a model reads it first."""
    if accepts_null(schema):
        return schema
    if "anyOf" in schema and set(schema) <= {"anyOf", "description"}:
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    inner = {k: v for k, v in schema.items() if k != "description"}
    wrapped: Schema = {"anyOf": [inner, {"type": "null"}]}
    if "description" in schema:
        wrapped["description"] = schema["description"]
    return wrapped


def _lift_ref(schema: Schema) -> Schema:
    """``{"$ref": r, "description": d}`` -> ``{"anyOf": [{"$ref": r}], "description": d}`` (same meaning)."""
    if "$ref" not in schema or len(schema) == 1:
        return schema
    rest = {k: v for k, v in schema.items() if k != "$ref"}
    return {"anyOf": [{"$ref": schema["$ref"]}], **rest}
