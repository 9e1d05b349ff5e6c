"""The Gemini pass: canonical schema -> a ``parameters`` schema in Gemini's OpenAPI 3.0 subset.

Gemini's ``Schema`` is a proto, not JSON Schema: one upper-case ``type``
(``STRING``, ``OBJECT``, ... as in the REST reference and python-genai's
``Type``), ``nullable: true`` instead of a null branch, string-only enums, no
``$ref`` (named types are inlined, so recursion is a ``ValueError``), no tuples.
Anything else the ``GEMINI`` profile lacks goes to the description.
"""

from __future__ import annotations

import re
from typing import Any, Final

from toolcall._exceptions import ProviderError
from toolcall._ir import canonical_json
from toolcall._render.losses import Losses
from toolcall._render.notes import append_note, describe_type
from toolcall._render.profiles import GEMINI, carry
from toolcall._render.schema import (
    Location,
    Schema,
    as_schema,
    def_name,
    distinct,
    enum_groups,
    map_children,
    recursive_defs,
    tuple_items,
    types_of,
)

__all__ = ["NAME_PATTERN", "PROPERTY_PATTERN", "gemini_parameters"]

#: A function name Gemini accepts (at most 64: the API has rejected longer ones).
NAME_PATTERN: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}")
#: A parameter or property name (FunctionDeclaration docstring).
PROPERTY_PATTERN: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def gemini_parameters(canonical: Schema, losses: Losses) -> Schema | None:
    """The ``parameters`` of a function declaration, or ``None`` for a tool without parameters.

    Gemini rejects an ``OBJECT`` whose ``properties`` is empty, so a tool
    without parameters has no ``parameters`` at all.
    """
    recursive = recursive_defs(canonical)
    if recursive:
        raise ProviderError(
            f"tool {losses.tool.name!r}: {recursive[0]} is a recursive type, and Gemini's schema cannot "
            "express recursion; use a non-recursive type for this tool"
        )
    root = {k: v for k, v in canonical.items() if k != "$defs"}
    out = _Gemini(canonical.get("$defs", {}), losses).node(root, ())
    return out if out.get("properties") else None


class _Gemini:
    def __init__(self, defs: dict[str, Any], losses: Losses) -> None:
        self.defs = defs
        self.losses = losses

    def node(self, value: Any, at: Location) -> Schema:
        schema, null = _split_null(self.resolve(as_schema(value)))
        schema = self.resolve(schema)
        schema = self.shape(schema, at)
        schema = carry(GEMINI, schema, at, self.losses)
        schema = map_children(schema, at, self.node)
        _drop_empty(schema)
        self.check_names(schema, at)
        return _mark_nullable(schema) if null else schema

    def resolve(self, schema: Schema) -> Schema:
        """Inline a ``$ref`` (its siblings win) and respell ``oneOf``/``const`` as ``anyOf``/``enum``."""
        ref = schema.pop("$ref", None)
        if isinstance(ref, str):
            name = def_name(ref)
            if name is None or name not in self.defs:
                raise ProviderError(f"tool {self.losses.tool.name!r}: Gemini cannot resolve the reference {ref!r}")
            schema = {**as_schema(self.defs[name]), **schema}
        if "oneOf" in schema and "anyOf" not in schema:
            schema["anyOf"] = schema.pop("oneOf")
        if "const" in schema and "enum" not in schema:
            schema["enum"] = [schema.pop("const")]
        return schema

    def shape(self, schema: Schema, at: Location) -> Schema:
        """The OpenAPI spelling of types, enums, tuples and open objects."""
        if isinstance(schema.get("type"), list):
            return _split_types(schema)
        if "enum" in schema:
            return self.enum(schema, at)
        if "prefixItems" in schema:
            self.tuple(schema, at)
        if "additionalProperties" in schema:
            self.extra(schema, at)
        if "properties" in schema:
            schema.setdefault("type", "object")
        if isinstance(schema.get("type"), str):
            schema["type"] = schema["type"].upper()
        return schema

    def enum(self, schema: Schema, at: Location) -> Schema:
        """String enums stay (``format: enum``); other values become a typed schema and a note."""
        groups = enum_groups(schema.pop("enum"))
        if len(groups) != 1:
            schema.pop("type", None)
            branches = [{"type": kind, "enum": values} for kind, values in groups]
            return {"anyOf": branches, **schema}
        kind, values = groups[0]
        schema["type"] = kind.upper()
        if kind == "string":
            schema.update({"format": "enum", "enum": values})
        if kind in ("string", "null"):
            return schema
        note = "one of: " + ", ".join(canonical_json(v) for v in values)
        append_note(schema, note)
        self.losses.lost(at, f"Gemini enums hold strings only; the {kind} values moved to the description ({note!r})")
        return schema

    def tuple(self, schema: Schema, at: Location) -> None:
        """A tuple keeps ``items`` (any position's type) and its length; the order becomes a note."""
        positions = schema.pop("prefixItems")
        if not isinstance(schema.get("items"), dict):
            schema["items"] = tuple_items(positions)
        if len(distinct([*positions, schema["items"]])) == 1:
            return  # every position has the items' type: the order says nothing more
        note = "items in order: " + ", ".join(describe_type(p) for p in positions)
        append_note(schema, note)
        self.losses.lost(at, f"Gemini has no prefixItems (tuples); moved to the description ({note!r})")

    def extra(self, schema: Schema, at: Location) -> None:
        """``additionalProperties`` leaves; an open object's value type becomes a note."""
        extra = schema.pop("additionalProperties")
        if extra is False:
            return  # closed is what Gemini assumes: it only produces the declared properties
        if at == ():
            message = "Gemini cannot declare **kwargs; the model will send only the named parameters"
            self.losses.lost(("additionalProperties",), message)
            return
        note = f"an object with any string keys; values: {describe_type(extra)}"
        append_note(schema, note)
        self.losses.lost(at, f"Gemini has no additionalProperties (open objects); moved to the description ({note!r})")

    def check_names(self, schema: Schema, at: Location) -> None:
        """Gemini's property names are identifiers: a letter or ``_``, then letters, digits, ``_``."""
        for name in schema.get("properties", {}):
            if PROPERTY_PATTERN.fullmatch(name) is None:
                where = ".".join(str(s) for s in (*at, "properties", name))
                raise ProviderError(
                    f"tool {self.losses.tool.name!r}: Gemini rejects the property name {name!r} ({where}); "
                    f"names must match ^[A-Za-z_][A-Za-z0-9_]{{0,63}}$"
                )


def _split_null(schema: Schema) -> tuple[Schema, bool]:
    """``schema`` without its null alternative, and whether it had one."""
    types = schema.get("type")
    if isinstance(types, list) and "null" in types and len(types) > 1:
        others = [t for t in types if t != "null"]
        return {**schema, "type": others[0] if len(others) == 1 else others}, True
    if None in schema.get("enum", ()) and len(schema["enum"]) > 1:
        return {**schema, "enum": [v for v in schema["enum"] if v is not None]}, True
    branches = schema.get("anyOf")
    if not isinstance(branches, list):
        return schema, False
    kept = [b for b in branches if types_of(as_schema(b)) != {"null"}]
    if len(kept) == len(branches) or not kept:
        return schema, False
    rest = {k: v for k, v in schema.items() if k != "anyOf"}
    if len(kept) == 1:
        return {**as_schema(kept[0]), **rest}, True  # the wrapper's description and default win
    return {**rest, "anyOf": kept}, True


def _split_types(schema: Schema) -> Schema:
    """``"type": ["string", "integer"]`` -> an ``anyOf`` with one branch per type."""
    rest = {k: v for k, v in schema.items() if k != "type"}
    return {"anyOf": [{"type": t, **rest} for t in schema["type"]]}


def _mark_nullable(schema: Schema) -> Schema:
    """Gemini's ``nullable`` sits beside a ``type``, so an ``anyOf`` marks each branch."""
    if "type" in schema:
        schema["nullable"] = True
    for branch in schema.get("anyOf", ()):
        _mark_nullable(branch)
    return schema


def _drop_empty(schema: Schema) -> None:
    """No ``properties: {}`` (Gemini's 400: "should be non-empty for OBJECT type") and no ``required: []``."""
    for key in ("properties", "required"):
        if key in schema and not schema[key]:
            del schema[key]
