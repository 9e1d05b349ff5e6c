"""``toolcall.gemini``: ``function_call`` parts → ``function_response`` parts."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from google.genai import types

import toolcall.gemini
from tests import adapter_tools


def response(*calls: dict[str, Any], camel: bool = False) -> dict[str, Any]:
    """A generateContent response as the REST API (camelCase) or the SDK's dict form (snake_case) has it."""
    key = "functionCall" if camel else "function_call"
    parts = [{"text": "Checking."}, *({key: call} for call in calls)]
    finish = "finishReason" if camel else "finish_reason"
    return {"candidates": [{"content": {"role": "model", "parts": parts}, finish: "STOP", "index": 0}]}


CALLS = (
    {"id": "c1", "name": "get_weather", "args": {"city": "Oslo", "days": 2}},
    {"name": "get_weather", "args": {"city": 7}},
    {"id": "c3", "name": "now"},
)

EXPECTED = json.dumps(
    [
        {
            "function_response": {
                "id": "c1",
                "name": "get_weather",
                "response": {"output": {"city": "Oslo", "days": 2, "temp": 21.5}},
            }
        },
        {
            "function_response": {
                "name": "get_weather",
                "response": {"error": 'invalid argument "city": expected a string, got 7'},
            }
        },
        {"function_response": {"id": "c3", "name": "now", "response": {"output": "12:00"}}},
    ]
)


@pytest.mark.parametrize(
    "given",
    [
        pytest.param(lambda: types.GenerateContentResponse.model_validate(response(*CALLS)), id="sdk-response"),
        pytest.param(
            lambda: types.GenerateContentResponse.model_validate(response(*CALLS)).candidates[0].content,  # type: ignore[index]
            id="sdk-content",
        ),
        pytest.param(lambda: response(*CALLS), id="dict-snake"),
        pytest.param(lambda: response(*CALLS, camel=True), id="dict-camel"),
        pytest.param(lambda: response(*CALLS)["candidates"][0]["content"]["parts"], id="dict-parts"),
    ],
)
def test_function_responses_answer_every_call_in_order(given: Any) -> None:
    assert json.dumps(toolcall.gemini.function_responses(adapter_tools, given())) == EXPECTED
    assert json.dumps(asyncio.run(toolcall.gemini.afunction_responses(adapter_tools, given()))) == EXPECTED


def test_the_parts_are_accepted_by_the_sdk() -> None:
    parts = toolcall.gemini.function_responses(adapter_tools, response(*CALLS))
    content = types.Content.model_validate({"role": "user", "parts": parts})
    assert content.parts is not None
    assert [p.function_response.name for p in content.parts if p.function_response] == ["get_weather"] * 2 + ["now"]


def test_a_turn_without_function_calls_gives_no_parts() -> None:
    assert toolcall.gemini.function_responses(adapter_tools, response()) == []
    assert toolcall.gemini.function_responses(adapter_tools, {"candidates": []}) == []
