"""The shape check of a cache file's content: a valid content passes, and any corruption is a ``MalformedCacheError``.

The valid content is built the way the plugin builds it (``file_format.tool_entry``
of tools introspected here), then parsed back from its JSON text as the
loader parses a file. Each corruption must raise ``MalformedCacheError`` with a
one-line reason, never another exception, and never pass.
"""

from __future__ import annotations

import functools
import inspect
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
from toolcall._cache.shapes import (
    MAX_DEPTH,
    CachedEntry,
    MalformedCacheError,
    SourceRecord,
    check_entries,
    check_sources,
)
from toolcall._declarations.tool import declaration_of
from toolcall._introspect import introspect

MODULE = __name__
OTHER = "tests.cache_check_types"
VARIANT_KEYS = [file_format.variant_key(provider, strict) for provider, strict in file_format.VARIANTS]


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


TOOLS = (get_weather, file_category, ping_tool)
REFUSED = {"name": "broken", "qualname": "broken", "fingerprint": "d" * 32, "refused": "toolcall-type: no schema"}
WEATHER, CATEGORY, PING, BROKEN = range(4)  # entry indexes


def introspected(function: Callable[..., Any]) -> ir.Tool:
    definition = declaration_of(function)
    assert definition is not None
    return introspect(definition).tool


def entry_of(tool: ir.Tool, sources: list[str]) -> dict[str, Any]:
    """``file_format.tool_entry``, with the entry's ``sources`` (passed in, or added where it takes none)."""
    write: Any = file_format.tool_entry
    if "sources" in inspect.signature(write).parameters:
        return write(tool, sources)  # type: ignore[no-any-return]
    return {**write(tool), "sources": sources}


@functools.cache
def valid_text() -> str:
    entries = [entry_of(introspected(f), [MODULE] if f is not file_category else [OTHER, MODULE]) for f in TOOLS]
    content = {
        "checked": {"renderer": "r", "tools": []},
        "content_sha256": "0123456789abcdef" * 4,
        "format": file_format.CACHE_FORMAT,
        "ir": ir.IR_VERSION,
        "module": MODULE,
        "sources": {MODULE: {"sha256": "a" * 64, "tokens": "b" * 64}, OTHER: {"sha256": "c" * 64, "tokens": None}},
        "tools": [*entries, REFUSED],
    }
    return json.dumps(content, ensure_ascii=False)


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


# ---------------------------------------------------------------- a valid content


def test_a_valid_content_passes_and_gives_each_entry() -> None:
    content = valid()
    sources = check_sources(content)
    assert sources == {MODULE: SourceRecord("a" * 64, "b" * 64), OTHER: SourceRecord("c" * 64, None)}
    entries = check_entries(content, MODULE, sources)
    assert [e.qualname for e in entries] == ["get_weather", "file_category", "ping_tool", "broken"]
    raw = content["tools"][WEATHER]
    assert entries[WEATHER] == CachedEntry(
        name="get_weather",
        qualname="get_weather",
        fingerprint=raw["fingerprint"],
        sources=(MODULE,),
        tool=introspected(get_weather),
        describe=raw["describe"],
        rendered=raw["rendered"],
        refused=None,
    )
    assert entries[WEATHER].rendered is raw["rendered"]  # as parsed: no copy
    assert list(entries[WEATHER].rendered or ()) == VARIANT_KEYS
    assert entries[CATEGORY].sources == (OTHER, MODULE)
    assert entries[CATEGORY].tool == introspected(file_category)
    assert entries[PING].name == "ping"
    assert entries[PING].tool == introspected(ping_tool)
    assert entries[BROKEN] == CachedEntry(
        "broken", "broken", "d" * 32, (), None, None, None, "toolcall-type: no schema"
    )


def test_the_valid_content_exercises_what_is_checked() -> None:
    raw = valid()["tools"]
    tool = introspected(file_category)
    assert tool.defs, "a recursive type: references to check"
    assert any(isinstance(p.type, ir.CustomType) for p in tool.parameters), "a custom schema to parse"
    assert any(p.default is not None for p in introspected(get_weather).parameters), "defaults to parse"
    assert "outputSchema" in raw[WEATHER]["rendered"]["mcp"]
    assert "parameters" not in raw[PING]["rendered"]["gemini"]  # optional
    errors = [key for entry in raw[:BROKEN] for key, v in entry["rendered"].items() if set(v) == {"error"}]
    assert errors, "a variant the provider cannot take"
    assert all(set(v) != {"error"} for v in raw[WEATHER]["rendered"].values())


def test_a_content_without_tools_passes() -> None:
    content = valid()
    content["tools"] = []
    assert check(content) == ()


def test_an_entry_as_the_writer_builds_it_passes_without_parsing() -> None:
    content = valid()
    content["tools"][WEATHER] = entry_of(introspected(get_weather), [MODULE])
    assert check(content)[WEATHER].tool == introspected(get_weather)


def test_odd_but_valid_strings_pass() -> None:
    content = valid()
    parameters = content["tools"][WEATHER]["describe"]["parameters"]
    parameters["properties"]["line\nbreak"] = {"description": "a lone \ud800 surrogate"}
    content["tools"][WEATHER]["rendered"]["anthropic"]["description"] = "\udfff\n"
    assert len(check(content)) == 4


def nested(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


def test_the_depth_bound_is_exact() -> None:
    content = valid()
    content["tools"][WEATHER]["describe"]["parameters"] = nested(MAX_DEPTH)
    check(content)
    content["tools"][WEATHER]["describe"]["parameters"] = nested(MAX_DEPTH + 1)
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
    },
    ("sources", MODULE): {"sha256": (str,), "tokens": (str, type(None))},
    ("tools", WEATHER): {
        "name": (str,),
        "qualname": (str,),
        "fingerprint": (str,),
        "sources": (list,),
        "ir": (dict,),
        "describe": (dict,),
        "rendered": (dict,),
    },
    ("tools", BROKEN): {"name": (str,), "qualname": (str,), "fingerprint": (str,), "refused": (str,)},
    ("tools", WEATHER, "describe"): {
        "module": (str,),
        "name": (str,),
        "description": (str, type(None)),
        "parameters": (dict,),
    },
    ("tools", WEATHER, "rendered", "openai"): {"type": (str,), "function": (dict,)},
    ("tools", WEATHER, "rendered", "openai", "function"): {"name": (str,), "parameters": (dict,)},
    ("tools", WEATHER, "rendered", "openai-responses:strict"): {
        "type": (str,),
        "name": (str,),
        "parameters": (dict,),
        "strict": (bool,),
    },
    ("tools", WEATHER, "rendered", "anthropic:strict"): {"name": (str,), "input_schema": (dict,)},
    ("tools", WEATHER, "rendered", "mcp"): {"name": (str,), "inputSchema": (dict,)},
    ("tools", WEATHER, "rendered", "gemini"): {"name": (str,)},
}
JUNK: tuple[Any, ...] = (None, True, 7, 2.5, "text", [1, 2], {"a": 1})
for _path, _keys in KEYED.items():
    for _key, _types in _keys.items():
        _where = "/".join(map(str, (*_path, _key)))
        case(f"missing {_where}", "has no" if _key == "refused" else repr(_key))(delete_at((*_path, _key)))
        for _junk in JUNK:
            if type(_junk) not in _types:
                case(f"{_where} = {_junk!r}", "")(set_at((*_path, _key), _junk))

for _key in VARIANT_KEYS:
    _within = ("function",) if _key.partition(":")[0] == "openai" else ()  # Chat Completions nests it
    _named = ("tools", WEATHER, "rendered", _key, *_within)
    case(f"{_key} names another tool", "names tool 'other'")(set_at((*_named, "name"), "other"))
    case(f"{_key} is a string", "not an object")(set_at(("tools", WEATHER, "rendered", _key), "x"))
    case(f"{_key} has a non-str description", "'description'")(set_at((*_named, "description"), 5))
    case(f"{_key} is missing", repr(_key))(delete_at(("tools", WEATHER, "rendered", _key)))


class Built:
    """A value made when the mutation runs (too deep to build at import and keep)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def deep_lists(levels: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def deep_arrays(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {"kind": "primitive", "name": "str"}
    for _ in range(levels - 1):
        value = {"kind": "array", "items": value}
    return value


W = ("tools", WEATHER)
W_IR = (*W, "ir")
WEATHER_PROPERTIES = (*W, "rendered", "openai", "function", "parameters", "properties")
TOP_CASES: list[tuple[str, tuple[Any, ...], Any, str]] = [
    ("rendered []", (*W, "rendered"), [], "'rendered' is an array"),
    ("extra variant key", (*W, "rendered", "gemini:strict"), {"error": "no"}, "'gemini:strict'"),
    ("error variant not a string", (*W, "rendered", "gemini"), {"error": 5}, "'error' is 5"),
    ("error variant with more keys", (*W, "rendered", "mcp"), {"error": "x", "note": 1}, "'name'"),
    ("openai type", (*W, "rendered", "openai", "type"), "tool", "'type' is 'tool'"),
    ("responses type", (*W, "rendered", "openai-responses", "type"), 1, "'type' is 1"),
    ("responses strict", (*W, "rendered", "openai-responses", "strict"), 1, "'strict' is 1"),
    ("mcp outputSchema", (*W, "rendered", "mcp", "outputSchema"), [], "'outputSchema'"),
    ("gemini parameters", (*W, "rendered", "gemini", "parameters"), "x", "'parameters'"),
    ("anthropic strict flag", (*W, "rendered", "anthropic:strict", "strict"), "yes", "'strict'"),
    ("ir 5", W_IR, 5, "does not decode"),
    ("ir of another module", (*W_IR, "module"), "elsewhere", "not of this tool"),
    ("ir of another qualname", (*W_IR, "qualname"), "elsewhere", "not of this tool"),
    ("ir unknown node kind", (*W_IR, "parameters", 0, "type"), {"kind": "spaceship"}, "does not decode"),
    ("ir node kind unhashable", (*W_IR, "parameters", 0, "type"), {"kind": []}, "does not decode"),
    ("ir primitive name", (*W_IR, "parameters", 0, "type"), {"kind": "primitive", "name": 5}, "'name' is 5"),
    ("ir primitive unknown", (*W_IR, "parameters", 0, "type"), {"kind": "primitive", "name": "x"}, "'name'"),
    ("ir parameter kind", (*W_IR, "parameters", 0, "kind"), "sideways", "'kind'"),
    ("ir required not bool", (*W_IR, "parameters", 0, "required"), 1, "'required' is 1"),
    ("ir description", (*W_IR, "description"), None, "'description' is None"),
    ("ir parameters not a list", (*W_IR, "parameters"), {"a": 1}, "does not decode"),
    ("ir bool for int", (*W_IR, "parameters", 1, "type", "constraints", "ge"), True, "'ge' is True"),
    ("ir literal of an object", (*W_IR, "parameters", 3, "type", "options", 0, "values"), [{}], "'values'"),
    ("ir default not JSON", (*W_IR, "parameters", 1, "default", "json"), "{", "not JSON text"),
    ("ir default NaN", (*W_IR, "parameters", 1, "default", "json"), "NaN", "not JSON text"),
    ("ir default deep", (*W_IR, "parameters", 1, "default", "json"), "[" * 500 + "]" * 500, "deeper than"),
    ("ir enum values", (*W_IR, "parameters", 2, "type", "values"), "ab", "'values'"),
    ("ir deep lists", (*W_IR, "parameters", 0, "type"), Built(lambda: deep_lists(10_000)), "deeper than"),
    ("ir deep arrays", (*W_IR, "parameters", 0, "type"), Built(lambda: deep_arrays(10_000)), "deeper than"),
    ("ir custom schema", ("tools", CATEGORY, "ir", "parameters", 1, "type", "schema"), "[1]", "not an object"),
    ("ir dangling reference", ("tools", CATEGORY, "ir", "defs", 0, "name"), "Gone", "does not define"),
    ("describe [1, 2]", (*W, "describe"), [1, 2], "'describe' is an array"),
    ("describe module", (*W, "describe", "module"), "elsewhere", "names module 'elsewhere'"),
    ("describe name", (*W, "describe", "name"), "other", "names tool 'other'"),
    ("describe extra key", (*W, "describe", "extra"), 1, "unexpected keys: 'extra'"),
    ("entry sources not in the table", (*W, "sources"), [MODULE, "nowhere"], "'nowhere'"),
    ("entry sources empty", (*W, "sources"), [], "non-empty"),
    ("entry sources twice", (*W, "sources"), [MODULE, MODULE], "twice"),
    ("entry sources without the module", (*W, "sources"), [OTHER], "leaves out the module"),
    ("entry sources not strings", (*W, "sources"), [MODULE, 1], "names 1"),
    ("entry fingerprint short", (*W, "fingerprint"), "0" * 31, "'fingerprint'"),
    ("entry fingerprint upper", (*W, "fingerprint"), "A" * 32, "'fingerprint'"),
    ("entry extra key", (*W, "refused"), "x", "unexpected keys"),
    ("refused entry with ir", ("tools", BROKEN, "ir"), {}, "unexpected keys: 'ir'"),
    ("refused entry with describe", ("tools", BROKEN, "describe"), {}, "unexpected keys: 'describe'"),
    ("entry a string", ("tools", PING), "ping", "tool entry 2 is 'ping'"),
    ("entry qualname junk", ("tools", PING, "qualname"), [], "tool entry 2 ('ping')"),
    ("sources table empty", ("sources",), {}, "non-empty"),
    ("sources table sha upper", ("sources", MODULE, "sha256"), "A" * 64, "'sha256'"),
    ("sources table sha short", ("sources", MODULE, "sha256"), "a" * 63, "'sha256'"),
    ("sources table sha not hex", ("sources", MODULE, "sha256"), "g" * 64, "'sha256'"),
    ("sources table tokens", ("sources", OTHER, "tokens"), "x" * 64, "'tokens'"),
    ("sources table extra key", ("sources", OTHER, "size"), 1, "unexpected keys"),
    ("sources table space", ("sources", "a b"), {"sha256": "a" * 64, "tokens": None}, "dotted module name"),
    ("sources table empty name", ("sources", ""), {"sha256": "a" * 64, "tokens": None}, "dotted module name"),
    ("sources table record", ("sources", OTHER), "x", "not an object"),
    ("seal", ("content_sha256",), "0" * 64 + "\n", "'content_sha256'"),
    ("format True", ("format",), True, "'format' is True"),
    ("ir True", ("ir",), True, "'ir' is True"),
    ("module", ("module",), "other", "belongs to module 'other'"),
    ("top extra key", ("extra",), 1, "unexpected keys"),
    ("NaN in a schema", (*WEATHER_PROPERTIES, "city", "maxLength"), float("nan"), "nan"),
    ("infinity in a schema", (*WEATHER_PROPERTIES, "city", "maxLength"), float("-inf"), "-inf"),
    ("NaN in describe", (*W, "describe", "parameters", "x"), [float("nan")], "nan"),
    ("NaN in the IR", (*W_IR, "parameters", 1, "type", "constraints", "ge"), float("nan"), "nan"),
    ("a tuple in a schema", (*WEATHER_PROPERTIES, "city", "enum"), ("a", "b"), "a Python tuple"),
    ("a set in describe", (*W, "describe", "parameters", "x"), {1}, "a Python set"),
    ("a str subclass", (*W, "describe", "parameters", "x"), type("Text", (str,), {})("x"), "a Python Text"),
    ("non-str key in a schema", (*W, "rendered", "anthropic", "input_schema", 1), "x", "object key 1"),
    ("non-str key in describe", (*W, "describe", "parameters", None), 1, "object key None"),
    ("non-str key in the IR", (*W_IR, 5), 1, "object key 5"),
    ("non-str key in the sources table", ("sources", 5), {"sha256": "a" * 64, "tokens": None}, "source 5"),
    ("non-str key at the top", (5,), 1, "unexpected keys: 5"),
    ("non-str key in an entry", (*W, ("name",)), 1, "unexpected keys: a Python tuple"),
    ("newline in junk", (*W, "describe", "module"), "pkg\nevil", "'pkg\\nevil'"),
]
for _id, _path, _value, _expected in TOP_CASES:
    case(_id, _expected)(set_at(_path, _value))


@case("duplicate qualname", "has an entry already")
def _duplicate(content: dict[str, Any]) -> None:
    content["tools"].append(content["tools"][WEATHER])


@case("ir of another tool", "not of this tool")
def _other_ir(content: dict[str, Any]) -> None:
    content["tools"][WEATHER]["ir"] = content["tools"][PING]["ir"]


@case("a cycle", "deeper than")
def _cycle(content: dict[str, Any]) -> None:
    parameters = content["tools"][WEATHER]["describe"]["parameters"]
    parameters["self"] = parameters


@case("a deep schema", "deeper than")
def _deep_schema(content: dict[str, Any]) -> None:
    content["tools"][WEATHER]["rendered"]["mcp"]["inputSchema"]["x"] = nested(10_000)


@case("content not an object", "the cache is an array")
def _not_an_object(content: dict[str, Any]) -> list[Any]:
    return [content]


class Evil:
    """A key that collides with "name" and fails to compare: only Python-made content has one."""

    def __hash__(self) -> int:
        return hash("name")

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
    content["tools"][WEATHER]["rendered"]["openai:strict"] = "x" * 10_000
    assert problem(content).startswith("tool entry 0 ('get_weather'): rendered 'openai:strict' is 'xxx")
    content = valid()
    content["tools"][WEATHER]["qualname"] = "q" * 10_000
    assert len(problem(content)) <= 400
    content = valid()
    content["tools"][WEATHER]["ir"]["parameters"][0]["type"] = {"kind": "k\n" * 5_000}
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
