"""``Examples:`` in a tool's docstring: read, checked by the dispatcher's rules, rendered for Anthropic, described.

The layouts of the section (``toolcall._rules.docstrings.examples_of``), the
check of each example from the IR alone (``toolcall._dispatch.examples``),
the warning introspection gives for a rejected one, Anthropic's
``input_examples`` as ordered JSON text, and ``describe``.
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from typing import Annotated, Any

import pytest

import toolcall
from tests.analysis_cases.examples import Stop, Unit
from toolcall import _ir as ir
from toolcall._cache.constants import MalformedCacheError
from toolcall._cache.shapes import _ir_fields
from toolcall._dispatch.examples import check_examples
from toolcall._rules.docstrings import examples_of, parse_docstring

# ---------------------------------------------------------------- reading the section


GOOGLE = """Get the weather.

Args:
    city: The city.

Examples:
    {"city": "Oslo"}
    {"days": 5, "city": "Paris"}

    {
        "city": "Rome",
        "days": 2
    }
"""

NUMPY = """Get the weather.

Parameters
----------
city : str
    The city.

Examples
--------
{"city": "Oslo"} {"city": "Bergen"}
"""


def test_one_object_per_line_and_multi_line_objects_are_read_in_order_keys_as_written() -> None:
    read = examples_of(GOOGLE)
    assert read.examples == ('{"city":"Oslo"}', '{"days":5,"city":"Paris"}', '{"city":"Rome","days":2}')
    assert read.problem is None


def test_the_numpy_heading_is_read_too() -> None:
    assert examples_of(NUMPY).examples == ('{"city":"Oslo"}', '{"city":"Bergen"}')


def test_the_section_does_not_leak_into_the_description_or_the_entries() -> None:
    for text in (GOOGLE, NUMPY):
        parsed = parse_docstring(text)
        assert parsed.description == "Get the weather."
        assert dict(parsed.params) == {"city": "The city."}


def test_a_doctest_or_prose_section_is_not_argument_examples() -> None:
    assert examples_of("Do it.\n\nExamples:\n    >>> get('Oslo')\n    'sunny'\n") == examples_of(None)
    assert examples_of("Do it.\n\nExamples:\n    Call it with a city.\n").examples == ()
    assert examples_of("Do it.").examples == ()


@pytest.mark.parametrize(
    ("section", "kept", "problem"),
    [
        ('{"a": 1}\n{"a": 2,}', 1, "example 2 is not JSON: invalid JSON on line 2 of the section"),
        ('{"a": 1, "a": 2}', 0, "example 1 is not JSON: the key 'a' appears twice"),
        ('{"a": NaN}', 0, "example 1 is not JSON: NaN is not JSON"),
        ('{"a": 1e400}', 0, "example 1 is not JSON: Out of range float values"),
        ('{"a": 1} then prose', 1, "example 2 is not JSON: invalid JSON on line 1 of the section"),
        ('{"a": [' * 3000 + "]}" * 3000, 0, "example 1 is not JSON: it nests too deeply"),
        ('{"a": [' * 51 + "]}" * 51, 0, "example 1 is not JSON: it nests too deeply"),  # 102 levels
    ],
)
def test_text_that_is_not_json_ends_the_examples_with_a_problem_naming_its_position(
    section: str, kept: int, problem: str
) -> None:
    read = examples_of("Do it.\n\nExamples:\n" + "".join(f"    {line}\n" for line in section.splitlines()))
    assert len(read.examples) == kept
    assert read.problem is not None
    assert read.problem.startswith(problem)


# ---------------------------------------------------------------- the dispatcher's check, from the IR alone


@dataclasses.dataclass
class Window:  # unlike the analysis case's, it refuses some values when it is built
    start: int
    end: int

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError("a window ends after it starts")


@toolcall.tool
def plan(
    city: str,
    days: Annotated[int, toolcall.Param(ge=1, le=7)] = 3,
    unit: Unit = Unit.C,
    stops: list[Stop] | None = None,
    window: Window | None = None,
) -> str:
    """Plan a trip.

    Examples:
        {"city": "Oslo"}
        {"city": "Oslo", "days": 9}
        {"city": "Oslo", "unit": "k", "extra": 1}
        {"days": 2}
        {"city": "Oslo", "stops": [{"name": "Fram", "minutes": "ten"}]}
        {"city": "Oslo", "unit": "f", "stops": [{"name": "Fram", "minutes": 10}], "window": {"start": 9, "end": 5}}
        ["Oslo"]
    """
    return city


def plan_ir() -> ir.Tool:
    from toolcall._declarations.tool import declaration_of
    from toolcall._introspect import introspect

    declaration = declaration_of(plan)
    assert declaration is not None
    return introspect(declaration).tool


def test_each_example_is_checked_as_the_dispatcher_checks_those_arguments() -> None:
    tool = plan_ir()
    checked, findings = check_examples(tool)
    rejected: dict[int, Any] = {
        2: {"city": "Oslo", "days": 9},
        3: {"city": "Oslo", "unit": "k", "extra": 1},
        4: {"days": 2},
    }
    rejected[5] = {"city": "Oslo", "stops": [{"name": "Fram", "minutes": "ten"}]}
    rejected[7] = ["Oslo"]
    assert [f.code for f in findings] == ["toolcall-example"] * 5
    for finding, (position, args) in zip(findings, rejected.items(), strict=True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # loading the tool warns of its rejected examples
            result = toolcall.run(plan, "plan", args)
        assert isinstance(result, toolcall.Err)
        assert finding.tool == "plan"
        assert finding.message == (
            f"example {position} is rejected: {result.error}; "
            "fix it to match the parameters or remove it from the Examples: section"
        )
    assert checked.examples == (tool.examples[0], tool.examples[5])
    assert dataclasses.replace(checked, examples=tool.examples) == tool, "nothing else changes"


def test_a_check_runs_no_tool_code_so_a_post_init_refusal_is_left_to_the_call() -> None:
    # Example 6 sends a window __post_init__ refuses: the check does not build the dataclass.
    kept = check_examples(plan_ir())[0].examples
    assert json.loads(kept[1])["window"] == {"start": 9, "end": 5}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert isinstance(toolcall.run(plan, "plan", json.loads(kept[1])), toolcall.Err)


def test_a_tool_whose_examples_all_pass_is_returned_as_it_is() -> None:
    tool = ir.Tool("t", "m", "t", "", (ir.Parameter("a", "keyword_only", ir.Primitive("int")),), examples=('{"a":1}',))
    assert check_examples(tool) == (tool, ())


def test_injected_parameters_and_kwargs_follow_the_dispatcher() -> None:
    tool = ir.Tool(
        "t",
        "m",
        "t",
        "",
        (
            ir.Parameter("db", "positional_or_keyword", ir.AnyType(), injected=True),
            ir.Parameter("rest", "var_keyword", ir.Primitive("int")),
        ),
        examples=('{"x":1}', '{"db":1}', '{"x":"y"}'),
    )
    checked, findings = check_examples(tool)
    assert checked.examples == ('{"x":1}',)
    assert [f.message.split(";")[0] for f in findings] == [
        'example 2 is rejected: unknown arguments "db": send only the parameters the tool declares',
        'example 3 is rejected: invalid argument "x": expected an integer, got "y"',
    ]


# ---------------------------------------------------------------- introspection warns, the IR keeps the good ones


def test_introspection_warns_for_a_rejected_example_and_drops_it() -> None:
    @toolcall.tool
    def count(n: int) -> int:
        """Count.

        Examples:
            {"n": 1}
            {"n": "one"}
            {"n": 2
        """
        return n

    with pytest.warns(toolcall.ToolcallWarning) as caught:
        described = toolcall.describe(count)
    texts = [str(w.message) for w in caught]
    assert texts == [
        "count: example 3 is not JSON: invalid JSON on line 3 of the section: write each example as a "
        "JSON object of arguments, one after another; it and the ones after it are left out [toolcall-example]",
        'count: example 2 is rejected: invalid argument "n": expected an integer, got "one"; '
        "fix it to match the parameters or remove it from the Examples: section [toolcall-example]",
    ]
    assert described[0]["examples"] == [{"n": 1}]


# ---------------------------------------------------------------- rendering and describe


@toolcall.tool
def weather(city: str, days: Annotated[int, toolcall.Param(ge=1)] = 3) -> str:
    """Get the weather.

    Examples:
        {"days": 5, "city": "Paris"}
        {"city": "Oslo"}
    """
    return city


@toolcall.tool
def plain(city: str) -> str:
    """Get the weather."""
    return city


SCHEMA = (
    '{"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1, '
    '"default": 3}}, "required": ["city"], "additionalProperties": false}'
)
EXAMPLES = '[{"days": 5, "city": "Paris"}, {"city": "Oslo"}]'


def test_anthropic_carries_the_examples_after_the_schema_and_strict() -> None:
    (plain_definition,) = toolcall.emit(weather, "anthropic")
    assert json.dumps(plain_definition) == (
        f'{{"name": "weather", "description": "Get the weather.", "input_schema": {SCHEMA}, '
        f'"input_examples": {EXAMPLES}}}'
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the bound moved into the description under strict
        (strict_definition,) = toolcall.emit(weather, "anthropic", strict=True)
    assert list(strict_definition) == ["name", "description", "input_schema", "strict", "input_examples"]
    assert json.dumps(strict_definition["input_examples"]) == EXAMPLES


def test_no_other_provider_gets_the_examples() -> None:
    for provider in ("openai", "openai-responses", "mcp", "gemini"):
        assert "example" not in json.dumps(toolcall.emit(weather, provider)), provider


def test_a_tool_without_examples_has_no_input_examples_key() -> None:
    assert "input_examples" not in toolcall.emit(plain, "anthropic")[0]


def test_describe_lists_the_examples_only_when_there_are_some() -> None:
    (described,) = toolcall.describe(weather)
    assert list(described) == ["module", "name", "description", "parameters", "examples"]
    assert json.dumps(described["examples"]) == EXAMPLES
    assert list(toolcall.describe(plain)[0]) == ["module", "name", "description", "parameters"]


# ---------------------------------------------------------------- the cache's shape check


def _cached(examples: tuple[Any, ...]) -> ir.Tool:
    return ir.Tool("t", "", "t", "", (), examples=examples)


@pytest.mark.parametrize(
    ("examples", "problem"),
    [
        (("[1]",), "example 1 is not an object"),
        (('{"a":1}', "{"), "example 2 is not JSON text"),
        (('{"a":NaN}',), "example 1 is not JSON text"),
        ((1,), "Tool 'examples' is"),
    ],
)
def test_a_cache_entry_with_an_example_that_is_not_a_json_object_is_malformed(
    examples: tuple[Any, ...], problem: str
) -> None:
    with pytest.raises(MalformedCacheError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        _ir_fields(_cached(examples), "entry", {})
    _ir_fields(_cached(('{"a":1}',)), "entry", {})


def test_a_null_for_an_optional_value_without_none_is_rejected_though_a_call_reads_it_as_the_default() -> None:
    stop = ir.ObjectType(
        "m:Stop", "typeddict", (ir.Field("name", ir.Primitive("str")), ir.Field("minutes", ir.Primitive("int"), False))
    )
    tool = ir.Tool(
        "t",
        "m",
        "t",
        "",
        (
            ir.Parameter("days", "positional_or_keyword", ir.Primitive("int"), required=False),
            ir.Parameter("note", "positional_or_keyword", ir.UnionType((ir.Primitive("str"), ir.Primitive("none")))),
            ir.Parameter("stop", "positional_or_keyword", stop, required=False),
        ),
        examples=('{"note":null}', '{"note":"x","days":null}', '{"note":null,"stop":{"name":"a","minutes":null}}'),
    )
    checked, findings = check_examples(tool)
    assert checked.examples == ('{"note":null}',)
    assert [f.message.split(";")[0] for f in findings] == [
        'example 2 is rejected: invalid argument "days": expected an integer, got null',
        'example 3 is rejected: invalid argument "stop" at minutes: expected an integer, got null',
    ]


def test_the_singular_heading_is_read_too() -> None:
    assert examples_of('Do it.\n\nExample:\n    {"a": 1}\n').examples == ('{"a":1}',)
