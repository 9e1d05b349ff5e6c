"""The intermediate representation (IR) of a tool.

Both front ends (runtime introspection in ``toolcall._introspect`` and the mypy
plugin in ``toolcall_mypy``) produce these frozen dataclasses; the renderers and
the dispatcher consume them. The IR is the schema cache's format too, so every
node round-trips losslessly through JSON (``to_json`` / ``from_json``).

Design rules:

* Nodes say what the Python side expects, not what a provider wants; the
  renderers decide the JSON Schema spelling.
* Classes and callables are named by reference (``"module:qualname"``), never
  held, so the IR can be written by mypy and read in production.
* JSON values that live inside nodes (defaults, custom schemas) are kept as
  canonical JSON text, so the nodes stay hashable and immutable.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Final, Literal, Union, cast

from toolcall._records import Record, record, set_field

__all__ = [
    "AnyType",
    "ArrayType",
    "Constrained",
    "Constraints",
    "CustomType",
    "Default",
    "NamedType",
    "EnumType",
    "Field",
    "JsonValue",
    "LiteralType",
    "MapType",
    "ObjectType",
    "Parameter",
    "ParameterKind",
    "Primitive",
    "PrimitiveName",
    "RefType",
    "SharedTypes",
    "Tool",
    "TupleType",
    "TypeNode",
    "UnionType",
    "ANY_NODE",
    "ENCODED_FIELDS",
    "NODE_CLASSES",
    "NO_DEFAULT",
    "canonical_json",
    "child_types",
    "decode_shared",
    "from_json",
    "replace_child_types",
    "to_json",
]


JsonValue = Union[None, bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"]]
JsonScalar = Union[None, bool, int, float, str]


def canonical_json(value: object) -> str:
    """Encode ``value`` as compact JSON with sorted keys (one spelling per value)."""
    return _CANONICAL_ENCODE(value)


#: ``json.dumps`` with these options, without making an encoder for each call (as ``json.dumps`` does).
_CANONICAL_ENCODE: Final = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
).encode


# The IR's version is ``toolcall._cache.constants.IR_VERSION``: bump it with any change to what this module
# encodes. It lives there, a leaf module, so the mypy plugin's warm runs can name it without importing the IR.

PrimitiveName = Literal[
    "str",
    "int",
    "float",
    "bool",
    "none",
    "datetime",
    "date",
    "time",
    "timedelta",
    "uuid",
    "ipv4",
    "ipv6",
    "decimal",
    "path",
    "string_integer",
]

PRIMITIVE_NAMES: frozenset[str] = frozenset(PrimitiveName.__args__)  # type: ignore[attr-defined]

#: The one table of classes that are primitives: each class's full name
#: (``module.qualname``, as mypy names it) and the primitive it becomes. Both
#: front ends read it: the mypy plugin by name, the runtime by the class the
#: name resolves to (exact classes only, no subclasses). ``None`` and
#: ``os.PathLike`` classes (``"path"``) are matched by rules of their own, and
#: ``"string_integer"`` comes from ``Param(wire=...)``. A new primitive adds its
#: row here, its name to ``PrimitiveName``, its coercer to ``toolcall._wire.scalars``
#: (and its reason code's text to ``toolcall.errors``) and its wire format to
#: ``toolcall._wire.patterns`` (docs/internal/architecture.md, "Adding a primitive type").
PRIMITIVE_CLASSES: dict[str, PrimitiveName] = {
    "builtins.str": "str",
    "builtins.int": "int",
    "builtins.float": "float",
    "builtins.bool": "bool",
    "datetime.datetime": "datetime",
    "datetime.date": "date",
    "datetime.time": "time",
    "datetime.timedelta": "timedelta",
    "uuid.UUID": "uuid",
    "ipaddress.IPv4Address": "ipv4",
    "ipaddress.IPv6Address": "ipv6",
    "decimal.Decimal": "decimal",
}


@record(frozen=True, slots=True)
class Primitive(Record):
    """A scalar the wire carries as one JSON value.

    ``name`` is the Python type the function receives (``"path"`` → ``Path``,
    ``"string_integer"`` → an ``int`` sent as a decimal string).
    """

    kind: ClassVar[str] = "primitive"
    name: PrimitiveName

    def __init__(self, name: PrimitiveName) -> None:
        set_field(self, "name", name)


@record(frozen=True, slots=True)
class AnyType(Record):
    """Any JSON value (``Any``, ``object``, an unbounded TypeVar, no annotation)."""

    kind: ClassVar[str] = "any"
    origin: Literal["any", "object", "typevar", "unannotated"] = "any"

    def __init__(self, origin: Literal["any", "object", "typevar", "unannotated"] = "any") -> None:
        set_field(self, "origin", origin)


@record(frozen=True, slots=True)
class LiteralType(Record):
    """``Literal[...]``: one of the listed JSON scalars, received as is."""

    kind: ClassVar[str] = "literal"
    values: tuple[JsonScalar, ...]

    def __init__(self, values: tuple[JsonScalar, ...]) -> None:
        set_field(self, "values", values)


@record(frozen=True, slots=True)
class EnumType(Record):
    """An ``Enum`` class: the wire carries a member's value, the function gets the member."""

    kind: ClassVar[str] = "enum"
    ref: str
    values: tuple[JsonScalar, ...]
    description: str | None = None

    def __init__(self, ref: str, values: tuple[JsonScalar, ...], description: str | None = None) -> None:
        set_field(self, "ref", ref)
        set_field(self, "values", values)
        set_field(self, "description", description)


@record(frozen=True, slots=True)
class ArrayType(Record):
    """A homogeneous JSON array restored as ``container``."""

    kind: ClassVar[str] = "array"
    items: TypeNode
    container: Literal["list", "tuple", "set", "frozenset"] = "list"

    def __init__(self, items: TypeNode, container: Literal["list", "tuple", "set", "frozenset"] = "list") -> None:
        set_field(self, "items", items)
        set_field(self, "container", container)


@record(frozen=True, slots=True)
class TupleType(Record):
    """A fixed-length tuple (``tuple[A, B]``), one type per position."""

    kind: ClassVar[str] = "tuple"
    items: tuple[TypeNode, ...]

    def __init__(self, items: tuple[TypeNode, ...]) -> None:
        set_field(self, "items", items)


@record(frozen=True, slots=True)
class MapType(Record):
    """An open object with string keys (``dict[str, V]``, ``Mapping[str, V]``)."""

    kind: ClassVar[str] = "map"
    values: TypeNode

    def __init__(self, values: TypeNode) -> None:
        set_field(self, "values", values)


@record(frozen=True, slots=True)
class Default(Record):
    """A default that JSON can carry, kept as canonical JSON text."""

    json: str

    def __init__(self, json: str) -> None:
        set_field(self, "json", json)

    @classmethod
    def of(cls, value: JsonValue) -> Default:
        """Wrap a JSON value."""
        return cls(canonical_json(value))

    @property
    def value(self) -> JsonValue:
        """The default as a fresh JSON value (a scalar, which nothing can change, is decoded once)."""
        value = _SCALARS.get(self.json, _NOT_KEPT)
        if value is _NOT_KEPT:
            value = json.loads(self.json)
            if type(value) is not dict and type(value) is not list:
                if len(_SCALARS) >= _SCALARS_MAX:
                    _SCALARS.clear()
                _SCALARS[self.json] = value
        return cast(JsonValue, value)


#: A default's JSON text → its value, for the scalars: each rendering of a tool places its defaults again.
_SCALARS: dict[str, object] = {}
_SCALARS_MAX: Final = 4096
_NOT_KEPT: Final = object()


@record(frozen=True, slots=True)
class Field(Record):
    """A field of a TypedDict, dataclass or NamedTuple."""

    name: str
    type: TypeNode
    required: bool = True
    default: Default | None = None
    description: str | None = None

    def __init__(
        self,
        name: str,
        type: TypeNode,
        required: bool = True,
        default: Default | None = None,
        description: str | None = None,
    ) -> None:
        set_field(self, "name", name)
        set_field(self, "type", type)
        set_field(self, "required", required)
        set_field(self, "default", default)
        set_field(self, "description", description)


@record(frozen=True, slots=True)
class ObjectType(Record):
    """A closed object restored as ``ref`` (a dict for TypedDicts, else an instance)."""

    kind: ClassVar[str] = "object"
    ref: str
    shape: Literal["typeddict", "dataclass", "namedtuple"]
    fields: tuple[Field, ...]
    description: str | None = None

    def __init__(
        self,
        ref: str,
        shape: Literal["typeddict", "dataclass", "namedtuple"],
        fields: tuple[Field, ...],
        description: str | None = None,
    ) -> None:
        set_field(self, "ref", ref)
        set_field(self, "shape", shape)
        set_field(self, "fields", fields)
        set_field(self, "description", description)


@record(frozen=True, slots=True)
class UnionType(Record):
    """``A | B | ...``; ``None`` appears as ``Primitive("none")`` among the options."""

    kind: ClassVar[str] = "union"
    options: tuple[TypeNode, ...]

    def __init__(self, options: tuple[TypeNode, ...]) -> None:
        set_field(self, "options", options)


@record(frozen=True, slots=True)
class RefType(Record):
    """A reference to ``Tool.defs[name]`` (only recursive types are referenced)."""

    kind: ClassVar[str] = "ref"
    name: str

    def __init__(self, name: str) -> None:
        set_field(self, "name", name)


@record(frozen=True, slots=True)
class CustomType(Record):
    """A type that describes itself (``__toolcall_schema__``) or a ``TypeProvider`` describes.

    ``schema`` is canonical JSON text. ``provider`` is the provider class
    reference, or ``None`` when the class itself (``ref``) carries the schema;
    ``coerce`` says whether a coercion hook exists.
    """

    kind: ClassVar[str] = "custom"
    ref: str
    schema: str
    provider: str | None = None
    coerce: bool = False
    args: tuple[str, ...] = ()

    def __init__(
        self, ref: str, schema: str, provider: str | None = None, coerce: bool = False, args: tuple[str, ...] = ()
    ) -> None:
        set_field(self, "ref", ref)
        set_field(self, "schema", schema)
        set_field(self, "provider", provider)
        set_field(self, "coerce", coerce)
        set_field(self, "args", args)

    @property
    def schema_value(self) -> dict[str, JsonValue]:
        """The schema as a fresh dict."""
        return cast("dict[str, JsonValue]", json.loads(self.schema))


@record(frozen=True, slots=True)
class Constraints(Record):
    """Bounds from ``Param`` or ``annotated_types``; ``None`` means unset."""

    ge: int | float | None = None
    le: int | float | None = None
    gt: int | float | None = None
    lt: int | float | None = None
    multiple_of: int | float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None

    def __init__(
        self,
        ge: int | float | None = None,
        le: int | float | None = None,
        gt: int | float | None = None,
        lt: int | float | None = None,
        multiple_of: int | float | None = None,
        min_length: int | None = None,
        max_length: int | None = None,
        pattern: str | None = None,
    ) -> None:
        set_field(self, "ge", ge)
        set_field(self, "le", le)
        set_field(self, "gt", gt)
        set_field(self, "lt", lt)
        set_field(self, "multiple_of", multiple_of)
        set_field(self, "min_length", min_length)
        set_field(self, "max_length", max_length)
        set_field(self, "pattern", pattern)

    def merged(self, other: Constraints) -> Constraints:
        """These constraints with ``other``'s set values on top."""
        changes = {
            f.name: getattr(other, f.name) for f in dataclasses.fields(other) if getattr(other, f.name) is not None
        }
        return dataclasses.replace(self, **changes)

    def is_empty(self) -> bool:
        """True when no constraint is set."""
        return all(getattr(self, f.name) is None for f in dataclasses.fields(self))


@record(frozen=True, slots=True)
class Constrained(Record):
    """``base`` with constraints the dispatcher enforces."""

    kind: ClassVar[str] = "constrained"
    base: TypeNode
    constraints: Constraints

    def __init__(self, base: TypeNode, constraints: Constraints) -> None:
        set_field(self, "base", base)
        set_field(self, "constraints", constraints)


TypeNode = Union[
    Primitive,
    AnyType,
    LiteralType,
    EnumType,
    ArrayType,
    TupleType,
    MapType,
    ObjectType,
    UnionType,
    RefType,
    CustomType,
    Constrained,
]

ParameterKind = Literal["positional_only", "positional_or_keyword", "keyword_only", "var_keyword"]


@record(frozen=True, slots=True)
class Parameter(Record):
    """One parameter of a tool function.

    ``required`` is false when the function has a default (``default`` holds
    it only when JSON can carry it). For ``var_keyword`` (``**kwargs: T``),
    ``type`` is ``T``. Injected parameters never reach a schema.
    """

    name: str
    kind: ParameterKind
    type: TypeNode
    required: bool = True
    default: Default | None = None
    description: str | None = None
    injected: bool = False

    def __init__(
        self,
        name: str,
        kind: ParameterKind,
        type: TypeNode,
        required: bool = True,
        default: Default | None = None,
        description: str | None = None,
        injected: bool = False,
    ) -> None:
        set_field(self, "name", name)
        set_field(self, "kind", kind)
        set_field(self, "type", type)
        set_field(self, "required", required)
        set_field(self, "default", default)
        set_field(self, "description", description)
        set_field(self, "injected", injected)


@record(frozen=True, slots=True)
class NamedType(Record):
    """A named (recursive) type, rendered under ``$defs``."""

    name: str
    type: TypeNode

    def __init__(self, name: str, type: TypeNode) -> None:
        set_field(self, "name", name)
        set_field(self, "type", type)


@record(frozen=True, slots=True)
class Tool(Record):
    """Everything the renderers and the dispatcher need to know about one tool.

    ``examples`` are the argument examples of its docstring that the
    dispatcher accepts, each a JSON object as compact text, keys in the order
    written.
    """

    name: str
    module: str
    qualname: str
    description: str
    parameters: tuple[Parameter, ...]
    defs: tuple[NamedType, ...] = ()
    returns: TypeNode | None = None
    providers: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()

    def __init__(
        self,
        name: str,
        module: str,
        qualname: str,
        description: str,
        parameters: tuple[Parameter, ...],
        defs: tuple[NamedType, ...] = (),
        returns: TypeNode | None = None,
        providers: tuple[str, ...] = (),
        examples: tuple[str, ...] = (),
    ) -> None:
        set_field(self, "name", name)
        set_field(self, "module", module)
        set_field(self, "qualname", qualname)
        set_field(self, "description", description)
        set_field(self, "parameters", parameters)
        set_field(self, "defs", defs)
        set_field(self, "returns", returns)
        set_field(self, "providers", providers)
        set_field(self, "examples", examples)

    def named_type(self, name: str) -> TypeNode:
        """The type behind ``RefType(name)``."""
        for d in self.defs:
            if d.name == name:
                return d.type
        raise KeyError(name)


def child_types(node: TypeNode) -> tuple[TypeNode, ...]:
    """The type nodes directly inside ``node``, in order (an object's: its fields' types)."""
    if isinstance(node, ArrayType):
        return (node.items,)
    if isinstance(node, MapType):
        return (node.values,)
    if isinstance(node, (TupleType,)):
        return node.items
    if isinstance(node, UnionType):
        return node.options
    if isinstance(node, Constrained):
        return (node.base,)
    if isinstance(node, ObjectType):
        return tuple(f.type for f in node.fields)
    return ()


def replace_child_types(node: TypeNode, change: Callable[[TypeNode], TypeNode]) -> TypeNode:
    """``node`` with each type node directly inside it replaced by ``change(child)``; everything else kept.

    ``node`` itself when ``change`` gives back every child as it was: a node
    stays the one object other tools and the renderer know it by.
    """
    children = child_types(node)
    changed = tuple(change(child) for child in children)
    if all(new is old for new, old in zip(changed, children, strict=True)):
        return node
    if isinstance(node, ArrayType):
        return dataclasses.replace(node, items=changed[0])
    if isinstance(node, MapType):
        return dataclasses.replace(node, values=changed[0])
    if isinstance(node, TupleType):
        return dataclasses.replace(node, items=changed)
    if isinstance(node, UnionType):
        return dataclasses.replace(node, options=changed)
    if isinstance(node, Constrained):
        return dataclasses.replace(node, base=changed[0])
    if isinstance(node, ObjectType):
        fields = tuple(dataclasses.replace(f, type=t) for f, t in zip(node.fields, changed, strict=True))
        return dataclasses.replace(node, fields=fields)
    return node


_NODE_CLASSES: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        Primitive,
        AnyType,
        LiteralType,
        EnumType,
        ArrayType,
        TupleType,
        MapType,
        ObjectType,
        UnionType,
        RefType,
        CustomType,
        Constrained,
    )
}
_RECORD_CLASSES: dict[str, type[Any]] = {
    cls.__name__: cls for cls in (Default, Field, Constraints, Parameter, NamedType, Tool)
}


def to_json(value: Any, shared: SharedTypes | None = None) -> Any:
    """Encode an IR object (a ``Tool``, a node, ...) as compact JSON data.

    A record is the array of its fields in encoding order (``_ENCODING``;
    declaration order where it says nothing), with the trailing ones that
    hold their encoding defaults left out; a type node is the same array
    after its ``kind`` (``["array", "str"]``), a ``Primitive`` only its name
    (``"str"``), a ``Default`` only its JSON text. The positions say what
    each value is, so a cache file holds no key names (most of its bytes
    were), and decoding calls each class with its fields by name.

    With ``shared``, each class node (``ObjectType``, ``EnumType``), and
    each other node made of nodes or values that ``shared`` counted more
    than once, is written as its position in ``shared``, where it is
    encoded once.
    """
    cls = type(value)
    if cls is Primitive:
        return value.name
    if cls is Default:
        return value.json
    layout = _LAYOUTS.get(cls) or _layout(cls)
    if layout is not None:
        return _record_json(value, layout, shared)
    if cls is tuple:
        return [to_json(v, shared) for v in value]
    return value


class SharedTypes:
    """The type nodes that the tools of one cache file share, each encoded once, in order of first use.

    A module's tools use the same TypedDicts, dataclasses and Enums over and
    over, and often the same ``list[str]`` or ``Literal[...]``;
    ``to_json(tool, shared)`` writes each class, and each other node made of
    nodes or values that the file would hold more than once (``counted``), as
    its position here, the nodes inside it first, so a position only ever
    names an earlier item. A node the file holds once stays in place: a
    position and a line of its own would only make the file bigger.
    ``items`` is what the file holds; ``decode_shared`` reads it back, once
    per file, so the tools that share a node get one node object (whose
    schema the renderer keeps).
    """

    __slots__ = ("_counting", "_counts", "_keys", "_log", "_positions", "items")

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._positions: dict[str, int] = {}
        self._counting = False
        self._keys: dict[int, str] = {}  # id(node) → its encoding, for the nodes counted
        self._counts: dict[str, int] = {}  # an encoding → how often the file holds it
        self._log: list[str] = []  # the encodings counted, in order, to take back a repeat's inside

    @classmethod
    def counted(cls, tools: Iterable[Tool]) -> SharedTypes:
        """A ``SharedTypes`` for the file of ``tools`` (which it then encodes), knowing what the file repeats.

        The inside of a node met again is not counted again: the file holds
        it once, with the node.
        """
        shared = cls()
        shared._counting = True
        for tool in tools:
            to_json(tool, shared)
        shared._counting, shared._log = False, []
        return shared

    def place(self, node: Any, kind: str, fields: Callable[[], list[Any]]) -> Any:
        """How ``node`` of ``kind`` is written: its position here, or in place as ``[kind, *fields()]``."""
        if self._counting:
            return self._count(node, kind, fields)
        encoded = [kind, *fields()]
        if kind in _CLASS_KINDS or self._counts.get(self._keys.get(id(node), ""), 0) > 1:
            return self.position(encoded)
        return encoded

    def _count(self, node: Any, kind: str, fields: Callable[[], list[Any]]) -> list[Any]:
        start = len(self._log)
        encoded = [kind, *fields()]
        key = _encoding_key(encoded)
        if key in self._counts:  # met before: the file holds its inside once, with its first use
            for inside in self._log[start:]:
                self._counts[inside] -= 1
            del self._log[start:]
        self._keys[id(node)] = key
        self._counts[key] = self._counts.get(key, 0) + 1
        self._log.append(key)
        return encoded

    def position(self, encoded: list[Any]) -> int:
        """The position of a node's encoding, added if it is new."""
        key = _encoding_key(encoded)
        at = self._positions.get(key)
        if at is None:
            at = self._positions[key] = len(self.items)
            self.items.append(encoded)
        return at


def _encoding_key(encoded: list[Any]) -> str:
    # Keyed by the encoding, not the node: 1, 1.0 and True are equal in Python, not in JSON.
    return json.dumps(encoded, ensure_ascii=False, separators=(",", ":"))


#: The node kinds ``SharedTypes`` always holds: classes, which a module's tools share by design.
_CLASS_KINDS: Final = frozenset(("object", "enum"))
#: The node kinds it may hold: those made of other nodes or of values. A primitive is its name, no longer
#: than a position; a reference and a custom type stay in place.
_SHARED_KINDS: Final = frozenset(("object", "enum", "literal", "array", "tuple", "map", "union", "constrained"))


#: Per record class: its ``kind`` (or ``None``) and each field's name and encoding default (or ``MISSING``).
_Layout = tuple[Union[str, None], tuple[tuple[str, Any], ...]]
_LAYOUTS: dict[type[Any], _Layout] = {}

_REQUIRED: Final[Any] = dataclasses.MISSING
#: Where the encoding order is not the declaration order: the fields most often at their defaults go last,
#: so that they drop out (a required, positional-or-keyword parameter is its name, type and description).
#: A ``Tool``'s module is left out when empty: a cache file holds it once, for all its tools.
_ENCODING: Final[dict[str, tuple[tuple[str, Any], ...]]] = {
    "Field": (("name", _REQUIRED), ("type", _REQUIRED), ("description", None), ("required", True), ("default", None)),
    "Parameter": (
        ("name", _REQUIRED),
        ("type", _REQUIRED),
        ("description", None),
        ("kind", "positional_or_keyword"),
        ("required", True),
        ("default", None),
        ("injected", False),
    ),
    "Tool": (
        ("name", _REQUIRED),
        ("qualname", _REQUIRED),
        ("description", _REQUIRED),
        ("parameters", _REQUIRED),
        ("defs", ()),
        ("returns", None),
        ("providers", ()),
        ("examples", ()),
        ("module", ""),
    ),
}


def _layout(cls: type[Any]) -> _Layout | None:
    if not dataclasses.is_dataclass(cls):
        return None
    kind = getattr(cls, "kind", None)
    fields = _ENCODING.get(cls.__name__) or tuple((f.name, f.default) for f in dataclasses.fields(cls))
    layout = _LAYOUTS[cls] = (kind if isinstance(kind, str) else None, fields)
    return layout


def _record_json(value: Any, layout: _Layout, shared: SharedTypes | None) -> Any:
    kind, fields = layout
    items = [getattr(value, name) for name, _ in fields]
    while items:
        default = fields[len(items) - 1][1]
        last = items[-1]
        if default is _REQUIRED or type(last) is not type(default) or last != default:
            break
        items.pop()
    if shared is not None and kind in _SHARED_KINDS:
        return shared.place(value, kind, lambda: [to_json(item, shared) for item in items])
    out = [to_json(item, shared) for item in items]
    return out if kind is None else [kind, *out]


def from_json(data: Any, record: type[Any] = Tool, shared: tuple[Any, ...] = ()) -> Any:
    """Decode what ``to_json`` produced; ``record`` is the expected class at the root.

    ``ValueError`` where ``data`` is not of that encoding; the values of the
    fields are not checked here (the cache loader checks them all).
    """
    return _decode(data, record, shared)


def decode_shared(items: Any) -> tuple[TypeNode, ...]:
    """The nodes of a ``SharedTypes``' ``items``: each may name only items before it.

    ``ValueError`` where an item is not the encoding of a node of a kind shared. What the
    nodes add up to once expanded is the reader's to bound (a forged file
    can name one item many times).
    """
    if type(items) is not list:
        raise ValueError(f"cannot decode {_short(items)} as shared types")
    decoded: list[Any] = []
    for item in items:
        if type(item) is not list or not item or item[0] not in _SHARED_KINDS:
            raise ValueError(f"cannot decode {_short(item)} as a shared type")
        decoded.append(_decode(item, _AnyNode, tuple(decoded)))
    return tuple(decoded)


def _decode(data: Any, cls: type[Any], shared: tuple[Any, ...]) -> Any:
    if cls is _AnyNode:
        if type(data) is int:
            if not 0 <= data < len(shared):
                raise ValueError(f"cannot decode {data} as a shared type: there are {len(shared)} before it")
            return shared[data]
        if type(data) is str:
            return Primitive(data)  # type: ignore[arg-type]  # the name is checked with the other fields
        if type(data) is not list or not data or type(data[0]) is not str or data[0] not in _NODE_CLASSES:
            raise ValueError(f"cannot decode {_short(data)} as a type node")
        cls, data = _NODE_CLASSES[data[0]], data[1:]
    elif cls is Default and type(data) is str:
        return Default(data)
    specs = _FIELD_SPECS[cls]
    if type(data) is not list or len(data) > len(specs):
        raise ValueError(f"cannot decode {_short(data)} as {cls.__name__}")
    values = {name: _decode_field(item, spec, shared) for item, (name, spec, _) in zip(data, specs, strict=False)}
    for name, _, default in specs[len(data) :]:
        if default is not _REQUIRED:
            values[name] = default
    try:
        return cls(**values)
    except TypeError as exc:  # a required field is missing
        raise ValueError(f"cannot decode {_short(data)} as {cls.__name__}: {exc}") from None


def _short(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 80 else text[:77] + "..."


class _AnyNode:
    """Marker: the field holds any type node (dispatched on ``kind``)."""


def _decode_field(data: Any, spec: tuple[str, type[Any]] | None, shared: tuple[Any, ...]) -> Any:
    if spec is None:
        return tuple(data) if type(data) is list else data
    shape, cls = spec
    if shape == "one":
        return None if data is None else _decode(data, cls, shared)
    if type(data) is not list:
        raise ValueError(f"cannot decode {_short(data)} as a list of {cls.__name__}")
    return tuple(_decode(item, cls, shared) for item in data)


# Which fields hold nested IR objects: ("one", class) or ("many", class).
_FIELD_TYPES: dict[str, dict[str, tuple[str, type[Any]]]] = {
    "Primitive": {},
    "AnyType": {},
    "LiteralType": {},
    "EnumType": {},
    "ArrayType": {"items": ("one", _AnyNode)},
    "TupleType": {"items": ("many", _AnyNode)},
    "MapType": {"values": ("one", _AnyNode)},
    "ObjectType": {"fields": ("many", Field)},
    "UnionType": {"options": ("many", _AnyNode)},
    "RefType": {},
    "CustomType": {},
    "Constrained": {"base": ("one", _AnyNode), "constraints": ("one", Constraints)},
    "Default": {},
    "Field": {"type": ("one", _AnyNode), "default": ("one", Default)},
    "Constraints": {},
    "Parameter": {"type": ("one", _AnyNode), "default": ("one", Default)},
    "NamedType": {"type": ("one", _AnyNode)},
    "Tool": {
        "parameters": ("many", Parameter),
        "defs": ("many", NamedType),
        "returns": ("one", _AnyNode),
    },
}

#: Per record class, in encoding order, each field's name, nested IR spec (or ``None``) and encoding default:
#: what ``_decode`` reads.
_FIELD_SPECS: dict[type[Any], tuple[tuple[str, tuple[str, type[Any]] | None, Any], ...]] = {
    cls: tuple(
        (name, _FIELD_TYPES[cls.__name__].get(name), default) for name, default in (_layout(cls) or (None, ()))[1]
    )
    for cls in (*_NODE_CLASSES.values(), *_RECORD_CLASSES.values())
}

#: What ``from_json`` reads, for a reader that decodes and checks at once (the cache's): per record class,
#: in encoding order, each field's name, what it nests (``("one" | "many", class)``, ``ANY_NODE`` as the
#: class for any type node, ``None`` for a plain value) and its encoding default (``NO_DEFAULT``: required).
ENCODED_FIELDS: Final = _FIELD_SPECS
#: The type node classes by ``kind``.
NODE_CLASSES: Final = _NODE_CLASSES
ANY_NODE: Final = _AnyNode
NO_DEFAULT: Final[Any] = _REQUIRED
