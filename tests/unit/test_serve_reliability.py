"""``toolcall serve`` under hostile input and failing tools: every request answered, the server kept alive.

Each test starts ``python -m toolcall serve tests.serve_tools`` and speaks
raw JSON-RPC lines to it over pipes, as bytes (some lines are not UTF-8).
Every wait has a generous guard, so a broken server fails a test instead of
hanging it; nothing asserts how long anything took.
"""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import toolcall
from tests import serve_tools
from tests.paths import ROOT
from tests.subprocesses import stop
from tests.unit.test_cli_serve import GUARD, INITIALIZE, command

#: Left out of the fast loop (``-m "not slow"``): every case starts a server subprocess.
pytestmark = pytest.mark.slow

#: A marker for "the server closed stdout" in the queue of lines.
_CLOSED = b""


class Wire:
    """``serve tests.serve_tools`` spoken to in raw lines; every line it writes must be one JSON-RPC message."""

    def __init__(self) -> None:
        self.errors = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115  # closed by ``wire``
        self.process = subprocess.Popen(
            command("tests.serve_tools"), cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        #: Messages read while waiting for another answer.
        self.backlog: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(_CLOSED)

    def send(self, line: bytes | dict[str, Any]) -> None:
        """Write one line (bytes as they are, a dict as JSON) to the server's stdin."""
        assert self.process.stdin is not None
        self.process.stdin.write((line if isinstance(line, bytes) else json.dumps(line).encode()) + b"\n")
        self.process.stdin.flush()

    def next_message(self) -> dict[str, Any] | None:
        """The next message the server writes; ``None`` once it closed stdout."""
        line = self.lines.get(timeout=GUARD)
        if line == _CLOSED:
            return None
        assert line.count(b"\n") == 1, line
        assert line.endswith(b"\n"), line
        message = json.loads(line)
        assert isinstance(message, dict), line
        assert message.get("jsonrpc") == "2.0", line
        return message

    def answer(self, identifier: object) -> dict[str, Any]:
        """The answer to request ``identifier``; the answers to others read meanwhile are kept for later."""
        for index, message in enumerate(self.backlog):
            if message.get("id") == identifier:
                return self.backlog.pop(index)
        while True:
            message = self.next_message()
            if message is None:
                raise AssertionError(f"the server closed stdout before answering request {identifier!r}")
            if message.get("id") == identifier:
                return message
            self.backlog.append(message)

    def answers_to(self, line: bytes | dict[str, Any], sentinel: int) -> list[dict[str, Any]]:
        """Every message written for ``line``: those before the answer to a ``ping`` sent right after it."""
        self.send(line)
        self.send({"jsonrpc": "2.0", "id": f"sentinel-{sentinel}", "method": "ping"})
        seen = []
        while True:
            message = self.next_message()
            assert message is not None, "the server closed stdout"
            if message.get("id") == f"sentinel-{sentinel}":
                return seen
            seen.append(message)

    def call(self, identifier: object, name: str, arguments: dict[str, Any]) -> None:
        """Send a ``tools/call`` request."""
        params = {"name": name, "arguments": arguments}
        self.send({"jsonrpc": "2.0", "id": identifier, "method": "tools/call", "params": params})

    def initialize(self) -> None:
        """The MCP handshake."""
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INITIALIZE})
        assert "result" in self.answer(0)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def close(self) -> tuple[int, list[dict[str, Any]]]:
        """Close stdin; the exit status and the messages written after that."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        status = self.process.wait(timeout=GUARD)
        rest = []
        while (message := self.next_message()) is not None:
            rest.append(message)
        return status, rest


@contextmanager
def wire() -> Iterator[Wire]:
    """An initialized ``Wire``, killed if the test leaves it running."""
    server = Wire()
    try:
        server.initialize()
        yield server
    finally:
        stop(server.process)
        server.errors.close()


def result_text(answer: dict[str, Any]) -> tuple[bool, str]:
    """``(isError, text)`` of a ``tools/call`` answer with one text block."""
    result = answer["result"]
    [block] = result["content"]
    return result.get("isError", False), block["text"]


def expected_text(name: str, arguments: dict[str, Any]) -> str:
    """The text of ``toolcall.run``'s error for this call: what serve must answer with."""
    outcome = toolcall.run(serve_tools, name, arguments)
    assert not outcome.ok
    return str(outcome.error)


def nested(depth: int, inner: Any) -> Any:
    """``inner`` inside ``depth`` lists, built without recursion."""
    for _ in range(depth):
        inner = [inner]
    return inner


def call_line(identifier: object, name: str, arguments_text: str) -> bytes:
    """A ``tools/call`` line whose arguments are given as raw JSON text (a lone ``\\udcXX`` is the raw byte XX)."""
    head = json.dumps({"jsonrpc": "2.0", "id": identifier, "method": "tools/call"})[:-1]
    return f'{head}, "params": {{"name": "{name}", "arguments": {arguments_text}}}}}'.encode("utf-8", "surrogateescape")


def deep_text(depth: int) -> str:
    """JSON text of ``1`` inside ``depth`` arrays (too deep for ``json.dumps``)."""
    return "[" * depth + "1" + "]" * depth


# A tool's own failures


HARD_FAILURES = [
    ("abandoned", "CancelledError"),
    ("cancelled_async", "CancelledError"),
    ("cancelled_sync", "CancelledError"),
    ("cancelled_in_thread", "CancelledError"),
    ("interrupted_async", "KeyboardInterrupt"),
    ("interrupted_sync", "KeyboardInterrupt"),
    ("interrupted_in_thread", "KeyboardInterrupt"),
]


def test_a_tool_raising_cancelled_error_or_keyboard_interrupt_is_an_error_result_and_the_server_goes_on() -> None:
    with wire() as server:
        server.call("in-flight", "held", {"key": "across"})  # running while the others fail
        for number, (name, raised) in enumerate(HARD_FAILURES, 1):
            server.call(number, name, {})
            assert result_text(server.answer(number)) == (True, f"the tool failed with {raised}"), name
        server.call("release", "release", {"key": "across"})
        assert result_text(server.answer("in-flight")) == (False, "across")
        server.call("after", "echo", {"text": "still here"})
        assert result_text(server.answer("after")) == (False, "still here")
        status, _ = server.close()
    assert status == 0


def test_a_call_the_client_cancels_is_still_cancelled() -> None:
    # Not a tool's own CancelledError: notifications/cancelled stops the call, which gets no answer.
    with wire() as server:
        server.call("cancelled", "held", {"key": "never released"})
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "cancelled"}})
        server.call("after", "echo", {"text": "next"})
        assert result_text(server.answer("after")) == (False, "next")
        status, rest = server.close()
    assert status == 0
    assert [message for message in rest if message.get("id") == "cancelled"] == []


# Lines the SDK's parser refuses: the dispatcher's own answer


LONG_INTEGER = "9" * 5000
REFUSED_ARGUMENTS = [
    pytest.param("echo", '{"text": "\\ud800"}', expected_text("echo", {"text": "\ud800"}), id="lone-surrogate"),
    pytest.param("echo", '{"text": "caf\udce9"}', expected_text("echo", {"text": "caf\udce9"}), id="not-utf-8"),
    pytest.param(
        "count",
        f'{{"n": {LONG_INTEGER}}}',
        'invalid argument "n": too long (at most 4300 digits), got <an integer of 5000 digits>',
        id="long-integer",
    ),
    pytest.param(
        "keep",
        f'{{"data": {{"a": [1, -{LONG_INTEGER}]}}}}',
        'invalid argument "data" at a[1]: too long (at most 4300 digits), got <an integer of 5000 digits>',
        id="long-integer-inside",
    ),
    pytest.param(
        "grid",
        json.dumps({"rows": nested(200, 1)}),
        expected_text("grid", {"rows": nested(200, 1)}),
        id="200-deep",
    ),
    pytest.param(
        "keep",
        f'{{"data": {{"a": {deep_text(100_000)}}}}}',
        expected_text("keep", {"data": {"a": nested(100_000, 1)}}),
        id="100000-deep",
    ),
]


@pytest.mark.parametrize(("name", "arguments", "expected"), REFUSED_ARGUMENTS)
def test_arguments_the_sdk_cannot_parse_get_the_dispatchers_error(name: str, arguments: str, expected: str) -> None:
    with wire() as server:
        server.send(call_line(1, name, arguments))
        assert result_text(server.answer(1)) == (True, expected)
        assert "\n" not in expected
        server.call(2, "echo", {"text": "next"})
        assert result_text(server.answer(2)) == (False, "next")


def test_a_line_deeper_than_the_sdk_parses_is_dispatched_as_run_would() -> None:
    value = {"data": {"a": nested(300, "x")}}
    with wire() as server:
        server.send(call_line(1, "keep", json.dumps(value)))
        assert result_text(server.answer(1)) == (False, "1")


# Lines that are not requests at all: JSON-RPC errors


def _deep_call_line(identifier: int | None, inside: bytes, *, depth: int = 2000, cut: int = 1000) -> bytes:
    """A ``tools/call`` line nesting ``{"a": ...}`` ``depth`` deep, with ``inside`` after ``cut`` closing braces."""
    head = {"jsonrpc": "2.0", "method": "tools/call"} | ({} if identifier is None else {"id": identifier})
    deep = b'{"a": ' * depth + b"1" + b"}" * cut + inside + b"}" * (depth - cut)
    return json.dumps(head).encode()[:-1] + b', "params": {"name": "keep", "arguments": ' + deep + b"}}"


BROKEN_LINES: list[tuple[bytes, list[tuple[object, int]]]] = [
    (b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {', [(7, -32700)]),
    (b"this is not JSON", [(None, -32700)]),
    (b'{"jsonrpc": "2.0", "id": "x\xff", "method": "ping"}\xff', [("x\udcff", -32700)]),
    (b'{"jsonrpc": "2.0", "id": 8}', [(8, -32600)]),
    (b'{"id": 9, "method": "ping"}', [(9, -32600)]),
    (b'{"jsonrpc": "2.0", "id": 10, "method": "ping", "params": [1]}', [(10, -32600)]),
    (b'{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}', [(None, -32600)]),
    (b'{"jsonrpc": "2.0", "id": null, "method": "ping"}', [(None, -32600)]),
    # An id JSON cannot carry back: a lone high surrogate beside a lone low one would return as one character.
    (b'{"jsonrpc": "2.0", "id": "\\ud800\x80\\udc00", "method": "tools/call", "params": null}', [(None, -32600)]),
    (b'{"jsonrpc": "2.0", "id": "\\ud800\x80", "method": "ping"', [(None, -32700)]),
    (b'{"jsonrpc": "2.0", "id": ' + LONG_INTEGER.encode() + b', "method": "ping"}', [(None, -32600)]),
    (b"[1, 2]", [(None, -32600)]),
    # Deeper than the SDK parses, and not JSON deep down: still a parse error, not a request or a notification.
    (_deep_call_line(7, b'T\xe7{"a": 1}'), [(7, -32700)]),
    (_deep_call_line(None, b"5"), [(None, -32700)]),
    (_deep_call_line(None, b"]["), [(None, -32700)]),  # brackets that balance but do not match
    # A digit just after the object 501 levels deep, where the part cut off ends: it cannot join what stands in.
    (_deep_call_line(8, b"5", depth=1200, cut=702), [(8, -32700)]),
    (b"42", [(None, -32600)]),
    # Notifications and responses get no answer, well-formed or not.
    (b'{"jsonrpc": "2.0", "method": "notifications/whatever", "params": [1]}', []),
    (b'{"jsonrpc": "2.0", "method": "notifications/whatever", "params": {"a": "\\ud800"}}', []),
    (b'{"jsonrpc": "2.0", "id": 11, "result": {"a": "\\ud800"}}', []),
    (b"", []),
]


def test_every_request_line_that_cannot_be_parsed_gets_one_json_rpc_error() -> None:
    with wire() as server:
        for number, (line, expected) in enumerate(BROKEN_LINES):
            answers = server.answers_to(line, number)
            assert [(answer["id"], answer["error"]["code"]) for answer in answers] == expected, line
            for answer in answers:
                assert set(answer) == {"jsonrpc", "id", "error"}
                assert "\n" not in answer["error"]["message"]
        server.call("after", "echo", {"text": "still here"})
        assert result_text(server.answer("after")) == (False, "still here")


def test_a_line_longer_than_the_server_reads_is_answered_and_skipped() -> None:
    from toolcall._cli.stdio import _LINE_LIMIT

    padding = "x" * (_LINE_LIMIT + 10)
    line = call_line("long", "echo", json.dumps({"text": padding}))
    with wire() as server:
        answers = server.answers_to(line, 0)
        assert [(answer["id"], answer["error"]["code"]) for answer in answers] == [("long", -32700)]
        server.call("after", "echo", {"text": "still here"})
        assert result_text(server.answer("after")) == (False, "still here")


# Shutdown


def test_closing_stdin_ends_the_server_while_a_thread_run_tool_never_returns() -> None:
    with wire() as server:
        server.call("stuck", "stuck", {})
        server.call("after", "echo", {"text": "answered"})
        assert result_text(server.answer("after")) == (False, "answered")
        status, rest = server.close()  # the guard is the bound: the call never returns
    assert status == 0
    [closed] = [message for message in rest if message.get("id") == "stuck"]
    assert "error" in closed


def test_calls_still_running_when_stdin_closes_are_answered_before_the_server_exits() -> None:
    # A client that writes its requests and closes stdin at once still gets every answer.
    server = Wire()
    try:
        server.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INITIALIZE})
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.call(1, "nap", {"seconds": 0.2})
        server.call(2, "held", {"key": "closing"})
        server.call(3, "release", {"key": "closing"})
        server.call(4, "echo", {"text": "last"})
        status, rest = server.close()
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()
    assert status == 0
    answers = {message["id"]: message for message in rest}
    assert result_text(answers[1]) == (False, "0.2")
    assert result_text(answers[2]) == (False, "closing")
    assert result_text(answers[4]) == (False, "last")


def test_thread_run_tools_still_run_concurrently() -> None:
    with wire() as server:
        for number in range(4):
            server.call(number + 1, "rendezvous", {"key": "four", "expected": 4})
        for number in range(4):
            assert result_text(server.answer(number + 1)) == (False, "true")
