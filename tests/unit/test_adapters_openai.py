"""``toolcall.openai``: Chat Completions and Responses tool calls → the messages the API expects back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

import toolcall.openai
from tests import adapter_tools


def tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def completion(*calls: dict[str, Any]) -> dict[str, Any]:
    """A Chat Completions response as the API sends it, with ``calls`` in its first choice."""
    message = {"role": "assistant", "content": None, "refusal": None, "tool_calls": list(calls) or None}
    return {
        "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
        "object": "chat.completion",
        "created": 1741569952,
        "model": "gpt-4.1-mini-2025-04-14",
        "choices": [
            {"index": 0, "message": message, "logprobs": None, "finish_reason": "tool_calls" if calls else "stop"}
        ],
        "usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99},
        "service_tier": "default",
    }


TURN = completion(
    tool_call("call_1", "get_weather", '{"city": "Oslo"}'),
    tool_call("call_2", "get_weather", '{"city": "Bergen", "days": 1.5}'),
    tool_call("call_3", "get_weather", '{"city": "Oslo",, "days": 2}'),
    tool_call("call_4", "nowhere", "{}"),
    tool_call("call_5", "greet", '{"name": "Ada"}'),
)

EXPECTED = [
    {"role": "tool", "tool_call_id": "call_1", "content": '{"city": "Oslo", "days": 3, "temp": 21.5}'},
    {
        "role": "tool",
        "tool_call_id": "call_2",
        "content": 'Error: invalid argument "days": expected an integer, got 1.5',
    },
    {
        "role": "tool",
        "tool_call_id": "call_3",
        "content": "Error: the arguments are not valid JSON: Expecting property name enclosed in double quotes "
        "at line 1, column 17 (position 16); send one JSON object of named parameters",
    },
    {"role": "tool", "tool_call_id": "call_4", "content": None},  # filled below: the unknown tool's line
    {"role": "tool", "tool_call_id": "call_5", "content": "Hello, Ada!"},
]


def expected() -> str:
    names = toolcall.tool_names(adapter_tools)
    unknown = toolcall.errors.UnknownTool("nowhere", tuple(names))
    rows = [dict(row) for row in EXPECTED]
    rows[3]["content"] = f"Error: {unknown}"
    return json.dumps(rows)


@pytest.mark.parametrize(
    "given",
    [
        pytest.param(lambda: ChatCompletion.model_validate(TURN), id="sdk-completion"),
        pytest.param(lambda: ChatCompletion.model_validate(TURN).choices[0].message, id="sdk-message"),
        pytest.param(lambda: TURN, id="dict-completion"),
        pytest.param(lambda: TURN["choices"][0]["message"], id="dict-message"),
    ],
)
def test_tool_messages_answer_every_call_in_order(given: Any) -> None:
    assert json.dumps(toolcall.openai.tool_messages(adapter_tools, given())) == expected()


def test_async_tool_messages_give_the_same_messages() -> None:
    found = asyncio.run(toolcall.openai.atool_messages(adapter_tools, ChatCompletion.model_validate(TURN)))
    assert json.dumps(found) == expected()


def test_the_error_names_the_position_of_bad_json() -> None:
    turn = completion(tool_call("call_1", "get_weather", '{"city": "Oslo"'))
    (message,) = toolcall.openai.tool_messages(adapter_tools, turn)
    assert message["content"] == (
        "Error: the arguments are not valid JSON: Expecting ',' delimiter at line 1, column 16 (position 15); "
        "send one JSON object of named parameters"
    )


@pytest.mark.parametrize("arguments", ["", "  "])
def test_empty_arguments_are_a_call_without_arguments(arguments: str) -> None:
    (message,) = toolcall.openai.tool_messages(adapter_tools, completion(tool_call("call_1", "now", arguments)))
    assert message["content"] == "12:00"


def test_arguments_nested_too_deeply_are_an_error_reply() -> None:
    deep = '{"city": ' + "[" * 100_000 + "]" * 100_000 + "}"
    (message,) = toolcall.openai.tool_messages(adapter_tools, completion(tool_call("call_1", "get_weather", deep)))
    # The dispatcher's own error for a value nested that deeply.
    assert message["content"] == 'Error: invalid argument "city": nested too deeply'


def test_a_turn_without_tool_calls_gives_no_messages() -> None:
    assert toolcall.openai.tool_messages(adapter_tools, completion()) == []
    assert toolcall.openai.tool_messages(adapter_tools, ChatCompletion.model_validate(completion())) == []


def test_the_messages_are_fresh_plain_dicts() -> None:
    first = toolcall.openai.tool_messages(adapter_tools, TURN)
    first[0]["content"] = "changed"
    assert toolcall.openai.tool_messages(adapter_tools, TURN)[0]["content"] != "changed"


def test_injected_parameters_come_from_context() -> None:
    turn = completion(tool_call("call_1", "whoami", "{}"))
    (message,) = toolcall.openai.tool_messages(adapter_tools, turn, context={"user": "ada"})
    assert message["content"] == "ada"


def function_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
        "status": "completed",
    }


RESPONSE: dict[str, Any] = {
    "id": "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
    "object": "response",
    "created_at": 1741476542,
    "status": "completed",
    "model": "gpt-4.1-mini-2025-04-14",
    "output": [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [],
        },
        function_call("call_a", "get_weather", '{"city": "Oslo", "days": 2}'),
        function_call("call_b", "get_weather", "[1, 2]"),
        function_call("call_c", "report", ""),
    ],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
    "error": None,
    "incomplete_details": None,
    "instructions": None,
    "metadata": {},
    "temperature": 1.0,
    "top_p": 1.0,
}


def expected_outputs() -> str:
    report = json.dumps(_plain_report(), ensure_ascii=False)
    return json.dumps(
        [
            {
                "type": "function_call_output",
                "call_id": "call_a",
                "output": '{"city": "Oslo", "days": 2, "temp": 21.5}',
            },
            {
                "type": "function_call_output",
                "call_id": "call_b",
                "output": "Error: the arguments must be a JSON object of named parameters, got [1, 2]",
            },
            {"type": "function_call_output", "call_id": "call_c", "output": report},
        ]
    )


def _plain_report() -> Any:
    from toolcall._wire.return_values import plain

    return plain(adapter_tools.REPORT)


@pytest.mark.parametrize(
    "given",
    [
        pytest.param(lambda: Response.model_validate(RESPONSE), id="sdk-response"),
        pytest.param(lambda: Response.model_validate(RESPONSE).output, id="sdk-output"),
        pytest.param(lambda: RESPONSE, id="dict-response"),
        pytest.param(lambda: RESPONSE["output"], id="dict-output"),
    ],
)
def test_function_call_outputs_answer_every_call_in_order(given: Any) -> None:
    assert json.dumps(toolcall.openai.function_call_outputs(adapter_tools, given())) == expected_outputs()
    found = asyncio.run(toolcall.openai.afunction_call_outputs(adapter_tools, given()))
    assert json.dumps(found) == expected_outputs()
