"""run and arun: the weather tool's table in docs/dispatch.md, every error class, every reason code, JSON paths."""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal
import json
import logging
import pathlib
import uuid
from typing import Any

import pytest

import toolcall
from tests import dispatch_tools as tools
from toolcall import Err, Ok
from toolcall.errors import (
    ArgumentErrors,
    ArgumentGap,
    Exited,
    InvalidArgument,
    InvalidArguments,
    MissingArgument,
    NonStringArguments,
    Raised,
    Reason,
    UnknownArguments,
    UnknownTool,
)


def run(name: str, args: Any, **kw: Any) -> Ok[Any] | Err:
    return toolcall.run(tools, name, args, **kw)


def reason(result: Ok[Any] | Err) -> Reason:
    assert isinstance(result, Err), result
    assert isinstance(result.error, InvalidArgument), result.error
    return result.error.reason


# -- the weather tool, as docs/dispatch.md shows it ---------------------------------------------------------------

WEATHER = [
    ({"city": "Oslo"}, Ok({"city": "Oslo", "days": 3, "temp": 21.5})),
    ({}, Err(MissingArgument("city"))),
    ({"days": 5}, Err(MissingArgument("city"))),
    ({"city": "Oslo", "days": 1.5}, Err(InvalidArgument("days", Reason("expected_integer", 1.5)))),
    ({"city": "Oslo", "days": "5"}, Err(InvalidArgument("days", Reason("expected_integer", "5")))),
    ({"city": "Oslo", "c": 1}, Err(UnknownArguments(["c"]))),
    ([1, 2], Err(InvalidArguments([1, 2]))),
    ({"city": "\udcff"}, Err(InvalidArgument("city", Reason("invalid_unicode", "\udcff")))),
]


@pytest.mark.parametrize(("args", "expected"), WEATHER, ids=[repr(a) for a, _ in WEATHER])
def test_weather_table(args: Any, expected: Ok[Any] | Err) -> None:
    assert run("get_weather", args) == expected


def test_the_module_function_and_toolset_forms_route_alike() -> None:
    expected = Ok({"city": "Oslo", "days": 3, "temp": 21.5})
    assert toolcall.run(tools.get_weather, "get_weather", {"city": "Oslo"}) == expected
    assert toolcall.run(toolcall.Toolset(tools), "get_weather", {"city": "Oslo"}) == expected


# -- every error class -----------------------------------------------------------------------------------


def test_unknown_tool_lists_the_known_ones() -> None:
    result = run("nope", {})
    assert isinstance(result, Err)
    assert isinstance(result.error, UnknownTool)
    assert result.error.name == "nope"
    assert "get_weather" in result.error.known
    assert run(["unhashable"], {}) == Err(UnknownTool(["unhashable"], result.error.known))  # type: ignore[arg-type]


@pytest.mark.parametrize("args", [[1, 2], None, "x", 3, 1.5, True, ("city", "Oslo")])
def test_arguments_that_are_not_an_object(args: Any) -> None:
    assert run("get_weather", args) == Err(InvalidArguments(args))


def test_non_string_keys_come_before_unknown_ones() -> None:
    found = run("get_weather", {"city": "Oslo", 1: 2, "c": 3})
    assert found == Err(ArgumentErrors([NonStringArguments([1]), UnknownArguments(["c"])]))


def test_unknown_keys_come_before_missing_and_invalid_ones() -> None:
    assert run("get_weather", {"c": 1}) == Err(ArgumentErrors([UnknownArguments(["c"]), MissingArgument("city")]))
    invalid = InvalidArgument("city", Reason("expected_string", 5))
    assert run("get_weather", {"city": 5, "c": 1}) == Err(ArgumentErrors([UnknownArguments(["c"]), invalid]))


def test_unknown_arguments_name_the_accepted_ones() -> None:
    result = run("get_weather", {"city": "Oslo", "c": 1})
    assert isinstance(result, Err)
    assert isinstance(result.error, UnknownArguments)
    assert result.error.accepted == ("city", "days")
    injected = run("query", {"sql": "x", "db": "evil"}, context={"db": object()})
    assert isinstance(injected, Err)
    assert isinstance(injected.error, UnknownArguments)
    assert injected.error.accepted == ("sql",)  # an injected parameter is not the model's to send


def test_null_for_a_required_non_nullable_argument_is_invalid() -> None:
    assert run("get_weather", {"city": None}) == Err(InvalidArgument("city", Reason("expected_string", None)))


def test_null_rules() -> None:
    # required nullable: None is passed; optional nullable: None is passed; optional non-nullable: the default.
    assert run("nullable", {"x": None}) == Ok((None, 5, 7))
    assert run("nullable", {"x": 1, "y": None, "z": None}) == Ok((1, None, 7))
    assert run("nullable", {}) == Err(MissingArgument("x"))


def test_positional_only_gap() -> None:
    assert run("positional", {"a": 1}) == Ok((1, 2, 3, 4))
    assert run("positional", {"a": 1, "c": 9, "d": 8}) == Ok((1, 2, 9, 8))  # keyword-capable never gap
    assert run("two_optional_positional", {"b": 5}) == Err(ArgumentGap("a", ["b"]))
    assert run("two_optional_positional", {"a": 5}) == Ok((5, 2))
    assert run("two_optional_positional", {}) == Ok((1, 2))


def test_keyword_only_and_extras() -> None:
    assert run("extras", {"name": "n", "x": 1, "y": 2.0}) == Ok({"name": "n", "labels": {"x": 1, "y": 2}})
    assert reason(run("extras", {"name": "n", "x": "1"})) == Reason("expected_integer", "1")
    assert run("extras", {"name": "n", 5: 1}) == Err(NonStringArguments([5]))


def test_injected_parameters_come_from_context_never_from_the_model() -> None:
    connection = object()
    assert run("query", {"sql": "select 1"}, context={"db": connection}) == Ok(("select 1", connection))
    assert run("query", {"sql": "x", "db": "evil"}, context={"db": connection}) == Err(UnknownArguments(["db"]))
    with pytest.raises(TypeError, match=r"injected parameter 'db' needs a value"):
        run("query", {"sql": "x"})


def test_exception_is_raised_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="toolcall"):
        assert run("fails", {"kind": "value"}) == Err(Raised("ValueError", "bad value"))
    (record,) = [r for r in caplog.records if r.name == "toolcall"]
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None
    assert record.exc_info[0] is ValueError


def test_recursion_error_inside_the_tool_is_raised() -> None:
    result = run("fails", {"kind": "recursion"})
    assert isinstance(result, Err)
    assert isinstance(result.error, Raised)
    assert result.error.type == "RecursionError"


def test_system_exit_is_exited_and_interrupt_propagates() -> None:
    assert run("fails", {"kind": "exit"}) == Err(Exited(3))
    with pytest.raises(KeyboardInterrupt):
        run("fails", {"kind": "interrupt"})


def test_every_error_has_a_one_line_message_and_json() -> None:
    errors = [
        run("nope", {}),
        run("get_weather", {"city": "Oslo", "c": 1}),
        run("get_weather", {"city": "Oslo", 1: 1}),
        run("get_weather", [1]),
        run("get_weather", {}),
        run("two_optional_positional", {"b": 1}),
        run("get_weather", {"city": 5}),
        run("get_weather", {"city": 5, "days": "x"}),
        run("fails", {"kind": "value"}),
        run("fails", {"kind": "exit"}),
    ]
    names = []
    for result in errors:
        assert isinstance(result, Err)
        text = str(result.error)
        assert text
        assert "\n" not in text
        data = result.error.to_json()
        json.dumps(data)
        names.append(data["error"])
    assert names == [
        "unknown_tool",
        "unknown_arguments",
        "non_string_arguments",
        "invalid_arguments",
        "missing_argument",
        "argument_gap",
        "invalid_argument",
        "argument_errors",
        "raised",
        "exited",
    ]


def test_error_json_is_safe_for_surrogates_and_objects() -> None:
    result = run("get_weather", {"city": "\udcff", "\ud800": object()})
    assert isinstance(result, Err)
    text = json.dumps(result.error.to_json(), ensure_ascii=False)
    text.encode("utf-8")  # no lone surrogate left in it


# -- every reason code, with its JSON path ---------------------------------------------------------------

REASONS = [
    ({"s": 5}, "s", "expected_string", ()),
    ({"s": "a\ud800b"}, "s", "invalid_unicode", ()),
    ({"i": True}, "i", "expected_integer", ()),
    ({"i": 1.5}, "i", "expected_integer", ()),
    ({"f": True}, "f", "expected_number", ()),
    ({"f": "1.5"}, "f", "expected_number", ()),
    ({"b": 0}, "b", "expected_boolean", ()),
    ({"b": "true"}, "b", "expected_boolean", ()),
    ({"n": 0}, "n", "expected_null", ()),
    ({"lit": "b"}, "lit", "not_in_enum", ()),
    ({"color": "blue"}, "color", "not_in_enum", ()),
    ({"items": "123"}, "items", "expected_array", ()),
    ({"items": [1, "2"]}, "items", "expected_integer", (1,)),
    ({"pair": [1]}, "pair", "wrong_length", ()),
    ({"pair": [1, 2]}, "pair", "expected_string", (1,)),
    ({"tags": ["a", "a"]}, "tags", "duplicate_items", ()),
    ({"scores": []}, "scores", "expected_object", ()),
    ({"scores": {"x": "high"}}, "scores", "expected_number", ("x",)),
    ({"lines": [{"sku": "a", "qty": 1}, {"sku": "b"}]}, "lines", "missing_field", (1, "qty")),
    ({"lines": [{"sku": "a", "qty": 1, "extra": 1}]}, "lines", "unknown_fields", (0,)),
    ({"lines": [{"sku": "a", "qty": 0}]}, "lines", "out_of_range", (0, "qty")),
    ({"box": {"height": 2}}, "box", "missing_field", ("width",)),
    ({"nt": {"left": "x"}}, "nt", "expected_integer", ("left",)),
    ({"when": "yesterday"}, "when", "invalid_datetime", ()),
    ({"day": "2024-02-30"}, "day", "invalid_date", ()),
    ({"at": "25:00"}, "at", "invalid_time", ()),
    ({"wait": "P1Y"}, "wait", "invalid_duration", ()),
    ({"key": "not-a-uuid"}, "key", "invalid_uuid", ()),
    ({"price": "1,5"}, "price", "invalid_decimal", ()),
    ({"price": 1.5}, "price", "invalid_decimal", ()),
    ({"either": [1]}, "either", "no_match", ()),
    ({"short": "a"}, "short", "too_short", ()),
    ({"short": "abcde"}, "short", "too_long", ()),
    ({"code": "abc"}, "code", "pattern_mismatch", ()),
    ({"big": 5}, "big", "expected_integer", ()),
    ({"big": "1.0"}, "big", "expected_integer", ()),
    ({"anything": {"k": ["\udc80"]}}, "anything", "invalid_unicode", ("k", 0)),
]


@pytest.mark.parametrize(("args", "name", "code", "path"), REASONS, ids=[f"{c}-{a}" for a, _, c, _ in REASONS])
def test_reason_codes_and_paths(args: dict[str, Any], name: str, code: str, path: tuple[Any, ...]) -> None:
    result = run("echo", args)
    assert isinstance(result, Err), result
    assert isinstance(result.error, InvalidArgument), result.error
    assert result.error.name == name
    assert result.error.reason.code == code
    assert result.error.reason.path == path
    assert str(result.error)


def test_no_match_reports_each_branch() -> None:
    found = reason(run("echo", {"either": [1]}))
    assert [b.code for b in found.branches] == ["expected_integer", "expected_string"]


# -- what the function receives ------------------------------------------------------------------------


def test_wire_shapes_are_restored() -> None:
    result = run(
        "echo",
        {
            "i": 5.0,
            "f": 1,
            "lit": 1.0,
            "color": "green",
            "pair": [1, "x"],
            "tags": ["a", "b"],
            "lines": [{"sku": "a", "qty": 2}],
            "box": {"width": 2},
            "nt": {"left": 1},
            "when": "2024-05-01T12:30:00Z",
            "day": "2024-05-01",
            "at": "12:30",
            "wait": "P1DT2H",
            "key": "123e4567-e89b-12d3-a456-426614174000",
            "price": "12.50",
            "path": "a/b",
            "either": "x",
            "big": "123456789012345678901234567890",
        },
    )
    assert isinstance(result, Ok), result
    got = result.value
    assert got["i"] == 5
    assert type(got["i"]) is int
    assert got["f"] == 1.0
    assert type(got["f"]) is float
    assert got["lit"] == 1
    assert got["color"] is tools.Color.GREEN
    assert got["pair"] == (1, "x")
    assert got["tags"] == {"a", "b"}
    assert got["lines"] == [{"sku": "a", "qty": 2}]
    assert got["box"] == tools.Box(2.0, 1.0)
    assert type(got["box"].width) is float
    assert got["nt"] == tools.Pair(1, 0)
    assert got["when"] == dt.datetime(2024, 5, 1, 12, 30, tzinfo=dt.UTC)
    assert got["day"] == dt.date(2024, 5, 1)
    assert got["at"] == dt.time(12, 30)
    assert got["wait"] == dt.timedelta(days=1, hours=2)
    assert got["key"] == uuid.UUID("123e4567-e89b-12d3-a456-426614174000")
    assert got["price"] == decimal.Decimal("12.50")
    assert got["path"] == pathlib.Path("a/b")
    assert got["either"] == "x"
    assert got["big"] == 123456789012345678901234567890


def test_union_prefers_the_exact_json_kind() -> None:
    @toolcall.tool
    def pick(a: int | float, b: float | int, c: str | int) -> tuple[Any, Any, Any]:
        """Doc."""
        return (a, b, c)

    assert toolcall.run(pick, "pick", {"a": 5.0, "b": 5, "c": "5"}) == Ok((5.0, 5, "5"))
    result = toolcall.run(pick, "pick", {"a": 5, "b": 5.5, "c": 5})
    assert isinstance(result, Ok)
    assert [type(v) for v in result.value] == [int, float, int]


def test_dataclass_init_failure_is_invalid_value() -> None:
    assert run("take_positive", {"p": {"value": 3}}) == Ok(3)
    found = reason(run("take_positive", {"p": {"value": -1}}))
    assert found.code == "invalid_value"
    assert "must be positive" in found.detail


def test_hostile_input_nesting_ends_as_an_error() -> None:
    deep: Any = "x"
    for _ in range(100_000):
        deep = [deep]
    result = run("echo", {"anything": deep})
    assert isinstance(result, Err)
    assert isinstance(result.error, InvalidArgument)
    assert result.error.reason.code == "too_deep"


# -- async -------------------------------------------------------------------------------------------


def test_arun_awaits_async_tools_and_calls_sync_ones() -> None:
    async def main() -> list[Ok[Any] | Err]:
        return [
            await toolcall.arun(tools, "slow_add", {"a": 1, "b": 2}),
            await toolcall.arun(tools, "get_weather", {"city": "Oslo"}),
            await toolcall.arun(tools, "slow_add", {"a": "1", "b": 2}),
            await toolcall.arun(tools, "fails", {"kind": "value"}),
        ]

    added, weather, bad, raised = asyncio.run(main())
    assert added == Ok(3)
    assert weather == Ok({"city": "Oslo", "days": 3, "temp": 21.5})
    assert isinstance(bad, Err)
    assert isinstance(bad.error, InvalidArgument)
    assert raised == Err(Raised("ValueError", "bad value"))


def test_arun_runs_thread_tools_in_a_worker_thread() -> None:
    import threading

    main_thread = threading.current_thread().name
    inline = asyncio.run(toolcall.arun(tools, "get_weather", {"city": "x"}))
    threaded = asyncio.run(toolcall.arun(tools, "threaded", {"a": 1}))
    assert isinstance(inline, Ok)
    assert isinstance(threaded, Ok)
    assert threaded.value != main_thread
    assert toolcall.run(tools, "threaded", {"a": 1}) == Ok(main_thread)  # run calls directly


def test_run_drives_an_async_tool_outside_a_loop_and_refuses_inside_one() -> None:
    assert run("slow_add", {"a": 2, "b": 3}) == Ok(5)

    async def inside() -> None:
        with pytest.raises(RuntimeError, match="arun"):
            run("slow_add", {"a": 2, "b": 3})

    asyncio.run(inside())


# -- generated code never spells a tool's strings ------------------------------------------------------


def test_hostile_names_and_params_are_never_interpolated() -> None:
    from typing import Annotated, TypedDict

    from toolcall import Param
    from toolcall._toolset.toolset import as_toolset, find_tool

    evil = "'); import os; os._exit(9) #"
    pattern = "[\"'];import os|.*"
    hostile_key = 'x"]; raise SystemExit(7); v["'
    Hostile = TypedDict("Hostile", {hostile_key: int, "ok\\": Annotated[str, Param(pattern=pattern)]})  # type: ignore[misc]

    namespace: dict[str, Any] = {"Hostile": Hostile, "toolcall": toolcall, "Annotated": Annotated, "Param": Param}
    exec(
        "@toolcall.tool(name='hostile-tool', description=" + repr(evil) + ")\n"
        "def f(value: Annotated[Hostile, Param(description=" + repr(evil) + ")], **rest: int) -> object:\n"
        "    return (value, rest)\n",
        namespace,
    )
    fn = namespace["f"]
    args = {"value": {hostile_key: 1, "ok\\": "y"}, evil: 2}
    assert toolcall.run(fn, "hostile-tool", args) == Ok(({hostile_key: 1, "ok\\": "y"}, {evil: 2}))
    source = find_tool(as_toolset(fn), "hostile-tool").binder().source
    assert evil not in source
    assert pattern not in source
    # Field names may appear, but only as escaped string literals.
    assert "SystemExit(7)" not in source.replace(repr(hostile_key), "")


# -- a list of TypedDicts of scalars: items sent exactly right take a short path -------------------


def _row(**changes: Any) -> dict[str, Any]:
    return {"name": "a", "qty": 1, "price": 1.5, "done": False, "gone": None, **changes}


def test_rows_sent_exactly_right_arrive_as_sent() -> None:
    rows = [_row(), _row(name="é"), _row(note=3), _row(done=True)]
    result = run("take_rows", {"rows": rows})
    assert isinstance(result, Ok), result
    assert result.value is rows
    assert all(a is b for a, b in zip(result.value, rows, strict=True))


def test_a_row_that_needs_converting_is_copied_and_the_rest_pass_as_sent() -> None:
    rows = [_row(), _row(qty=2.0, price=2), _row()]
    result = run("take_rows", {"rows": rows})
    assert isinstance(result, Ok), result
    got = result.value
    assert got is not rows
    assert got[0] is rows[0]
    assert got[2] is rows[2]
    assert got[1] == _row(qty=2, price=2.0)
    assert type(got[1]["qty"]) is int
    assert type(got[1]["price"]) is float


ROW_FAILURES = [
    (_row(qty="1"), "expected_integer", (1, "qty")),
    (_row(qty=True), "expected_integer", (1, "qty")),
    (_row(price="1.5"), "expected_number", (1, "price")),
    (_row(done=0), "expected_boolean", (1, "done")),
    (_row(gone=0), "expected_null", (1, "gone")),
    (_row(name="\udc80"), "invalid_unicode", (1, "name")),
    (_row(note="x"), "expected_integer", (1, "note")),
    ({"name": "a", "qty": 1, "price": 1.5, "done": False}, "missing_field", (1, "gone")),
    ({**_row(), "extra": 1}, "unknown_fields", (1,)),
    ({"name": "a", "qty": 1, "price": 1.5, "done": False, "extra": None}, "unknown_fields", (1,)),
    ([("name", "a")], "expected_object", (1,)),
]


@pytest.mark.parametrize(("bad", "code", "path"), ROW_FAILURES, ids=[c for _, c, _ in ROW_FAILURES])
def test_a_wrong_row_is_refused_at_its_path(bad: Any, code: str, path: tuple[Any, ...]) -> None:
    found = reason(run("take_rows", {"rows": [_row(), bad, _row()]}))
    assert (found.code, found.path) == (code, path)


def test_a_dict_subclass_row_is_read_as_a_plain_dict() -> None:
    class Sneaky(dict[str, Any]):
        def __getitem__(self, key: str) -> Any:
            raise AssertionError("a dict subclass is read through dict")

    got = run("take_rows", {"rows": [Sneaky(_row())]})
    assert isinstance(got, Ok)
    assert type(got.value[0]) is dict
    assert got.value[0] == _row()
