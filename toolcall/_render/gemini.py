"""The Gemini pass: canonical schema -> a ``parameters`` schema in Gemini's OpenAPI 3.0 subset.

Gemini's ``Schema`` is a proto, not JSON Schema: one upper-case ``type``
(``STRING``, ``OBJECT``, ... as in the REST reference and python-genai's
``Type``), ``nullable: true`` instead of a null branch, string-only enums, no
``$ref``, no tuples. Named types are inlined; a recursive one is inlined
``UNROLL_DEPTH`` times along any path, below which the schema takes any JSON
value (the dispatcher still checks the whole type). An enum of other scalars
is declared as the strings of its values (``toolcall._wire.gemini_enums``,
which also turns them back at dispatch). Anything else the ``GEMINI`` profile
lacks goes to the description.
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
from toolcall._wire.gemini_enums import string_forms

__all__ = ["NAME_PATTERN", "PROPERTY_PATTERN", "UNROLL_DEPTH", "gemini_parameters"]

#: A function name Gemini accepts (at most 64: the API has rejected longer ones).
NAME_PATTERN: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}")
#: A parameter or property name (FunctionDeclaration docstring).
PROPERTY_PATTERN: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
#: How many times a recursive type is inlined along any path of a declaration. Three levels show a
#: model the shape (a tree node, its children, theirs) while the worst schema stays small: a type that
#: refers to itself in k places is inlined about k**3 times.
UNROLL_DEPTH: Final = 3
#: The description of the node standing for a recursive type below ``UNROLL_DEPTH``. The node has no
#: ``type``: that is how this pass spells ``Any`` too (Gemini's ``Schema`` has no type for any value).
_DEEPER_NOTE: Final = "any JSON value: {name} nested more than {depth} levels deep"


def gemini_parameters(
    canonical: Schema, losses: Losses, *, stringified: dict[Location, dict[str, Any]] | None = None
) -> Schema | None:
    """The ``parameters`` of a function declaration, or ``None`` for a tool without parameters.

    Gemini rejects an ``OBJECT`` whose ``properties`` is empty, so a tool
    without parameters has no ``parameters`` at all. When ``stringified`` is
    given, each place whose enum values became strings is added to it, with
    its ``text -> value`` table (what the adapter turns back).
    """
    root = {k: v for k, v in canonical.items() if k != "$defs"}
    recursive = frozenset(recursive_defs(canonical))
    out = _Gemini(canonical.get("$defs", {}), recursive, losses, stringified).node(root, ())
    return out if out.get("properties") else None


class _Gemini:
    def __init__(
        self,
        defs: dict[str, Any],
        recursive: frozenset[str],
        losses: Losses,
        stringified: dict[Location, dict[str, Any]] | None,
    ) -> None:
        self.defs = defs
        self.recursive = recursive
        self.losses = losses
        self.stringified = stringified
        #: How many times each recursive type is being inlined on the path to the current node.
        self.depth: dict[str, int] = {}
        #: The (type, parameter) pairs whose unrolling has been reported: one finding each, not one per cut.
        self.reported: set[tuple[str, Location]] = set()
        #: Union branches whose enum keeps its JSON type: another branch takes the same texts as strings.
        self.typed: set[Location] = set()

    def node(self, value: Any, at: Location) -> Schema:
        entered: list[str] = []
        schema, null = _split_null(self.resolve(as_schema(value), at, entered))
        schema = self.resolve(schema, at, entered)
        schema = self.shape(schema, at)
        schema = carry(GEMINI, schema, at, self.losses)
        if isinstance(schema.get("anyOf"), list):
            self.typed.update(self.shared_texts(schema["anyOf"], at))
        for name in entered:
            self.depth[name] = self.depth.get(name, 0) + 1
        try:
            schema = map_children(schema, at, self.node)
        finally:
            for name in entered:
                self.depth[name] -= 1
        _drop_empty(schema)
        self.check_names(schema, at)
        return _mark_nullable(schema) if null else schema

    def resolve(self, schema: Schema, at: Location, entered: list[str]) -> Schema:
        """Inline a ``$ref`` (its siblings win) and respell ``oneOf``/``const`` as ``anyOf``/``enum``.

        A recursive type already inlined ``UNROLL_DEPTH`` times on this path
        becomes a node for any JSON value instead; ``entered`` collects the
        recursive types inlined here.
        """
        ref = schema.pop("$ref", None)
        if isinstance(ref, str):
            name = def_name(ref)
            if name is None or name not in self.defs:
                raise ProviderError(f"tool {self.losses.tool.name!r}: Gemini cannot resolve the reference {ref!r}")
            if name in self.recursive:
                if self.depth.get(name, 0) >= UNROLL_DEPTH:
                    return self.deeper(name, schema, at)
                entered.append(name)
            schema = {**as_schema(self.defs[name]), **schema}
        if "oneOf" in schema and "anyOf" not in schema:
            schema["anyOf"] = schema.pop("oneOf")
        if "const" in schema and "enum" not in schema:
            schema["enum"] = [schema.pop("const")]
        return schema

    def deeper(self, name: str, siblings: Schema, at: Location) -> Schema:
        """The node for recursive type ``name`` below ``UNROLL_DEPTH``: any JSON value, said in its description."""
        schema = {k: v for k, v in siblings.items() if k == "description"}
        append_note(schema, _DEEPER_NOTE.format(name=name, depth=UNROLL_DEPTH))
        if (name, at[:2]) not in self.reported:
            self.reported.add((name, at[:2]))
            self.losses.lost(
                at,
                f"cannot express recursion; {name} is inlined {UNROLL_DEPTH} levels deep, "
                "and below that any JSON value is accepted (moved to the description)",
            )
        return schema

    def shared_texts(self, branches: list[Any], at: Location) -> list[Location]:
        """The union's branches whose enum, as strings, another branch would take as strings (``Level | str``).

        Those keep their JSON type (and a note), so the model's ``1`` stays a
        value of the enum, not a string the other branch reads.
        """
        taken = [self.strings_taken(branch) for branch in branches]
        places: list[Location] = []
        for i, branch in enumerate(branches):
            texts = self.stringified_texts(branch)
            others = taken[:i] + taken[i + 1 :]
            if texts is not None and any(other is None or other & texts for other in others):
                places.append((*at, "anyOf", i))
        return places

    def peek(self, value: Any) -> Schema:
        """A branch with its ``$ref`` looked up (one level, its siblings win): enough to read its type and enum."""
        schema = as_schema(value)
        name = def_name(schema["$ref"]) if isinstance(schema.get("$ref"), str) else None
        return {**as_schema(self.defs[name]), **schema} if name in self.defs else schema

    def stringified_texts(self, value: Any) -> set[str] | None:
        """The texts a branch's enum of non-string values would be declared as, else ``None``."""
        values = _enum_values(self.peek(value))
        texts = None if values is None else string_forms(values)
        return None if texts is None or texts == values else set(texts)

    def strings_taken(self, value: Any) -> set[str] | None:
        """The strings a branch takes as strings: ``None`` for every string (a string type, or any value)."""
        schema = self.peek(value)
        values = _enum_values(schema)
        if values is not None:
            return {v for v in values if isinstance(v, str)} | set(string_forms(values) or ())
        types = types_of(schema)
        if "string" in types or not (types or schema.keys() & _STRUCTURE):
            return None
        return set()

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
        """Enums of scalars become string enums (``format: enum``); others a typed schema and a note.

        An integer, number or boolean travels as its JSON text, which the
        adapter turns back into the value. When two values have one text
        (``Literal["1", 1]``), or a value is not a scalar, each JSON type gets
        its own branch and non-string values move to the description; so do
        they in a union branch whose texts another branch takes as strings.
        """
        values = schema.pop("enum")
        texts = None if at in self.typed else string_forms(values)
        if texts is not None:
            schema["type"] = "STRING"
            schema.update({"format": "enum", "enum": texts})
            if self.stringified is not None and texts != values:
                self.stringified[at] = dict(zip(texts, values, strict=True))
            return schema
        groups = enum_groups(values)
        if len(groups) != 1:
            schema.pop("type", None)
            branches = [self.typed_enum({}, kind, group, (*at, "anyOf", i)) for i, (kind, group) in enumerate(groups)]
            return {"anyOf": branches, **schema}
        kind, group = groups[0]
        return self.typed_enum(schema, kind, group, at)

    def typed_enum(self, schema: Schema, kind: str, values: list[Any], at: Location) -> Schema:
        """One JSON type's values: a string enum as it is, others the type with the values in the description."""
        schema["type"] = kind.upper()
        if kind == "string":
            schema.update({"format": "enum", "enum": values})
        if kind in ("string", "null"):
            return schema
        note = "one of: " + ", ".join(canonical_json(v) for v in values)
        append_note(schema, note)
        self.losses.lost(at, f"enums hold strings only; the {kind} values moved to the description ({note!r})")
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
        self.losses.lost(at, f"has no prefixItems (tuples); moved to the description ({note!r})")

    def extra(self, schema: Schema, at: Location) -> None:
        """``additionalProperties`` leaves; an open object's value type becomes a note."""
        extra = schema.pop("additionalProperties")
        if extra is False:
            return  # closed is what Gemini assumes: it only produces the declared properties
        if at == ():
            message = "cannot declare **kwargs; the model will send only the named parameters"
            self.losses.lost(("additionalProperties",), message)
            return
        note = f"an object with any string keys; values: {describe_type(extra)}"
        append_note(schema, note)
        self.losses.lost(at, f"has no additionalProperties (open objects); moved to the description ({note!r})")

    def check_names(self, schema: Schema, at: Location) -> None:
        """Gemini's property names are identifiers: a letter or ``_``, then letters, digits, ``_``."""
        for name in schema.get("properties", {}):
            if PROPERTY_PATTERN.fullmatch(name) is None:
                where = ".".join(str(s) for s in (*at, "properties", name))
                raise ProviderError(
                    f"property names must match ^[A-Za-z_][A-Za-z0-9_]{{0,63}}$, and {name!r} ({where}) does not; "
                    "rename it"
                )


#: Keywords that make a schema without ``type`` a container rather than any value.
_STRUCTURE: Final = frozenset({"properties", "items", "prefixItems", "additionalProperties"})


def _enum_values(schema: Schema) -> list[Any] | None:
    """The values of an ``enum`` or ``const``, else ``None``."""
    if isinstance(schema.get("enum"), list):
        return list(schema["enum"])
    return [schema["const"]] if "const" in schema else None


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
