"""What the emitted schemas accept and reject, checked with a real JSON Schema validator.

Each family  has a table of ``Case(id, tool, accept, reject)``: the
values are validated (wrapped as ``{"x": value}``, or as whole argument
objects when ``arg=None``) against the tool's schema with
``Draft202012Validator`` and its format checker. ``mode`` picks the schema:
``"canonical"`` (``toolcall.describe``), ``"openai-strict"``
(``emit(fn, "openai", strict=True)``) or ``"anthropic-strict"``. The tables
say what docs/types.md and docs/rendering.md promise, not what the renderer happens to do: a
rejected value is one the dispatcher would turn into an error, an accepted
one is a value it would take.

Format rejections (a malformed date) need jsonschema's checker for that
format; where the running environment lacks it (``date-time`` and ``time``
need rfc3339-validator, ``duration`` needs isoduration) those entries skip
with the reason, and ``test_unchecked_formats_are_still_declared`` makes sure
the ``format`` keyword is there all the same.
"""

from __future__ import annotations

import copy
import importlib
import json
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import toolcall
from tests import semantics_samples as s
from tests.corpus import MODULES, injected, scalars
from toolcall import ToolcallWarning
from toolcall._declarations.tool import declaration_of

FORMAT_CHECKER = Draft202012Validator.FORMAT_CHECKER
# Where jsonschema gets each checker from, for the skip reason.
_FORMAT_PACKAGES = {"date-time": "rfc3339-validator", "time": "rfc3339-validator", "duration": "isoduration"}


class _Absent:
    """The argument is left out: ``{}`` instead of ``{"x": ...}``."""

    def __repr__(self) -> str:
        return "<absent>"


ABSENT = _Absent()


@dataclass(frozen=True)
class Fmt:
    """A value only the ``format`` checker can reject (a well-typed string with a bad format)."""

    format: str
    value: Any


@dataclass(frozen=True)
class Case:
    """A tool and the values its schema must accept and must reject."""

    id: str
    tool: Callable[..., Any]
    accept: tuple[Any, ...] = ()
    reject: tuple[Any, ...] = ()
    mode: str = "canonical"
    arg: str | None = "x"  # None: the values are whole argument objects

    def arguments(self, value: Any) -> Any:
        if self.arg is None:
            return value
        return {} if value is ABSENT else {self.arg: value}


# -- schemas ---------------------------------------------------------------------------------------


def parameters(tool: Callable[..., Any], mode: str) -> dict[str, Any]:
    """The parameters schema of ``tool`` in ``mode``, as plain JSON data."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ToolcallWarning)  # strict losses and toolcall-type findings are expected
        if mode == "canonical":
            schema = toolcall.describe(tool)[0]["parameters"]
        elif mode == "openai-strict":
            function = toolcall.emit(tool, "openai", strict=True)[0]["function"]
            assert function.get("strict") is True, f"{function['name']} fell back to non-strict"
            schema = function["parameters"]
        elif mode == "anthropic-strict":
            definition = toolcall.emit(tool, "anthropic", strict=True)[0]
            assert definition.get("strict") is True, f"{definition['name']} fell back to non-strict"
            schema = definition["input_schema"]
        else:
            raise ValueError(mode)
    return json.loads(json.dumps(schema))


def validator(schema: dict[str, Any]) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FORMAT_CHECKER)


def require_checker(fmt: str) -> None:
    if fmt not in FORMAT_CHECKER.checkers:
        package = _FORMAT_PACKAGES.get(fmt, "its checker package")
        pytest.skip(f"jsonschema has no checker for format {fmt!r} here ({package} is not installed)")


# -- the tables ------------------------------------------------------------------------------------

SCALARS = [
    Case("str", s.t_str, accept=("", "Oslo", "5"), reject=(5, None, True, ["a"], {"a": "b"})),
    # 5.0 -> 5 (JSON Schema counts 5.0 as an integer); True, 1.5 and "5" are expected_integer.
    Case("int", s.t_int, accept=(5, -3, 0, 5.0, 2**63), reject=(True, False, 1.5, "5", None, [5])),
    Case("float", s.t_float, accept=(1.5, 1, -0.25, 0), reject=(True, "1.5", None, [1.5])),
    Case("bool", s.t_bool, accept=(True, False), reject=(0, 1, "true", None)),
    Case("None", s.t_none, accept=(None,), reject=(ABSENT, 0, "", "null", False, [])),
    Case("Any", s.t_any, accept=(None, 0, "a", [1, "b"], {"k": [None]}), reject=(ABSENT,)),
    Case("object", s.t_object, accept=(None, True, 1.5, {"k": {}}), reject=(ABSENT,)),
    Case("Path", s.t_path, accept=("/tmp/a.txt", "rel/b"), reject=(5, None, ["a"])),
]

CHOICES = [
    Case("Literal-str", s.t_literal_str, accept=("s", "l"), reject=("xl", "S", 0, None)),
    Case("Literal-int", s.t_literal_int, accept=(0, 1), reject=(False, True, 2, "0")),
    Case("Literal-mixed", s.t_literal_mixed, accept=(1, "one", True, None), reject=(False, 0, "1", "One", 2)),
    # The wire carries the member's value, never its name.
    Case("Enum-str", s.t_enum_str, accept=("celsius", "fahrenheit"), reject=("CELSIUS", "kelvin", 0)),
    Case("Enum-IntEnum", s.t_enum_int, accept=(1, 3), reject=(0, 4, "1", True, "LOW")),
    Case("Enum-plain-int", s.t_enum_plain_int, accept=(1, 2), reject=(3, "LOW", True)),
    # Mood has an alias member (GLAD = "happy"): its value is listed once, its name is not a value.
    Case("Enum-plain-mixed", s.t_enum_plain_mixed, accept=("happy", "sad", 0.5), reject=("GLAD", "HAPPY", 0, 1.5)),
]

CONTAINERS = [
    Case("list[int]", s.t_list_int, accept=([], [1, -2], [1.0]), reject=("12", [1, "2"], [True], {"0": 1}, None)),
    Case("Sequence[str]", s.t_sequence_str, accept=([], ["a", "b"]), reject=("ab", [1], [None])),
    Case(
        "tuple[int,str]",
        s.t_tuple_int_str,
        accept=([1, "a"], [-1, ""]),
        reject=([1], [1, "a", 2], ["a", 1], [1, 2], [], "1a", {"0": 1, "1": "a"}),
    ),
    Case("tuple[int,...]", s.t_tuple_variadic, accept=([], [1], [1, 2, 3]), reject=([1, "a"], 1, "123")),
    Case("tuple[()]", s.t_tuple_empty, accept=([],), reject=([None], [1], None)),
    Case("set[str]", s.t_set_str, accept=([], ["a", "b"]), reject=(["a", "a"], "ab", [1])),
    # 1 and 1.0 are one JSON number (and one Python set element).
    Case("frozenset[int]", s.t_frozenset_int, accept=([1, 2],), reject=([1, 1], [1, 1.0], [1, "1"])),
    Case("frozenset[pair]", s.t_frozenset_pairs, accept=([[1, 2], [2, 1]],), reject=([[1, 2], [1, 2]], [[1]])),
    Case(
        "dict[str,int]",
        s.t_dict_int,
        accept=({}, {"a": 1, "b": -2, "any key at all": 0}),
        reject=({"a": "1"}, {"a": None}, {"a": 1.5}, [], [["a", 1]], "{}"),
    ),
    Case(
        "Mapping[str,list[str]]",
        s.t_mapping_list,
        accept=({}, {"k": []}, {"k": ["a"]}),
        reject=({"k": "a"}, {"k": [1]}, {"k": None}),
    ),
    Case("dict[str,Any]", s.t_dict_any, accept=({"a": [1, None], "b": {}},), reject=([], "x", None)),
]

ADDRESS = {"street": "Main 1", "city": "Oslo"}

STRUCTURED = [
    Case(
        "TypedDict-total",
        s.t_typeddict_total,
        accept=(ADDRESS, {**ADDRESS, "zip": "0150"}),
        reject=(
            {"street": "Main 1"},  # missing required key
            {**ADDRESS, "country": "NO"},  # unknown key: closed object
            {**ADDRESS, "zip": 150},
            {**ADDRESS, "zip": None},  # NotRequired is optional, not nullable
            {},
            [],
            ["Main 1", "Oslo"],
        ),
    ),
    Case(
        "TypedDict-total=False+Required",
        s.t_typeddict_partial,
        accept=({"email": "a@b.c"}, {"email": "a@b.c", "phone": "+47"}),
        reject=({}, {"phone": "+47"}, {"email": "a@b.c", "fax": "1"}, {"email": None}),
    ),
    Case(
        "TypedDict-inherited+nested",
        s.t_typeddict_inherited,
        accept=(
            {"email": "e", "name": "n", "address": ADDRESS},
            {"email": "e", "phone": "p", "name": "n", "address": {**ADDRESS, "zip": "z"}},
        ),
        reject=(
            {"email": "e", "address": ADDRESS},  # the subclass's own key is required
            {"name": "n", "address": ADDRESS},  # the Required key of the total=False base
            {"email": "e", "name": "n", "address": {"street": "s"}},  # nested missing key
            {"email": "e", "name": "n", "address": {**ADDRESS, "x": 1}},  # nested unknown key
            {"email": "e", "name": "n", "address": ADDRESS, "phone": 5},
        ),
    ),
    Case(
        "TypedDict-Annotated-keys",
        s.t_typeddict_bounds,
        accept=({"guests": 1, "name": "a"}, {"guests": 8, "name": "a", "note": "short"}),
        reject=(
            {"guests": 0, "name": "a"},
            {"guests": 9, "name": "a"},
            {"guests": 2, "name": ""},
            {"guests": 2, "name": "a", "note": "too long"},
            {"name": "a"},  # Required[...] inside a total=False TypedDict
            {"guests": 2},  # Annotated[Required[...], ...]
        ),
    ),
    Case(
        "dataclass",
        s.t_dataclass,
        accept=(
            {"items": []},
            {"items": [{"sku": "a"}], "coupon": None},
            {"items": [{"sku": "a", "qty": 2, "notes": ["gift"]}], "coupon": "C10"},
        ),
        reject=(
            {},
            {"coupon": "C10"},
            {"items": [{}]},  # a field without default is required
            {"items": [{"sku": "a", "qty": "2"}]},
            {"items": [{"sku": "a", "colour": "red"}]},  # closed at depth
            {"items": [], "internal_id": 3},  # field(init=False) is not an argument
        ),
    ),
    Case(
        "dataclass-inherited",
        s.t_dataclass_inherited,
        accept=({"items": []}, {"items": [], "deadline_hour": 9}),
        reject=({"deadline_hour": 9}, {"items": [], "internal_id": 1}, {"items": [], "deadline_hour": "9"}),
    ),
    Case(
        "dataclass-InitVar-kw_only",
        s.t_dataclass_initvar,
        accept=({"start": 1, "scale": 2}, {"start": 1, "scale": 2, "end": 5}),
        reject=({"start": 1}, {"start": 1, "scale": 2, "span": 0}),  # InitVar is required; init=False is not
    ),
    Case(
        "NamedTuple",
        s.t_namedtuple,
        accept=({"lat": 59.9, "lon": 10.7}, {"lat": 0, "lon": 0, "label": "x"}),
        reject=([59.9, 10.7], {"lat": 59.9}, {"lat": 1, "lon": 2, "alt": 3}, {"lat": "1", "lon": 2}),
    ),
]

UUID = "12345678-1234-5678-1234-567812345678"

STRINGS = [
    Case(
        "datetime",
        s.t_datetime,
        accept=("2024-05-01T12:00:00Z", "2024-05-01T12:00:00.5+02:00"),
        reject=(
            5,
            None,
            Fmt("date-time", "yesterday"),
            Fmt("date-time", "2024-05-01"),
            Fmt("date-time", "2024-13-01T00:00:00Z"),
        ),
    ),
    Case(
        "date",
        s.t_date,
        accept=("2024-05-01", "2024-02-29"),
        reject=(20240501, Fmt("date", "2023-02-29"), Fmt("date", "01/05/2024"), Fmt("date", "2024-05-01T00:00:00Z")),
    ),
    Case(
        "time",
        s.t_time,
        accept=("12:30:00Z", "23:59:59.5+01:00"),
        reject=(1230, Fmt("time", "noon"), Fmt("time", "25:00:00Z")),
    ),
    Case(
        "timedelta",
        s.t_timedelta,
        accept=("P1D", "PT1H30M", "P2W"),
        reject=(3600, Fmt("duration", "1 day"), Fmt("duration", "01:00:00"), Fmt("duration", "P")),
    ),
    Case(
        "UUID",
        s.t_uuid,
        accept=(UUID, UUID.upper()),
        reject=(1234, Fmt("uuid", "not-a-uuid"), Fmt("uuid", UUID[:-1]), Fmt("uuid", UUID.replace("-", ""))),
    ),
    # wire.DECIMAL_PATTERN: optional minus, digits, optional fraction, optional exponent.
    Case(
        "Decimal",
        s.t_decimal,
        accept=("1.50", "-2", "0", "1e3", "1.5E-3", "007"),
        reject=(1.5, 2, "abc", ".5", "1.", "+1", "NaN", "Infinity", "1,5", "", " 1", "1_000", "0x10"),
    ),
    Case(
        "string_integer",
        s.t_string_integer,
        accept=("123", "-5", "0", "9007199254740993"),
        reject=(123, "1.0", "", "+5", "1e3", "abc", "12a", " 5", None),
    ),
]

UNIONS = [
    Case("int|None=None", s.t_optional_nullable, accept=(ABSENT, None, 3), reject=("3", 1.5)),
    Case("int|None (required)", s.t_required_nullable, accept=(None, 0), reject=(ABSENT, "0")),
    # Optional but not nullable: the canonical schema does not offer null (the dispatcher is kinder:
    # the dispatcher reads a null for it as "use the default").
    Case("int=3", s.t_optional_plain, accept=(ABSENT, 7), reject=(None, "3")),
    Case("int|str", s.t_union, accept=(1, "a", 2.0), reject=(1.5, None, True, [], ABSENT)),
    Case("Union[int,Union[str,None],int]", s.t_union_nested, accept=(1, "a", None), reject=(1.5, [])),
    Case("list[int]|dict[str,int]", s.t_union_containers, accept=([1], {"a": 1}, []), reject=("1", [None], {"a": "1"})),
]

INDIRECT = [
    Case("NewType(int)", s.t_newtype, accept=(5,), reject=("5", 1.5, True)),
    Case("NewType(NewType(int))", s.t_newtype_chain, accept=([1, 2],), reject=(["1"], 1)),
    Case("TypeVar-constraints", s.t_typevar_constraints, accept=(1, 1.5, -2), reject=("1", True, None)),
    Case("TypeVar-bound-str", s.t_typevar_bound, accept=("a",), reject=(1, None)),
    Case("TypeVar-bound-class", s.t_typevar_bound_class, accept=({"lat": 1, "lon": 2},), reject=({"lat": 1}, "x")),
    Case("TypeVar-unbounded", s.t_typevar_unbounded, accept=(None, 1, "a", [1], {"k": 1}), reject=(ABSENT,)),
    Case("TypeAliasType-generic", s.t_alias_generic, accept=([1, 2],), reject=([1], [1, 2, 3], [1, "2"])),
    Case("alias-plain-generic", s.t_alias_plain_generic, accept=([], [[1.5], [2]]), reject=([1.5], [["a"]])),
    Case("TypeAliasType-union", s.t_alias_union, accept=(1, "a"), reject=(1.5, None)),
    Case("alias-dict", s.t_alias_map, accept=({"a": 1.5},), reject=({"a": "1"},)),
]

CATEGORY_LEAF = {"name": "leaf", "children": []}

RECURSIVE = [
    Case(
        "recursive-alias",
        s.t_recursive_alias,
        accept=(1, [], [1, [2, [3, [4]]]]),
        reject=("a", None, [1, ["a"]], [[[[1.5]]]]),  # rejected at depth: the $ref recurses
    ),
    Case(
        "recursive-TypedDict",
        s.t_recursive_typeddict,
        accept=(CATEGORY_LEAF, {"name": "root", "children": [{"name": "a", "children": [CATEGORY_LEAF]}]}),
        reject=(
            {"name": "root"},
            {"name": "root", "children": [{"name": "a", "children": [{"name": "b"}]}]},
            {"name": "root", "children": [{"name": "a", "children": [{**CATEGORY_LEAF, "x": 1}]}]},
        ),
    ),
    Case(
        "recursive-dataclass",
        s.t_recursive_dataclass,
        accept=({"text": "a"}, {"text": "a", "replies": [{"text": "b", "replies": [{"text": "c"}]}]}),
        reject=({"replies": []}, {"text": "a", "replies": [{"text": "b", "replies": [{"replies": []}]}]}),
    ),
    Case("recursive-optional", s.t_recursive_optional, accept=(ABSENT, None, [1, [2]]), reject=([None], "a")),
]

BOUNDS = [
    Case("ge/le int", s.t_int_range, accept=(1, 12, 6.0), reject=(0, 13, -1, 5.5)),
    Case("gt/lt float", s.t_float_open, accept=(0.5, 0.001), reject=(0, 1, 1.5, -0.5)),
    Case("multiple_of int", s.t_int_multiple, accept=(0, 10, -5), reject=(3, 7.5)),
    Case("multiple_of float", s.t_float_multiple, accept=(1.5, 2, 0), reject=(0.3, 1.25)),
    Case("str lengths+pattern", s.t_str_bounds, accept=("ab", "abcd"), reject=("a", "abcde", "AB", "ab1", 12)),
    # JSON Schema's pattern is a search, not a full match (defaults.py checks defaults the same way).
    Case("str pattern unanchored", s.t_str_pattern_unanchored, accept=("a1b", "7"), reject=("abc", "")),
    Case("list lengths", s.t_list_length, accept=([1], [1, 2]), reject=([], [1, 2, 3])),
    Case("set max_length", s.t_set_length, accept=([], ["a", "b"]), reject=(["a", "b", "c"], ["a", "a"])),
    Case("tuple[int,...] min_length", s.t_tuple_length, accept=([1, 2], [1, 2, 3]), reject=([], [1])),
    Case("dict lengths", s.t_dict_length, accept=({"a": 1}, {"a": 1, "b": 2}), reject=({}, {"a": 1, "b": 2, "c": 3})),
    Case("list item bounds", s.t_list_item_bounds, accept=([], [0, 5]), reject=([1, -1],)),
    Case("dict value bounds", s.t_dict_value_bounds, accept=({"a": "abc"},), reject=({"a": "abcd"},)),
    Case("Annotated[int|None, ge]", s.t_optional_bounded, accept=(ABSENT, None, 0), reject=(-1,)),
    Case("Annotated[int, ge]|None", s.t_bounded_optional, accept=(ABSENT, None, 0), reject=(-1,)),
    Case("stacked Annotated", s.t_stacked_bounds, accept=(0, 10), reject=(-1, 11)),
    Case("bounded alias items", s.t_bounded_alias_items, accept=([0, 100, 50.5],), reject=([101], [-0.5])),
    Case("at.Gt+at.MultipleOf", s.t_at_gt_multiple, accept=(5, 10), reject=(0, -5, 7)),
    Case("at.Interval", s.t_at_interval, accept=(0, 0.99), reject=(1, -0.01)),
    Case("at.Len|None", s.t_at_len_optional, accept=(None, "ab", "abcd"), reject=("a", "abcde", ABSENT)),
    Case("at.MinLen+MaxLen items", s.t_at_nested_lengths, accept=(["ab"], ["a", "b"]), reject=([], ["abc"])),
    Case(
        "at.Ge/Le/Lt",
        s.t_at_ge_le_lt,
        arg=None,
        accept=({"a": 1, "b": 1, "c": 0.99},),
        reject=({"a": 0, "b": 1, "c": 0}, {"a": 1, "b": 2, "c": 0}, {"a": 1, "b": 1, "c": 1}),
    ),
    # Bounds JSON Schema cannot put on a string (enforced by the dispatcher, noted in the description):
    # the type's own pattern still applies; see test_moved_constraints for the notes.
    Case("string_integer ge (note)", s.t_string_integer_bounded, accept=("0", "7"), reject=(7, "x")),
    Case("Decimal ge/le (note)", s.t_decimal_bounded, accept=("0", "99.5"), reject=(5, "five")),
]

ROOT = [
    # the weather tool, on the corpus function itself.
    Case(
        "root-weather",
        scalars.get_weather,
        arg=None,
        accept=({"city": "Oslo"}, {"city": "Oslo", "days": 5}),
        reject=(
            {},
            {"days": 5},  # a required parameter missing
            {"city": "Oslo", "days": 1.5},
            {"city": "Oslo", "days": "5"},
            {"city": "Oslo", "c": 1},  # an unknown top-level key
            {"city": None},  # null for a required, non-nullable parameter
            [1, 2],
            "Oslo",
            None,
        ),
    ),
    Case("root-no-params", s.t_no_params, arg=None, accept=({},), reject=({"a": 1}, [], None)),
    Case(
        "root-positional",
        s.t_positional,
        arg=None,
        accept=({"width": 1}, {"width": 1, "height": 2, "scale": 0.5, "keep": False}),
        reject=({"height": 2}, {"width": 1, "keep": 1}, {"width": 1, "depth": 1}),
    ),
    Case(
        "**kwargs: str",
        s.t_kwargs_str,
        arg=None,
        accept=({"resource_id": "r"}, {"resource_id": "r", "env": "prod", "team": ""}),
        reject=({"resource_id": "r", "env": 1}, {"resource_id": "r", "env": None}, {"env": "prod"}, {"resource_id": 1}),
    ),
    Case(
        "**kwargs: int|bool",
        s.t_kwargs_union,
        arg=None,
        accept=({}, {"verbose": True, "retries": 3, "debug": False}),
        reject=({"verbose": "yes"}, {"verbose": 3}, {"x": "a"}, {"x": None}, {"x": 1.5}),
    ),
    Case("**kwargs: bounded", s.t_kwargs_bounded, arg=None, accept=({}, {"a": 0}), reject=({"a": -1}, {"a": "1"})),
    Case(
        "Injected",
        s.t_injected,
        arg=None,
        accept=({"table": "t"},),
        reject=({"table": "t", "db": "x"}, {"table": "t", "user": "u"}, {}),
    ),
    Case("Injected-corpus", injected.count_rows, arg=None, accept=({"table": "t"},), reject=({"table": "t", "db": 1},)),
    # An injected name is not an extra key either: Python would bind it to the injected parameter.
    Case(
        "Injected+**kwargs",
        s.t_injected_kwargs,
        arg=None,
        accept=({"table": "t"}, {"table": "t", "env": "x"}),
        reject=({"table": "t", "db": "x"}, {"table": "t", "env": 1}),
    ),
]

COORD = {"lat": 1, "lon": 2}
TRIP = {"route": {"legs": [{"to": COORD}]}}


def _trip(**route: Any) -> dict[str, Any]:
    return {"route": {"legs": [{"to": COORD}], **route}}


NESTED = [
    Case(
        "nested list>TypedDict>dataclass>list>NamedTuple",
        s.t_nested_deep,
        accept=(
            [],
            [TRIP],
            [{**_trip(day="2024-05-01", tags=["a"]), "budget": {"NOK": "10.50"}, "priority": 2}],
            [_trip(day=None, legs=[{"to": {**COORD, "label": "x"}, "mode": "bus"}])],
        ),
        reject=(
            [{"route": {"legs": []}}],  # Annotated min_length on a dataclass field
            [{"route": {"legs": [{"to": {"lat": 1}}]}}],  # missing key five levels down
            [{"route": {"legs": [{"to": {**COORD, "alt": 0}}]}}],  # unknown key five levels down
            [_trip(legs=[{"to": COORD, "mode": "car"}])],
            [_trip(tags=["a", "a"])],
            [{**TRIP, "budget": {"NOK": 10.5}}],
            [{**TRIP, "priority": "HIGH"}],
            [{**TRIP, "extra": 1}],
            Fmt("date", [_trip(day="2024-02-30")]),
        ),
    ),
    Case(
        "nested dict>list>tuple>TypedDict",
        s.t_nested_map,
        accept=({}, {"k": []}, {"k": [[1, ADDRESS], [2, {**ADDRESS, "zip": "1"}]]}),
        reject=(
            {"k": [[1, {"street": "s"}]]},
            {"k": [[1, {**ADDRESS, "x": 1}]]},
            {"k": [["1", ADDRESS]]},
            {"k": [[ADDRESS, 1]]},
            {"k": [[1]]},
            {"k": [1, ADDRESS]},
        ),
    ),
    Case(
        "nested list[TypedDict|None]",
        s.t_nested_optional_items,
        accept=([], [None, ADDRESS]),
        reject=([{}], [ADDRESS, {**ADDRESS, "x": 1}], [ADDRESS, "x"]),
    ),
]

STRICT_SHAPES = {"pair": [1, "a"], "words": [], "fit": None, "when": None, "to": None}
STRICT_BOUNDS = {"guests": 1, "name": "ab", "step": None, "tags": None}
LINE = {"sku": "a", "qty": None, "notes": None}

OPENAI_STRICT = [
    # An optional parameter is required and nullable: null means "use the default".
    Case("int=3", s.t_optional_plain, mode="openai-strict", accept=(None, 3), reject=(ABSENT, "3")),
    Case("int|None=None", s.t_optional_nullable, mode="openai-strict", accept=(None, 3), reject=(ABSENT,)),
    Case("int|None (required)", s.t_required_nullable, mode="openai-strict", accept=(None,), reject=(ABSENT,)),
    Case(
        "TypedDict NotRequired",
        s.t_typeddict_total,
        mode="openai-strict",
        accept=({**ADDRESS, "zip": None}, {**ADDRESS, "zip": "1"}),
        reject=(ADDRESS, {**ADDRESS, "zip": None, "x": 1}, {"street": "s", "city": None, "zip": None}),
    ),
    Case(
        "nested dataclass/NamedTuple defaults",
        s.t_strict_nested,
        mode="openai-strict",
        arg=None,
        accept=({"order": {"items": [LINE], "coupon": None}, "where": {**COORD, "label": None}},),
        reject=(
            {"order": {"items": [{"sku": "a"}], "coupon": None}, "where": {**COORD, "label": None}},
            {"order": {"items": [], "coupon": None}, "where": COORD},
            {"order": {"items": []}, "where": {**COORD, "label": None}},
            {"order": {"items": [], "coupon": None, "internal_id": 1}, "where": {**COORD, "label": None}},
        ),
    ),
    Case(
        "bounds kept",
        s.t_strict_bounds,
        mode="openai-strict",
        arg=None,
        accept=(STRICT_BOUNDS, {"guests": 12, "name": "abcd", "step": 10, "tags": ["a", "b", "c"]}),
        reject=(
            {**STRICT_BOUNDS, "guests": 0},
            {**STRICT_BOUNDS, "name": "a"},
            {**STRICT_BOUNDS, "name": "AB"},
            {**STRICT_BOUNDS, "step": 3},
            {**STRICT_BOUNDS, "tags": ["a"]},
            {"guests": 1, "name": "ab"},
        ),
    ),
    Case(
        "shapes",
        s.t_strict_shapes,
        mode="openai-strict",
        arg=None,
        accept=(STRICT_SHAPES, {**STRICT_SHAPES, "fit": "slim", "when": "2024-05-01", "to": {**ADDRESS, "zip": None}}),
        reject=(
            {**STRICT_SHAPES, "pair": [1]},  # the length survives the tuple rewrite
            {**STRICT_SHAPES, "pair": [1, None]},
            {**STRICT_SHAPES, "fit": "wide"},
            {**STRICT_SHAPES, "to": ADDRESS},  # nested optional key is required too
            {k: v for k, v in STRICT_SHAPES.items() if k != "to"},
            {**STRICT_SHAPES, "extra": 1},
            Fmt("date", {**STRICT_SHAPES, "when": "2024-02-30"}),
        ),
    ),
    Case("Literal-mixed", s.t_literal_mixed, mode="openai-strict", accept=(1, "one", True, None), reject=(False, 2)),
    Case("Enum-plain-mixed", s.t_enum_plain_mixed, mode="openai-strict", accept=("sad", 0.5), reject=("SAD", 1)),
    Case(
        "recursive-TypedDict",
        s.t_recursive_typeddict,
        mode="openai-strict",
        accept=({"name": "r", "children": [CATEGORY_LEAF]},),
        reject=({"name": "r", "children": [{"name": "a"}]},),
    ),
    Case("recursive-optional", s.t_recursive_optional, mode="openai-strict", accept=(None, [1, [2]]), reject=(ABSENT,)),
]

ANTHROPIC_STRICT = [
    # Anthropic strict keeps optional fields optional (and not nullable).
    Case("int=3", s.t_optional_plain, mode="anthropic-strict", accept=(ABSENT, 3), reject=(None, "3")),
    Case("int|None=None", s.t_optional_nullable, mode="anthropic-strict", accept=(ABSENT, None), reject=("3",)),
    Case(
        "TypedDict NotRequired",
        s.t_typeddict_total,
        mode="anthropic-strict",
        accept=(ADDRESS, {**ADDRESS, "zip": "1"}),
        reject=({**ADDRESS, "x": 1}, {"street": "s"}),
    ),
    Case(
        "bounds moved, pattern kept",
        s.t_strict_bounds,
        mode="anthropic-strict",
        arg=None,
        accept=({"guests": 1, "name": "ab"},),
        reject=(
            {"guests": 1, "name": "AB"},
            {"name": "ab"},
            {"guests": 1.5, "name": "ab"},
            {"guests": 1, "name": "ab", "x": 1},
        ),
    ),
    Case(
        "shapes",
        s.t_strict_shapes,
        mode="anthropic-strict",
        arg=None,
        accept=({"pair": [1, "a"], "words": []}, {"pair": [1, "a"], "words": [], "to": ADDRESS}),
        reject=(
            {"pair": [1, None], "words": []},
            {"pair": [1, "a"]},
            {"pair": [1, "a"], "words": [], "to": {"city": "c"}},
        ),
    ),
    Case("Literal-mixed", s.t_literal_mixed, mode="anthropic-strict", accept=(1, None), reject=(False, 2)),
]

CASES = [
    *SCALARS,
    *CHOICES,
    *CONTAINERS,
    *STRUCTURED,
    *STRINGS,
    *UNIONS,
    *INDIRECT,
    *RECURSIVE,
    *BOUNDS,
    *ROOT,
    *NESTED,
    *OPENAI_STRICT,
    *ANTHROPIC_STRICT,
]


def _short(value: Any) -> str:
    if isinstance(value, Fmt):
        return f"{value.format}:{_short(value.value)}"
    if value is ABSENT:
        return "<absent>"
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 48 else text[:45] + "..."


def _params() -> Iterator[Any]:
    for case in CASES:
        for valid, values in ((True, case.accept), (False, case.reject)):
            for value in values:
                verdict = "accept" if valid else "reject"
                yield pytest.param(case, valid, value, id=f"{case.mode}|{case.id}|{verdict}|{_short(value)}")


@pytest.mark.parametrize(("case", "valid", "value"), list(_params()))
def test_schema_semantics(case: Case, valid: bool, value: Any) -> None:
    if isinstance(value, Fmt):
        require_checker(value.format)
        value = value.value
    schema = parameters(case.tool, case.mode)
    arguments = case.arguments(value)
    errors = sorted(validator(schema).iter_errors(arguments), key=lambda e: list(e.absolute_path))
    if valid:
        assert not errors, f"must accept {arguments!r}; {errors[0].message} at {list(errors[0].absolute_path)}"
    else:
        assert errors, f"must reject {arguments!r}, but the schema accepts it: {json.dumps(schema)}"


def test_the_tables_cover_each_case_both_ways() -> None:
    """Every case has something to accept and something to reject (a case that only accepts proves little)."""
    lopsided = [f"{c.mode}|{c.id}" for c in CASES if not (c.accept and c.reject)]
    assert lopsided == []
    ids = [(c.mode, c.id) for c in CASES]
    assert len(ids) == len(set(ids))


# -- formats without a checker -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "fmt"),
    [
        (s.t_datetime, "date-time"),
        (s.t_date, "date"),
        (s.t_time, "time"),
        (s.t_timedelta, "duration"),
        (s.t_uuid, "uuid"),
    ],
    ids=["date-time", "date", "time", "duration", "uuid"],
)
@pytest.mark.parametrize("mode", ["canonical", "openai-strict", "anthropic-strict"])
def test_unchecked_formats_are_still_declared(tool: Callable[..., Any], fmt: str, mode: str) -> None:
    """The ``format`` keyword is there in every mode, whether or not jsonschema can check it here."""
    assert parameters(tool, mode)["properties"]["x"] == {"type": "string", "format": fmt}


# -- what strict modes move into the description ---------------------------------------------------


@dataclass(frozen=True)
class Moved:
    """A rule ``mode`` moves into a description: the text says it, the schema no longer enforces it."""

    id: str
    tool: Callable[..., Any]
    mode: str
    prop: str
    note: str  # must appear in the property's description (case-insensitive)
    now_accepted: dict[str, Any]  # arguments the canonical schema rejects and ``mode`` accepts


MOVED = [
    Moved("range", s.t_strict_bounds, "anthropic-strict", "guests", "between 1 and 12", {"guests": 0, "name": "ab"}),
    Moved("lengths", s.t_strict_bounds, "anthropic-strict", "name", "2 to 4 characters", {"guests": 1, "name": "a"}),
    Moved(
        "multipleOf",
        s.t_strict_bounds,
        "anthropic-strict",
        "step",
        "a multiple of 5",
        {"guests": 1, "name": "ab", "step": 3},
    ),
    Moved(
        "minItems>1",
        s.t_strict_bounds,
        "anthropic-strict",
        "tags",
        "2 to 3 items",
        {"guests": 1, "name": "ab", "tags": ["a"]},
    ),
    Moved(
        "tuple order",
        s.t_strict_shapes,
        "anthropic-strict",
        "pair",
        "items in order: integer, string",
        {"pair": ["a", 1], "words": []},
    ),
    Moved("tuple length", s.t_strict_shapes, "anthropic-strict", "pair", "exactly 2 items", {"pair": [1], "words": []}),
    Moved(
        "uniqueItems",
        s.t_strict_shapes,
        "anthropic-strict",
        "words",
        "items must be unique",
        {"pair": [1, "a"], "words": ["a", "a"]},
    ),
    Moved(
        "tuple order",
        s.t_strict_shapes,
        "openai-strict",
        "pair",
        "items in order: integer, string",
        {**STRICT_SHAPES, "pair": ["a", 1]},
    ),
    Moved(
        "uniqueItems",
        s.t_strict_shapes,
        "openai-strict",
        "words",
        "items must be unique",
        {**STRICT_SHAPES, "words": ["a", "a"]},
    ),
    Moved("maxItems of a set", s.t_set_length, "anthropic-strict", "x", "at most 2 items", {"x": ["a", "b", "c"]}),
    Moved("empty tuple", s.t_tuple_empty, "anthropic-strict", "x", "at most 0 items", {"x": [None]}),
]

# Where no JSON type carries a bound ("else moved into the description"), even the canonical
# schema only says it; the dispatcher enforces it.
NOTED_IN_EVERY_MODE = [
    (s.t_string_integer_bounded, "at least 0", {"x": "-5"}),
    (s.t_decimal_bounded, "between 0 and 100", {"x": "100.5"}),
]


@pytest.mark.parametrize("moved", MOVED, ids=[f"{m.mode}|{m.id}|{m.prop}" for m in MOVED])
def test_moved_constraints(moved: Moved) -> None:
    canonical = parameters(moved.tool, "canonical")
    assert not validator(canonical).is_valid(moved.now_accepted), "the canonical schema must enforce the rule"
    schema = parameters(moved.tool, moved.mode)
    description = schema["properties"][moved.prop].get("description", "")
    assert moved.note in description.lower(), f"{moved.note!r} not in {description!r}"
    errors = list(validator(schema).iter_errors(moved.now_accepted))
    assert not errors, f"expected the moved rule to be unenforced, got {errors[0].message}"


@pytest.mark.parametrize(("tool", "note", "arguments"), NOTED_IN_EVERY_MODE, ids=["string_integer", "Decimal"])
@pytest.mark.parametrize("mode", ["canonical", "openai-strict", "anthropic-strict"])
def test_bounds_on_strings_are_notes(tool: Callable[..., Any], note: str, arguments: dict[str, Any], mode: str) -> None:
    schema = parameters(tool, mode)
    assert note in schema["properties"]["x"].get("description", "").lower()
    assert validator(schema).is_valid(arguments)


def test_openai_strict_moves_the_default_into_the_description() -> None:
    prop = parameters(s.t_optional_plain, "openai-strict")["properties"]["x"]
    assert "default" not in prop
    assert "Default: 3" in prop["description"]


# -- strict fallbacks keep the canonical semantics ---------------------------------------------------

FALLBACKS = [
    (s.t_kwargs_str, "openai"),
    (s.t_kwargs_str, "anthropic"),
    (s.t_dict_int, "openai"),
    (s.t_any, "openai"),
    (s.t_typevar_unbounded, "anthropic"),
    (s.t_recursive_typeddict, "anthropic"),
]


@pytest.mark.parametrize(("tool", "provider"), FALLBACKS, ids=[f"{p}|{t.__name__}" for t, p in FALLBACKS])
def test_a_strict_fallback_is_the_canonical_schema(tool: Callable[..., Any], provider: str) -> None:
    """What strict cannot express falls back to non-strict: same schema, so same accept/reject sets."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ToolcallWarning)
        definition = toolcall.emit(tool, provider, strict=True)[0]
    body = definition["function"] if provider == "openai" else definition
    assert "strict" not in body
    schema = body["parameters"] if provider == "openai" else body["input_schema"]
    assert json.loads(json.dumps(schema)) == parameters(tool, "canonical")


# -- injected parameters never reach a schema ---------------------------------------------------------

INJECTED = [(s.t_injected, ("db", "user")), (s.t_injected_kwargs, ("db",)), (injected.count_rows, ("db", "user"))]
VARIANTS = [
    ("openai", False),
    ("openai", True),
    ("anthropic", False),
    ("anthropic", True),
    ("mcp", False),
    ("mcp", True),
]


@pytest.mark.parametrize(("tool", "names"), INJECTED, ids=[t.__name__ for t, _ in INJECTED])
@pytest.mark.parametrize(
    ("provider", "strict"), VARIANTS, ids=[f"{p}-{'strict' if st else 'plain'}" for p, st in VARIANTS]
)
def test_injected_parameters_are_absent(
    tool: Callable[..., Any], names: tuple[str, ...], provider: str, strict: bool
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ToolcallWarning)
        definition = copy.deepcopy(toolcall.emit(tool, provider, strict=strict)[0])
    schema = (
        definition["function"]["parameters"]
        if provider == "openai"
        else definition.get("input_schema", definition.get("inputSchema"))
    )
    # With **kwargs the schema names injected parameters only to forbid them as extra keys.
    refused = schema.pop("propertyNames", {"not": {"enum": []}})["not"]["enum"]
    if schema.get("additionalProperties") not in (False, None):
        assert set(refused) == set(names)
    text = json.dumps(definition)
    for name in names:
        assert f'"{name}"' not in text


# -- every emitted default is a value its own schema accepts ------------------------------------------


def _with_defaults(node: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    if isinstance(node, dict):
        if "default" in node:
            yield at, node
        for key, value in node.items():
            if key not in ("default", "enum", "const"):
                yield from _with_defaults(value, (*at, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _with_defaults(value, (*at, i))


def _tool_functions(module_name: str) -> dict[str, Callable[..., Any]]:
    """The ``@tool`` functions defined in ``module_name``, by qualname."""
    module = importlib.import_module(module_name)
    return {
        fn.__qualname__: fn
        for fn in vars(module).values()
        if callable(fn) and getattr(fn, "__module__", None) == module_name and declaration_of(fn) is not None
    }


def _default_cases() -> Iterator[Any]:
    for module_name in [*MODULES, s.__name__]:
        for qualname in _tool_functions(module_name):
            for mode in ("canonical", "anthropic-strict"):
                yield pytest.param(module_name, qualname, mode, id=f"{mode}|{module_name}.{qualname}")


@pytest.mark.parametrize(("module_name", "qualname", "mode"), list(_default_cases()))
def test_defaults_satisfy_their_own_schema(module_name: str, qualname: str, mode: str) -> None:
    """A default the schema shows must be a value the schema accepts (out-of-domain ones are dropped)."""
    tool = _tool_functions(module_name)[qualname]
    if mode == "anthropic-strict":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ToolcallWarning)
            if not toolcall.emit(tool, "anthropic", strict=True)[0].get("strict"):
                pytest.skip("falls back to non-strict; the canonical case covers its schema")
    root = parameters(tool, mode)
    for at, subschema in _with_defaults(root):
        body = {k: v for k, v in subschema.items() if k != "default"}
        if "$defs" in root:
            body["$defs"] = root["$defs"]
        errors = list(validator(body).iter_errors(subschema["default"]))
        assert not errors, f"default {subschema['default']!r} at {at} breaks its schema: {errors[0].message}"
