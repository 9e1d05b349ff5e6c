"""Values beyond Python's limits, sent by the model or returned by a tool: an error result, never an exception.

Python cannot read an integer longer than the int-string limit from text
(4300 digits by default), cannot write one either, and cannot decode JSON
nested deeper than the recursion limit. JSON has no such limits, so a model
can send these and a tool can return them. Every adapter, with each argument
decoder, and ``serve`` answer with an error result naming the problem.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import toolcall
import toolcall.anthropic
import toolcall.gemini
import toolcall.openai
from tests import limits_tools
from tests.paths import ROOT
from toolcall.errors import MAX_MESSAGE_LENGTH

LIMIT = sys.get_int_max_str_digits()
#: Seconds before a wait counts as a hung server: a guard against hanging, never a measurement.
GUARD = 60


def _chat(name: str, arguments: str) -> dict[str, Any]:
    call = {"id": "c1", "type": "function", "function": {"name": name, "arguments": arguments}}
    return {"role": "assistant", "tool_calls": [call]}


def _responses(name: str, arguments: str) -> list[dict[str, Any]]:
    return [{"type": "function_call", "call_id": "c1", "name": name, "arguments": arguments}]


def _chat_sync(name: str, arguments: str) -> str:
    [message] = toolcall.openai.tool_messages(limits_tools, _chat(name, arguments))
    return str(message["content"])


def _chat_async(name: str, arguments: str) -> str:
    [message] = asyncio.run(toolcall.openai.atool_messages(limits_tools, _chat(name, arguments)))
    return str(message["content"])


def _responses_sync(name: str, arguments: str) -> str:
    [item] = toolcall.openai.function_call_outputs(limits_tools, _responses(name, arguments))
    return str(item["output"])


def _responses_async(name: str, arguments: str) -> str:
    [item] = asyncio.run(toolcall.openai.afunction_call_outputs(limits_tools, _responses(name, arguments)))
    return str(item["output"])


#: Each OpenAI form: (tool name, arguments text) → the content the model reads.
OPENAI_FORMS: dict[str, Callable[[str, str], str]] = {
    "chat": _chat_sync,
    "chat-async": _chat_async,
    "responses": _responses_sync,
    "responses-async": _responses_async,
}


@pytest.fixture(params=list(OPENAI_FORMS))
def openai_content(request: pytest.FixtureRequest) -> Callable[[str, str], str]:
    return OPENAI_FORMS[request.param]


def too_long(digits: int) -> str:
    return f"too long (at most {LIMIT} digits), got <an integer of {digits} digits>"


# -- integers the model sends ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("digits", '{"n": ' + "7" * 5000 + "}", f'invalid argument "n": {too_long(5000)}'),
        ("digits", '{"n": -' + "7" * (LIMIT + 1) + "}", f'invalid argument "n": {too_long(LIMIT + 1)}'),
        ("total", '{"values": [1, ' + "7" * 5000 + "]}", f'invalid argument "values" at [1]: {too_long(5000)}'),
        (
            "digits",
            '{"n": 1, "extra": {"a": [0, ' + "7" * 9000 + "]}}",
            f'invalid argument "extra" at a[1]: {too_long(9000)}',
        ),
        (
            "total",
            '{"values": [' + "1" * 5000 + '], "label": "x", "unknown": ' + "2" * 6000 + "}",
            f'2 problems with the arguments: invalid argument "values" at [0]: {too_long(5000)}; '
            f'invalid argument "unknown": {too_long(6000)}',
        ),
    ],
)
def test_an_integer_past_the_limit_is_too_long(
    decoder: str, openai_content: Callable[[str, str], str], name: str, arguments: str, expected: str
) -> None:
    assert openai_content(name, arguments) == "Error: " + expected


def test_a_long_integer_replaced_by_a_repeated_member_is_not_an_error(
    decoder: str, openai_content: Callable[[str, str], str]
) -> None:
    # json.loads keeps the last of a repeated member: the long integer never reaches the tool.
    assert openai_content("digits", '{"n": ' + "7" * 5000 + ', "n": 12}') == "2"


def test_arguments_that_are_a_long_integer_are_not_an_object(
    decoder: str, openai_content: Callable[[str, str], str]
) -> None:
    content = openai_content("digits", "7" * 5000)
    expected = "the arguments must be a JSON object of named parameters, got <an integer of 5000 digits>"
    assert content == f"Error: {expected}"


@pytest.mark.parametrize("sign", ["", "-"])
def test_an_integer_at_the_limit_arrives_exactly(
    decoder: str, openai_content: Callable[[str, str], str], sign: str
) -> None:
    assert openai_content("digits", '{"n": ' + sign + "7" * LIMIT + "}") == str(len(sign) + LIMIT)


@pytest.mark.parametrize("sign", [1, -1])
def test_an_integer_past_the_limit_in_a_dict_is_too_long(sign: int) -> None:
    # A Python caller can hold such an int; run refuses it as the adapters refuse its text.
    outcome = toolcall.run(limits_tools, "total", {"values": [1, sign * 10**LIMIT]})
    assert type(outcome) is toolcall.Err
    assert str(outcome.error) == f'invalid argument "values" at [1]: {too_long(LIMIT + 1)}'
    outcome = toolcall.run(limits_tools, "digits", {"n": sign * 10**LIMIT})
    assert type(outcome) is toolcall.Err
    assert outcome.error.reason.code == "too_long"  # type: ignore[union-attr]


def test_an_integer_at_the_limit_in_a_dict_arrives() -> None:
    largest = 10**LIMIT - 1
    assert toolcall.run(limits_tools, "digits", {"n": largest}) == toolcall.Ok(LIMIT)
    assert toolcall.run(limits_tools, "total", {"values": [largest, -largest]}) == toolcall.Ok(0)


def test_text_that_is_not_json_before_a_long_integer_names_the_position(
    decoder: str, openai_content: Callable[[str, str], str]
) -> None:
    text = '{"n": ' + "7" * 5000 + ', "extra": }'
    expected = toolcall.errors.MalformedArguments(text, "Expecting value", len(text) - 1)
    assert openai_content("digits", text) == f"Error: {expected}"


# -- nesting and lone surrogates the model sends ---------------------------------------------------------------


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def test_arguments_nested_past_the_limit_are_the_dispatchers_too_deep(
    decoder: str, openai_content: Callable[[str, str], str]
) -> None:
    depth = 100_000
    text = '{"n": 1, "extra": ' + "[" * depth + "]" * depth + "}"
    expected = toolcall.run(limits_tools, "digits", {"n": 1, "extra": nested(depth)})
    assert not expected.ok
    assert openai_content("digits", text) == f"Error: {expected.error}"  # invalid argument "extra": nested too deeply


def test_arguments_nested_past_the_limit_at_the_top_are_an_error(
    decoder: str, openai_content: Callable[[str, str], str]
) -> None:
    content = openai_content("digits", "[" * 100_000 + "]" * 100_000)
    assert content.startswith("Error: the arguments are not valid JSON: nested too deeply")


def test_a_long_integer_beside_deep_nesting_is_an_error(
    decoder: str, openai_content: Callable[[str, str], str]
) -> None:
    text = '{"n": ' + "7" * 5000 + ', "extra": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert openai_content("digits", text) == 'Error: invalid argument "extra": nested too deeply'


@pytest.mark.parametrize("arguments", ['{"values": [], "label": "\\ud800"}', '{"values": [], "label": "a\\udfffb"}'])
def test_a_lone_surrogate_escape_is_invalid_unicode(
    decoder: str, openai_content: Callable[[str, str], str], arguments: str
) -> None:
    expected = toolcall.run(limits_tools, "total", json.loads(arguments))
    assert not expected.ok
    assert "invalid Unicode" in str(expected.error)
    assert openai_content("total", arguments) == f"Error: {expected.error}"


# -- integers a tool returns -----------------------------------------------------------------------------------

KINDS = ["int", "negative", "list", "dict", "key", "dataclass"]
RETURNED = f"the tool returned an integer of more than {LIMIT} digits, which JSON cannot carry"


def _anthropic(kind: str, run_async: bool) -> tuple[bool, str]:
    blocks = [{"type": "tool_use", "id": "t1", "name": "huge", "input": {"kind": kind}}]
    message = (
        asyncio.run(toolcall.anthropic.atool_results(limits_tools, blocks))
        if run_async
        else toolcall.anthropic.tool_results(limits_tools, blocks)
    )
    assert message is not None
    [block] = message["content"]
    assert isinstance(block, dict)
    return bool(block.get("is_error")), str(block["content"])


def _gemini(kind: str, run_async: bool) -> tuple[bool, str]:
    parts = [{"function_call": {"name": "huge", "args": {"kind": kind}}}]
    found = (
        asyncio.run(toolcall.gemini.afunction_responses(limits_tools, parts))
        if run_async
        else toolcall.gemini.function_responses(limits_tools, parts)
    )
    [part] = found
    response: dict[str, Any] = part["function_response"]["response"]  # type: ignore[index, assignment]
    return "error" in response, str(response.get("error", response.get("output")))


def _openai(kind: str, form: str) -> tuple[bool, str]:
    content = OPENAI_FORMS[form]("huge", json.dumps({"kind": kind}))
    return content.startswith("Error: "), content.removeprefix("Error: ")


#: Each adapter: kind → (is it an error, the text).
ADAPTERS: dict[str, Callable[[str], tuple[bool, str]]] = {
    **{f"openai-{form}": (lambda kind, form=form: _openai(kind, form)) for form in OPENAI_FORMS},
    "anthropic": lambda kind: _anthropic(kind, False),
    "anthropic-async": lambda kind: _anthropic(kind, True),
    "gemini": lambda kind: _gemini(kind, False),
    "gemini-async": lambda kind: _gemini(kind, True),
}


@pytest.mark.parametrize("adapter", list(ADAPTERS))
@pytest.mark.parametrize("kind", KINDS)
def test_a_returned_integer_past_the_limit_is_an_error_result_and_a_log(
    adapter: str, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="toolcall"):
        assert ADAPTERS[adapter](kind) == (True, RETURNED)
    assert [r.getMessage() for r in caplog.records] == [
        f"tool 'huge' returned an integer of more than {LIMIT} digits, which JSON cannot carry"
    ]


# -- serve -----------------------------------------------------------------------------------------------------


def _lines(process: subprocess.Popen[str], into: queue.Queue[str | None]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        into.put(line)
    into.put(None)


@pytest.fixture
def server() -> Iterator[Callable[[dict[str, Any]], dict[str, Any]]]:
    """``toolcall serve tests.limits_tools`` spoken to in JSON-RPC lines: request → the answer to it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        [sys.executable, "-m", "toolcall", "serve", "tests.limits_tools"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
    )
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_lines, args=(process, lines), daemon=True).start()

    def ask(message: dict[str, Any]) -> dict[str, Any]:
        assert process.stdin is not None
        process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        process.stdin.flush()
        while "id" in message:
            line = lines.get(timeout=GUARD)
            assert line is not None, "the server closed stdout before answering"
            answer: dict[str, Any] = json.loads(line)
            if answer.get("id") == message["id"]:
                return answer
        return {}

    initialize = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    assert "result" in ask({"id": 0, "method": "initialize", "params": initialize})
    ask({"method": "notifications/initialized"})
    try:
        yield ask
    finally:
        assert process.stdin is not None
        process.stdin.close()
        try:
            process.wait(timeout=GUARD)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            assert process.stdout is not None
            process.stdout.close()


@pytest.mark.slow
def test_serve_answers_a_returned_integer_past_the_limit_with_an_error_result(
    server: Callable[[dict[str, Any]], dict[str, Any]],
) -> None:
    for number, kind in enumerate(KINDS, 1):
        answer = server({"id": number, "method": "tools/call", "params": {"name": "huge", "arguments": {"kind": kind}}})
        assert "result" in answer, (kind, answer)
        result = answer["result"]
        assert result["isError"] is True
        [block] = result["content"]
        assert block == {"type": "text", "text": RETURNED}
        assert "\n" not in block["text"]
        assert len(block["text"]) <= MAX_MESSAGE_LENGTH
    # and it goes on serving
    good = server({"id": 99, "method": "tools/call", "params": {"name": "digits", "arguments": {"n": 12}}})
    assert good["result"]["content"] == [{"type": "text", "text": "2"}]
