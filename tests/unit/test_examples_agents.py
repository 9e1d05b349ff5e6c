"""The agent loops of ``examples/`` run with the real SDK clients against a local replay server.

The scripted model calls ``get_weather`` for two cities and ``forecast_at``
with arguments it got wrong, all in one turn; then retries ``forecast_at``
correctly; then answers. The server checks each request as it comes (the
history sent back, the result ids in order, an error result for the bad
call) and answers 400 otherwise, so the SDK raises; the tests then read the
recorded requests: the tools offered, and every tool result's exact text.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, cast

import anthropic
import openai
import pytest
from anthropic.types import Message
from openai.types.chat import ChatCompletion

import toolcall
import toolcall.anthropic
import toolcall.openai
from examples import weather
from tests.paths import ROOT
from tests.replay_server import Anthropic, Call, Conversation, OpenAI, Provider, ReplayServer, Turn, replay

QUESTION: Final = "Weather in Oslo and in Paris today, and hour by hour in Oslo (59.91 N, 10.75 E) for 6 hours?"
ANSWER: Final = "Oslo and Paris are both at 21.5 °C today; Oslo stays at 12.0 °C for each of the next 6 hours."

OSLO_RESULT: Final = '{"city": "Oslo", "days": 1, "temp": 21.5}'
PARIS_RESULT: Final = '{"city": "Paris", "days": 1, "temp": 21.5}'
FORECAST_RESULT: Final = "[12.0, 12.0, 12.0, 12.0, 12.0, 12.0]"

# -- OpenAI: the bad call's arguments are not JSON (the closing brace is missing) ----------------

OPENAI_BAD_ARGUMENTS: Final = '{"place":{"lat":59.91,"lon":10.75},"hours":6'
OPENAI: Final = Conversation(
    QUESTION,
    (
        Turn(
            "chatcmpl-CJ8mQz4TnWb2xR7uPk1sVy9eLhG3d",
            calls=(
                Call("call_VkR2mX8pQ4tZ1nW7yB3cJ5sL", "get_weather", '{"city":"Oslo","days":1}'),
                Call("call_H6dT9fK2wE4rY8uA1oN3mP7q", "get_weather", '{"city":"Paris","days":1}'),
                Call("call_Z3bN8cX5vM1kL9jH4gF6dS2a", "forecast_at", OPENAI_BAD_ARGUMENTS, fails=True),
            ),
        ),
        Turn(
            "chatcmpl-CJ8mTb7YhN2qLw5eRx8oKd1uVz4Fs",
            calls=(
                Call(
                    "call_Q7wE2rT9yU4iO1pA6sD3fG8h",
                    "forecast_at",
                    '{"place":{"lat":59.91,"lon":10.75},"hours":6}',
                ),
            ),
        ),
        Turn("chatcmpl-CJ8mWc3KjP6sGv9tZa2bNf5yXr8Lq", text=ANSWER),
    ),
)
OPENAI_ERROR: Final = (
    "Error: the arguments are not valid JSON: Expecting ',' delimiter at line 1, column 45 (position 44); "
    "send one JSON object of named parameters"
)
#: The tool messages of the last request, in the order sent.
OPENAI_RESULTS: Final = [
    {"role": "tool", "tool_call_id": "call_VkR2mX8pQ4tZ1nW7yB3cJ5sL", "content": OSLO_RESULT},
    {"role": "tool", "tool_call_id": "call_H6dT9fK2wE4rY8uA1oN3mP7q", "content": PARIS_RESULT},
    {"role": "tool", "tool_call_id": "call_Z3bN8cX5vM1kL9jH4gF6dS2a", "content": OPENAI_ERROR},
    {"role": "tool", "tool_call_id": "call_Q7wE2rT9yU4iO1pA6sD3fG8h", "content": FORECAST_RESULT},
]

# -- Anthropic: the bad call misses a required field of its place -------------------------------

ANTHROPIC: Final = Conversation(
    QUESTION,
    (
        Turn(
            "msg_01XFDUDYJgAACzvnptvVoYEL",
            text="I'll look up both cities and the hourly forecast for Oslo.",
            calls=(
                Call("toolu_01T1x1fJ34qAmk2tNTrN7Up6", "get_weather", {"city": "Oslo", "days": 1}),
                Call("toolu_01BwC5mXeLn8sPq3RtVy7Kd2", "get_weather", {"city": "Paris", "days": 1}),
                Call(
                    "toolu_01HmZq9WvRk4tYc6LxNb2Pf8",
                    "forecast_at",
                    {"place": {"lat": 59.91}, "hours": 6},
                    fails=True,
                ),
            ),
        ),
        Turn(
            "msg_01Qv7TnKpW3mXs9BdR2yLc5H",
            text="Let me add the longitude.",
            calls=(
                Call(
                    "toolu_01Jd4sGx8ZnQ2wVb6TkM9rEy",
                    "forecast_at",
                    {"place": {"lat": 59.91, "lon": 10.75}, "hours": 6},
                ),
            ),
        ),
        Turn("msg_01Fk8RbN3vLx6QpT2mWz9HcY", text=ANSWER),
    ),
)
ANTHROPIC_ERROR: Final = """invalid argument "place" at lon: a required field is missing (field 'lon' is required)"""
#: The tool_result blocks of the last request, turn by turn.
ANTHROPIC_RESULTS: Final = [
    [
        {"type": "tool_result", "tool_use_id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "content": OSLO_RESULT},
        {"type": "tool_result", "tool_use_id": "toolu_01BwC5mXeLn8sPq3RtVy7Kd2", "content": PARIS_RESULT},
        {
            "type": "tool_result",
            "tool_use_id": "toolu_01HmZq9WvRk4tYc6LxNb2Pf8",
            "content": ANTHROPIC_ERROR,
            "is_error": True,
        },
    ],
    [{"type": "tool_result", "tool_use_id": "toolu_01Jd4sGx8ZnQ2wVb6TkM9rEy", "content": FORECAST_RESULT}],
]

PROXY_VARIABLES: Final = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


def sdk_environment(url_variable: str, url: str, key_variable: str) -> dict[str, str]:
    """This process's environment with the SDK pointed at ``url``: no proxy, no other provider setting."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("OPENAI_", "ANTHROPIC_", "TOOLCALL_")) and name.lower() not in ("no_proxy",)
    }
    env |= dict.fromkeys(PROXY_VARIABLES, "")
    env |= {"NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1", "PYTHONIOENCODING": "utf-8"}
    env |= {url_variable: url, key_variable: "sk-test-replay"}
    return env


def assert_openai_requests(server: ReplayServer) -> None:
    """Three requests, each offering the weather tools; the last carries every tool message as expected."""
    assert server.rejections == []
    assert len(server.requests) == 3
    tools = json.dumps(toolcall.emit(weather, "openai"))
    for request in server.requests:
        assert request["model"] == "gpt-4.1-mini"
        assert json.dumps(request["tools"]) == tools
    sent = [message for message in server.requests[-1]["messages"] if message["role"] == "tool"]
    assert json.dumps(sent, ensure_ascii=False) == json.dumps(OPENAI_RESULTS, ensure_ascii=False)


def assert_anthropic_requests(server: ReplayServer) -> None:
    """Three requests, each offering the weather tools; the last carries every tool_result block as expected."""
    assert server.rejections == []
    assert len(server.requests) == 3
    tools = json.dumps(toolcall.emit(weather, "anthropic"))
    for request in server.requests:
        assert request["model"] == "claude-sonnet-4-5"
        assert json.dumps(request["tools"]) == tools
    messages = server.requests[-1]["messages"]
    sent = [message["content"] for message in messages[2::2]]  # the user turns after the question
    assert [message["role"] for message in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert json.dumps(sent, ensure_ascii=False) == json.dumps(ANTHROPIC_RESULTS, ensure_ascii=False)


@dataclass(frozen=True)
class Example:
    """An example agent: the server it talks to, the environment its SDK reads, what its requests must be."""

    replay_format: Provider
    conversation: Conversation
    url_variable: str
    url_path: str
    key_variable: str
    assert_requests: Callable[[ReplayServer], None]


EXAMPLES: Final = {
    "openai": Example(OpenAI(), OPENAI, "OPENAI_BASE_URL", "/v1", "OPENAI_API_KEY", assert_openai_requests),
    "anthropic": Example(
        Anthropic(), ANTHROPIC, "ANTHROPIC_BASE_URL", "", "ANTHROPIC_API_KEY", assert_anthropic_requests
    ),
}


def run_example(provider: str) -> tuple[subprocess.CompletedProcess[str], ReplayServer]:
    """Run ``examples/<provider>_agent.py`` with the question, against a replay server."""
    example = EXAMPLES[provider]
    with replay(example.replay_format, example.conversation) as server:
        env = sdk_environment(example.url_variable, server.url + example.url_path, example.key_variable)
        done = subprocess.run(
            [sys.executable, str(ROOT / "examples" / f"{provider}_agent.py"), QUESTION],
            cwd=ROOT,
            env=env,
            capture_output=True,
            encoding="utf-8",
            timeout=120,
        )
    return done, server


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_example_agent_loop_answers_after_the_tool_calls(provider: str) -> None:
    done, server = run_example(provider)
    assert done.returncode == 0, done.stderr + "\n".join(server.rejections)
    assert done.stdout == ANSWER + "\n"
    EXAMPLES[provider].assert_requests(server)


# -- the same loops, async, in this process -------------------------------------------------------


@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process clients reach 127.0.0.1 directly, whatever proxy the environment names."""
    for name in PROXY_VARIABLES:
        monkeypatch.setenv(name, "")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv("no_proxy", "127.0.0.1")


async def openai_async_loop(url: str) -> str:
    async with openai.AsyncOpenAI(base_url=url + "/v1", api_key="sk-test-replay") as client:
        tools = toolcall.emit(weather, "openai")
        messages: list[Any] = [{"role": "user", "content": QUESTION}]
        for _ in range(5):
            completion = await client.chat.completions.create(model="gpt-4.1-mini", messages=messages, tools=tools)
            message = completion.choices[0].message
            messages.append(message)
            results = await toolcall.openai.atool_messages(weather, message)
            if not results:
                return message.content or ""
            messages += results
    raise AssertionError("no answer after 5 turns")


async def anthropic_async_loop(url: str) -> str:
    async with anthropic.AsyncAnthropic(base_url=url, api_key="sk-test-replay") as client:
        tools = toolcall.emit(weather, "anthropic")
        messages: list[Any] = [{"role": "user", "content": QUESTION}]
        for _ in range(5):
            message = await client.messages.create(
                model="claude-sonnet-4-5", max_tokens=1024, messages=messages, tools=tools
            )
            messages.append({"role": "assistant", "content": message.content})
            results = await toolcall.anthropic.atool_results(weather, message)
            if results is None:
                return "".join(block.text for block in message.content if block.type == "text")
            messages.append(results)
    raise AssertionError("no answer after 5 turns")


@pytest.mark.usefixtures("no_proxy")
def test_async_loop_with_the_async_clients_and_adapters() -> None:
    with replay(OpenAI(), OPENAI) as server:
        assert asyncio.run(openai_async_loop(server.url)) == ANSWER
    assert_openai_requests(server)
    with replay(Anthropic(), ANTHROPIC) as server:
        assert asyncio.run(anthropic_async_loop(server.url)) == ANSWER
    assert_anthropic_requests(server)


# -- the replay server refuses what a real API would, so the tests above can fail -----------------


def openai_first_turn(client: openai.OpenAI) -> list[Any]:
    """The question and the first assistant turn, as the example sends them."""
    messages: list[Any] = [{"role": "user", "content": QUESTION}]
    tools = toolcall.emit(weather, "openai")
    messages.append(
        client.chat.completions.create(model="gpt-4.1-mini", messages=messages, tools=tools).choices[0].message
    )
    return messages


@pytest.mark.usefixtures("no_proxy")
@pytest.mark.parametrize(
    ("spoil", "says"),
    [
        (lambda results: results[::-1], "messages.[2].tool_call_id: call_VkR2mX8pQ4tZ1nW7yB3cJ5sL expected"),
        (lambda results: results[:2], "no tool message for tool call call_Z3bN8cX5vM1kL9jH4gF6dS2a"),
        (
            lambda results: [*results[:2], {**results[2], "content": "bad JSON"}],
            "messages.[4].content: an error expected, got bad JSON",
        ),
    ],
)
def test_replay_server_refuses_openai_results_out_of_order_missing_or_unmarked(spoil: Any, says: str) -> None:
    with replay(OpenAI(), OPENAI) as server:
        client = openai.OpenAI(base_url=server.url + "/v1", api_key="sk-test-replay", max_retries=0)
        messages = openai_first_turn(client)
        messages += spoil(toolcall.openai.tool_messages(weather, messages[-1]))
        with pytest.raises(openai.BadRequestError) as raised:
            client.chat.completions.create(
                model="gpt-4.1-mini", messages=messages, tools=toolcall.emit(weather, "openai")
            )
    assert raised.value.status_code == 400
    assert says in str(raised.value)


@pytest.mark.usefixtures("no_proxy")
def test_replay_server_refuses_an_anthropic_error_result_without_is_error() -> None:
    with replay(Anthropic(), ANTHROPIC) as server:
        client = anthropic.Anthropic(base_url=server.url, api_key="sk-test-replay", max_retries=0)
        tools = toolcall.emit(weather, "anthropic")
        messages: list[Any] = [{"role": "user", "content": QUESTION}]
        message = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages, tools=tools)
        results = toolcall.anthropic.tool_results(weather, message)
        assert results is not None
        blocks = [dict(block) for block in cast("list[dict[str, Any]]", results["content"])]
        del blocks[2]["is_error"]
        messages += [{"role": "assistant", "content": message.content}, {"role": "user", "content": blocks}]
        with pytest.raises(anthropic.BadRequestError) as raised:
            client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages, tools=tools)
    assert raised.value.status_code == 400
    assert "messages.2.content.2.is_error: True expected, got False" in str(raised.value)


OPENAI_NO_KEY: Final = {
    "error": {"message": "You didn't provide an API key.", "type": "invalid_request_error", "param": None, "code": None}
}
ANTHROPIC_NO_KEY: Final = {
    "type": "error",
    "error": {"type": "authentication_error", "message": "x-api-key header is required"},
    "request_id": "req_011CVnR0000yTzWq8hLcXk2pD",
}


@pytest.mark.parametrize(
    ("provider", "path", "expected"),
    [("openai", "/v1/chat/completions", OPENAI_NO_KEY), ("anthropic", "/v1/messages", ANTHROPIC_NO_KEY)],
)
def test_replay_server_answers_a_request_without_a_key_with_401(provider: str, path: str, expected: object) -> None:
    example = EXAMPLES[provider]
    with replay(example.replay_format, example.conversation) as server:
        request = urllib.request.Request(server.url + path, data=b"{}", method="POST")
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with pytest.raises(urllib.error.HTTPError) as raised:
            opener.open(request, timeout=60)
    assert raised.value.code == 401
    assert raised.value.read().decode() == json.dumps(expected)
    assert server.requests == [{}]


@pytest.mark.parametrize("turn", range(3))
def test_replay_server_responses_are_valid_sdk_models(turn: int) -> None:
    """Every field the SDKs' response models require is there, with the type they declare."""
    request = {"model": "any-model", "messages": []}
    completion = ChatCompletion.model_validate(OpenAI().response(request, OPENAI.turns[turn]), strict=True)
    assert completion.choices[0].finish_reason == ("tool_calls" if turn < 2 else "stop")
    message = Message.model_validate(Anthropic().response(request, ANTHROPIC.turns[turn]), strict=True)
    assert message.stop_reason == ("tool_use" if turn < 2 else "end_turn")


def openai_history(turns: int) -> list[dict[str, Any]]:
    """The question, then ``turns`` assistant turns as the server sent them, each with well-marked results."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": QUESTION}]
    for turn in OPENAI.turns[:turns]:
        messages.append(OpenAI().response({"model": "m"}, turn)["choices"][0]["message"])
        messages += [
            {"role": "tool", "tool_call_id": call.id, "content": "Error: bad" if call.fails else "ok"}
            for call in turn.calls
        ]
    return messages


def altered_first_turn() -> list[dict[str, Any]]:
    messages = openai_history(1)
    messages[1]["tool_calls"][0]["function"]["arguments"] = '{"city":"Bergen"}'
    return messages


OPENAI_TOOLS: Final = [{"type": "function", "function": {"name": name}} for name in ("get_weather", "forecast_at")]
OPENAI_HEADERS: Final = {"Authorization": "Bearer sk-test-replay"}
ANTHROPIC_HEADERS: Final = {"x-api-key": "sk-test-replay", "anthropic-version": "2023-06-01"}
ANTHROPIC_REQUEST: Final = {
    "model": "m",
    "max_tokens": 1024,
    "messages": [{"role": "user", "content": QUESTION}],
    "tools": [{"name": "get_weather"}, {"name": "forecast_at"}],
}


@pytest.mark.parametrize(
    ("provider", "path", "headers", "body", "status", "says"),
    [
        ("openai", "/v1/chat/completions", OPENAI_HEADERS, {"model": "m", "messages": openai_history(0)}, 400,
         "tools: no tool named 'get_weather' was offered"),
        ("openai", "/v1/chat/completions", OPENAI_HEADERS,
         {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "tools": OPENAI_TOOLS}, 400,
         "messages.[0]: not the question"),
        ("openai", "/v1/chat/completions", OPENAI_HEADERS,
         {"model": "m", "messages": altered_first_turn(), "tools": OPENAI_TOOLS}, 400,
         "messages.[1].tool_calls: not the calls sent"),
        ("openai", "/v1/chat/completions", OPENAI_HEADERS,
         {"model": "m", "messages": openai_history(3), "tools": OPENAI_TOOLS}, 400,
         "the conversation is over"),
        ("openai", "/v1/completions", OPENAI_HEADERS, {}, 404, "Unknown request URL: POST /v1/completions"),
        ("anthropic", "/v1/messages", ANTHROPIC_HEADERS, {**ANTHROPIC_REQUEST, "max_tokens": None}, 400,
         "max_tokens: Field required"),
        ("anthropic", "/v1/messages", {"x-api-key": "sk-test-replay"}, ANTHROPIC_REQUEST, 400,
         "anthropic-version: header is required"),
        ("anthropic", "/v1/messages", ANTHROPIC_HEADERS, {**ANTHROPIC_REQUEST, "tools": []}, 400,
         "tools: no tool named 'get_weather' was offered"),
    ],
)  # fmt: skip
def test_replay_server_refuses_what_the_api_would(
    provider: str, path: str, headers: dict[str, str], body: object, status: int, says: str
) -> None:
    example = EXAMPLES[provider]
    with replay(example.replay_format, example.conversation) as server:
        request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), headers=headers)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with pytest.raises(urllib.error.HTTPError) as raised:
            opener.open(request, timeout=60)
    assert raised.value.code == status
    assert says in raised.value.read().decode()
    assert server.requests == [body]
