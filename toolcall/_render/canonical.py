"""IR -> the canonical (non-strict) JSON Schema 2020-12 of a tool.

This is the one description every provider pass starts from. It says exactly
what the dispatcher accepts: objects are closed unless the type is open, and
every constraint is either a keyword or, where JSON Schema cannot put it on
the type (bounds on a ``string_integer``), a note in the description.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Final

from toolcall import _ir as ir
from toolcall._records import Record, record, set_field
from toolcall._render.constrain import constrain
from toolcall._render.schema import Schema, distinct, enum_groups, is_plain_scalar, plain, ref_to, tuple_items
from toolcall._wire import patterns

__all__ = ["RESULT", "Canonical", "canonical_schema", "output_schema", "parameters_schema", "wrapped_output"]

#: The one property of the object an output schema wraps a return value that is not an object in.
RESULT: Final = "result"

#: Keywords that describe a value without constraining it.
_ANNOTATIONS: Final = frozenset({"description", "title", "examples", "default"})

_PLAIN_TYPES = {
    "str": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "none": "null",
    "path": "string",
}
_PATTERNS = {"decimal": patterns.DECIMAL_PATTERN, "string_integer": patterns.STRING_INTEGER_PATTERN}


def parameters_schema(tool: ir.Tool) -> Schema:
    """The canonical schema of ``tool``'s parameters (injected ones left out)."""
    return canonical_schema(tool).schema


@record(frozen=True, slots=True)
class Canonical(Record):
    """``parameters_schema(tool)``, with two facts about how it was built.

    ``custom``: it holds a custom type's own schema. That is the one part
    whose arrays may lack ``items``: toolcall's own arrays always have one,
    so without it the OpenAI items pass has nothing to do.

    ``plain``: it shares nothing with anything else and holds no value it
    placed that ``plain`` would refuse or convert (NaN, an infinity, an
    integer too long for JSON text, a subclass of a JSON type), so it can
    be handed out once as it is, without a copy. The builder makes every
    dict and list afresh, so this only asks whether each value it placed
    (defaults, enum and literal values, bounds) is a plain JSON scalar; a
    custom schema or a default that is a list or an object is not vouched
    for. Names and descriptions are the IR's strings, taken as they are,
    as the envelopes take the tool's name and description.
    """

    schema: Schema
    custom: bool
    plain: bool

    def __init__(self, schema: Schema, custom: bool, plain: bool) -> None:
        set_field(self, "schema", schema)
        set_field(self, "custom", custom)
        set_field(self, "plain", plain)


def canonical_schema(tool: ir.Tool) -> Canonical:
    """``parameters_schema(tool)``, whether it holds a custom type's own schema, and whether it is plain JSON."""
    builder = _Builder(tool)
    schema = builder.with_defs(builder.root(tool.parameters))
    return Canonical(schema, builder.custom, builder.plain)


def output_schema(tool: ir.Tool) -> Schema | None:
    """The schema of ``tool``'s return value, always with an object root; ``None`` when it has no return type.

    An object return type is its own schema. Any other (a list, a scalar, a
    union) is wrapped as the one property ``result`` of a closed
    object (``wrapped_output``), since MCP clients refuse an output schema
    whose root is not an object. A return type that is a reference to a
    recursive definition is rendered from that named type, so a recursive
    TypedDict still gives an object root. No return annotation, ``None``,
    ``Any``, and a return type no schema describes give ``None``: nothing
    worth promising.
    """
    inlined = _inlined_return(tool)
    if inlined is None:
        return None
    builder, schema = inlined
    if schema.get("type") == "object":
        return builder.with_defs(schema)
    wrapper = _Builder(tool)  # afresh: the inlined attempt may have marked definitions the wrapper does not use
    assert tool.returns is not None  # _inlined_return gave a schema
    return wrapper.with_defs(
        {
            "type": "object",
            "properties": {RESULT: wrapper.node(tool.returns)},
            "required": [RESULT],
            "additionalProperties": False,
        }
    )


def wrapped_output(tool: ir.Tool) -> bool:
    """Whether ``output_schema(tool)`` wraps the return value as ``{"result": value}`` (so must the value sent)."""
    inlined = _inlined_return(tool)
    return inlined is not None and inlined[1].get("type") != "object"


def _inlined_return(tool: ir.Tool) -> tuple[_Builder, Schema] | None:
    """The return type's schema, a reference to a named type rendered inline, and the builder that made it."""
    if tool.returns is None:
        return None
    builder = _Builder(tool)
    node = tool.returns
    if isinstance(node, ir.RefType):
        node = builder.named_type(node.name)
    schema = builder.node(node)
    if not schema.keys() - _ANNOTATIONS:
        return None  # ``Any`` or ``object``: a schema that admits every value promises nothing
    return builder, schema


#: The nodes whose schema is worth keeping: those built from other nodes or from values.
_KEPT_KINDS: Final = frozenset(
    (ir.LiteralType, ir.EnumType, ir.ArrayType, ir.TupleType, ir.MapType, ir.ObjectType, ir.UnionType)
)
#: id(node) → (node, its schema, or ``None`` for a node met once): the schemas of nodes met before, by
#: identity. A module's tools share their types' nodes (a type is walked once per module), so a type many
#: tools use is rendered twice, then copied. Held with the node, so the id names it while kept; emptied when full.
_KEPT_SHAPES: dict[int, tuple[ir.TypeNode, Schema | None]] = {}
_KEPT_MAX: Final = 4096


class _Builder:
    """Renders the nodes of one tool, remembering which named types are referenced."""

    def __init__(self, tool: ir.Tool) -> None:
        self.tool = tool
        self.used: dict[str, None] = {}  # an ordered set
        self.custom = False  # whether a custom type's own schema was rendered
        self.plain = True  # whether each value placed was a plain JSON scalar (``Canonical.plain``)
        self._named = False  # whether the node being rendered refers to a named type or is a custom one

    def named_type(self, name: str) -> ir.TypeNode:
        """The type behind ``RefType(name)``, as a ``ValueError`` when the tool lacks it."""
        try:
            return self.tool.named_type(name)
        except KeyError:
            raise ValueError(f"tool {self.tool.name!r}: reference to unknown named type {name!r}") from None

    def root(self, parameters: Sequence[ir.Parameter]) -> Schema:
        """The closed root object; ``**kwargs: T`` opens it to extra properties of type T."""
        properties: Schema = {}
        required: list[str] = []
        extra: Schema | bool = False
        for p in parameters:
            if p.injected:
                continue
            if p.kind == "var_keyword":
                extra = self.node(p.type, p.description)
                continue
            properties[p.name] = self.member(p.type, p.description, p.default)
            if p.required:
                required.append(p.name)
        schema = _object(properties, required, extra)
        injected = [p.name for p in parameters if p.injected]
        if extra is not False and injected:
            # ``**kwargs`` must not let the model send an injected parameter's name:
            # Python would bind it to that parameter.
            schema["propertyNames"] = {"not": {"enum": injected}}
        return schema

    def with_defs(self, schema: Schema) -> Schema:
        """``schema`` with the referenced named types (and theirs, transitively) under ``$defs``."""
        rendered: dict[str, Schema] = {}
        while missing := [n for n in self.used if n not in rendered]:
            for name in missing:
                rendered[name] = self.node(self.named_type(name))
        if rendered:
            # Declaration order, not discovery order, so the output does not depend on traversal.
            order = [d.name for d in self.tool.defs]
            schema["$defs"] = {n: rendered[n] for n in sorted(rendered, key=order.index)}
        return schema

    def member(self, node: ir.TypeNode, description: str | None, default: ir.Default | None) -> Schema:
        """A property: the node's schema with the member's description and default."""
        schema = self.node(node, description)
        if default is not None:
            value = schema["default"] = default.value
            self._placed((value,))
        return schema

    def _placed(self, values: Iterable[object]) -> None:
        """Note values put into the schema as they are: ``plain`` only while each is a plain JSON scalar."""
        if self.plain and not all(map(is_plain_scalar, values)):
            self.plain = False

    def node(self, node: ir.TypeNode, description: str | None = None) -> Schema:
        """The schema of ``node``; ``description`` (when not ``None``) replaces the node's own.

        ``""`` removes the node's own description (``Param(description="")``
        means none). It is applied under constraints, so their notes survive.
        """
        if isinstance(node, ir.Constrained):
            bounds = node.constraints
            self._placed((bounds.ge, bounds.le, bounds.gt, bounds.lt, bounds.multiple_of, bounds.min_length))
            self._placed((bounds.max_length, bounds.pattern))
            return constrain(self.node(node.base, description), bounds)
        schema = self.shape(node)
        if description is not None:
            schema.pop("description", None)
            if description:
                schema["description"] = description
        return schema

    def shape(self, node: ir.TypeNode) -> Schema:
        """The schema of one node, with its own description; a copy of the one kept when the node was met before.

        Kept from the second time a node is met (most are met once, and a
        copy kept costs what building it does), and only for a node that
        neither refers to a named type nor holds a custom one: its schema is
        then the same in every tool.
        """
        if type(node) not in _KEPT_KINDS:
            return self._shape(node)
        kept = _KEPT_SHAPES.get(id(node))
        if kept is None:
            _remember(node, None)
            return self._shape(node)
        if kept[1] is not None:
            copied: Schema = plain(kept[1])
            return copied
        named, self._named = self._named, False
        try:
            schema = self._shape(node)
        finally:
            kept_now, self._named = not self._named, named or self._named
        if kept_now:
            _keep_shape(node, schema)
        return schema

    def _shape(self, node: ir.TypeNode) -> Schema:
        match node:
            case ir.Primitive(name=name):
                return _primitive(name)
            case ir.AnyType():
                return {}
            case ir.LiteralType(values=values):
                self._placed(values)
                return _enum(values, None)
            case ir.EnumType(values=values, description=description):
                self._placed(values)
                return _enum(values, description)
            case ir.ArrayType(items=items, container=container):
                schema: Schema = {"type": "array", "items": self.node(items)}
                if container in ("set", "frozenset"):
                    schema["uniqueItems"] = True
                return schema
            case ir.TupleType(items=items):
                return _tuple([self.node(t) for t in items])
            case ir.MapType(values=values):
                return {"type": "object", "additionalProperties": self.node(values)}
            case ir.ObjectType():
                return self.object(node)
            case ir.UnionType(options=options):
                return _union([self.node(o) for o in options])
            case ir.RefType(name=name):
                self.used[name] = None
                self._named = True
                return {"$ref": ref_to(name)}
            case ir.CustomType():
                self.custom = self._named = True
                self.plain = False  # any JSON text: vouched for by the copy that hands it out
                return dict(node.schema_value)
            case ir.Constrained():
                return self.node(node)
        raise TypeError(f"unknown IR node {node!r}")

    def object(self, node: ir.ObjectType) -> Schema:
        """A TypedDict, dataclass or NamedTuple: a closed object in field order."""
        properties = {f.name: self.member(f.type, f.description, f.default) for f in node.fields}
        schema = _object(properties, [f.name for f in node.fields if f.required], False)
        if node.description:
            schema["description"] = node.description
        return schema


def _keep_shape(node: ir.TypeNode, schema: Schema) -> None:
    try:
        copied = plain(schema)
    except ValueError:
        return  # not JSON (NaN): refused where the schema is handed out, in the words of that place
    _remember(node, copied)


def _remember(node: ir.TypeNode, schema: Schema | None) -> None:
    """Note ``node`` as met (``schema`` ``None``), or keep its schema."""
    if len(_KEPT_SHAPES) >= _KEPT_MAX:
        _KEPT_SHAPES.clear()
    _KEPT_SHAPES[id(node)] = (node, schema)


def _object(properties: Schema, required: list[str], extra: Schema | bool) -> Schema:
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = extra
    return schema


def _primitive(name: str) -> Schema:
    if name in patterns.PRIMITIVE_FORMATS:
        return {"type": "string", "format": patterns.PRIMITIVE_FORMATS[name]}
    if name in _PATTERNS:
        return {"type": "string", "pattern": _PATTERNS[name]}
    return {"type": _PLAIN_TYPES[name]}


def _enum(values: Sequence[ir.JsonScalar], description: str | None) -> Schema:
    groups = enum_groups(values)
    schema: Schema = {"type": groups[0][0]} if len(groups) == 1 else {}
    schema["enum"] = list(values)
    if description:
        schema["description"] = description
    return schema


def _tuple(positions: list[Schema]) -> Schema:
    """``prefixItems`` plus an ``items`` that admits every position's type.

    ``items`` is there because OpenAI rejects arrays without it even when not
    strict; with ``maxItems`` equal to the length it admits nothing extra. An
    empty tuple has no positions (``prefixItems`` may not be empty), so its
    ``items`` is a typed placeholder that ``maxItems: 0`` never lets through.
    """
    if not positions:
        return {"type": "array", "items": {"type": "null"}, "maxItems": 0}
    n = len(positions)
    return {
        "type": "array",
        "prefixItems": positions,
        "items": copy.deepcopy(tuple_items(positions)),
        "minItems": n,
        "maxItems": n,
    }


def _union(options: list[Schema]) -> Schema:
    branches: list[Schema] = []
    for option in options:
        # A nested union is flattened: A | (B | C) is one anyOf.
        branches.extend(option["anyOf"] if set(option) == {"anyOf"} else [option])
    unique = distinct(branches)
    return unique[0] if len(unique) == 1 else {"anyOf": unique}
