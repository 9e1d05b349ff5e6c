"""A schema's JSON text answers OpenAI's strict budgets without a walk only when no budget can be exceeded.

``within_every_budget(text)`` lets ``openai_strict_excess`` skip counting;
it must never say so for a schema that exceeds one. Shown on generated
schemas of every shape the budgets count (nested objects, properties,
enums and consts, ``$defs``), and at the edges of the nesting budget.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from toolcall._render.limits import OPENAI_STRICT_MAX_DEPTH, openai_strict_excess, within_every_budget

NAMES = st.text(alphabet="abcxyz_\u00e9", max_size=6)
SCALARS = st.one_of(st.integers(-5, 10**6), st.text(max_size=8), st.booleans(), st.none(), st.floats(-1e6, 1e6))


def nested_objects(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}, "additionalProperties": False}
    return schema


def schemas() -> st.SearchStrategy[dict[str, Any]]:
    leaf = st.one_of(
        st.just({"type": "string"}),
        st.builds(lambda values: {"type": "string", "enum": values}, st.lists(st.text(max_size=8), max_size=40)),
        st.builds(lambda values: {"enum": values}, st.lists(SCALARS, max_size=400)),
        st.builds(lambda value: {"const": value}, SCALARS),
        st.just({"type": ["object", "null"]}),
        # Near the budgets: a chain of nested objects, a long enum, strings long enough to count.
        st.builds(lambda levels: nested_objects(levels), st.integers(0, OPENAI_STRICT_MAX_DEPTH + 3)),
        st.builds(lambda count: {"type": "integer", "enum": list(range(count))}, st.integers(0, 1100)),
        st.builds(lambda count: {"enum": [f"{n:04d}" * 10 for n in range(count)]}, st.integers(240, 400)),
    )

    def nested(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
        return st.one_of(
            st.builds(
                lambda props: {"type": "object", "properties": props, "additionalProperties": False},
                st.dictionaries(NAMES, children, max_size=5),
            ),
            st.builds(lambda item: {"type": "array", "items": item}, children),
            st.builds(lambda options: {"anyOf": options}, st.lists(children, min_size=1, max_size=3)),
            st.builds(
                lambda root, defs: {**root, "$defs": defs}, children, st.dictionaries(NAMES, children, max_size=2)
            ),
        )

    return st.recursive(leaf, nested, max_leaves=60)


@settings(max_examples=400, deadline=None)
@given(schemas())
def test_a_schema_within_every_budget_by_its_text_exceeds_none(schema: dict[str, Any]) -> None:
    if within_every_budget(json.dumps(schema)):
        assert openai_strict_excess(schema) is None
    event("exceeds a budget" if openai_strict_excess(schema) else "within every budget")
    assert openai_strict_excess(schema, json.dumps(schema)) == openai_strict_excess(schema)


def test_nesting_at_the_budget_is_within_it_and_one_more_level_is_counted() -> None:
    at_budget, over = nested_objects(OPENAI_STRICT_MAX_DEPTH), nested_objects(OPENAI_STRICT_MAX_DEPTH + 1)
    assert within_every_budget(json.dumps(at_budget))
    assert openai_strict_excess(at_budget, json.dumps(at_budget)) is None
    assert not within_every_budget(json.dumps(over))
    assert openai_strict_excess(over, json.dumps(over)) == "11 levels of object nesting, over the limit of 10"


def test_a_long_text_is_counted() -> None:
    many = {"type": "integer", "enum": list(range(1001))}
    assert not within_every_budget(json.dumps(many))
    assert openai_strict_excess(many, json.dumps(many)) == "1001 enum values, over the limit of 1000"
