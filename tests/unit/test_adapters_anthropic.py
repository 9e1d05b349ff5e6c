"""``toolcall.anthropic``: ``tool_use`` blocks → one user message of ``tool_result`` blocks."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from anthropic.types import Message

import toolcall.anthropic
from tests import adapter_tools


def tool_use(block_id: str, name: str, arguments: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": block_id, "name": name, "input": arguments}


def message(*blocks: dict[str, Any]) -> dict[str, Any]:
    """A Messages API response as the API sends it."""
    return {
        "id": "msg_01Aq9w938a90dw8q",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": "Let me check."}, *blocks],
        "stop_reason": "tool_use" if blocks else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 472, "output_tokens": 91},
    }


TURN = message(
    tool_use("toolu_01", "get_weather", {"city": "Oslo"}),
    tool_use("toolu_02", "get_weather", {"days": 2}),
    tool_use("toolu_03", "greet", {"name": "Ada"}),
    tool_use("toolu_04", "fail", {"message": "the station is down"}),
    tool_use("toolu_05", "opaque", {"kind": "nan"}),
)

EXPECTED = json.dumps(
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01", "content": '{"city": "Oslo", "days": 3, "temp": 21.5}'},
            {
                "type": "tool_result",
                "tool_use_id": "toolu_02",
                "content": 'missing required argument "city"',
                "is_error": True,
            },
            {"type": "tool_result", "tool_use_id": "toolu_03", "content": "Hello, Ada!"},
            {
                "type": "tool_result",
                "tool_use_id": "toolu_04",
                "content": "the tool failed with ValueError: the station is down",
                "is_error": True,
            },
            {
                "type": "tool_result",
                "tool_use_id": "toolu_05",
                "content": "the tool returned the number nan, which JSON cannot carry",
                "is_error": True,
            },
        ],
    }
)


@pytest.mark.parametrize(
    "given",
    [
        pytest.param(lambda: Message.model_validate(TURN), id="sdk-message"),
        pytest.param(lambda: Message.model_validate(TURN).content, id="sdk-content"),
        pytest.param(lambda: TURN, id="dict-message"),
        pytest.param(lambda: TURN["content"], id="dict-content"),
    ],
)
def test_tool_results_answer_every_block_in_order(given: Any, caplog: pytest.LogCaptureFixture) -> None:
    assert json.dumps(toolcall.anthropic.tool_results(adapter_tools, given())) == EXPECTED
    assert json.dumps(asyncio.run(toolcall.anthropic.atool_results(adapter_tools, given()))) == EXPECTED


def test_a_turn_without_tool_use_gives_none() -> None:
    assert toolcall.anthropic.tool_results(adapter_tools, message()) is None
    assert toolcall.anthropic.tool_results(adapter_tools, Message.model_validate(message())) is None
    assert toolcall.anthropic.tool_results(adapter_tools, {"role": "assistant", "content": "plain text"}) is None


def test_server_tool_blocks_are_not_answered() -> None:
    server = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}}
    turn = message(server, tool_use("toolu_01", "greet", {"name": "Ada"}))
    found = toolcall.anthropic.tool_results(adapter_tools, Message.model_validate(turn))
    assert found is not None
    assert [block["tool_use_id"] for block in found["content"]] == ["toolu_01"]  # type: ignore[index]


def test_the_calls_of_one_turn_run_concurrently_and_keep_their_order() -> None:
    # wait_for_release finishes only after release has run: run one after the other, the turn would hang.
    turn = message(
        tool_use("toolu_a", "wait_for_release", {"label": "a"}),
        tool_use("toolu_b", "release", {"label": "b"}),
    )

    async def main() -> Any:
        adapter_tools.RELEASED[:] = [asyncio.Event()]
        return await asyncio.wait_for(toolcall.anthropic.atool_results(adapter_tools, turn), timeout=30)

    found = asyncio.run(main())
    assert [block["content"] for block in found["content"]] == ["waited a", "released b"]
