"""The ``openai-responses`` variant: the flat envelope with ``strict`` always present."""

from __future__ import annotations

import pytest

from tests import render_samples as s
from tests.provider_rules import assert_valid
from toolcall._render.definitions import render_tool


@pytest.mark.parametrize("name", list(s.SAMPLES))
@pytest.mark.parametrize("strict", [False, True])
def test_every_sample_passes_the_openai_rules(name: str, strict: bool) -> None:
    definition = render_tool(s.SAMPLES[name], "openai-responses", strict=strict).definition
    assert isinstance(definition["strict"], bool)
    assert_valid("openai-strict" if definition["strict"] else "openai", definition["parameters"])


def test_the_flat_envelope_with_strict_false_when_not_strict() -> None:
    definition = render_tool(s.WEATHER, "openai-responses").definition
    assert list(definition) == ["type", "name", "description", "parameters", "strict"]
    assert definition["type"] == "function"
    assert definition["strict"] is False
    chat = render_tool(s.WEATHER, "openai").definition["function"]
    assert definition["parameters"] == chat["parameters"]


def test_strict_is_true_and_the_schema_is_the_chat_strict_schema() -> None:
    definition = render_tool(s.WEATHER, "openai-responses", strict=True).definition
    assert definition["strict"] is True
    chat = render_tool(s.WEATHER, "openai", strict=True).definition["function"]
    assert definition["parameters"] == chat["parameters"]


def test_a_fallback_says_strict_false() -> None:
    rendered = render_tool(s.OPEN, "openai-responses", strict=True)
    assert rendered.definition["strict"] is False
    assert rendered.definition["parameters"]["properties"]["counts"]["additionalProperties"] == {"type": "integer"}
    assert rendered.findings


def test_responses_has_no_1024_character_description_limit() -> None:
    long = s.tool("t", description="x" * 2000)
    assert render_tool(long, "openai-responses").definition["description"] == "x" * 2000


def test_an_empty_description_is_left_out() -> None:
    assert "description" not in render_tool(s.NO_PARAMS, "openai-responses").definition
