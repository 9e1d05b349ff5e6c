"""Every problem of a call at once (``ArgumentErrors``), the accepted names, and ``MalformedArguments``.

A call with more than one argument problem gets ``ArgumentErrors`` holding
each, in a fixed order: non-string keys, unknown keys, parameters in
declaration order, ``**kwargs`` extras as sent, then gaps; a single problem
keeps its own class. ``UnknownArguments`` and nested ``unknown_fields``
reasons name what the tool accepts. ``MalformedArguments`` is what an
adapter returns for an arguments string that is not JSON.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from typing import Annotated, Any, TypedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolcall
from tests.dispatch_tools import Box, Pair, get_weather
from toolcall import Err, Injected, Ok
from toolcall.errors import (
    MAX_MESSAGE_LENGTH,
    ArgumentErrors,
    ArgumentGap,
    InvalidArgument,
    MalformedArguments,
    MissingArgument,
    NonStringArguments,
    Reason,
    ToolError,
    UnknownArguments,
)

# -- the tools ------------------------------------------------------------------------------------------


@toolcall.tool
def three(a: int, b: str, c: float = 0.0) -> tuple[int, str, float]:
    """Three parameters."""
    return (a, b, c)


@toolcall.tool
def labelled(name: str, **labels: int) -> dict[str, Any]:
    """Extra keyword arguments."""
    return {"name": name, "labels": labels}


@toolcall.tool
def gaps(a: int = 1, b: int = 2, c: int = 3, /) -> tuple[int, int, int]:
    """Optional positional-only parameters."""
    return (a, b, c)


@toolcall.tool
def query(sql: str, limit: int, db: Annotated[object, Injected]) -> tuple[str, int, object]:
    """A tool with an injected connection."""
    return (sql, limit, db)


class Line(TypedDict):
    sku: str
    qty: int


@toolcall.tool
def shapes(
    line: Line | None = None, box: Box | None = None, pair: Pair | None = None, either: Line | Box | None = None
) -> None:
    """Objects of each kind."""


#: How many times ``Counted`` was built: each value must be checked once per call.
BUILT: list[int] = []


@dataclasses.dataclass
class Counted:
    n: int

    def __post_init__(self) -> None:
        BUILT.append(self.n)


@toolcall.tool
def counted(first: Counted, second: int, third: Counted) -> None:
    """Two objects whose construction is counted, around a plain integer."""


@toolcall.tool(thread=True)
def threaded(a: int, b: int) -> int:
    """A sync tool that arun runs in a worker thread."""
    return a + b


@toolcall.tool
async def awaited(a: int, b: int) -> int:
    """An async tool."""
    return a + b


@toolcall.tool
def deep(x: Any, y: Any) -> None:
    """Two values of any shape."""


def run(tool: Any, args: Any, **kw: Any) -> Ok[Any] | Err:
    return toolcall.run(tool, tool.__name__, args, **kw)


def problems(result: Ok[Any] | Err) -> tuple[ToolError, ...]:
    assert isinstance(result, Err), result
    assert isinstance(result.error, ArgumentErrors), result.error
    return result.error.errors


# -- every problem at once, in order ---------------------------------------------------------------------


def test_every_kind_of_problem_in_one_call_in_order() -> None:
    result = run(get_weather, {"days": "5", "c": 1, 1: 2, "d": None})
    assert result == Err(
        ArgumentErrors(
            [
                NonStringArguments([1]),
                UnknownArguments(["c", "d"]),
                MissingArgument("city"),
                InvalidArgument("days", Reason("expected_integer", "5")),
            ]
        )
    )
    assert str(result) == (
        '4 problems with the arguments: argument names must be strings, got 1; unknown arguments "c", "d": '
        'send only the parameters the tool declares; the accepted arguments are "city", "days"; '
        'missing required argument "city"; invalid argument "days": expected an integer, got "5"'
    )


def test_one_problem_keeps_its_own_class() -> None:
    assert run(get_weather, {}) == Err(MissingArgument("city"))
    assert run(get_weather, {"city": "Oslo", "c": 1}) == Err(UnknownArguments(["c"]))
    assert run(get_weather, {"city": "Oslo", 1: 1}) == Err(NonStringArguments([1]))
    assert run(get_weather, {"city": 5}) == Err(InvalidArgument("city", Reason("expected_string", 5)))
    assert run(gaps, {"c": 1, "b": 2}) == Err(ArgumentGap("a", ["b", "c"]))


def test_parameters_come_in_declaration_order_whatever_order_they_were_sent_in() -> None:
    result = run(three, {"c": "x", "b": 2, "a": "1"})
    assert [(e.name, e.reason.code) for e in problems(result)] == [  # type: ignore[union-attr]
        ("a", "expected_integer"),
        ("b", "expected_string"),
        ("c", "expected_number"),
    ]
    assert run(three, {}) == Err(ArgumentErrors([MissingArgument("a"), MissingArgument("b")]))


def test_a_null_for_an_optional_parameter_is_still_its_default_among_other_problems() -> None:
    assert run(three, {"a": "x", "b": 2, "c": None}) == Err(
        ArgumentErrors(
            [
                InvalidArgument("a", Reason("expected_integer", "x")),
                InvalidArgument("b", Reason("expected_string", 2)),
            ]
        )
    )


def test_extras_come_after_the_parameters_in_the_order_sent() -> None:
    result = run(labelled, {"x": "1", "name": 5, "y": 2, "z": "3", "\udc80": 4})
    assert result == Err(
        ArgumentErrors(
            [
                InvalidArgument("name", Reason("expected_string", 5)),
                InvalidArgument("x", Reason("expected_integer", "1")),
                InvalidArgument("z", Reason("expected_integer", "3")),
                InvalidArgument("\udc80", Reason("invalid_unicode", "\udc80")),
            ]
        )
    )


def test_extras_after_the_first_bad_one_are_each_reported_once() -> None:
    # The first bad extra stops the generated check; the rest are gathered from the next one on.
    result = run(labelled, {"name": "n", "a": 1, "x": "1", "b": 2, "y": "2", "z": "3"})
    assert [e.name for e in problems(result)] == ["x", "y", "z"]  # type: ignore[union-attr]
    assert run(labelled, {"name": "n", "x": "1"}) == Err(InvalidArgument("x", Reason("expected_integer", "1")))


def test_unknown_keys_with_extras_are_the_injected_names_and_non_strings() -> None:
    @toolcall.tool
    def tagged(db: Annotated[object, Injected], **tags: str) -> dict[str, str]:
        """Tags, and an injected connection."""
        return tags

    result = run(tagged, {"db": "x", 1: "y", "t": 5}, context={"db": object()})
    assert result == Err(
        ArgumentErrors(
            [NonStringArguments([1]), UnknownArguments(["db"]), InvalidArgument("t", Reason("expected_string", 5))]
        )
    )


def test_gaps_come_last() -> None:
    assert run(gaps, {"b": "x"}) == Err(
        ArgumentErrors([InvalidArgument("b", Reason("expected_integer", "x")), ArgumentGap("a", ["b"])])
    )
    assert run(gaps, {"c": 3, "d": 4}) == Err(
        ArgumentErrors([UnknownArguments(["d"]), ArgumentGap("a", ["c"]), ArgumentGap("b", ["c"])])
    )
    assert run(gaps, {"c": 3}) == Err(ArgumentErrors([ArgumentGap("a", ["c"]), ArgumentGap("b", ["c"])]))
    assert run(gaps, {"a": 1, "c": 3}) == Err(ArgumentGap("b", ["c"]))
    assert run(gaps, {"a": 1, "b": 2, "c": 3}) == Ok((1, 2, 3))


def test_each_value_is_checked_once_per_call() -> None:
    BUILT.clear()
    result = run(counted, {"first": {"n": 1}, "second": "x", "third": {"n": 3}})
    assert result == Err(InvalidArgument("second", Reason("expected_integer", "x")))
    assert BUILT == [1, 3]
    BUILT.clear()
    result = run(counted, {"first": {"n": "1"}, "second": "x", "third": {"n": 3}, "fourth": 4})
    assert len(problems(result)) == 3
    assert BUILT == [3]


def test_arun_reports_every_problem_too() -> None:
    async def main() -> list[Ok[Any] | Err]:
        return [
            await toolcall.arun(threaded, "threaded", {"a": "1", "b": "2"}),
            await toolcall.arun(awaited, "awaited", {"a": "1", "b": "2"}),
            await toolcall.arun(get_weather, "get_weather", {"days": "x"}),
        ]

    expected = ArgumentErrors(
        [InvalidArgument("a", Reason("expected_integer", "1")), InvalidArgument("b", Reason("expected_integer", "2"))]
    )
    on_thread, on_loop, sync = asyncio.run(main())
    assert on_thread == Err(expected)
    assert on_loop == Err(expected)
    assert sync == Err(
        ArgumentErrors([MissingArgument("city"), InvalidArgument("days", Reason("expected_integer", "x"))])
    )


def test_a_missing_injected_value_still_raises_and_is_not_a_model_problem() -> None:
    with pytest.raises(TypeError, match="injected parameter 'db' needs a value"):
        run(query, {"sql": "x", "limit": 1})
    # The model's own problems are found before the injected value is looked for.
    assert run(query, {"sql": 1, "limit": "x", "k": 0}) == Err(
        ArgumentErrors(
            [
                UnknownArguments(["k"]),
                InvalidArgument("sql", Reason("expected_string", 1)),
                InvalidArgument("limit", Reason("expected_integer", "x")),
            ]
        )
    )


# -- hostile input, per argument ------------------------------------------------------------------------


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


def test_input_too_deep_is_reported_per_argument() -> None:
    result = run(deep, {"x": _nested(100_000), "y": _nested(100_000)})
    assert result == Err(
        ArgumentErrors([InvalidArgument("x", Reason("too_deep")), InvalidArgument("y", Reason("too_deep"))])
    )
    assert str(result) == (
        "2 problems with the arguments: "
        'invalid argument "x": nested too deeply; invalid argument "y": nested too deeply'
    )


class HostileKey:
    """Hashes like a parameter name, so looking that name up compares with it; then raises on ``==``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __hash__(self) -> int:
        return hash(self.name)

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("hostile")

    def __repr__(self) -> str:
        return f"HostileKey({self.name!r})"


def test_a_key_that_breaks_lookups_is_a_non_string_key_and_the_rest_is_still_checked() -> None:
    key = HostileKey("city")
    result = run(get_weather, {key: 1, "days": "x"})
    assert result == Err(
        ArgumentErrors([NonStringArguments([key]), InvalidArgument("days", Reason("expected_integer", "x"))])
    )
    assert run(get_weather, {key: 1}) == Err(NonStringArguments([key]))


def test_an_object_whose_checks_raise_is_invalid_value_beside_the_other_problems() -> None:
    class Broken:
        """An object whose type cannot be checked: its ``__class__`` raises."""

        def __init__(self, value: int) -> None:
            self.value = value

        @property  # type: ignore[misc]
        def __class__(self) -> type:  # type: ignore[override]
            raise RuntimeError("broken")

    @toolcall.tool
    def pick(options: list[int] | None = None, n: int = 0) -> None:
        """A list of integers and a count."""

    broken = Reason("invalid_value", None, (), "not a JSON value (RuntimeError while checking)")
    result = run(pick, {"options": [Broken(1)], "n": Broken(2), "m": 0})
    assert result == Err(
        ArgumentErrors([UnknownArguments(["m"]), InvalidArgument("options", broken), InvalidArgument("n", broken)])
    )


# -- accepted names -----------------------------------------------------------------------------------------


def test_unknown_arguments_name_the_accepted_ones_in_declaration_order() -> None:
    result = run(query, {"sql": "x", "limit": 1, "db": 2, "z": 3}, context={"db": object()})
    assert isinstance(result, Err)
    error = result.error
    assert isinstance(error, UnknownArguments)
    assert error.accepted == ("sql", "limit")
    assert str(error) == (
        'unknown arguments "db", "z": send only the parameters the tool declares; '
        'the accepted arguments are "sql", "limit"'
    )
    assert json.dumps(error.to_json()) == (
        '{"error": "unknown_arguments", "names": ["db", "z"], "accepted": ["sql", "limit"]}'
    )


def test_accepted_takes_no_part_in_equality_and_lists_become_tuples() -> None:
    assert UnknownArguments(["c"]) == UnknownArguments(("c",), ["city", "days"])
    assert UnknownArguments(["c"], ["city"]).accepted == ("city",)
    assert str(UnknownArguments(["c"])) == 'unknown arguments "c": send only the parameters the tool declares'
    assert Reason("unknown_fields", ["x"]) == Reason("unknown_fields", ["x"], accepted=["a"])
    assert Reason("unknown_fields", ["x"], accepted=["a"]).accepted == ("a",)
    assert "accepted" not in Reason("unknown_fields", ["x"]).to_json()


@pytest.mark.parametrize(
    ("args", "name", "path", "accepted"),
    [
        ({"line": {"sku": "a", "qty": 1, "extra": 1}}, "line", (), ("sku", "qty")),
        ({"box": {"width": 1, "depth": 2}}, "box", (), ("width", "height")),
        ({"pair": {"left": 1, "top": 2}}, "pair", (), ("left", "right")),
    ],
    ids=["typeddict", "dataclass", "namedtuple"],
)
def test_unknown_fields_name_the_accepted_fields(
    args: dict[str, Any], name: str, path: tuple[Any, ...], accepted: tuple[str, ...]
) -> None:
    result = run(shapes, args)
    assert isinstance(result, Err)
    assert isinstance(result.error, InvalidArgument)
    reason = result.error.reason
    assert (result.error.name, reason.code, reason.path, reason.accepted) == (name, "unknown_fields", path, accepted)
    shown = ", ".join(f'"{field}"' for field in accepted)
    assert str(result.error).endswith(f"; the accepted fields are {shown}")
    assert list(reason.to_json()) == ["code", "value", "path", "accepted"]
    assert reason.to_json()["accepted"] == list(accepted)


def test_each_union_branch_names_its_own_fields() -> None:
    result = run(shapes, {"either": {"sku": "a", "qty": 1, "width": 2}})
    assert isinstance(result, Err)
    assert isinstance(result.error, InvalidArgument)
    branches = result.error.reason.branches
    assert [(b.code, b.accepted) for b in branches] == [
        ("unknown_fields", ("sku", "qty")),
        ("unknown_fields", ("width", "height")),
    ]
    assert str(result.error) == (
        'invalid argument "either": matches none of the allowed types, got {"sku": "a", "qty": 1, "width": 2}; '
        'as option 1: unknown fields, got ["width"]; the accepted fields are "sku", "qty"; '
        'as option 2: unknown fields, got ["sku", "qty"]; the accepted fields are "width", "height"'
    )


def test_many_accepted_names_are_counted_not_listed() -> None:
    names = [f"field_{i}\u2028" for i in range(10_000)]
    for text in (str(UnknownArguments(["x"], names)), str(Reason("unknown_fields", ["x"], accepted=names))):
        assert len(text) <= MAX_MESSAGE_LENGTH
        assert "\u2028" not in text
        found = re.search(r"… and (\d+) more$", text)
        assert found is not None, text
        assert text.count('"field_') + int(found.group(1)) == 10_000


# -- the message and the JSON of ArgumentErrors -------------------------------------------------------------


def test_argument_errors_json_nests_each_problem() -> None:
    result = run(get_weather, {"days": 1.5, "\udcff": 1})
    assert json.dumps(result.to_json()) == (  # type: ignore[union-attr]
        '{"error": "argument_errors", "errors": ['
        '{"error": "unknown_arguments", "names": ["\\\\udcff"], "accepted": ["city", "days"]}, '
        '{"error": "missing_argument", "name": "city"}, '
        '{"error": "invalid_argument", "name": "days", '
        '"reason": {"code": "expected_integer", "value": 1.5, "path": []}}]}'
    )


def test_one_problem_reads_as_one() -> None:
    assert str(ArgumentErrors([MissingArgument("a")])) == '1 problem with the arguments: missing required argument "a"'


def _one_bounded_line(text: str) -> str:
    assert len(text) <= MAX_MESSAGE_LENGTH, len(text)
    assert len(text.splitlines()) == 1
    text.encode("utf-8")
    # Every backslash starts a whole escape: no cut left half of one.
    assert re.search(r'\\(?!["\\/bfnrt]|u[0-9a-f]{4})', text.replace("\\\\", "")) is None, text
    return text


def test_ten_thousand_problems_are_one_bounded_line_with_a_count() -> None:
    args = {"name": "n", **{f"k{i}": "\u2028" * 50 for i in range(10_000)}}
    result = run(labelled, args)
    text = _one_bounded_line(str(result))
    assert text.startswith('10000 problems with the arguments: invalid argument "k0": expected an integer, got "')
    found = re.search(r"; … and (\d+) more$", text)
    assert found is not None, text
    assert text.count("invalid argument") + int(found.group(1)) == 10_000
    assert len(result.to_json()["errors"]) == 10_000  # type: ignore[union-attr]


@pytest.mark.parametrize("size", [1, 7, 40, 200, 5000])
@pytest.mark.parametrize("char", ["\u2028", "\udcff", "\n", '"', "\\", "é"])
def test_long_problems_are_cut_without_splitting_an_escape(size: int, char: str) -> None:
    value = char * size
    errors_ = [InvalidArgument(f"a{i}", Reason("not_in_enum", value, (value,) * 3)) for i in range(6)]
    text = _one_bounded_line(str(ArgumentErrors(errors_)))
    assert text.startswith('6 problems with the arguments: invalid argument "a0"')


# -- MalformedArguments --------------------------------------------------------------------------------------


def _decode_error(text: str) -> MalformedArguments:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return MalformedArguments(text, exc.msg, exc.pos)
    except RecursionError:
        return MalformedArguments(text, "nested too deeply", -1)
    raise AssertionError("valid JSON")


def test_malformed_arguments_says_where_as_json_does() -> None:
    error = _decode_error('{"city": "Oslo" "days": 3}')
    assert error == MalformedArguments('{"city": "Oslo" "days": 3}', "Expecting ',' delimiter", 16)
    assert str(error) == (
        "the arguments are not valid JSON: Expecting ',' delimiter at line 1, column 17 (position 16); "
        "send one JSON object of named parameters"
    )
    text = '{\n  "city": "Oslo",\n  "days": 3,\n}'
    trailing = _decode_error(text)
    assert json.dumps(trailing.to_json()) == (
        '{"error": "malformed_arguments", "text": "{\\n  \\"city\\": \\"Oslo\\",\\n  \\"days\\": 3,\\n}", '
        f'"message": {json.dumps(trailing.message)}, "position": {trailing.position}}}'
    )


@pytest.mark.parametrize(
    "text",
    ['{\n  "city": "Oslo",\n  "days": 3,\n}', '{"a": 1,\n\n\n "b" 2}', "\n\n  [1, 2", '{"a":\n tru}', "{\r\n 'a': 1}"],
)
def test_the_line_and_column_are_the_ones_json_gives(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    exc = caught.value
    error = MalformedArguments(text, exc.msg, exc.pos)
    assert str(error) == (
        f"the arguments are not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno} (position {exc.pos}); "
        "send one JSON object of named parameters"
    )


def test_malformed_arguments_without_a_place() -> None:
    error = _decode_error("[" * 100_000)
    assert error.position == -1
    assert str(error) == "the arguments are not valid JSON: nested too deeply; send one JSON object of named parameters"
    assert error.to_json()["position"] == -1


def test_malformed_arguments_with_hostile_text_is_one_bounded_line() -> None:
    text = "{\u2028\udcff\n" * 100_000
    error = MalformedArguments(text, "bad\nthing\u2028" * 100, len(text) - 1)
    line = _one_bounded_line(str(error))
    assert line.startswith(r"the arguments are not valid JSON: bad\nthing\u2028bad")
    assert "… (1000 characters) at line 100000, column 4 (position 399999); send one JSON object" in line
    data = error.to_json()
    assert data["text"] == text.replace("\udcff", "\\udcff")
    json.dumps(data, ensure_ascii=False).encode("utf-8")


def test_every_new_error_is_a_tool_error() -> None:
    assert ArgumentErrors in ToolError.__args__  # type: ignore[attr-defined]
    assert MalformedArguments in ToolError.__args__  # type: ignore[attr-defined]
    from toolcall import errors

    assert {"ArgumentErrors", "MalformedArguments"} <= set(errors.__all__)


# -- the order, against a model of the binding rules ------------------------------------------------------


@toolcall.tool
def mixed(
    a: int = 0, b: int = 0, /, c: str = "", *, d: float, ctx: Annotated[object, Injected], **rest: bool
) -> tuple[Any, ...]:
    """Every kind of parameter: positional-only, positional-or-keyword, keyword-only, injected, extras."""
    return (a, b, c, d, rest)


def _accepts(kind: str, value: Any) -> bool:
    if kind == "int":
        return (type(value) is int) or (type(value) is float and value.is_integer())
    if kind == "float":
        return type(value) in (int, float)
    return type(value) is (str if kind == "str" else bool)


def expected_problems(args: dict[Any, Any]) -> list[tuple[str, Any]]:
    """What ``mixed`` should report, as (error class, name), straight from the rules  and §4."""
    out: list[tuple[str, Any]] = []
    if any(type(k) is not str for k in args):
        out.append(("NonStringArguments", None))
    if "ctx" in args:
        out.append(("UnknownArguments", None))
    for name, kind, required in [("a", "int", False), ("b", "int", False), ("c", "str", False), ("d", "float", True)]:
        if name not in args:
            if required:
                out.append(("MissingArgument", name))
        elif not (args[name] is None and not required) and not _accepts(kind, args[name]):
            out.append(("InvalidArgument", name))
    for key, value in args.items():
        extra = type(key) is str and key not in ("a", "b", "c", "d", "ctx")
        if extra and (not _accepts("bool", value) or re.search("[\ud800-\udfff]", key)):  # its name is checked too
            out.append(("InvalidArgument", key))
    if "a" not in args and "b" in args:
        out.append(("ArgumentGap", "a"))
    return out


def _label(error: Any) -> tuple[str, Any]:
    return (type(error).__name__, getattr(error, "name", None) or getattr(error, "missing", None))


_VALUES = st.sampled_from([1, 2.0, 2.5, "s", True, False, None, [1]])


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(args=st.dictionaries(st.sampled_from(["a", "b", "c", "d", "ctx", "x", "y", "\udc80", 1, None]), _VALUES))
def test_the_problems_and_their_order_match_the_rules(args: dict[Any, Any]) -> None:
    result = toolcall.run(mixed, "mixed", args, context={"ctx": "<ctx>"})
    expected = expected_problems(args)
    if not expected:
        assert isinstance(result, Ok), result
        return
    assert isinstance(result, Err), result
    found = result.error.errors if isinstance(result.error, ArgumentErrors) else (result.error,)
    assert [_label(e) for e in found] == expected
    assert isinstance(result.error, ArgumentErrors) == (len(expected) > 1)
