"""toolcall._rules.defaults: which defaults a schema shows, and the findings for the rest."""

from __future__ import annotations

import datetime
import enum
from typing import Any

import pytest

from tests.corpus import defaults as corpus_defaults
from tests.corpus import introspected
from toolcall import _ir as ir
from toolcall._findings import DEFAULT
from toolcall._rules.defaults import MAX_SAFE_INTEGER, Fit, Misfit, default_for, fit_default, json_default, json_of

STR, INT, FLOAT, BOOL = ir.Primitive("str"), ir.Primitive("int"), ir.Primitive("float"), ir.Primitive("bool")


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a", "a"),
        (3, 3),
        (1.5, 1.5),
        (True, True),
        ([1, (2, 3)], [1, [2, 3]]),
        ({"k": [Color.RED]}, {"k": ["red"]}),
        (Color.BLUE, "blue"),
    ],
)
def test_json_values(value: object, expected: ir.JsonValue) -> None:
    assert json_of(value) == expected


@pytest.mark.parametrize(
    "value",
    [datetime.UTC, {1, 2}, float("nan"), float("inf"), {1: "a"}, object(), b"x"],
)
def test_values_json_cannot_carry(value: object) -> None:
    outcome = default_for(value, ir.AnyType(), tool="t", parameter="p")
    assert outcome.default is None
    (finding,) = outcome.findings
    assert (finding.code, finding.tool, finding.parameter) == (DEFAULT, "t", "p")
    assert "not JSON" in finding.message
    assert "use a str" in finding.message


def test_none_is_never_emitted_nor_reported() -> None:
    assert default_for(None, INT) == default_for(None, ir.UnionType((INT, ir.Primitive("none"))))
    assert default_for(None, INT).default is None
    assert default_for(None, INT).findings == ()


@pytest.mark.parametrize(
    ("value", "node"),
    [
        (4, ir.LiteralType((1, 2, 3))),
        (True, ir.LiteralType((1, 2))),  # True == 1, but not the same JSON value
        ("green", ir.EnumType("m:Color", ("red", "blue"))),
        (True, INT),
        ("5", INT),
        (1.5, INT),
        (1, STR),
        (0, ir.Constrained(INT, ir.Constraints(ge=1))),
        (12, ir.Constrained(INT, ir.Constraints(le=10))),
        (1, ir.Constrained(INT, ir.Constraints(gt=1))),
        (1.0, ir.Constrained(FLOAT, ir.Constraints(lt=1))),
        (7, ir.Constrained(INT, ir.Constraints(multiple_of=5))),
        (0.3, ir.Constrained(FLOAT, ir.Constraints(multiple_of=0.25))),
        ("", ir.Constrained(STR, ir.Constraints(min_length=1))),
        ("abcdef", ir.Constrained(STR, ir.Constraints(max_length=3))),
        ("abc", ir.Constrained(STR, ir.Constraints(pattern="^[0-9]+$"))),
        ([], ir.Constrained(ir.ArrayType(INT), ir.Constraints(min_length=1))),
        ([1, "a"], ir.ArrayType(INT)),
        ([1, 1], ir.ArrayType(INT, "set")),
        ([1], ir.TupleType((INT, INT))),
        ({"a": "x"}, ir.MapType(INT)),
        ({"x": 1}, ir.ObjectType("m:TD", "typeddict", (ir.Field("y", INT),))),
        ({}, ir.ObjectType("m:TD", "typeddict", (ir.Field("y", INT),))),
        ("x", ir.UnionType((INT, BOOL))),
        ("2024-01-01", ir.Primitive("date")),
    ],
)
def test_out_of_domain_defaults_are_dropped(value: ir.JsonValue, node: ir.TypeNode) -> None:
    assert isinstance(fit_default(value, node, {}), Misfit)
    outcome = json_default(value, node, parameter="p")
    assert outcome.default is None
    (finding,) = outcome.findings
    assert finding.code == DEFAULT
    assert "fix the default or the type" in finding.message


@pytest.mark.parametrize(
    ("value", "node"),
    [
        (2, ir.LiteralType((1, 2, 3))),
        ("red", ir.EnumType("m:Color", ("red", "blue"))),
        (1, FLOAT),  # an int fits a float parameter
        (5, ir.Constrained(INT, ir.Constraints(ge=5, le=5, multiple_of=5))),
        (0.5, ir.Constrained(FLOAT, ir.Constraints(multiple_of=0.25))),
        ("a1", ir.Constrained(STR, ir.Constraints(pattern="[0-9]"))),  # pattern is a search
        ({"y": 1}, ir.ObjectType("m:TD", "typeddict", (ir.Field("y", INT), ir.Field("z", INT, False)))),
        ([[1]], ir.RefType("Tree")),
        (None, ir.AnyType()),
        ({"anything": [1, "x"]}, ir.CustomType("m:C", "{}")),
    ],
)
def test_in_domain_defaults_are_kept(value: ir.JsonValue, node: ir.TypeNode) -> None:
    tree = ir.UnionType((INT, ir.ArrayType(ir.RefType("Tree"))))
    assert fit_default(value, node, {"Tree": tree}) == Fit(value)


def test_ref_resolves_through_defs() -> None:
    tree = ir.UnionType((INT, ir.ArrayType(ir.RefType("Tree"))))
    assert isinstance(fit_default([["x"]], ir.RefType("Tree"), {"Tree": tree}), Misfit)


def test_big_int_is_kept_with_a_finding() -> None:
    outcome = default_for(MAX_SAFE_INTEGER + 1, INT)
    assert outcome.default == ir.Default.of(MAX_SAFE_INTEGER + 1)
    (finding,) = outcome.findings
    assert 'wire="string_integer"' in finding.message
    assert default_for(MAX_SAFE_INTEGER, INT).findings == ()
    assert default_for([-(MAX_SAFE_INTEGER + 1)], ir.ArrayType(INT)).findings != ()


def test_string_integer_default_is_its_decimal_string() -> None:
    node = ir.Constrained(ir.Primitive("string_integer"), ir.Constraints(ge=0))
    outcome = default_for(2**60, node)
    assert outcome == type(outcome)(ir.Default.of(str(2**60)), ())
    assert default_for(-1, node).default is None  # bounds apply to the int
    nested = default_for([1, 2], ir.ArrayType(ir.Primitive("string_integer")))
    assert nested.default == ir.Default.of(["1", "2"])


def test_enum_member_default_against_its_enum() -> None:
    node = ir.EnumType("m:Color", ("red", "blue"))
    assert default_for(Color.RED, node).default == ir.Default.of("red")


def _params(fn: Any) -> dict[str, ir.Parameter]:
    return {p.name: p for p in introspected(fn).tool.parameters}


def test_corpus_emitted_defaults() -> None:
    params = _params(corpus_defaults.list_posts)
    assert {name: p.default.value for name, p in params.items() if p.default is not None} == {
        "tag": "news",
        "page_size": 20,
        "ratio": 0.5,
        "drafts": False,
        "authors": ["ann", "bob"],
        "window": [0, 10],
        "filters": {"year": [2024]},
        "sort": "newest",
    }
    assert params["cursor"].default is None
    assert not params["cursor"].required


def test_corpus_dropped_defaults_each_have_a_finding() -> None:
    result = introspected(corpus_defaults.dropped_defaults)
    # A naive datetime (``since``) is dropped too: its schema's date-time format needs an offset.
    assert all(p.default is None and not p.required for p in result.tool.parameters)
    assert [f.parameter for f in result.findings] == [p.name for p in result.tool.parameters]
    assert {f.code for f in result.findings} == {DEFAULT}


def test_corpus_big_numbers() -> None:
    result = introspected(corpus_defaults.big_numbers)
    seed, big_id = result.tool.parameters
    assert seed.default == ir.Default.of(2**60)
    assert big_id.default == ir.Default.of(str(2**60))
    (finding,) = result.findings
    assert finding.parameter == "seed"
