"""The schema cache file's two tables: each distinct schema and each description stored once.

A tool's nine rendered variants, its ``describe`` entry and its IR repeat
the same texts (the tool's description is in all eleven) and mostly the
same schemas: the variants of one tool differ in their envelopes and in a
few properties (a strict mode's nullable option, a bound moved into a
description). So the file stores (``pack``):

* ``texts``: every description, once per file, in the order first met;
* ``schemas``: every distinct property schema and every distinct whole
  schema (a variant's ``parameters``, ``input_schema``, ``inputSchema``,
  ``outputSchema``; ``describe``'s ``parameters``), once per file, each
  after every schema it refers to;

and the places that held them hold the entry's index instead, an integer:

* in a schema, at any place where a subschema goes (the value of ``items``,
  an element of ``anyOf``, the value of a ``properties`` name...): an index
  into ``schemas``. A schema is an object or a boolean, never a number, so
  an integer there can only be a reference; an original integer in such a
  place (possible only in a hand-made custom schema) is itself moved into
  the table, so the rule has no exception.
* in a schema, as the value of the keyword ``description``; in an envelope
  and in ``describe``, as ``description``; in the IR, as any record's
  ``description`` field: an index into ``texts``. Every description is
  moved, whatever its value, so again no exception.

Only keyword places are read: ``default``, ``enum``, ``const`` and
``examples`` hold data and are copied as they are. ``unpack`` is the exact
inverse, for content that may be anything: every index must be an integer
in range, a schema may refer only to schemas before it (so no cycle), and a
schema may expand to at most ``MAX_EXPANDED`` nodes and ``MAX_DEPTH``
levels, so a hostile file cannot make the loader's later walks explode.
Unpacked, a schema referred to from several places is one shared object:
what the cache serves is read-only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from toolcall._cache.constants import MAX_DEPTH, MalformedCacheError
from toolcall._cache.layout import compact
from toolcall._cache.variants import VARIANT_ENVELOPES
from toolcall._render.keywords import MANY, NAMED, ONE

__all__ = ["MAX_EXPANDED", "pack", "unpack"]

#: How many JSON nodes the schemas of one file may expand to in all (a real file is far below).
MAX_EXPANDED: Final = 8_000_000

_DESCRIPTION: Final = "description"
_DESCRIBED: Final = frozenset(("ir", "describe", "rendered"))  # the parts of an entry that hold indexes
_DESCRIBE_SCHEMAS: Final = frozenset(("parameters",))


class _Packer:
    """One file's tables, filled while its tools are packed."""

    def __init__(self) -> None:
        self.texts: dict[Any, int] = {}  # a description (a str, else its JSON text) -> its index
        self.text_values: list[Any] = []
        self.schemas: dict[str, int] = {}  # compact JSON text of a packed schema -> its index
        self.schema_values: list[Any] = []
        # id of a schema object packed already -> its index: the variants of a tool share objects.
        # The objects are kept alive in ``packed`` so that no id is reused while packing.
        self.by_id: dict[int, int] = {}
        self.packed: list[Any] = []

    def text(self, value: Any) -> int:
        key = value if type(value) is str else (compact(value),)
        index = self.texts.get(key)
        if index is None:
            index = self.texts[key] = len(self.text_values)
            self.text_values.append(value)
        return index

    def schema(self, schema: Any) -> int:
        """The index of ``schema`` (packed) in the table, added once."""
        index = self.by_id.get(id(schema))
        if index is not None:
            return index
        packed = self.node(schema) if type(schema) is dict else schema
        key = compact(packed)
        index = self.schemas.get(key)
        if index is None:
            index = self.schemas[key] = len(self.schema_values)
            self.schema_values.append(packed)
        if type(schema) is dict:
            self.by_id[id(schema)] = index
            self.packed.append(schema)
        return index

    def node(self, schema: dict[str, Any]) -> dict[str, Any]:
        """``schema`` with its descriptions and property schemas replaced by their indexes."""
        return _mapped(schema, self.text, self.child)

    def child(self, value: Any, keyword: str) -> Any:
        if type(value) is int or (keyword == "properties" and type(value) is dict):
            return self.schema(value)
        return self.node(value) if type(value) is dict else value

    def ir(self, value: Any) -> Any:
        """IR JSON with each record's ``description`` replaced by its index (IR JSON holds no user objects)."""
        if type(value) is list:
            return [self.ir(item) for item in value]
        if type(value) is not dict:
            return value
        return {key: self.text(item) if key == _DESCRIPTION else self.ir(item) for key, item in value.items()}

    def entry(self, entry: Any) -> Any:
        """A tool entry with its parts moved into the tables; a part not of the written shape is kept as it is."""
        if type(entry) is not dict or "refused" in entry or not entry.keys() >= _DESCRIBED:
            return entry
        rendered = entry["rendered"]
        if type(rendered) is dict:
            rendered = {key: _by_envelope(key, variant, self.named) for key, variant in rendered.items()}
        return entry | {
            "ir": self.ir(entry["ir"]),
            "describe": self.named(entry["describe"], _DESCRIBE_SCHEMAS),
            "rendered": rendered,
        }

    def named(self, named: Any, schemas: frozenset[str]) -> Any:
        if type(named) is not dict:
            return named
        return {
            key: self.text(value) if key == _DESCRIPTION else self.schema(value) if key in schemas else value
            for key, value in named.items()
        }


def pack(content: dict[str, Any]) -> dict[str, Any]:
    """A cache file's content (as ``cache_format.module_content`` gives it) with its two tables."""
    packer = _Packer()
    tools = [packer.entry(entry) for entry in content["tools"]]
    return content | {"tools": tools, "schemas": packer.schema_values, "texts": packer.text_values}


def _mapped(
    schema: dict[str, Any], description: Callable[[Any], Any], child: Callable[[Any, str], Any]
) -> dict[str, Any]:
    """``schema`` with ``description`` applied to its description and ``child`` to each subschema (with its keyword).

    The one walk of the schema keyword places that hold indexes, for ``pack`` and ``unpack`` alike.
    """
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == _DESCRIPTION:
            out[key] = description(value)
        elif key in ONE:
            out[key] = child(value, key)
        elif key in MANY and type(value) is list:
            out[key] = [child(item, key) for item in value]
        elif key in NAMED and type(value) is dict:
            out[key] = {name: child(item, key) for name, item in value.items()}
        else:
            out[key] = value
    return out


def _by_envelope(key: Any, variant: Any, named: Callable[[Any, frozenset[str]], Any]) -> Any:
    """``variant`` with ``named`` applied to the object that names the tool, as its envelope says; else as it is."""
    envelope = VARIANT_ENVELOPES.get(key) if type(key) is str else None
    if envelope is None or type(variant) is not dict or (len(variant) == 1 and "error" in variant):
        return variant
    if envelope.within is None:
        return named(variant, envelope.schemas)
    within = envelope.within
    return {name: named(value, envelope.schemas) if name == within else value for name, value in variant.items()}


class _Unpacker:
    """One file's tables, resolved from untrusted content."""

    def __init__(self, content: dict[str, Any]) -> None:
        self.texts = _table(content, "texts")
        self.schemas: list[Any] = []
        self.sizes: list[int] = []  # each entry's node count, its references expanded
        self.depths: list[int] = []  # each entry's depth in references
        self.expanded = 0
        for index, raw in enumerate(_table(content, "schemas")):
            self._size, self._depth = 1, 1  # of the entry being resolved, summed over what it refers to
            self.schemas.append(self.resolve(raw, index))
            self.sizes.append(self._size)
            self.depths.append(self._depth)

    def resolve(self, raw: Any, limit: int) -> Any:
        """Table entry ``limit`` (or a part of it) with its indexes replaced by what they name."""
        if type(raw) is not dict:
            return raw
        return _mapped(
            raw, lambda value: self.text(value, "a schema's description"), lambda value, _: self.child(value, limit)
        )

    def child(self, value: Any, limit: int) -> Any:
        if type(value) is not int:
            return self.resolve(value, limit)
        if not 0 <= value < limit:
            raise MalformedCacheError(f"schema {limit} refers to schema {value}, which does not come before it")
        self._size += self.sizes[value]
        self._depth = max(self._depth, self.depths[value] + 1)
        return self.schemas[value]

    def root(self, value: Any, what: str) -> Any:
        if type(value) is not int or not 0 <= value < len(self.schemas):
            raise MalformedCacheError(f"{what} is {_shown(value)}, not the index of a schema")
        self.expanded += self.sizes[value]
        if self.expanded > MAX_EXPANDED:
            raise MalformedCacheError(f"its schemas expand to more than {MAX_EXPANDED} nodes")
        return self.schemas[value]

    def text(self, value: Any, what: str) -> Any:
        if type(value) is not int or not 0 <= value < len(self.texts):
            raise MalformedCacheError(f"{what} is {_shown(value)}, not the index of a text")
        return self.texts[value]

    def ir(self, value: Any, what: str) -> Any:
        if type(value) is list:
            return [self.ir(item, what) for item in value]
        if type(value) is not dict:
            return value
        return {
            key: self.text(item, f"{what}: a description") if key == _DESCRIPTION else self.ir(item, what)
            for key, item in value.items()
        }

    def entry(self, raw: Any, where: str) -> Any:
        if type(raw) is not dict or "refused" in raw or not raw.keys() >= _DESCRIBED:
            return raw  # the shape check names what is wrong
        rendered = raw["rendered"]
        if type(rendered) is dict:
            rendered = {
                key: _by_envelope(key, variant, self.variant_named(where, key)) for key, variant in rendered.items()
            }
        return raw | {
            "ir": self.ir(raw["ir"], f"{where}: 'ir'"),
            "describe": self.named(raw["describe"], _DESCRIBE_SCHEMAS, f"{where}: 'describe'"),
            "rendered": rendered,
        }

    def variant_named(self, where: str, key: str) -> Callable[[Any, frozenset[str]], Any]:
        """``named`` for the variant ``key`` of the entry at ``where``."""
        return lambda named, schemas: self.named(named, schemas, f"{where}: rendered {key!r}")

    def named(self, named: Any, schemas: frozenset[str], what: str) -> Any:
        if type(named) is not dict:
            return named
        out: dict[str, Any] = {}
        for key, value in named.items():
            if key == _DESCRIPTION:
                out[key] = self.text(value, f"{what} {key!r}")
            elif key in schemas:
                out[key] = self.root(value, f"{what} {key!r}")
            else:
                out[key] = value
        return out


def unpack(content: dict[str, Any]) -> dict[str, Any]:
    """The content ``pack`` was given, from a file's parsed content; ``MalformedCacheError`` where it cannot be.

    The result has the layout ``toolcall._cache.shapes`` checks; anything
    beside the tables is passed on for that check to judge.
    """
    try:
        return _unpacked(content)
    except RecursionError:  # an inline part nested deeper than json.loads lets a program recurse
        raise MalformedCacheError("it is nested too deeply") from None


def _unpacked(content: dict[str, Any]) -> dict[str, Any]:
    unpacker = _Unpacker(content)
    if max(unpacker.depths, default=0) > MAX_DEPTH:
        raise MalformedCacheError(f"a schema nests deeper than {MAX_DEPTH} levels")
    tools = content.get("tools")
    out = {key: value for key, value in content.items() if key not in ("schemas", "texts")}
    if type(tools) is list:
        out["tools"] = [unpacker.entry(raw, f"tool entry {index}") for index, raw in enumerate(tools)]
    return out


def _table(content: dict[str, Any], key: str) -> list[Any]:
    table = content.get(key)
    if type(table) is not list:
        raise MalformedCacheError(f"the cache's {key!r} is {_shown(table)}, not an array")
    return table


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
