"""Scalars, Any and object → Primitive / AnyType nodes."""

from __future__ import annotations

from tests.corpus import introspected, scalars
from toolcall import _ir as ir

STR, INT, FLOAT, BOOL, NONE = (ir.Primitive(n) for n in ("str", "int", "float", "bool", "none"))


def test_the_weather_tool_of_the_spec() -> None:
    tool = introspected(scalars.get_weather).tool
    assert tool == ir.Tool(
        name="get_weather",
        module="tests.corpus.scalars",
        qualname="get_weather",
        description="Get the forecast for a city.",
        parameters=(
            ir.Parameter("city", "positional_or_keyword", STR, description='city name, e.g. "Oslo"'),
            ir.Parameter("days", "positional_or_keyword", INT, False, ir.Default.of(3), "how many days ahead (1-7)"),
        ),
        returns=ir.MapType(ir.AnyType("object")),
    )


def test_float_bool_and_none() -> None:
    params = introspected(scalars.set_thermostat).tool.parameters
    assert [p.type for p in params] == [FLOAT, BOOL, NONE]
    # A None default makes the parameter optional but is never emitted.
    assert (params[2].required, params[2].default) == (False, None)


def test_any_and_object_are_distinguished() -> None:
    params = introspected(scalars.store_anything).tool.parameters
    assert [p.type for p in params] == [STR, ir.AnyType("any"), ir.AnyType("object")]


def test_no_parameters_and_none_return() -> None:
    result = introspected(scalars.ping)
    assert result.tool.parameters == ()
    assert result.tool.returns is None
    assert result.findings == ()


def test_the_ir_round_trips_through_json() -> None:
    tool = introspected(scalars.get_weather).tool
    assert ir.from_json(ir.to_json(tool)) == tool
