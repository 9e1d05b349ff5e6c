"""Defaults the wire carries as strings: dates, times, durations, UUIDs, Decimals.

The shared rule (``toolcall._wire.strings``, ``isotime.format_duration``),
the default rules that fit a wire string to its parameter, what each
provider emits, the dispatcher reading every emitted default back to the
Python default, and the mypy plugin giving exactly what the runtime gives
(``tests/sources/default_wire_forms.py``; the YAML cases in
``test-data/test-default-wire-forms.yml`` pin its findings at their lines).
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import decimal
import enum
import inspect
import json
import pickle
import re
import shutil
import sys
import textwrap
import uuid
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolcall
from tests.corpus import introspected
from tests.mypy_settings import PYPROJECT_OVERRIDES
from tests.paths import ROOT
from tests.plugin.test_cache_differential import both_sides, compare, report, run_mypy
from tests.plugin.test_plugin_analysis import analyze, module_path
from tests.sources import default_wire_forms as forms
from toolcall import Ok
from toolcall import _ir as ir
from toolcall._findings import DEFAULT
from toolcall._rules import messages
from toolcall._rules.defaults import Fit, Misfit, NotJson, default_for, fit_default, json_of
from toolcall._wire.isotime import format_duration, parse_duration
from toolcall._wire.strings import NoWireString, WireString, wire_string
from toolcall_mypy._analysis.tool import Collected

DATE, DATETIME, INT, STR = ir.Primitive("date"), ir.Primitive("datetime"), ir.Primitive("int"), ir.Primitive("str")
TIME = ir.Primitive("time")
_EARLIER = "an earlier option of the union takes"
DECIMAL = ir.Primitive("decimal")
UTC = dt.UTC
TICKET = "123e4567-e89b-12d3-a456-426614174000"


# -- durations: format_duration, the inverse of parse_duration -------------------------------------


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (dt.timedelta(hours=1), "PT1H"),
        (dt.timedelta(days=1), "P1D"),
        (dt.timedelta(seconds=90), "PT1M30S"),
        (dt.timedelta(seconds=-30), "-PT30S"),
        (dt.timedelta(seconds=0.5), "PT0.5S"),
        (dt.timedelta(days=1, hours=2), "P1DT2H"),
        (dt.timedelta(0), "PT0S"),
        (dt.timedelta(weeks=2), "P14D"),
        (dt.timedelta(minutes=-5), "-PT5M"),
        (dt.timedelta(microseconds=1), "PT0.000001S"),
        (dt.timedelta(microseconds=-1), "-PT0.000001S"),
        (dt.timedelta(days=-1, seconds=-0.25), "-P1DT0.25S"),
        (dt.timedelta(hours=25, seconds=1), "P1DT1H1S"),
        (dt.timedelta.max, "P999999999DT23H59M59.999999S"),
        (dt.timedelta.min, "-P999999999D"),
    ],
)
def test_format_duration_writes_the_natural_form(delta: dt.timedelta, text: str) -> None:
    assert format_duration(delta) == text
    assert parse_duration(text) == delta


@given(st.timedeltas(min_value=dt.timedelta.min, max_value=dt.timedelta.max))
def test_format_duration_reads_back_over_the_whole_range(delta: dt.timedelta) -> None:
    text = format_duration(delta)
    assert parse_duration(text) == delta
    # The natural form: no part that is zero, no trailing zero in a fraction, PT0S only for zero.
    assert re.search(r"(?<![0-9.])0[DHM]|(?<![0-9.])0S|\.[0-9]*0S", text) is None or text == "PT0S"
    assert (text == "PT0S") == (delta == dt.timedelta(0))
    assert text.startswith("-") == (delta < dt.timedelta(0))


# -- the shared rule: value → wire string ---------------------------------------------------------


class _FixedZone(dt.tzinfo):
    """A tzinfo of the user's with a constant offset."""

    def utcoffset(self, when: dt.datetime | None) -> dt.timedelta:
        return dt.timedelta(hours=1)

    def dst(self, when: dt.datetime | None) -> dt.timedelta:
        return dt.timedelta(0)

    def tzname(self, when: dt.datetime | None) -> str:
        return "FIXED"


@pytest.mark.parametrize(
    ("value", "kind", "text"),
    [
        (dt.date(2024, 5, 1), "date", "2024-05-01"),
        (dt.date.min, "date", "0001-01-01"),
        (dt.datetime(2024, 5, 1, 12, 30, tzinfo=UTC), "datetime", "2024-05-01T12:30:00+00:00"),
        (dt.datetime(2024, 5, 1, 0, 0, 0, 1, tzinfo=UTC), "datetime", "2024-05-01T00:00:00.000001+00:00"),
        (
            dt.datetime(2024, 5, 1, tzinfo=dt.timezone(-dt.timedelta(hours=5, minutes=30))),
            "datetime",
            "2024-05-01T00:00:00-05:30",
        ),
        (dt.datetime(2024, 5, 1, tzinfo=_FixedZone()), "datetime", "2024-05-01T00:00:00+01:00"),
        (dt.time(12, 30, tzinfo=UTC), "time", "12:30:00+00:00"),
        (dt.time(9, tzinfo=dt.timezone(dt.timedelta(hours=-3))), "time", "09:00:00-03:00"),
        (dt.time(23, 59, 59, 999999, tzinfo=UTC), "time", "23:59:59.999999+00:00"),
        (dt.timedelta(hours=1), "timedelta", "PT1H"),
        (uuid.UUID(TICKET.upper()), "uuid", TICKET),
        (uuid.UUID(int=0), "uuid", "00000000-0000-0000-0000-000000000000"),
        (decimal.Decimal("12.50"), "decimal", "12.50"),
        (decimal.Decimal(3), "decimal", "3"),
        (decimal.Decimal("-0"), "decimal", "-0"),
        (decimal.Decimal("1E+2"), "decimal", "1E+2"),
        (decimal.Decimal("0.0000001"), "decimal", "1E-7"),
        (decimal.Decimal(0.1), "decimal", "0.1000000000000000055511151231257827021181583404541015625"),  # noqa: RUF032
    ],
)
def test_wire_string_of_each_kind(value: object, kind: str, text: str) -> None:
    wire = wire_string(value)
    assert type(wire) is WireString
    assert (str(wire), wire.kind, wire.value) == (text, kind, value)
    assert json.dumps(wire) == json.dumps(text)
    assert repr(wire) == repr(value)  # messages show the value written, not the string
    assert json.dumps(json_of({"k": [value]})) == json.dumps({"k": [text]})
    for duplicate in (copy.copy(wire), pickle.loads(pickle.dumps(wire))):
        assert (type(duplicate), str(duplicate), duplicate.kind, duplicate.value) == (WireString, text, kind, value)


class _Holiday(dt.date):
    pass


@pytest.mark.parametrize("value", [_Holiday(2024, 12, 25), dt.UTC, "2024-05-01", 3, None, [dt.date(2024, 1, 1)]])
def test_only_values_of_the_exact_classes_have_one(value: object) -> None:
    # A subclass may parse differently; the dispatcher would hand back the base class.
    assert wire_string(value) is None


@pytest.mark.parametrize(
    "value",
    [
        decimal.Decimal("NaN"),
        decimal.Decimal("sNaN"),
        decimal.Decimal("Infinity"),
        decimal.Decimal("-Infinity"),
        dt.datetime(2024, 1, 1, tzinfo=dt.timezone(dt.timedelta(seconds=30))),  # an offset with seconds
        dt.time(1, tzinfo=dt.timezone(dt.timedelta(minutes=1, microseconds=5))),
        dt.datetime(2024, 1, 1, tzinfo=dt.tzinfo()),  # type: ignore[abstract]  # its utcoffset() raises
    ],
)
def test_values_that_do_not_read_back_have_none(value: object) -> None:
    with pytest.raises(NoWireString):
        wire_string(value)
    outcome = default_for(value, ir.AnyType(), tool="t", parameter="p")
    assert outcome.default is None
    (finding,) = outcome.findings
    assert finding.code == DEFAULT
    assert finding.message.startswith(f"the default {repr(value)[:30]}")
    assert "is not JSON" in finding.message


def test_a_subclass_is_not_json() -> None:
    with pytest.raises(NotJson, match=r"\(a _Holiday\)"):
        json_of(_Holiday(2024, 12, 25))


# -- fitting a wire string to its parameter -------------------------------------------------------


def _wire(value: object) -> WireString:
    wire = wire_string(value)
    assert wire is not None
    return wire


@pytest.mark.parametrize("value", [dt.datetime(2024, 5, 1, 12, 30), dt.time(12, 30), dt.datetime.min, dt.time()])
def test_a_naive_datetime_or_time_has_none(value: object) -> None:
    # RFC 3339's date-time and time, the formats the schema names, need an offset.
    with pytest.raises(NoWireString, match="no UTC offset"):
        wire_string(value)
    (finding,) = default_for(
        value, DATETIME if isinstance(value, dt.datetime) else TIME, tool="t", parameter="p"
    ).findings
    assert finding.code == DEFAULT
    assert finding.message == (
        f"the default {value!r} has no UTC offset, which the "
        f"{'date-time' if isinstance(value, dt.datetime) else 'time'!r} format of its schema requires, "
        "so the schema omits it; give it tzinfo=datetime.timezone.utc"
    )


@pytest.mark.parametrize(
    ("value", "node", "text"),
    [
        (dt.date(2024, 5, 1), DATE, "2024-05-01"),
        (dt.date(2024, 5, 1), ir.UnionType((DATE, ir.Primitive("none"))), "2024-05-01"),
        (dt.date(2024, 5, 1), ir.UnionType((INT, DATE)), "2024-05-01"),
        (dt.datetime(2024, 5, 1, tzinfo=UTC), ir.UnionType((DATE, DATETIME)), "2024-05-01T00:00:00+00:00"),
        (decimal.Decimal("0.10"), ir.Constrained(DECIMAL, ir.Constraints(ge=0)), "0.10"),
        (dt.timedelta(hours=1), ir.Constrained(ir.Primitive("timedelta"), ir.Constraints(max_length=4)), "PT1H"),
        (dt.timedelta(hours=1), ir.RefType("Later"), "PT1H"),  # an unknown name is not checked
        (dt.date(2024, 5, 1), ir.UnionType((DATETIME, DATE)), "2024-05-01"),  # a datetime refuses the text
        (dt.date(2024, 5, 1), ir.UnionType((ir.Constrained(STR, ir.Constraints(pattern="^x")), DATE)), "2024-05-01"),
    ],
)
def test_a_wire_string_fits_its_own_primitive(value: object, node: ir.TypeNode, text: str) -> None:
    fitted = fit_default(_wire(value), node, {})
    assert fitted == Fit(text)
    assert isinstance(fitted, Fit)
    assert type(fitted.value) is str  # what the IR keeps is a plain string
    assert default_for(value, node).default == ir.Default.of(text)


@pytest.mark.parametrize(
    ("value", "node", "reason"),
    [
        (dt.date(2024, 5, 1), INT, "is a date value, not an int"),
        (dt.date(2024, 5, 1), ir.Primitive("str"), "is a date value, not a str"),
        (dt.datetime(2024, 5, 1, 12, 30, tzinfo=UTC), DATE, "is a datetime value, not a date value"),
        (dt.date(2024, 5, 1), DATETIME, "is a date value, not a datetime value"),
        (dt.timedelta(1), ir.Primitive("string_integer"), "is a timedelta value, not a string_integer value"),
        (dt.date(2024, 5, 1), ir.LiteralType(("2024-05-01",)), "is not one of '2024-05-01'"),
        (dt.date(2024, 5, 1), ir.AnyType(), "is a date value, which this type would receive as a plain string"),
        (
            [dt.date(2024, 5, 1)],
            ir.CustomType("m:C", "{}"),
            "holds a date value, which this type would receive as a plain string",
        ),
        (
            decimal.Decimal("-1"),
            ir.Constrained(DECIMAL, ir.Constraints(ge=0)),
            "breaks the constraint: must be at least 0",
        ),
        (
            dt.timedelta(hours=1, minutes=1),
            ir.Constrained(ir.Primitive("timedelta"), ir.Constraints(max_length=4)),
            "breaks the constraint: at most 4 characters",
        ),
        ([dt.date(2024, 1, 1), dt.date(2024, 1, 1)], ir.ArrayType(DATE, "set"), "has duplicate items"),
        # The dispatcher tries a union's string-taking options in order: an earlier one would get the string.
        (dt.date(2024, 5, 1), ir.UnionType((STR, DATE)), f"would not arrive as itself: {_EARLIER} '2024-05-01'"),
        (
            dt.date(2024, 5, 1),
            ir.UnionType((ir.LiteralType(("2024-05-01",)), DATE)),
            f"would not arrive as itself: {_EARLIER} '2024-05-01'",
        ),
        (
            dt.date(2024, 5, 1),
            ir.UnionType((ir.AnyType(), DATE)),
            f"would not arrive as itself: {_EARLIER} '2024-05-01'",
        ),
        (
            decimal.Decimal(3),
            ir.UnionType((ir.Primitive("string_integer"), DECIMAL)),
            f"would not arrive as itself: {_EARLIER} '3'",
        ),
        (
            dt.timedelta(hours=1),
            ir.UnionType((ir.Primitive("path"), ir.Primitive("timedelta"))),
            f"would not arrive as itself: {_EARLIER} 'PT1H'",
        ),
    ],
)
def test_a_wire_string_outside_its_domain_is_dropped(value: object, node: ir.TypeNode, reason: str) -> None:
    outcome = default_for(value, node, tool="t", parameter="p")
    assert outcome.default is None
    (finding,) = outcome.findings
    assert (finding.code, finding.tool, finding.parameter) == (DEFAULT, "t", "p")
    shown = messages.shorten(repr(value))
    assert finding.message == f"the default {shown} {reason}, so the schema omits it; fix the default or the type"


def test_a_plain_string_still_does_not_fit_a_date() -> None:
    # Only a date value fits a date parameter: a str default there is a type error.
    assert isinstance(fit_default("2024-05-01", DATE, {}), Misfit)


def test_wire_strings_inside_containers_and_typeddicts() -> None:
    span = ir.ObjectType(
        "m:Span", "typeddict", (ir.Field("start", DATE), ir.Field("length", ir.Primitive("timedelta")))
    )
    value = {"start": dt.date(2024, 2, 29), "length": dt.timedelta(0)}
    assert default_for(value, span).default == ir.Default.of({"start": "2024-02-29", "length": "PT0S"})
    pair = ir.TupleType((DATE, ir.Primitive("uuid")))
    assert default_for((dt.date(2024, 1, 1), uuid.UUID(int=1)), pair).default == ir.Default.of(
        ["2024-01-01", "00000000-0000-0000-0000-000000000001"]
    )
    assert default_for({"a": dt.date(2024, 1, 1)}, ir.MapType(INT)).default is None


# -- what each provider emits ---------------------------------------------------------------------

_PRICE = r'"pattern": "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$"'
EMITTED = {
    ("openai", False): (
        '[{"type": "function", "function": {"name": "book", "description": "Book a table.", "parameters": '
        '{"type": "object", "properties": {"day": {"type": "string", "format": "date", "default": "2024-05-01"}, '
        '"wait": {"type": "string", "format": "duration", "default": "PT1H30M"}, '
        '"ticket": {"anyOf": [{"type": "string", "format": "uuid"}, {"type": "null"}], '
        f'"default": "{TICKET}"}}, '
        f'"price": {{"type": "string", {_PRICE}, "default": "12.50"}}}}, "additionalProperties": false}}}}}}]'
    ),
    ("openai", True): (
        '[{"type": "function", "function": {"name": "book", "description": "Book a table.", "parameters": '
        '{"type": "object", "properties": {"day": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}], '
        '"description": "Default: \\"2024-05-01\\"."}, '
        '"wait": {"anyOf": [{"type": "string", "format": "duration"}, {"type": "null"}], '
        '"description": "Default: \\"PT1H30M\\"."}, '
        '"ticket": {"anyOf": [{"type": "string", "format": "uuid"}, {"type": "null"}], '
        f'"description": "Default: \\"{TICKET}\\"."}}, '
        f'"price": {{"anyOf": [{{"type": "string", {_PRICE}}}, {{"type": "null"}}], '
        '"description": "Default: \\"12.50\\"."}}, "additionalProperties": false, '
        '"required": ["day", "wait", "ticket", "price"]}, "strict": true}}]'
    ),
    ("anthropic", False): (
        '[{"name": "book", "description": "Book a table.", "input_schema": {"type": "object", "properties": '
        '{"day": {"type": "string", "format": "date", "default": "2024-05-01"}, '
        '"wait": {"type": "string", "format": "duration", "default": "PT1H30M"}, '
        '"ticket": {"anyOf": [{"type": "string", "format": "uuid"}, {"type": "null"}], '
        f'"default": "{TICKET}"}}, '
        f'"price": {{"type": "string", {_PRICE}, "default": "12.50"}}}}, "additionalProperties": false}}}}]'
    ),
    ("mcp", False): (
        '[{"name": "book", "description": "Book a table.", "inputSchema": {"type": "object", "properties": '
        '{"day": {"type": "string", "format": "date", "default": "2024-05-01"}, '
        '"wait": {"type": "string", "format": "duration", "default": "PT1H30M"}, '
        '"ticket": {"anyOf": [{"type": "string", "format": "uuid"}, {"type": "null"}], '
        f'"default": "{TICKET}"}}, '
        f'"price": {{"type": "string", {_PRICE}, "default": "12.50"}}}}, "additionalProperties": false}}, '
        '"outputSchema": {"type": "object", "additionalProperties": {}}}]'
    ),
    ("gemini", False): (
        '[{"name": "book", "description": "Book a table.", "parameters": {"type": "OBJECT", "properties": '
        '{"day": {"type": "STRING", "format": "date", "default": "2024-05-01"}, '
        '"wait": {"type": "STRING", "default": "PT1H30M", "description": "Format: duration."}, '
        f'"ticket": {{"type": "STRING", "default": "{TICKET}", "description": "Format: uuid.", "nullable": true}}, '
        f'"price": {{"type": "STRING", {_PRICE}, "default": "12.50"}}}}}}}}]'
    ),
}


@pytest.mark.parametrize(("provider", "strict"), list(EMITTED), ids=[f"{p}-{s}" for p, s in EMITTED])
def test_each_provider_emits_the_wire_strings(provider: str, strict: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Gemini moves "format" to the description, with a finding
        emitted = toolcall.emit(forms.book, provider, strict=strict)
    assert json.dumps(emitted) == EMITTED[(provider, strict)]


# -- the dispatcher reads every emitted default back ----------------------------------------------


def _described(tool: Any) -> dict[str, Any]:
    """The properties of ``tool``'s canonical schema, as plain JSON (what a model reads)."""
    (described,) = toolcall.describe(tool)
    properties: dict[str, Any] = json.loads(json.dumps(described["parameters"]["properties"]))
    return properties


@pytest.mark.parametrize("tool", [forms.schedule, forms.identify, forms.nested, forms.book])
def test_each_emitted_default_arrives_as_the_python_default(tool: Any) -> None:
    properties = _described(tool)
    for name, parameter in inspect.signature(tool).parameters.items():
        assert "default" in properties[name], name  # every default of these tools is emitted
        result = toolcall.run(tool, tool.__name__, {name: properties[name]["default"]})
        assert isinstance(result, Ok), (name, result)
        arrived = result.value[name]
        assert (type(arrived), arrived) == (type(parameter.default), parameter.default), name


def test_field_defaults_arrive_as_the_class_defaults() -> None:
    properties = _described(forms.remind)
    reminder = {k: v["default"] for k, v in properties["reminder"]["properties"].items() if "default" in v}
    slot = {k: v["default"] for k, v in properties["slot"]["properties"].items() if "default" in v}
    assert (reminder, slot) == (
        {"before": "PT10M", "on": "2024-06-01"},
        {"at": "08:15:00+00:00", "key": "00000000-0000-0000-0000-00000000002a"},
    )
    result = toolcall.run(forms.remind, "remind", {"reminder": {"note": "x", **reminder}, "slot": slot})
    assert isinstance(result, Ok), result
    assert result.value == {"reminder": forms.Reminder("x"), "slot": forms.Slot()}
    assert dataclasses.astuple(result.value["reminder"]) == dataclasses.astuple(forms.Reminder("x"))


def test_the_emitted_strings_of_the_tool_module() -> None:
    defaults = {name: p.get("default") for name, p in _described(forms.schedule).items()}
    assert json.dumps(defaults) == json.dumps(
        {
            "wait": "PT1H",
            "grace": "-PT5M",
            "pause": "PT1M30.5S",
            "window": "PT15M",
            "longest": "P999999999DT23H59M59.999999S",
            "day": "2024-05-01",
            "launch": "2024-05-01",
            "at": "09:00:00+00:00",
            "lunch": "12:30:15.250000+02:00",
            "start": "2024-05-01T12:30:00+00:00",
            "cest": "2024-05-01T12:30:00+02:00",
            "until": "2024-12-31T23:59:59-05:30",
            "either": "2024-05-01",
            "or_text": "2024-05-01",
        }
    )
    defaults = {name: p.get("default") for name, p in _described(forms.identify).items()}
    assert json.dumps(defaults) == json.dumps(
        {
            "ticket": TICKET,
            "other": "00000000-0000-0000-0000-000000000001",
            "price": "12.50",
            "count": "3",
            "half": "0.5",
            "big": "1E+2",
            "tip": "0.10",
        }
    )
    defaults = {name: p.get("default") for name, p in _described(forms.nested).items()}
    assert json.dumps(defaults) == json.dumps(
        {
            "days": ["2024-12-25", "2024-12-26"],
            "pair": ["2024-01-01", "P1DT2H"],
            "named": {"long": "P14D", "short": "PT1M"},  # the IR keeps a default as canonical JSON
            "span": {"length": "PT0S", "start": "2024-02-29"},
        }
    )


def test_the_dropped_defaults_of_the_tool_module() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = introspected(forms.dropped)
    assert all(p.default is None and not p.required for p in result.tool.parameters)
    assert [f.parameter for f in result.findings] == [p.name for p in result.tool.parameters]


# -- the mypy plugin gives what the runtime gives -------------------------------------------------

#: Findings whose wording differs by design (none: a dict with a key JSON cannot carry shows that key alike).
MESSAGE_DIFFERENCES: set[tuple[str, str]] = set()


@pytest.fixture(scope="module")
def static() -> dict[str, Collected]:
    module = forms.__name__
    collected, _ = analyze([(module_path(module), module)])
    return {name: found for (mod, name), found in collected.items() if mod == module}


@pytest.mark.parametrize("tool", ["schedule", "identify", "nested", "remind", "dropped", "book"])
def test_static_ir_and_findings_equal_the_runtime(static: dict[str, Collected], tool: str) -> None:
    collected = static[tool]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = introspected(getattr(forms, tool))
    assert collected.tool is not None
    assert json.dumps(ir.to_json(collected.tool)) == json.dumps(ir.to_json(expected.tool))

    def rows(findings: Any) -> list[tuple[str, str | None, str]]:
        return [
            (f.code, f.parameter, "" if (tool, f.parameter) in MESSAGE_DIFFERENCES else f.message) for f in findings
        ]

    assert rows(f.finding for f in collected.findings) == rows(expected.findings)


def _check(tmp_path: Path, text: str, files: dict[str, str] | None = None, tool: str = "f") -> Collected:
    """The plugin's analysis of ``tool`` in ``text`` (other modules of the project in ``files``)."""
    sources = []
    for name, content in {**(files or {}), "case": text}.items():
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(content))
        sources.append((str(path), name))
    collected, _ = analyze(sources)
    return collected["case", tool]


def _outcome(collected: Collected) -> dict[str, tuple[str | None, str | None]]:
    """Each parameter's emitted default (JSON text) and its finding's message."""
    assert collected.tool is not None
    messages = {f.finding.parameter: f.finding.message for f in collected.findings}
    return {
        p.name: (p.default.json if p.default is not None else None, messages.get(p.name))
        for p in collected.tool.parameters
    }


def test_the_plugin_reads_calls_by_full_name_however_imported(tmp_path: Path) -> None:
    found = _outcome(
        _check(
            tmp_path,
            """
            import datetime
            import datetime as dt
            import decimal as dec
            from datetime import timedelta as td
            from typing import Final
            from uuid import UUID
            import toolcall
            from consts import LATER, START

            ONE: Final = dt.timedelta(minutes=1)
            NOON: Final = datetime.time(12, tzinfo=datetime.timezone.utc)

            @toolcall.tool
            def f(
                a: datetime.date = datetime.date(2024, 1, 1),
                b: dt.timedelta = td(minutes=-5),
                c: UUID = UUID(hex="123E4567E89B12D3A456426614174000"),
                d: dec.Decimal = dec.Decimal(-3),
                e: dt.timedelta = ONE,
                f: dt.time = NOON,
                g: dt.datetime = LATER,
                h: dt.date = START,
                i: dt.datetime = dt.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc),
                j: dt.time = dt.time.max,
                k: dt.timedelta = dt.timedelta(seconds=2**10, milliseconds=0.5),
            ) -> None:
                pass
            """,
            {
                "consts": """
                from datetime import date, datetime, timezone, timedelta
                from typing import Final

                LATER: Final = datetime(2030, 1, 1, 8, tzinfo=timezone(timedelta(hours=-2), "X"))
                START = date(2024, 1, 31)
                """
            },
        )
    )
    assert found == {
        "a": ('"2024-01-01"', None),
        "b": ('"-PT5M"', None),
        "c": (f'"{TICKET}"', None),
        "d": ('"-3"', None),
        "e": ('"PT1M"', None),
        "f": ('"12:00:00+00:00"', None),
        "g": ('"2030-01-01T08:00:00-02:00"', None),
        "h": ('"2024-01-31"', None),  # a module variable assigned once, as for other defaults
        "i": ('"2024-01-01T00:00:00+00:00"', None),
        "j": (
            None,
            "the default datetime.time(23, 59, 59, 999999) has no UTC offset, "
            "which the 'time' format of its schema requires, so the schema omits it; "
            "give it tzinfo=datetime.timezone.utc",
        ),
        "k": ('"PT17M4.0005S"', None),
    }


def test_the_plugin_drops_what_it_cannot_or_must_not_call(tmp_path: Path) -> None:
    found = _outcome(
        _check(
            tmp_path,
            """
            from datetime import date, datetime, time, timedelta, timezone
            from decimal import Decimal
            from typing import Any, Final
            from uuid import UUID
            import toolcall

            HOURS = 1
            HOURS += 1
            ZONE: Final = timezone.utc
            PARTS = (2024, 1, 1)

            class Money:
                def __init__(self, text: str) -> None:
                    self.text = text

            @toolcall.tool
            def f(
                now: datetime = datetime.now(),
                today: date = date.today(),
                rebound: timedelta = timedelta(hours=HOURS),
                zoned: datetime = datetime(2024, 1, 1, tzinfo=ZONE),
                star: date = date(*PARTS),
                inner: timedelta = timedelta(hours=int("1")),
                listed: Any = timedelta(hours=[1]),  # type: ignore[arg-type]
                doubled: timedelta = timedelta(hours=1) * 2,
                money: Any = Money("1"),
                zone: Any = timezone(timedelta(hours=1)),
            ) -> None:
                pass
            """,
        )
    )
    unreadable = "cannot be read statically, so the schema omits it"
    assert {name: default for name, (default, _) in found.items()} == dict.fromkeys(found)
    messages = {name: message or "" for name, (_, message) in found.items()}
    assert messages["now"].startswith(f"the default datetime.now() {unreadable}")
    assert messages["today"].startswith(f"the default date.today() {unreadable}")
    assert messages["rebound"].startswith(f"the default HOURS (a variable that is not Final) {unreadable}")
    assert messages["zoned"].startswith(f"the default datetime(2024, 1, 1, tzinfo=ZONE) {unreadable}")
    assert messages["star"].startswith(f"the default date(*PARTS) {unreadable}")
    assert messages["inner"].startswith(f"the default int('1') {unreadable}")
    assert messages["listed"].startswith(f"the default timedelta(hours=[1]) {unreadable}")
    assert messages["doubled"].startswith(f"the default timedelta(hours=1) * 2 {unreadable}")
    assert messages["money"].startswith("the default Money('1') (a Money) is not JSON")
    assert messages["zone"].startswith(
        "the default datetime.timezone(datetime.timedelta(seconds=3600)) (a timezone) is not JSON"
    )


def _raised(call: str) -> str:
    """The error ``call`` raises on this Python, as a finding quotes it (Python 3.14 reworded many)."""
    names = {"date": dt.date, "time": dt.time, "timedelta": dt.timedelta, "timezone": dt.timezone}
    with pytest.raises(Exception) as raised:
        eval(call, names)
    return messages.shorten(f"{type(raised.value).__name__}: {raised.value}")


@pytest.mark.parametrize(
    ("call", "shown", "problem"),
    [
        ("date(2024, 13, 1)", None, "ValueError: month must be in 1..12"),
        ("date(2024, 2, 30)", None, _raised("date(2024, 2, 30)")),
        ("timedelta(days=10**10)", "timedelta(days=10 ** 10)", "OverflowError: "),
        ("timedelta(hours=1e308)", "timedelta(hours=1e+308)", "OverflowError: "),
        ("time(25)", None, "ValueError: hour must be in 0..23"),
        (
            "time(9, tzinfo=timezone(timedelta(hours=24)))",
            "timezone(timedelta(hours=24))",  # the call that raised
            _raised("timezone(timedelta(hours=24))"),
        ),
        ("UUID('not a uuid')", None, "ValueError: badly formed hexadecimal UUID string"),
        ("UUID(int=-1)", None, "ValueError: int is out of range"),
        ("Decimal('twelve')", None, "InvalidOperation: "),
        ("date('2024-01-01')", None, "TypeError: "),
        ("datetime(2024, 1, 1, tzinfo='UTC')", None, "TypeError: "),
        ("date(2024, 1, 1, 1, 1, 1, 1, 1, 1)", None, "TypeError: "),
        ("timedelta(fortnights=1)", None, "TypeError: "),
    ],
)
def test_a_call_that_raises_is_dropped_with_its_error(
    tmp_path: Path, call: str, shown: str | None, problem: str
) -> None:
    collected = _check(
        tmp_path,
        f"""
        from datetime import date, datetime, time, timedelta, timezone
        from decimal import Decimal
        from typing import Any
        from uuid import UUID
        import toolcall

        @toolcall.tool
        def f(x: Any = {call}) -> None:  # type: ignore[arg-type, call-arg, call-overload]
            pass
        """,
    )
    ((default, message),) = _outcome(collected).values()
    assert default is None
    assert message is not None
    assert message.startswith(f"the default {shown or call} cannot be built ({problem}")
    assert message.endswith("), so the schema omits it; fix its arguments")
    (finding,) = collected.findings
    assert finding.finding.code == DEFAULT


def test_the_plugin_calls_nothing_that_only_shares_a_name(tmp_path: Path) -> None:
    found = _outcome(
        _check(
            tmp_path,
            """
            from typing import Any
            import toolcall

            class Decimal:
                def __init__(self, text: str) -> None:
                    self.text = text

            def timedelta(hours: int) -> int:
                return hours

            @toolcall.tool
            def f(a: Any = Decimal("1.5"), b: int = timedelta(hours=1)) -> None:
                pass
            """,
        )
    )
    assert found["a"][0] is None
    assert (found["a"][1] or "").startswith("the default Decimal('1.5') (a Decimal) is not JSON")
    assert found["b"][0] is None
    assert (found["b"][1] or "").startswith("the default timedelta(hours=1) cannot be read statically")


def test_field_defaults_are_read_in_class_bodies(tmp_path: Path) -> None:
    collected = _check(
        tmp_path,
        """
        import datetime as dt
        from dataclasses import dataclass
        from datetime import timedelta as td
        from typing import NamedTuple
        import toolcall

        class Decimal:  # not decimal.Decimal
            def __init__(self, text: str) -> None:
                self.text = text

        @dataclass
        class Reminder:
            before: dt.timedelta = td(minutes=10)
            on: dt.date = dt.date(2024, 6, 1)
            local: object = Decimal("1")
            bad: dt.date = dt.date(2024, 6, 31)

        class Slot(NamedTuple):
            at: dt.time = dt.time(8, 15, tzinfo=dt.timezone.utc)

        @toolcall.tool
        def f(reminder: Reminder, slot: Slot) -> None:
            pass
        """,
    )
    assert collected.tool is not None
    reminder, slot = collected.tool.parameters
    assert isinstance(reminder.type, ir.ObjectType)
    assert isinstance(slot.type, ir.ObjectType)
    fields = {f.name: f.default for f in (*reminder.type.fields, *slot.type.fields)}
    assert fields == {
        "before": ir.Default.of("PT10M"),
        "on": ir.Default.of("2024-06-01"),
        "local": None,
        "bad": None,
        "at": ir.Default.of("08:15:00+00:00"),
    }
    local, bad = [f.finding for f in collected.findings]
    assert (local.code, local.path) == (DEFAULT, ("local",))
    assert local.message.startswith("the default Decimal('1') (a Decimal) is not JSON")
    assert (bad.code, bad.path) == (DEFAULT, ("bad",))
    assert bad.message.startswith(f"the default dt.date(2024, 6, 31) cannot be built ({_raised('date(2024, 6, 31)')})")


class _Day(enum.Enum):
    NEW_YEAR = dt.date(2024, 1, 1)


class _Stamp:
    __toolcall_schema__ = {"type": "string", "default": dt.date(2024, 1, 1)}


@toolcall.tool
def _pick_day(day: _Day) -> None:
    """An Enum whose value is a date."""


@toolcall.tool
def _stamp(stamp: _Stamp) -> None:
    """A custom schema with a date in it."""


@pytest.mark.parametrize("tool", [_pick_day, _stamp])
def test_enum_values_and_custom_schemas_stay_plain_json(tmp_path: Path, tool: Any) -> None:
    # A constructor call is read in defaults only: an Enum member's value and a custom schema must
    # be JSON themselves, so the plugin refuses them as the runtime does.
    with pytest.raises(TypeError):
        introspected(tool)
    collected = _check(
        tmp_path,
        """
        import enum
        from datetime import date
        import toolcall

        class _Day(enum.Enum):
            NEW_YEAR = date(2024, 1, 1)

        class _Stamp:
            __toolcall_schema__ = {"type": "string", "default": date(2024, 1, 1)}

        @toolcall.tool
        def _pick_day(day: _Day) -> None:
            pass

        @toolcall.tool
        def _stamp(stamp: _Stamp) -> None:
            pass
        """,
        tool=tool.__name__,
    )
    assert collected.tool is None
    assert [f.finding.code for f in collected.findings] == ["toolcall-type"]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="datetime.UTC is new in Python 3.11")
def test_datetime_utc_is_utc(tmp_path: Path) -> None:
    found = _outcome(
        _check(
            tmp_path,
            """
            import datetime
            import toolcall

            @toolcall.tool
            def f(at: datetime.datetime = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)) -> None:
                pass
            """,
        )
    )
    assert found == {"at": ('"2024-01-01T00:00:00+00:00"', None)}


# -- the cache the plugin writes serves what introspection renders --------------------------------


def test_served_and_introspected_output_are_the_same_text(tmp_path: Path) -> None:
    """mypy with the plugin writes the module's cache; served and introspected ``json.dumps`` texts are equal."""
    project = tmp_path / "project"
    sources = project / "tests" / "sources"
    sources.mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[tool.mypy]\nplugins = ["toolcall_mypy"]\nexplicit_package_bases = true\n' + PYPROJECT_OVERRIDES
    )
    shutil.copy(ROOT / "tests" / "__init__.py", project / "tests" / "__init__.py")
    shutil.copy(ROOT / "tests" / "sources" / "__init__.py", sources / "__init__.py")
    shutil.copy(Path(forms.__file__), sources / "default_wire_forms.py")
    run_mypy(project, "tests")
    served, introspected_ = both_sides(project, [forms.__name__])
    mismatches = compare(served, introspected_)
    assert not mismatches, report(mismatches)
    outputs = served[forms.__name__]
    assert outputs["tools"] == ["schedule", "identify", "nested", "remind", "dropped", "book"]
    assert outputs["each"]["book"]["openai"] == EMITTED[("openai", False)]
