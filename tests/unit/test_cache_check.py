"""The shape check of a cache file's content: a valid content passes, and any corruption is a ``MalformedCacheError``.

The valid content is built the way the plugin builds it (``file_format.tool_entry``
and ``module_content`` of tools introspected here), then parsed back from its
JSON text as the loader parses a file. Each corruption must raise
``MalformedCacheError`` with a one-line reason, never another exception, and
never pass. A corruption a writer could make in the IR itself is made on the
decoded tool (``dataclasses.replace``) and encoded again; one that only raw
JSON can hold is made by position in the IR's arrays (``slot``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any, Literal, TypedDict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolcall
from toolcall import Param
from toolcall import _ir as ir
from toolcall._cache import file_format
from toolcall._cache.constants import MAX_DEPTH, MalformedCacheError
from toolcall._cache.loader import _same_signature, live_fingerprint
from toolcall._cache.shapes import CachedEntry, SourceRecord, check_entries, check_sources
from toolcall._declarations.tool import declaration_of
from toolcall._introspect import introspect

MODULE = __name__
OTHER = "tests.cache_check_types"


class Unit(str, Enum):
    """Temperature unit."""

    C = "celsius"
    F = "fahrenheit"


class Forecast(TypedDict):
    """A forecast."""

    city: str
    highs: list[float]


class Category(TypedDict):
    """A category in a tree."""

    name: str
    children: list[Category]


class Color:
    """An RGB color in hex notation."""

    __toolcall_schema__ = {"type": "string", "pattern": "^#[0-9a-f]{6}$"}

    def __init__(self, hex_value: str) -> None:
        self.hex = hex_value

    @classmethod
    def __toolcall_coerce__(cls, value: Any) -> Color:
        return cls(value)


@toolcall.tool
def get_weather(
    city: str,
    days: Annotated[int, Param(ge=1, le=7)] = 3,
    unit: Unit = Unit.C,
    mood: Literal["sunny", "any"] | None = None,
) -> Forecast:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead
    """
    return {"city": city, "highs": [20.0] * days}


@toolcall.tool
def file_category(tree: Category, color: Color, at: tuple[int, int] = (0, 0)) -> None:
    """File a category tree under a color."""


@toolcall.tool(name="ping")
def ping_tool() -> str:
    """Say pong."""
    return "pong"


TOOLS: tuple[Callable[..., Any], ...] = (get_weather, file_category, ping_tool)
REFUSED = {"name": "broken", "qualname": "broken", "fingerprint": "d" * 32, "refused": "toolcall-type: no schema"}
WEATHER, CATEGORY, PING, BROKEN = range(4)  # entry indexes
OTHER_AT, MODULE_AT = range(2)  # indexes into the sorted sources table: OTHER sorts first


def introspected(function: Callable[..., Any]) -> ir.Tool:
    definition = declaration_of(function)
    assert definition is not None
    return introspect(definition).tool


def live(function: Callable[..., Any]) -> str:
    """The fingerprint of the live function, as the loader computes it."""
    definition = declaration_of(function)
    assert definition is not None
    return live_fingerprint(definition)


@functools.cache
def valid_text() -> str:
    entries = [
        file_format.tool_entry(introspected(f), [MODULE] if f is not file_category else [MODULE, OTHER]) for f in TOOLS
    ]
    sources: dict[str, list[str | None]] = {MODULE: ["a" * 32, "b" * 32, "m.py"], OTHER: ["c" * 32, None, None]}
    content = file_format.module_content(MODULE, sources, [*entries, REFUSED], {"renderer": "r", "tools": []})
    return json.dumps({"content_sha256": "0123456789abcdef" * 2, **content}, ensure_ascii=False)


def valid() -> dict[str, Any]:
    """A fresh valid content, as the loader parses it."""
    return json.loads(valid_text())  # type: ignore[no-any-return]


def check(content: Any, module: str = MODULE) -> tuple[CachedEntry, ...]:
    return check_entries(content, module, check_sources(content))


def problem(content: Any, module: str = MODULE) -> str:
    """The reason ``check`` gives for ``content``, which must be a one-line ``MalformedCacheError``."""
    with pytest.raises(MalformedCacheError) as info:
        check(content, module)
    reason = str(info.value)
    assert type(info.value) is MalformedCacheError
    assert reason.isprintable(), reason  # one line: no line break, no lone surrogate
    assert 0 < len(reason) <= 400
    return reason


def encoded_fields(cls: type[Any]) -> list[tuple[str, Any]]:
    """The fields of ``cls`` in the order ``ir.to_json`` writes them, each with its encoding default."""
    layout = ir._layout(cls)
    assert layout is not None
    return list(layout[1])


def slot(cls: type[Any], field: str) -> int:
    """Where ``ir.to_json`` puts ``field`` of a ``cls``: its encoding position, after a type node's kind."""
    names = [name for name, _ in encoded_fields(cls)]
    return names.index(field) + (1 if isinstance(getattr(cls, "kind", None), str) else 0)


PARAMETERS = slot(ir.Tool, "parameters")
TYPE = slot(ir.Parameter, "type")
DEFAULT = slot(ir.Parameter, "default")


def edit_ir(content: dict[str, Any], index: int, change: Callable[[ir.Tool], ir.Tool]) -> None:
    """Change the IR of tool entry ``index`` as a writer would: decoded, replaced, encoded again."""
    entry = content["tools"][index]
    changed = change(file_format.entry_tool(entry["ir"], MODULE, ir.decode_shared(content["types"])))
    # Encoded whole, its classes inline, which a reader takes as well as positions in "types".
    entry["ir"] = ir.to_json(dataclasses.replace(changed, module="") if changed.module == MODULE else changed)


def with_parameter(tool: ir.Tool, index: int, **changes: Any) -> ir.Tool:
    """``tool`` with its parameter ``index`` changed."""
    parameters = list(tool.parameters)
    parameters[index] = dataclasses.replace(parameters[index], **changes)
    return dataclasses.replace(tool, parameters=tuple(parameters))


# ---------------------------------------------------------------- a valid content


def test_a_valid_content_passes_and_gives_each_entry() -> None:
    content = valid()
    sources = check_sources(content)
    assert sources == {MODULE: SourceRecord("a" * 32, "b" * 32), OTHER: SourceRecord("c" * 32, None)}
    assert list(content["sources"]) == sorted([MODULE, OTHER]) == [OTHER, MODULE]  # OTHER_AT, MODULE_AT
    entries = check_entries(content, MODULE, sources)
    assert [e.qualname for e in entries] == ["get_weather", "file_category", "ping_tool", "broken"]
    assert [list(raw) for raw in content["tools"]] == [["sources", "ir"]] * 3 + [list(REFUSED)]
    assert [raw["sources"] for raw in content["tools"][:BROKEN]] == [[MODULE_AT], [OTHER_AT, MODULE_AT], [MODULE_AT]]
    assert entries[WEATHER] == CachedEntry(
        name="get_weather",
        qualname="get_weather",
        fingerprint=None,
        sources=(MODULE,),
        tool=introspected(get_weather),
        refused=None,
    )
    assert entries[CATEGORY].sources == (OTHER, MODULE)  # the table's order
    assert entries[CATEGORY].tool == introspected(file_category)
    assert entries[PING].name == "ping"
    assert entries[PING].qualname == "ping_tool"
    assert entries[PING].tool == introspected(ping_tool)
    for function, entry in zip(TOOLS, entries, strict=False):
        assert entry.tool is not None
        assert entry.fingerprint is None  # a described entry's shape is its IR's
        assert file_format.entry_fingerprint(entry.tool) == live(function)
    assert entries[BROKEN] == CachedEntry("broken", "broken", "d" * 32, (), None, "toolcall-type: no schema")


def test_an_entrys_sources_name_the_modules_at_those_positions_of_the_table() -> None:
    content = valid()
    content["sources"] = {"a.first": content["sources"][OTHER], **content["sources"]}  # still sorted
    assert "leaves out the module" in problem(content)  # [MODULE_AT] now names OTHER
    for raw in content["tools"][:BROKEN]:
        raw["sources"] = [index + 1 for index in raw["sources"]]
    entries = check(content)
    assert [entry.sources for entry in entries] == [(MODULE,), (OTHER, MODULE), (MODULE,), ()]
    content["tools"][CATEGORY]["sources"] = [0, 1, 2]
    assert check(content)[CATEGORY].sources == ("a.first", OTHER, MODULE)


def test_a_content_of_refused_entries_only_passes() -> None:
    content = valid()
    content["tools"] = [REFUSED, {**REFUSED, "name": "other", "qualname": "C.other"}]
    assert [(e.qualname, e.tool, e.refused) for e in check(content)] == [
        ("broken", None, "toolcall-type: no schema"),
        ("C.other", None, "toolcall-type: no schema"),
    ]


def test_an_entry_is_named_and_shaped_by_its_ir() -> None:
    content = valid()
    edit_ir(
        content,
        WEATHER,
        lambda tool: dataclasses.replace(
            with_parameter(tool, 0, name="town"), name="forecast", qualname="Weather.forecast"
        ),
    )
    entry = check(content)[WEATHER]
    assert (entry.name, entry.qualname, entry.fingerprint) == ("forecast", "Weather.forecast", None)
    assert entry.tool is not None
    assert file_format.ir_parameters(entry.tool) == [
        ("town", "positional_or_keyword", False),
        ("days", "positional_or_keyword", True),
        ("unit", "positional_or_keyword", True),
        ("mood", "positional_or_keyword", True),
    ]


def test_a_changed_signature_is_seen_from_the_ir_alone() -> None:
    """The loader compares an entry's signature shape with the live function's: it follows the IR alone."""
    declaration = declaration_of(get_weather)
    assert declaration is not None
    content = valid()
    edit_ir(content, WEATHER, lambda tool: with_parameter(tool, 1, required=True))  # days: as if its default went
    assert not _same_signature(check(content)[WEATHER], declaration)
    content = valid()
    edit_ir(content, WEATHER, lambda tool: dataclasses.replace(tool, description="Another description."))
    assert _same_signature(check(content)[WEATHER], declaration)  # not a signature change


def test_a_refused_entry_is_compared_by_its_fingerprint() -> None:
    declaration = declaration_of(get_weather)
    assert declaration is not None
    refused = CachedEntry("get_weather", "get_weather", live(get_weather), (), None, "toolcall-type: no schema")
    assert _same_signature(refused, declaration)
    assert not _same_signature(dataclasses.replace(refused, fingerprint="d" * 32), declaration)


def test_the_valid_content_exercises_what_is_checked() -> None:
    raw = valid()["tools"]
    tool = introspected(file_category)
    assert tool.defs, "a recursive type: references to check"
    assert any(isinstance(p.type, ir.CustomType) for p in tool.parameters), "a custom schema to parse"
    assert any(p.default is not None for p in introspected(get_weather).parameters), "defaults to parse"
    assert [len(entry["sources"]) for entry in raw[:BROKEN]] == [1, 2, 1], "an entry with more than one source"
    assert "refused" in raw[BROKEN]
    city, days, _, mood = raw[WEATHER]["ir"][PARAMETERS][:4]
    assert city[TYPE] == "str", "a primitive as its name"
    assert len(city) == slot(ir.Parameter, "description") + 1, "the fields at their encoding defaults left out"
    assert mood[slot(ir.Parameter, "description")] is None, "a default left at its value before a field that is not"
    assert days[DEFAULT] == "3", "a default as its JSON text"


def test_a_content_without_tools_passes() -> None:
    content = valid()
    content["tools"] = []
    assert check(content) == ()


def test_an_entry_as_the_writer_builds_it_passes_without_parsing() -> None:
    content = valid()
    entry = file_format.tool_entry(introspected(get_weather), [MODULE])
    content["tools"][WEATHER] = file_format.module_content(MODULE, content["sources"], [entry])["tools"][0]
    assert content["tools"][WEATHER]["sources"] == [MODULE_AT]
    assert check(content)[WEATHER].tool == introspected(get_weather)


def test_odd_but_valid_strings_pass() -> None:
    content = valid()
    edit_ir(
        content,
        WEATHER,
        lambda tool: dataclasses.replace(
            with_parameter(tool, 0, description="a lone \ud800 surrogate"), description="\udfff\nline\nbreaks"
        ),
    )
    entries = check(content)
    assert len(entries) == 4
    weather = entries[WEATHER].tool
    assert weather is not None
    assert weather.description == "\udfff\nline\nbreaks"
    assert weather.parameters[0].description == "a lone \ud800 surrogate"


def nested(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


def deep_lists(levels: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def deep_arrays(levels: int) -> list[Any]:
    """An array type node ``levels`` arrays deep (``["array", ["array", "str"]]`` is 2), built by position."""
    value: list[Any] = ["array", "str"]
    for _ in range(levels - 1):
        value = ["array", value]
    return value


def test_the_depth_bound_is_exact() -> None:
    # In a default's JSON text: the value itself is the first level.
    for levels, passes in ((MAX_DEPTH, True), (MAX_DEPTH + 1, False)):
        content = valid()
        default = ir.Default("[" * levels + "]" * levels)
        edit_ir(content, WEATHER, functools.partial(with_parameter, index=1, default=default))
        if passes:
            check(content)
        else:
            assert "deeper than" in problem(content)
    # In the IR: the IR's array, its parameters, a parameter, then one level per array node of its type.
    content = valid()
    parameter = content["tools"][WEATHER]["ir"][PARAMETERS][0]
    parameter[TYPE] = deep_arrays(MAX_DEPTH - 3)
    weather = check(content)[WEATHER].tool
    assert weather is not None
    assert isinstance(weather.parameters[0].type, ir.ArrayType)
    parameter[TYPE] = deep_arrays(MAX_DEPTH - 2)
    assert "deeper than" in problem(content)


# ---------------------------------------------------------------- corruptions

Mutation = Callable[[dict[str, Any]], Any]
CASES: list[tuple[str, Mutation, str]] = []  # (id, mutation, a part of the reason)


def case(case_id: str, expected: str) -> Callable[[Mutation], Mutation]:
    def register(mutation: Mutation) -> Mutation:
        CASES.append((case_id, mutation, expected))
        return mutation

    return register


def at(content: dict[str, Any], path: tuple[Any, ...]) -> Any:
    for key in path:
        content = content[key]
    return content


def set_at(path: tuple[Any, ...], value: Any) -> Mutation:
    def mutate(content: dict[str, Any]) -> None:
        # The content is fresh each time, and nothing changes what is put into it.
        at(content, path[:-1])[path[-1]] = value.make() if isinstance(value, Built) else value

    return mutate


def append_at(path: tuple[Any, ...], value: Any) -> Mutation:
    """Put ``value`` after the last item of the array at ``path``: a position its record does not have."""

    def mutate(content: dict[str, Any]) -> None:
        at(content, path).append(value)

    return mutate


def delete_at(path: tuple[Any, ...]) -> Mutation:
    def mutate(content: dict[str, Any]) -> None:
        del at(content, path[:-1])[path[-1]]

    return mutate


# Where each key lives, and the types its value may have.
KEYED: dict[tuple[Any, ...], dict[str, tuple[type, ...]]] = {
    (): {
        "checked": (dict,),
        "content_sha256": (str,),
        "format": (int,),
        "ir": (int,),
        "module": (str,),
        "sources": (dict,),
        "tools": (list,),
        "types": (list,),
    },
    ("tools", WEATHER): {"sources": (list,), "ir": (list,)},
    ("tools", BROKEN): {"name": (str,), "qualname": (str,), "fingerprint": (str,), "refused": (str,)},
}
JUNK: tuple[Any, ...] = (None, True, 7, 2.5, "text", [1, 2], {"a": 1})
for _path, _keys in KEYED.items():
    for _key, _types in _keys.items():
        _where = "/".join(map(str, (*_path, _key)))
        case(f"missing {_where}", "has no" if _key == "refused" else repr(_key))(delete_at((*_path, _key)))
        for _junk in JUNK:
            if type(_junk) not in _types:
                case(f"{_where} = {_junk!r}", "")(set_at((*_path, _key), _junk))


class Built:
    """A value made when the mutation runs (too deep to build at import and keep)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


W = ("tools", WEATHER)
W_IR = (*W, "ir")
W_PARAMETER = (*W_IR, PARAMETERS)  # then a parameter's index: 0 city, 1 days, 2 unit, 3 mood
C_IR = ("tools", CATEGORY, "ir")
B = ("tools", BROKEN)


def in_types(*path: Any, node: bool = False) -> tuple[Any, ...]:
    """``path`` in the valid file, each step into a node taken where "types" holds it (so does ``node``'s end).

    Every node made of other nodes or values is written once in "types", and named by its position.
    """
    content, resolved = valid(), ()
    for index, key in enumerate(path):
        resolved = (*resolved, key)
        going_on = index < len(path) - 1 or node
        if going_on and type(at(content, resolved)) is int:
            resolved = ("types", at(content, resolved))
    return resolved


DAYS_CONSTRAINTS = in_types(*W_PARAMETER, 1, TYPE, slot(ir.Constrained, "constraints"))
MOOD_LITERAL = in_types(*W_PARAMETER, 3, TYPE, slot(ir.UnionType, "options"), 0, node=True)
DESCRIPTION = slot(ir.Tool, "description")
# The unit's Enum, as every class, is written once in "types"; the parameter names its position there.
UNIT_ENUM = ("types", valid()["tools"][WEATHER]["ir"][PARAMETERS][2][TYPE])
OLD_NODE = {"kind": "primitive", "name": "str"}
OLD_IR = {"name": "get_weather", "module": MODULE, "qualname": "get_weather", "description": "", "parameters": []}
TOP_CASES: list[tuple[str, tuple[Any, ...], Any, str]] = [
    ("ir 5", W_IR, 5, "does not decode"),
    ("ir an object (the old encoding)", W_IR, OLD_IR, "does not decode"),
    ("ir too short", W_IR, ["get_weather", MODULE], "does not decode"),
    ("ir unknown node kind", (*W_PARAMETER, 0, TYPE), ["spaceship"], "does not decode"),
    ("ir node kind unhashable", (*W_PARAMETER, 0, TYPE), [[]], "does not decode"),
    ("ir node without a kind", (*W_PARAMETER, 0, TYPE), [], "does not decode"),
    ("ir node a bool", (*W_PARAMETER, 0, TYPE), True, "does not decode"),
    ("ir node an object (the old encoding)", (*W_PARAMETER, 0, TYPE), OLD_NODE, "does not decode"),
    ("ir primitive name", (*W_PARAMETER, 0, TYPE), ["primitive", 5], "'name' is 5"),
    ("ir primitive unknown", (*W_PARAMETER, 0, TYPE), "x", "Primitive 'name' is 'x'"),
    ("ir parameter not an array", (*W_PARAMETER, 0), "city", "does not decode"),
    ("ir parameter kind", (*W_PARAMETER, 1, slot(ir.Parameter, "kind")), "sideways", "'kind'"),
    ("ir required not bool", (*W_PARAMETER, 1, slot(ir.Parameter, "required")), 1, "'required' is 1"),
    ("ir default not text", (*W_PARAMETER, 1, DEFAULT), 3, "does not decode"),
    ("ir description", (*W_IR, DESCRIPTION), None, "'description' is None"),
    ("ir parameters not a list", (*W_IR, PARAMETERS), {"a": 1}, "does not decode"),
    ("ir bool for int", (*DAYS_CONSTRAINTS, slot(ir.Constraints, "ge")), True, "'ge' is True"),
    ("ir constraints not an array", DAYS_CONSTRAINTS, {"ge": 1}, "does not decode"),
    ("ir literal of an object", (*MOOD_LITERAL, slot(ir.LiteralType, "values")), [{}], "'values'"),
    ("ir enum values", (*UNIT_ENUM, slot(ir.EnumType, "values")), "ab", "'values'"),
    ("ir deep lists", (*W_PARAMETER, 0, TYPE), Built(lambda: deep_lists(10_000)), "deeper than"),
    ("ir deep arrays", (*W_PARAMETER, 0, TYPE), Built(lambda: deep_arrays(10_000)), "deeper than"),
    ("ir custom schema", (*C_IR, PARAMETERS, 1, TYPE, slot(ir.CustomType, "schema")), "[1]", "not an object"),
    ("entry sources out of range", (*W, "sources"), [MODULE_AT, 2], "holds 2, not an index into the cache's"),
    ("entry sources negative", (*W, "sources"), [-1, MODULE_AT], "holds -1, not an index"),
    ("entry sources a module name", (*W, "sources"), [MODULE], f"holds {MODULE!r}, not an index"),
    ("entry sources a boolean", (*W, "sources"), [True], "holds True, not an index"),
    ("entry sources a float", (*W, "sources"), [1.0], "holds 1.0, not an index"),
    ("entry sources empty", (*W, "sources"), [], "non-empty"),
    ("entry sources twice", (*W, "sources"), [MODULE_AT, MODULE_AT], "'sources' is not sorted, each module once"),
    ("entry sources unsorted", ("tools", CATEGORY, "sources"), [MODULE_AT, OTHER_AT], "'sources' is not sorted"),
    ("entry sources twice, sorted", ("tools", CATEGORY, "sources"), [OTHER_AT, MODULE_AT, MODULE_AT], "once"),
    ("entry sources without the module", (*W, "sources"), [OTHER_AT], "leaves out the module itself"),
    ("refused fingerprint short", (*B, "fingerprint"), "0" * 31, "'fingerprint'"),
    ("refused fingerprint upper", (*B, "fingerprint"), "A" * 32, "'fingerprint'"),
    ("described entry with refused", (*W, "refused"), "x", "has no 'fingerprint', 'name', 'qualname'"),
    ("described entry with a fingerprint", (*W, "fingerprint"), "0" * 32, "unexpected keys: 'fingerprint'"),
    ("described entry with a name", (*W, "name"), "get_weather", "unexpected keys: 'name'"),
    ("described entry with describe", (*W, "describe"), {}, "unexpected keys: 'describe'"),
    ("described entry with rendered", (*W, "rendered"), {}, "unexpected keys: 'rendered'"),
    ("refused entry with ir", (*B, "ir"), [], "unexpected keys: 'ir'"),
    ("refused entry with describe", (*B, "describe"), {}, "unexpected keys: 'describe'"),
    ("refused entry with sources", (*B, "sources"), [MODULE_AT], "unexpected keys: 'sources'"),
    ("entry a string", ("tools", PING), "ping", "tool entry 2 is 'ping'"),
    ("entry qualname junk", ("tools", PING, "ir", slot(ir.Tool, "qualname")), [], "tool entry 2: 'ir': Tool"),
    ("sources table empty", ("sources",), {}, "non-empty"),
    ("sources table sha upper", ("sources", MODULE, 0), "A" * 32, "its byte digest"),
    ("sources table sha short", ("sources", MODULE, 0), "a" * 31, "its byte digest"),
    ("sources table sha full length", ("sources", MODULE, 0), "a" * 64, "its byte digest"),
    ("sources table sha not hex", ("sources", MODULE, 0), "g" * 32, "its byte digest"),
    ("sources table sha missing", ("sources", MODULE, 0), None, "its byte digest"),
    ("sources table tokens", ("sources", OTHER, 1), "x" * 32, "its token digest"),
    ("sources table tokens a number", ("sources", OTHER, 1), 5, "its token digest"),
    ("sources table record longer", ("sources", OTHER), ["a" * 32, None, None, 1], "not [sha256, tokens, file]"),
    ("sources table record shorter", ("sources", OTHER), ["a" * 32, None], "not [sha256, tokens, file]"),
    ("sources table record an object", ("sources", OTHER), {"sha256": "a" * 32, "tokens": None}, "not [sha256"),
    ("sources table record", ("sources", OTHER), "x", "not [sha256, tokens, file]"),
    ("sources table file a number", ("sources", OTHER, 2), 5, "its file is 5, not a path"),
    ("seal", ("content_sha256",), "0" * 32 + "\n", "'content_sha256'"),
    ("seal full length", ("content_sha256",), "0" * 64, "'content_sha256'"),
    ("format True", ("format",), True, "'format' is True"),
    ("ir True", ("ir",), True, "'ir' is True"),
    ("module", ("module",), "other", "belongs to module 'other'"),
    ("top extra key", ("extra",), 1, "unexpected keys"),
    ("NaN in the IR", (*DAYS_CONSTRAINTS, slot(ir.Constraints, "ge")), float("nan"), "nan"),
    ("infinity in the IR", (*DAYS_CONSTRAINTS, slot(ir.Constraints, "le")), float("-inf"), "-inf"),
    ("a tuple in the IR", (*MOOD_LITERAL, slot(ir.LiteralType, "values")), ("a", "b"), "a Python tuple"),
    ("a str subclass", (*W_IR, DESCRIPTION), type("Text", (str,), {})("x"), "a Python Text"),
    ("non-str key in the IR", (*W_IR, DESCRIPTION), {5: 1}, "object key 5"),
    ("non-str key deep in the IR", (*W_PARAMETER, 0, TYPE), {None: 1}, "object key None"),
    ("non-str key in the sources table", ("sources",), {5: ["a" * 32, None]}, "source 5"),
    ("non-str key at the top", (5,), 1, "unexpected keys: 5"),
    ("non-str key in an entry", (*W, ("name",)), 1, "unexpected keys: a Python tuple"),
]
for _id, _path, _value, _expected in TOP_CASES:
    case(_id, _expected)(set_at(_path, _value))


def written_out(array: list[Any], cls: type[Any]) -> None:
    """Write out the trailing fields ``ir.to_json`` left out of ``array`` (a ``cls``), each at its default."""
    fields = encoded_fields(cls)
    for _, default in fields[len(array) - slot(cls, fields[0][0]) :]:
        array.append(ir.to_json(default))


RECORDS_AT: list[tuple[tuple[Any, ...], type[Any]]] = [
    (W_IR, ir.Tool),
    ((*W_PARAMETER, 0), ir.Parameter),
    (in_types(*W_PARAMETER, 3, TYPE, node=True), ir.UnionType),
    (UNIT_ENUM, ir.EnumType),
    (DAYS_CONSTRAINTS, ir.Constraints),
]


def test_an_ir_with_every_field_written_out_passes() -> None:
    content = valid()
    for path, cls in RECORDS_AT:
        written_out(at(content, path), cls)
        assert len(at(content, path)) == slot(cls, encoded_fields(cls)[-1][0]) + 1
    assert check(content)[WEATHER].tool == introspected(get_weather)


def longer_than_its_record(path: tuple[Any, ...], cls: type[Any], extra: Any = None) -> Mutation:
    """The array at ``path`` (a ``cls``) with every field written out, and ``extra`` after them."""

    def mutate(content: dict[str, Any]) -> None:
        array = at(content, path)
        written_out(array, cls)
        array.append(extra)

    return mutate


for _path, _cls in RECORDS_AT:
    case(f"ir {_cls.__name__} longer than its fields", "does not decode")(longer_than_its_record(_path, _cls))
case("NaN in an extra IR position", "nan")(longer_than_its_record((*W_PARAMETER, 0), ir.Parameter, [float("nan")]))
case("a set in the IR", "a Python set")(longer_than_its_record((*W_PARAMETER, 0), ir.Parameter, {1}))


# Corruptions a writer could hold in the IR itself: made on the decoded tool, encoded again.
IR_CASES: list[tuple[str, int, Callable[[ir.Tool], ir.Tool], str]] = [
    (
        "ir of another module",
        WEATHER,
        lambda tool: dataclasses.replace(tool, module="elsewhere"),
        "'ir' names a module ('elsewhere'): an entry's IR leaves it to the file",
    ),
    ("ir of a submodule", WEATHER, lambda tool: dataclasses.replace(tool, module=f"{MODULE}.sub"), "names a module"),
    ("newline in junk", WEATHER, lambda tool: dataclasses.replace(tool, module="pkg\nevil"), "'pkg\\nevil'"),
    ("ir default not JSON", WEATHER, lambda tool: with_parameter(tool, 1, default=ir.Default("{")), "not JSON text"),
    ("ir default NaN", WEATHER, lambda tool: with_parameter(tool, 1, default=ir.Default("NaN")), "not JSON text"),
    (
        "ir default deep",
        WEATHER,
        lambda tool: with_parameter(tool, 1, default=ir.Default("[" * 500 + "]" * 500)),
        "deeper than",
    ),
    (
        "ir dangling reference",
        CATEGORY,
        lambda tool: dataclasses.replace(tool, defs=(dataclasses.replace(tool.defs[0], name="Gone"),)),
        "a reference to 'Category', which the tool does not define",
    ),
]
for _id, _index, _change, _expected in IR_CASES:
    case(_id, _expected)(functools.partial(edit_ir, index=_index, change=_change))


def with_source(name: Any) -> Mutation:
    """Another module in the sources table, which stays sorted (the first module: no entry's index moves)."""

    def mutate(content: dict[str, Any]) -> None:
        content["sources"] = {name: ["a" * 32, None], **content["sources"]}
        assert list(content["sources"]) == sorted(content["sources"])

    return mutate


case("sources table space", "the cache's source 'a b' is not a dotted module name")(with_source("a b"))
case("sources table empty name", "the cache's source '' is not a dotted module name")(with_source(""))


# ---------------------------------------------------------------- the classes the tools share


def shared_class(name: str, fields: list[Any]) -> list[Any]:
    """A TypedDict's encoding as "types" holds it."""
    return ["object", f"{MODULE}:{name}", "typeddict", fields]


def weather_takes(*types: list[Any]) -> Mutation:
    """``types`` after the file's own shared classes, and the weather tool's first parameter of the last."""

    def mutate(content: dict[str, Any]) -> None:
        content["types"].extend(types)
        at(content, W_PARAMETER)[0][TYPE] = len(content["types"]) - 1

    return mutate


def doubling(levels: int) -> list[list[Any]]:
    """Classes each with two fields of the one before: ``levels`` of them expand to 2**levels nodes."""
    chain = [shared_class("C0", [["x", "int"]])]
    for level in range(1, levels):
        chain.append(shared_class(f"C{level}", [["a", -1], ["b", -1]]))
    return chain


def with_positions(chain: list[list[Any]], first: int) -> list[list[Any]]:
    """``chain`` with each field's -1 turned into the position of the class before it, the first at ``first``."""
    return [
        [*item[:3], [[name, first + index - 1 if kind == -1 else kind] for name, kind in item[3]]]
        for index, item in enumerate(chain)
    ]


def shared_after_the_files_own(make: Callable[[int], list[list[Any]]]) -> Mutation:
    def mutate(content: dict[str, Any]) -> None:
        weather_takes(*make(len(content["types"])))(content)

    return mutate


case("types: a position out of range", "does not decode")(set_at((*W_PARAMETER, 0, TYPE), 99))
case("types: a negative position", "does not decode")(set_at((*W_PARAMETER, 0, TYPE), -1))
case("types: a position as a float", "does not decode")(set_at((*W_PARAMETER, 0, TYPE), 0.0))
case("types: an item of a kind kept in place", "'types' does not decode")(weather_takes(["ref", "Unit"]))
case("types: an item that is a primitive", "'types' does not decode")(weather_takes("int"))  # type: ignore[arg-type]
case("types: an item that is a position", "'types' does not decode")(weather_takes(0))  # type: ignore[arg-type]
case("types: a position forward", "'types' does not decode")(
    shared_after_the_files_own(lambda n: [shared_class("A", [["x", n + 1]]), shared_class("B", [["x", "int"]])])
)
case("types: a position to itself", "'types' does not decode")(
    shared_after_the_files_own(lambda n: [shared_class("A", [["x", n]])])
)
case("types: a class named over and over", "too many")(
    shared_after_the_files_own(lambda n: with_positions(doubling(60), n))
)
case("types: a chain deeper than the bound", "nested")(
    shared_after_the_files_own(
        lambda n: with_positions(
            [shared_class("C0", [["x", "int"]])] + [shared_class(f"C{i}", [["a", -1]]) for i in range(1, 250)], n
        )
    )
)
case("types: a class with a reference its tool does not define", "a reference to 'Gone'")(
    weather_takes(shared_class("Holder", [["x", ["ref", "Gone"]]]))
)
case("types: a class with a field of the wrong type", "is 5")(weather_takes(shared_class("Bad", [["x", "int", 5]])))


def test_a_class_the_tools_share_is_read_once_and_shared() -> None:
    content = valid()
    weather_takes(shared_class("Point", [["x", "int", "X."]]))(content)
    at(content, W_PARAMETER)[1][TYPE] = len(content["types"]) - 1  # the same class for two parameters
    weather = check(content)[WEATHER].tool
    assert weather is not None
    first, second = weather.parameters[:2]
    assert first.type is second.type, "one object, decoded once"
    assert first.type == ir.ObjectType(
        f"{MODULE}:Point", "typeddict", (ir.Field("x", ir.Primitive("int"), description="X."),)
    )


def test_an_entry_may_hold_its_classes_inline() -> None:
    content = valid()
    weather = check(content)[WEATHER].tool
    assert weather is not None
    content["tools"][WEATHER]["ir"] = file_format.entry_ir(weather)  # no positions: every class written out
    assert check(content)[WEATHER].tool == weather


def test_a_class_named_over_and_over_is_refused_without_expanding_it() -> None:
    """2**60 nodes once expanded: refused from the counts alone (this would not end otherwise)."""
    content = valid()
    shared_after_the_files_own(lambda n: with_positions(doubling(60), n))(content)
    assert "too many" in problem(content)


@case("sources table unsorted", "the cache's 'sources' is not sorted by module name")
def _unsorted_sources(content: dict[str, Any]) -> None:
    content["sources"] = dict(reversed(content["sources"].items()))


@case("duplicate qualname", "has an entry already")
def _duplicate(content: dict[str, Any]) -> None:
    content["tools"].append(content["tools"][WEATHER])


@case("ir of another tool", "qualname 'ping_tool' has an entry already")
def _other_ir(content: dict[str, Any]) -> None:
    content["tools"][WEATHER]["ir"] = content["tools"][PING]["ir"]


@case("a refused entry for a described tool", "qualname 'get_weather' has an entry already")
def _refused_twice(content: dict[str, Any]) -> None:
    content["tools"][BROKEN].update(name="get_weather", qualname="get_weather")


@case("a cycle", "deeper than")
def _cycle(content: dict[str, Any]) -> None:
    parameter = at(content, (*W_PARAMETER, 0))
    parameter.append(parameter)


@case("a deep value in the IR", "deeper than")
def _deep_value(content: dict[str, Any]) -> None:
    at(content, (*W_PARAMETER, 0)).append(nested(10_000))


@case("content not an object", "the cache is an array")
def _not_an_object(content: dict[str, Any]) -> list[Any]:
    return [content]


class Evil:
    """A key that collides with "ir" and fails to compare: only Python-made content has one."""

    def __hash__(self) -> int:
        return hash("ir")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing")


@case("a key that fails to compare", "could not be checked (RuntimeError: no comparing)")
def _evil(content: dict[str, Any]) -> None:
    entry = content["tools"][WEATHER]
    entry.clear()
    entry[Evil()] = 1


@pytest.mark.parametrize(("mutation", "expected"), [(m, e) for _, m, e in CASES], ids=[i for i, _, _ in CASES])
def test_a_corruption_is_a_one_line_cache_problem(mutation: Mutation, expected: str) -> None:
    content = valid()
    replaced = mutation(content)
    assert expected in problem(content if replaced is None else replaced)


def test_the_case_ids_are_unique() -> None:
    ids = [case_id for case_id, _, _ in CASES]
    assert len(ids) == len(set(ids))


def test_the_cache_must_belong_to_the_module() -> None:
    assert "belongs to module 'tests.unit.test_cache_check', not 'pkg.tools'" in problem(valid(), "pkg.tools")


def test_each_function_checks_that_the_content_is_an_object() -> None:
    for junk in (None, 5, "x", [valid()]):
        with pytest.raises(MalformedCacheError, match="the cache is"):
            check_sources(junk)  # type: ignore[arg-type]
        with pytest.raises(MalformedCacheError, match="the cache is"):
            check_entries(junk, MODULE, {})  # type: ignore[arg-type]


def test_reasons_name_the_entry_and_stay_short() -> None:
    content = valid()
    content["tools"][WEATHER]["sources"] = "x" * 10_000
    reason = problem(content)
    assert reason == f"tool entry 0 ('get_weather'): 'sources' is {'x' * 40!r}..., not a non-empty array"
    content = valid()
    edit_ir(content, WEATHER, lambda tool: dataclasses.replace(tool, qualname="q" * 10_000))
    content["tools"][WEATHER]["sources"] = []
    assert problem(content).startswith(f"tool entry 0 ({'q' * 40!r}...): 'sources' is an array")
    content = valid()
    at(content, (*W_PARAMETER, 0))[TYPE] = ["k\n" * 5_000]
    assert len(problem(content)) <= 400


def test_a_problem_spells_what_cannot_be_printed_as_escapes() -> None:
    assert str(MalformedCacheError("a\nb\r\u2028c\ud800\td")) == "a\\nb\\r\\u2028c\\ud800\\td"
    assert str(MalformedCacheError("x" * 1_000)) == "x" * 397 + "..."


# ---------------------------------------------------------------- random mutations

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=10,
)


def containers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every object and array within ``value``."""
    found = [path]
    children = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in children:
        if isinstance(child, (dict, list)):
            found.extend(containers(child, (*path, key)))
    return found


@functools.cache
def valid_containers() -> list[tuple[Any, ...]]:
    return containers(valid())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), replacement=JSON_VALUES)
def test_a_random_mutation_passes_or_is_a_cache_problem(data: st.DataObject, replacement: Any) -> None:
    content = valid()
    where = at(content, data.draw(st.sampled_from(valid_containers()), label="container"))
    keys = list(where) if isinstance(where, dict) else list(range(len(where)))
    operation = data.draw(st.sampled_from(["replace", "delete", "add"] if keys else ["add"]), label="operation")
    if operation == "add" and isinstance(where, list):
        where.append(replacement)
    elif operation == "add":
        where[data.draw(st.text(max_size=5), label="key")] = replacement
    elif operation == "delete":
        del where[data.draw(st.sampled_from(keys), label="key")]
    else:
        where[data.draw(st.sampled_from(keys), label="key")] = replacement
    try:
        check(content)
    except MalformedCacheError as exc:
        reason = str(exc)
        assert reason.isprintable()
        assert len(reason) <= 400
        assert "could not be checked" not in reason  # JSON content never reaches the last-resort guard
