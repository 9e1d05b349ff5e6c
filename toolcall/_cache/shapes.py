"""The shape check of a schema cache file's content, before anything in it is served.

The content is checked as it is parsed, in the layout ``CACHE_FORMAT`` names.

A cache file is written by the mypy plugin, but what the runtime reads may
be anything: a file cut short and mended by hand, a merge gone wrong, a
newer or older writer's layout under the right header. Whatever is served
from it goes to the caller (``emit``, ``describe``) or drives the
dispatcher (the IR), so a wrong shape there would surface later, far from
its cause, as an ``AttributeError`` in ``emit`` or junk in a provider
request. Hence every part of the content is checked here, once, on the
module's first use (a corrupt cache is never served and never crashes):

* the top level has exactly its keys: ``checked`` (an object, the plugin's
  own business), ``content_sha256`` (32 lowercase hex digits), ``format``
  and ``ir`` (integers, not booleans: the loader compares their values),
  ``module`` (the module being loaded), ``sources``, ``tools`` and ``types``;
* ``sources`` maps dotted module names, sorted, to ``[sha256, tokens, file]``
  (the digests, and where the plugin finds the file);
* a tool entry is either described (``sources``, ``ir``, and ``findings``
  where it has any) or refused (``name``, ``qualname``, ``fingerprint``,
  ``refused``), with exactly those keys and unique qualnames; its
  ``sources`` are indexes into the ``sources`` table, sorted, once each, the
  module itself among them;
* ``findings`` is a non-empty array of ``[code, parameter, path, message]``:
  a code introspection warns (``toolcall-param``, ``toolcall-type``,
  ``toolcall-default``, ``toolcall-example``), ``null`` or the name of one of the tool's
  parameters, an array of strings and integers, and any string;
* ``types`` decodes with ``ir.decode_shared`` into classes, each checked
  once, and what each expands to is counted from the counts of the classes
  it names: a file whose tools expand to more than ``MAX_EXPANDED_NODES``
  type nodes or ``MAX_TYPE_DEPTH`` levels is refused before anything walks
  the expansion;
* ``ir`` decodes with ``ir.from_json`` into a tool naming no module (it is
  the file's, ``file_format.entry_ir``), and every field of every decoded
  node has the type its class declares, every ``RefType`` (its shared
  classes' too) names one of the tool's named types, every default and
  custom schema is JSON;
* every JSON value (the IR, a default, a custom schema) is JSON all the way
  down: objects with string keys, arrays, strings, finite numbers, booleans,
  null, nested at most ``MAX_DEPTH`` levels. The walk is iterative, so no
  content can overflow the stack.

An entry's ``ir`` is first read in one pass that decodes and checks it at
once (``_one_pass``); it only vouches for what passes every check above, and
gives any other entry to the steps (decode, check each field, count the
expansion), which say what is wrong.

Failures raise ``MalformedCacheError`` with a one-line reason naming the entry and
the key; nothing else escapes (an unexpected error while checking, which
only values built in Python rather than parsed from JSON can cause, is
reported as a ``MalformedCacheError`` too).
"""

from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from toolcall import _ir as ir
from toolcall._cache.constants import DIGEST_HEX, MAX_DEPTH, MalformedCacheError
from toolcall._findings import DEFAULT, EXAMPLE, PARAM, TYPE, Finding, FindingCode
from toolcall._records import Record, record, set_field

__all__ = [
    "CachedEntry",
    "SourceRecord",
    "check_entries",
    "check_sources",
]

#: How deep any JSON value in the content may nest (the renderers stay far below it).

_SHOWN_CHARS: Final = 40
_HEX_DIGITS: Final = "0123456789abcdef"
_JSON_SCALARS: Final = frozenset((str, int, bool, type(None)))
_LITERAL_KINDS: Final = _JSON_SCALARS | {float}

_HEAD_KEYS: Final = frozenset(("checked", "content_sha256", "format", "ir", "module", "sources", "tools", "types"))
#: The most type nodes a file's tools may add up to with their shared types expanded. A file written out
#: in full within the size limit holds fewer (each node takes more than 16 bytes); a forged file that names
#: one shared type many times over, at many levels, could otherwise ask for more than any machine has.
MAX_EXPANDED_NODES: Final = 4_000_000
#: How deep types may nest once shared types are expanded: no deeper than an entry written out in full
#: can (one JSON level a node at least), so the renderers and the dispatcher meet nothing new.
MAX_TYPE_DEPTH: Final = MAX_DEPTH
_DESCRIBED_KEYS: Final = frozenset(("sources", "ir"))
_DESCRIBED_WITH_FINDINGS: Final = _DESCRIBED_KEYS | {"findings"}
#: The codes of the findings introspection warns (a rendering's ``toolcall-strict`` is the renderer's).
_WARNED_CODES: Final[dict[object, FindingCode]] = {code: code for code in (PARAM, TYPE, DEFAULT, EXAMPLE)}
_REFUSED_KEYS: Final = frozenset(("name", "qualname", "fingerprint", "refused"))

_T = TypeVar("_T")


@record(frozen=True, slots=True)
class SourceRecord(Record):
    """A source module's digests: of its bytes, and of its tokens (``None`` where not recorded)."""

    sha256: str
    tokens: str | None

    def __init__(self, sha256: str, tokens: str | None) -> None:
        set_field(self, "sha256", sha256)
        set_field(self, "tokens", tokens)


@record(frozen=True, slots=True)
class CachedEntry(Record):
    """One checked tool entry, in the order of the file.

    ``tool`` is the decoded IR, whose parameters give the signature shape
    (``fingerprint`` is ``None``); ``findings`` are what introspecting the
    tool warns, in order. A refused entry has only its names, its
    fingerprint and the plugin's ``refused`` message: ``sources`` is empty,
    ``tool`` is ``None``.
    """

    name: str
    qualname: str
    fingerprint: str | None
    sources: tuple[str, ...]
    tool: ir.Tool | None
    refused: str | None
    findings: tuple[Finding, ...] = ()

    def __init__(
        self,
        name: str,
        qualname: str,
        fingerprint: str | None,
        sources: tuple[str, ...],
        tool: ir.Tool | None,
        refused: str | None,
        findings: tuple[Finding, ...] = (),
    ) -> None:
        set_field(self, "name", name)
        set_field(self, "qualname", qualname)
        set_field(self, "fingerprint", fingerprint)
        set_field(self, "sources", sources)
        set_field(self, "tool", tool)
        set_field(self, "refused", refused)
        set_field(self, "findings", findings)


def check_sources(content: dict[str, Any]) -> dict[str, SourceRecord]:
    """The checked top-level ``sources`` table of a cache's content; ``MalformedCacheError`` if it is malformed."""
    return _guarded(_sources, content)


def check_entries(content: dict[str, Any], module: str, sources: Mapping[str, SourceRecord]) -> tuple[CachedEntry, ...]:
    """Every tool entry of a cache's content for ``module``, checked, in order; ``MalformedCacheError`` otherwise.

    The top level is checked too (its keys, their types, that it belongs to
    ``module``); ``sources`` is what ``check_sources`` gave for the content.
    """
    return _guarded(lambda c: _entries(c, module, sources), content)


def _guarded(check: Callable[[Any], _T], content: Any) -> _T:
    try:
        return check(content)
    except MalformedCacheError:
        raise
    except Exception as exc:  # only values built in Python (not parsed) get here: a key whose __eq__ fails...
        raise MalformedCacheError(f"the cache could not be checked ({_exception(exc)})") from exc


def _sources(content: Any) -> dict[str, SourceRecord]:
    table = _member(content, "sources", "the cache")
    if type(table) is not dict or not table:
        raise MalformedCacheError(f"the cache's 'sources' is {_show(table)}, not a non-empty object")
    if list(table) != sorted(table):  # entries name its modules by position
        raise MalformedCacheError("the cache's 'sources' is not sorted by module name")
    records: dict[str, SourceRecord] = {}
    for name, digests in table.items():
        where = f"the cache's source {_show(name)}"
        if type(name) is not str or name.split() != [name]:  # empty, or with whitespace
            raise MalformedCacheError(f"{where} is not a dotted module name")
        if type(digests) is not list or len(digests) != 3:
            raise MalformedCacheError(f"{where} is {_show(digests)}, not [sha256, tokens, file]")
        sha256, tokens, file = digests
        if file is not None and type(file) is not str:  # the plugin's business, but still of its type
            raise MalformedCacheError(f"{where}: its file is {_show(file)}, not a path")
        records[name] = SourceRecord(
            _hex(sha256, DIGEST_HEX, f"{where}: its byte digest"),
            None if tokens is None else _hex(tokens, DIGEST_HEX, f"{where}: its token digest"),
        )
    return records


def _entries(content: Any, module: str, sources: Mapping[str, SourceRecord]) -> tuple[CachedEntry, ...]:
    _head(content, module)
    shared = _shared_types(content["types"])
    entries: list[CachedEntry] = []
    seen: set[str] = set()
    expanded = 0
    for index, raw in enumerate(content["tools"]):
        entry, nodes = _entry(raw, _label(index, raw), module, sources, shared)
        expanded += nodes
        if expanded > MAX_EXPANDED_NODES:
            raise MalformedCacheError(f"the cache's tools expand to over {MAX_EXPANDED_NODES} type nodes")
        if entry.qualname in seen:
            raise MalformedCacheError(f"{_label(index, raw)}: qualname {_show(entry.qualname)} has an entry already")
        seen.add(entry.qualname)
        entries.append(entry)
    return tuple(entries)


def _head(content: Any, module: str) -> None:
    if type(content) is not dict:
        raise MalformedCacheError(f"the cache is {_show(content)}, not an object")
    _exact_keys(content, _HEAD_KEYS, "the cache")
    _typed(content, "checked", dict, "the cache")
    _hex(content["content_sha256"], DIGEST_HEX, "the cache's 'content_sha256'")
    _typed(content, "format", int, "the cache")
    _typed(content, "ir", int, "the cache")
    if _typed(content, "module", str, "the cache") != module:
        raise MalformedCacheError(f"the cache belongs to module {_show(content['module'])}, not {_show(module)}")
    _typed(content, "tools", list, "the cache")
    _typed(content, "types", list, "the cache")


@record(frozen=True, slots=True)
class _Expansion(Record):
    """What a type node adds up to with the shared types it names expanded: nodes, nesting, named types used."""

    nodes: int
    depth: int
    refs: frozenset[str]

    def __init__(self, nodes: int, depth: int, refs: frozenset[str]) -> None:
        set_field(self, "nodes", nodes)
        set_field(self, "depth", depth)
        set_field(self, "refs", refs)


#: A decoded shared type (by identity: the decoder hands out the one object) -> its expansion.
_Shared = dict[int, tuple[ir.TypeNode, _Expansion]]


@record(frozen=True, slots=True)
class _SharedTypes(Record):
    """A file's decoded shared types, in file order (what an entry's IR names by position), and their expansions."""

    nodes: tuple[ir.TypeNode, ...]
    expansions: _Shared

    def __init__(self, nodes: tuple[ir.TypeNode, ...], expansions: _Shared) -> None:
        set_field(self, "nodes", nodes)
        set_field(self, "expansions", expansions)


def _shared_types(items: list[Any]) -> _SharedTypes:
    """The file's shared types, each checked once, with what each expands to."""
    for index, item in enumerate(items):
        _json(item, f"the cache's shared type {index}")  # bounds the depth before decode_shared recurses
    try:
        nodes = ir.decode_shared(items)
    except Exception as exc:
        raise MalformedCacheError(f"the cache's 'types' does not decode ({_exception(exc)})") from None
    shared: _Shared = {}
    for index, node in enumerate(nodes):
        what = f"the cache's shared type {index}"
        _ir_fields(node, what, shared)
        shared[id(node)] = (node, _expansion((node,), shared, what, root=node))
    return _SharedTypes(nodes, shared)


def _expansion(
    roots: tuple[ir.TypeNode, ...], shared: _Shared, what: str, root: ir.TypeNode | None = None
) -> _Expansion:
    """What ``roots`` expand to, each shared type (but ``root``) counted from its own expansion (iteratively)."""
    nodes = depth = 0
    refs: set[str] = set()
    stack = [(node, 1) for node in roots]
    while stack:
        node, level = stack.pop()
        known = shared.get(id(node)) if node is not root else None
        if known is not None and known[0] is node:
            nodes, depth = nodes + known[1].nodes, max(depth, level - 1 + known[1].depth)
            refs |= known[1].refs
            continue
        nodes, depth = nodes + 1, max(depth, level)
        if type(node) is ir.RefType:
            refs.add(node.name)
        stack.extend((child, level + 1) for child in ir.child_types(node))
    if depth > MAX_TYPE_DEPTH or nodes > MAX_EXPANDED_NODES:
        raise MalformedCacheError(f"{what} expands to types nested {depth} deep, {nodes} nodes: too many")
    return _Expansion(nodes, depth, frozenset(refs))


def _tool_expansion(tool: ir.Tool, shared: _Shared, what: str) -> _Expansion:
    """What a tool's types expand to: its parameters', its named types' and its return type's."""
    roots = (*(p.type for p in tool.parameters), *(d.type for d in tool.defs))
    return _expansion(roots if tool.returns is None else (*roots, tool.returns), shared, what)


def _label(index: int, raw: Any) -> str:
    if type(raw) is dict:
        tool = raw.get("ir")
        if type(tool) is list and len(tool) > 1 and type(tool[1]) is str:  # the IR's qualname
            return f"tool entry {index} ({_show(tool[1])})"
        for key in ("qualname", "name"):
            if type(raw.get(key)) is str:
                return f"tool entry {index} ({_show(raw[key])})"
    return f"tool entry {index}"


def _entry(
    raw: Any, where: str, module: str, sources: Mapping[str, SourceRecord], shared: _SharedTypes
) -> tuple[CachedEntry, int]:
    """One entry, checked, and how many type nodes its tool expands to."""
    if type(raw) is not dict:
        raise MalformedCacheError(f"{where} is {_show(raw)}, not an object")
    if "refused" in raw:
        _exact_keys(raw, _REFUSED_KEYS, where)
        name = _typed(raw, "name", str, where)
        qualname = _typed(raw, "qualname", str, where)
        fingerprint = _hex(raw["fingerprint"], 32, f"{where}: 'fingerprint'")
        return CachedEntry(name, qualname, fingerprint, (), None, _typed(raw, "refused", str, where)), 0
    _exact_keys(raw, _DESCRIBED_WITH_FINDINGS if "findings" in raw else _DESCRIBED_KEYS, where)
    tool, nodes = _tool(raw["ir"], f"{where}: 'ir'", module, shared)
    entry_sources = _entry_sources(raw["sources"], where, module, sources)
    findings = _findings(raw["findings"], where, tool) if "findings" in raw else ()
    return CachedEntry(tool.name, tool.qualname, None, entry_sources, tool, None, findings), nodes


def _findings(raw_findings: Any, where: str, tool: ir.Tool) -> tuple[Finding, ...]:
    """An entry's ``findings`` (``file_format.entry_findings``), as the tool's; never empty (the key is left out)."""
    if type(raw_findings) is not list or not raw_findings:
        raise MalformedCacheError(f"{where}: 'findings' is {_show(raw_findings)}, not a non-empty array")
    parameters = {parameter.name for parameter in tool.parameters}
    found = []
    for index, item in enumerate(raw_findings):
        what = f"{where}: finding {index}"
        if type(item) is not list or len(item) != 4:
            raise MalformedCacheError(f"{what} is {_show(item)}, not [code, parameter, path, message]")
        code, parameter, path, message = item
        if type(code) is not str or code not in _WARNED_CODES:
            raise MalformedCacheError(f"{what}: its code is {_show(code)}, not one introspection warns")
        if parameter is not None and (type(parameter) is not str or parameter not in parameters):
            raise MalformedCacheError(f"{what}: {_show(parameter)} is not a parameter of the tool")
        if type(path) is not list or any(type(step) is not str and type(step) is not int for step in path):
            raise MalformedCacheError(f"{what}: its path is {_show(path)}, not an array of names and indexes")
        if type(message) is not str:
            raise MalformedCacheError(f"{what}: its message is {_show(message)}, not a string")
        found.append(Finding(_WARNED_CODES[code], message, tool.name, parameter, tuple(path)))
    return tuple(found)


def _entry_sources(raw_sources: Any, where: str, module: str, sources: Mapping[str, SourceRecord]) -> tuple[str, ...]:
    """The module names of an entry's ``sources``: indexes into the sorted table, sorted, once each."""
    names = list(sources)
    if type(raw_sources) is not list or not raw_sources:
        raise MalformedCacheError(f"{where}: 'sources' is {_show(raw_sources)}, not a non-empty array")
    for item in raw_sources:
        if type(item) is not int or not 0 <= item < len(names):
            raise MalformedCacheError(
                f"{where}: 'sources' holds {_show(item)}, not an index into the cache's 'sources'"
            )
    if sorted(set(raw_sources)) != raw_sources:
        raise MalformedCacheError(f"{where}: 'sources' is not sorted, each module once")
    found = tuple(names[item] for item in raw_sources)
    if module not in found:
        raise MalformedCacheError(f"{where}: 'sources' leaves out the module itself ({_show(module)})")
    return found


def _json(value: Any, what: str) -> None:
    """Check that ``value`` is JSON all the way down, nested at most ``MAX_DEPTH`` levels (iteratively)."""
    level: list[Any] = [[value]]
    for _ in range(MAX_DEPTH + 1):
        below: list[Any] = []
        push = below.append
        for node in level:
            if type(node) is dict:
                for key in node:
                    if type(key) is not str:
                        raise MalformedCacheError(f"{what} holds an object key {_show(key)}, not a string")
                node = node.values()
            for item in node:
                kind = type(item)
                if kind in _JSON_SCALARS:
                    continue
                if kind is dict or kind is list:
                    push(item)
                elif kind is not float:
                    raise MalformedCacheError(f"{what} holds {_show(item)}, not a JSON value")
                elif not math.isfinite(item):
                    raise MalformedCacheError(f"{what} holds {item!r}, which JSON cannot carry")
        if not below:
            return
        level = below
    raise MalformedCacheError(f"{what} nests deeper than {MAX_DEPTH} levels")


def _tool(data: Any, what: str, module: str, shared: _SharedTypes) -> tuple[ir.Tool, int]:
    """The decoded, checked tool of an entry's ``ir``, and how many type nodes it expands to."""
    _json(data, what)  # bounds the depth before from_json recurses into it
    vouched = _one_pass(data, module, shared)
    if vouched is not None:
        return vouched
    try:
        tool = ir.from_json(data, ir.Tool, shared.nodes)
    except Exception as exc:
        raise MalformedCacheError(f"{what} does not decode ({_exception(exc)})") from None
    if type(tool) is not ir.Tool:
        raise MalformedCacheError(f"{what} decodes to {_show(tool)}, not a tool")
    _ir_fields(tool, what, shared.expansions)
    expansion = _tool_expansion(tool, shared.expansions, what)
    for ref in sorted(expansion.refs - {d.name for d in tool.defs}):
        raise MalformedCacheError(f"{what}: a reference to {_show(ref)}, which the tool does not define")
    if tool.module != "":
        raise MalformedCacheError(f"{what} names a module ({_show(tool.module)}): an entry's IR leaves it to the file")
    return dataclasses.replace(tool, module=module), expansion.nodes


def _ir_fields(root: Any, what: str, shared: _Shared) -> None:
    """Check every field of every node of a decoded IR against its declared type (iteratively).

    The shared types it names (but ``root``) were checked on their own.
    """
    layouts = _ir_layouts()
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        known = shared.get(id(node)) if node is not root else None
        if known is not None and known[0] is node:
            continue
        for field, spec in layouts[type(node)]:
            value = getattr(node, field)
            kind = type(value)
            if kind in spec.records:
                stack.append(value)
            elif (kind not in spec.scalars or kind is float) and not spec.admits(value, stack):
                raise MalformedCacheError(f"{what}: {type(node).__name__} {field!r} is {_show(value)}")
        _json_texts(node, what)


def _json_texts(node: Any, what: str) -> None:
    """Check a node's JSON texts: a default's is JSON, a custom schema and each of a tool's examples an object."""
    if type(node) is ir.Default:
        _json_text(node.json, f"{what}: a default")
    elif type(node) is ir.CustomType and type(_json_text(node.schema, f"{what}: a custom schema")) is not dict:
        raise MalformedCacheError(f"{what}: the custom schema of {_show(node.ref)} is not an object")
    elif type(node) is ir.Tool:
        for position, example in enumerate(node.examples, 1):
            if type(_json_text(example, f"{what}: example {position}")) is not dict:
                raise MalformedCacheError(f"{what}: example {position} is not an object")


def _json_text(text: str, what: str) -> Any:
    try:
        value = _DECODER.decode(text)
    except Exception as exc:
        raise MalformedCacheError(f"{what} is not JSON text ({_exception(exc)})") from None
    _json(value, what)
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


#: One decoder for every JSON text of the IR (``json.loads`` with an option builds one per call).
_DECODER: Final = json.JSONDecoder(parse_constant=_no_constant)


class _Spec:
    """What a field of an IR class admits, compiled from its type hint."""

    __slots__ = ("items", "literals", "records", "scalars")

    def __init__(self, scalars: Any = (), literals: Any = (), records: Any = (), items: _Spec | None = None) -> None:
        self.scalars: frozenset[type] = frozenset(scalars)  # exact types
        self.literals: frozenset[tuple[type, Any]] = frozenset(literals)  # (type, value): True is not 1
        self.records: frozenset[type] = frozenset(records)  # IR classes, checked in turn
        self.items = items  # the item of ``tuple[X, ...]``

    def admits(self, value: Any, records: list[Any]) -> bool:
        """Whether ``value`` fits; a record that fits is appended to ``records`` for its own check."""
        kind = type(value)
        if kind in self.scalars:
            return kind is not float or math.isfinite(value)
        if kind in self.records:
            records.append(value)
            return True
        if kind is tuple and self.items is not None:
            items = self.items
            for item in value:  # most items are records, taken without a call
                if type(item) in items.records:
                    records.append(item)
                elif not items.admits(item, records):
                    return False
            return True
        return kind in _LITERAL_KINDS and (kind, value) in self.literals


_Layouts = dict[type, tuple[tuple[str, _Spec], ...]]
_LAYOUTS: _Layouts | None = None


def _ir_layouts() -> _Layouts:
    """Each IR record class reachable from ``ir.Tool``: its fields and what they admit (built once)."""
    global _LAYOUTS
    if _LAYOUTS is None:  # two threads may both build it: the same table, published whole
        layouts: _Layouts = {}
        specs: dict[Any, _Spec] = {}  # by annotation: most fields share a few
        pending: list[type] = [ir.Tool]
        while pending:
            cls = pending.pop()
            if cls not in layouts:
                fields = dataclasses.fields(cls)
                for f in fields:
                    if f.type not in specs:
                        specs[f.type] = _spec(f.type)
                layouts[cls] = tuple((f.name, specs[f.type]) for f in fields)
                for _, spec in layouts[cls]:
                    pending.extend(spec.records)
                    pending.extend(spec.items.records if spec.items is not None else ())
        _LAYOUTS = layouts
    return _LAYOUTS


def _spec(annotation: Any) -> _Spec:
    # ir's annotations are text (postponed evaluation): evaluated in ir's namespace, as typing.get_type_hints
    # would, but once per distinct text (get_type_hints takes far longer on a module's first use).
    return _compile(eval(annotation, vars(ir)) if isinstance(annotation, str) else annotation)


def _compile(hint: Any) -> _Spec:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        parts = [_compile(arg) for arg in args]
        items = [p.items for p in parts if p.items is not None]
        if len(items) < 2:
            return _Spec(
                (t for p in parts for t in p.scalars),
                (v for p in parts for v in p.literals),
                (r for p in parts for r in p.records),
                items[0] if items else None,
            )
    elif origin is typing.Literal:
        return _Spec(literals=((type(v), v) for v in args))
    elif origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _Spec(items=_compile(args[0]))
    elif isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _Spec(records=(hint,))
    elif hint in _LITERAL_KINDS:
        return _Spec(scalars=(hint,))
    raise TypeError(f"no check for an IR field of type {hint!r}")  # a new kind of IR field: teach _compile


def _member(content: Any, key: str, where: str) -> Any:
    if type(content) is not dict:
        raise MalformedCacheError(f"{where} is {_show(content)}, not an object")
    if key not in content:
        raise MalformedCacheError(f"{where} has no {key!r}")
    return content[key]


def _typed(container: dict[Any, Any], key: str, kind: type[_T], where: str) -> _T:
    if key not in container:
        raise MalformedCacheError(f"{where} has no {key!r}")
    value = container[key]
    if type(value) is not kind:
        raise MalformedCacheError(f"{where}: {key!r} is {_show(value)}, not {_KIND_NAMES.get(kind, kind.__name__)}")
    return value


_KIND_NAMES: Final[dict[type, str]] = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "an integer",
    bool: "a boolean",
}


def _hex(value: Any, length: int, what: str) -> str:
    if type(value) is not str or len(value) != length or value.strip(_HEX_DIGITS):
        raise MalformedCacheError(f"{what} is {_show(value)}, not a digest of lowercase hex digits")
    return value


def _exact_keys(json_object: dict[Any, Any], expected: frozenset[str], where: str) -> None:
    if json_object.keys() == expected:
        return
    missing = sorted(expected.difference(json_object))
    if missing:
        raise MalformedCacheError(f"{where} has no {', '.join(map(repr, missing))}")
    extra = sorted(_show(key) for key in json_object.keys() - expected)
    shown = ", ".join(extra[:3]) + (f" and {len(extra) - 3} more" if len(extra) > 3 else "")
    raise MalformedCacheError(f"{where} has unexpected keys: {shown}")


def _show(value: Any) -> str:
    """A short, safe spelling of any value: scalars by repr (strings cut), containers by kind only."""
    kind = type(value)
    if kind is str:
        return repr(value) if len(value) <= _SHOWN_CHARS else repr(value[:_SHOWN_CHARS]) + "..."
    if kind is int:
        return repr(value) if value.bit_length() <= 64 else "a very large integer"
    if kind in (bool, float, type(None)):
        return repr(value)
    if kind is dict:
        return "an object"
    if kind is list:
        return "an array"
    return f"a Python {kind.__name__}"


def _exception(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = ""
    text = text if len(text) <= 120 else text[:117] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# -- one pass: a valid entry decoded and checked at once ----------------------------------------------------
# About twice as fast as the steps of ``_tool`` (decode, check each field, count the expansion), which it
# only stands in for where it can vouch: at the first doubt it gives up, and the steps decide and say what is
# wrong. It never accepts what they refuse; tests compare both on mutated entries and at the limits.


class _Doubt(Exception):
    """The one pass cannot vouch for an entry: ``_tool``'s steps decide."""


class _Tally:
    """What the one pass met on the way: type nodes, the deepest level, the named types referenced."""

    __slots__ = ("depth", "nodes", "refs", "shared")

    def __init__(self, shared: _SharedTypes) -> None:
        self.nodes = 0
        self.depth = 0
        self.refs: set[str] = set()
        self.shared = shared

    def count(self, level: int) -> None:
        """One type node at ``level``."""
        self.nodes += 1
        if level > self.depth:
            self.depth = level

    def count_shared(self, node: ir.TypeNode, level: int) -> None:
        """A shared type at ``level``: what it expands to."""
        known = self.shared.expansions.get(id(node))
        if known is None or known[0] is not node:
            raise _Doubt
        expansion = known[1]
        self.nodes += expansion.nodes
        self.depth = max(self.depth, level - 1 + expansion.depth)
        self.refs |= expansion.refs


#: Per IR record class, in encoding order: each field's name, what it nests, its encoding default, what it admits.
_Plan = tuple[tuple[str, Any, Any, _Spec], ...]
_PLANS: tuple[dict[type, _Plan], frozenset[str]] | None = None


def _plans() -> tuple[dict[type, _Plan], frozenset[str]]:
    """Each IR record class's plan, and the primitive names (built once, from the layouts ``_ir_fields`` checks)."""
    global _PLANS
    if _PLANS is None:  # two threads may both build it: the same table, published whole
        layouts = _ir_layouts()
        plans = {
            cls: tuple((name, nested, default, dict(layouts[cls])[name]) for name, nested, default in fields)
            for cls, fields in ir.ENCODED_FIELDS.items()
            if cls in layouts
        }
        names = frozenset(value for kind, value in dict(layouts[ir.Primitive])["name"].literals if kind is str)
        _PLANS = (plans, names)
    return _PLANS


def _one_pass(data: Any, module: str, shared: _SharedTypes) -> tuple[ir.Tool, int] | None:
    """The entry's tool (of ``module``) and its expanded node count, or ``None`` where the pass cannot vouch."""
    tally = _Tally(shared)
    try:
        tool = _one_record(data, ir.Tool, 0, tally, module)
        _json_texts(tool, "")
    except Exception:  # _Doubt, or whatever a malformed value sets off: the steps will say what is wrong
        return None
    if tally.depth > MAX_TYPE_DEPTH or tally.nodes > MAX_EXPANDED_NODES or tally.refs - {d.name for d in tool.defs}:
        return None
    return tool, tally.nodes


def _one_record(data: Any, cls: type[Any], level: int, tally: _Tally, module: str | None = None) -> Any:
    """A record of ``cls`` nested at type ``level``; ``module`` replaces a ``Tool``'s (which must be empty)."""
    plan = _plans()[0][cls]
    if type(data) is not list or len(data) > len(plan):
        raise _Doubt
    values: dict[str, Any] = {}
    doubts: list[Any] = []  # a plain value never holds a record
    for item, (name, nested, _, spec) in zip(data, plan, strict=False):
        if nested is None:
            value = tuple(item) if type(item) is list else item
            if not spec.admits(value, doubts) or doubts:
                raise _Doubt
        elif nested[0] == "one":
            value = None if item is None and spec.admits(None, doubts) else _one_value(item, nested[1], level, tally)
        elif type(item) is list:
            value = tuple([_one_value(each, nested[1], level, tally) for each in item])
        else:
            raise _Doubt
        values[name] = value
    for name, _, default, _ in plan[len(data) :]:
        if default is ir.NO_DEFAULT:
            raise _Doubt
        values[name] = default
    if module is not None:
        if values["module"] != "":
            raise _Doubt
        values["module"] = module
    return cls(**values)


def _one_value(item: Any, cls: type[Any], level: int, tally: _Tally) -> Any:
    """A nested value: a type node one level down, a default, or a record at the same level."""
    if cls is ir.ANY_NODE:
        return _one_node(item, level + 1, tally)
    if cls is ir.Default:
        if type(item) is not str:
            raise _Doubt
        default = ir.Default(item)
        _json_texts(default, "")
        return default
    return _one_record(item, cls, level, tally)


def _one_node(data: Any, level: int, tally: _Tally) -> ir.TypeNode:
    """A type node at ``level``: a primitive's name, a shared type's position, or ``[kind, fields...]``."""
    kind = type(data)
    if kind is str:
        if data not in _plans()[1]:
            raise _Doubt
        tally.count(level)
        return ir.Primitive(data)  # one of the names just checked
    if kind is int:
        nodes = tally.shared.nodes
        if not 0 <= data < len(nodes):
            raise _Doubt
        shared: ir.TypeNode = nodes[data]
        tally.count_shared(shared, level)
        return shared
    if kind is not list or not data or type(data[0]) is not str or data[0] not in ir.NODE_CLASSES:
        raise _Doubt
    cls = ir.NODE_CLASSES[data[0]]
    tally.count(level)
    node = _one_record(data[1:], cls, level, tally)
    if type(node) is ir.RefType:
        tally.refs.add(node.name)
    elif type(node) is ir.CustomType:  # the one type node with a JSON text
        _json_texts(node, "")
    typed: ir.TypeNode = node
    return typed
