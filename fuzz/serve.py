"""Fuzz target: raw JSON-RPC lines written to one ``toolcall serve`` process over a pipe.

``inputs()`` makes one line as bytes (never holding a newline): a
``tools/call`` of a tool of ``tests.serve_tools`` with fuzzed arguments
(valid for the tool, or holding integers past the int-string limit, nesting
past what the parsers go, lone surrogate escapes, bytes that are not UTF-8),
in an envelope that may be wrong (an id of every JSON type, a missing or
wrong ``jsonrpc``, other methods, params that are not an object), or a
line broken outright (cut short, bytes spliced in, not JSON at all).

``setup()`` starts the server once for the session; ``check`` writes a line
and then a ``ping``, and asserts the contract: a line that is a request (a
JSON object with an ``id``, or JSON that is no object, or not JSON at all)
gets exactly one answer within ``BOUND`` seconds, with its id when the id
is a string or an integer that JSON carries back as it came, and ``null``
otherwise; a notification or a
response gets none; every line the server writes is one JSON-RPC message;
every error text (an ``isError`` result, a JSON-RPC error message) is one
line of at most ``toolcall.errors.MAX_MESSAGE_LENGTH`` characters; and the
server is still running.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from toolcall.errors import MAX_MESSAGE_LENGTH

__all__ = ["BOUND", "check", "inputs", "setup", "teardown"]

#: Seconds to wait for any one message: a hang bound, far above any honest answer.
BOUND = 20.0
_ROOT = Path(__file__).resolve().parent.parent
#: The tools the fuzzed calls name: the ones that answer at once (the module's others wait or fail on purpose).
NAMES = ["count", "echo", "grid", "order", "keep", "no_such_tool", ""]
_HANDSHAKE = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}


class _Server:
    """The one server of the session, its stdout read on a thread."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(_ROOT), os.environ.get("PYTHONPATH")])))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "toolcall", "serve", "tests.serve_tools"],
            cwd=_ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # tools that fail log their tracebacks there
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.sentinels = itertools.count()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def write(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def message(self) -> dict[str, Any]:
        """The next message the server writes, checked to be one JSON-RPC message on one line."""
        try:
            line = self.lines.get(timeout=BOUND)
        except queue.Empty:
            raise AssertionError(f"the server wrote nothing for {BOUND} seconds") from None
        assert line, f"the server closed stdout (exit status {self.process.poll()})"
        assert line.count(b"\n") == 1, f"not one line: {line[:200]!r}"
        assert line.endswith(b"\n"), f"not one line: {line[:200]!r}"
        try:
            message = json.loads(line)
        except ValueError:
            raise AssertionError(f"not JSON: {line[:200]!r}") from None
        assert type(message) is dict, f"not a JSON-RPC message: {line[:200]!r}"
        assert message.get("jsonrpc") == "2.0", f"not a JSON-RPC message: {line[:200]!r}"
        return message


_SERVER: _Server | None = None


def setup() -> None:
    """Start the server and make the MCP handshake."""
    global _SERVER
    _SERVER = _Server()
    _SERVER.write(
        json.dumps({"jsonrpc": "2.0", "id": "handshake", "method": "initialize", "params": _HANDSHAKE}).encode()
    )
    while _SERVER.message().get("id") != "handshake":
        pass
    _SERVER.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')


def teardown() -> None:
    """Close the server's stdin; it must exit 0 within its 5 seconds (plus a margin)."""
    global _SERVER
    server, _SERVER = _SERVER, None
    if server is None:
        return
    assert server.process.stdin is not None
    server.process.stdin.close()
    try:
        status = server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
        raise AssertionError("the server did not exit after stdin closed") from None
    assert status == 0, f"the server exited with status {status}"


# -- inputs ---------------------------------------------------------------------------------------

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=20),
    st.dates().map(lambda day: day.isoformat()),
)
_VALUES = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
)
#: JSON text no parser on the way takes as it is: long integers, deep nesting, lone surrogates, NaN.
_HOSTILE = st.one_of(
    st.sampled_from([4299, 4300, 4301, 5000, 20_000]).map(lambda digits: "9" * digits),
    st.sampled_from([127, 128, 129, 200, 999, 1001, 5000, 50_000]).map(lambda depth: "[" * depth + "]" * depth),
    st.sampled_from(['"\\ud800"', '"a\\udfffb"', '"\\udc00\\ud800"', '{"\\ud800": 1}', "NaN", "-Infinity", "1e999"]),
    st.just('{"a": ' * 2000 + "1" + "}" * 2000),
)


def _value_text(value: Any) -> str:
    return json.dumps(value)


_VALUE_TEXT = st.one_of(_VALUES.map(_value_text), _HOSTILE)
_ITEM = st.fixed_dictionaries({"sku": st.text(max_size=5), "qty": st.integers()})
_GOOD_ARGUMENTS = st.one_of(
    st.fixed_dictionaries({"n": st.integers()}),
    st.fixed_dictionaries({"text": st.text()}),
    st.fixed_dictionaries({"rows": st.lists(st.lists(st.integers(), max_size=3), max_size=3)}),
    st.fixed_dictionaries(
        {"items": st.lists(_ITEM, max_size=3), "when": st.dates().map(lambda day: day.isoformat())},
        optional={"mode": st.sampled_from(["fast", "slow", "other"])},
    ),
    st.fixed_dictionaries({"data": st.dictionaries(st.text(max_size=5), _VALUES, max_size=3)}),
).map(_value_text)
_ARGUMENT_NAMES = st.sampled_from(["n", "text", "rows", "items", "when", "mode", "data", ""]) | st.text(max_size=5)
_ARGUMENTS_TEXT = st.one_of(
    _GOOD_ARGUMENTS,
    st.lists(st.tuples(_ARGUMENT_NAMES, _VALUE_TEXT), max_size=3).map(
        lambda pairs: "{" + ", ".join(f"{json.dumps(name)}: {text}" for name, text in pairs) + "}"
    ),
    _VALUE_TEXT,
)
_IDS = st.one_of(
    st.integers().map(str),
    st.text(max_size=12).map(json.dumps),
    st.sampled_from(["null", "true", "1.5", "-0", "[1]", '{"a": 1}', "9" * 5000, '"\\ud800"']),
)
_METHODS = st.one_of(
    st.just("tools/call"),
    st.sampled_from(["ping", "tools/list", "notifications/cancelled", "resources/list"]),
    st.text(max_size=12).filter(lambda method: method != "initialize"),
).map(json.dumps)


@st.composite
def _envelope(draw: st.DrawFn) -> bytes:
    """A JSON-RPC message as text, its members (and their values) right or wrong."""
    members: list[str] = []
    if draw(st.integers(0, 9)):
        members.append('"jsonrpc": ' + draw(st.sampled_from(['"2.0"'] * 8 + ['"1.0"', "2.0"])))
    if draw(st.integers(0, 4)):
        members.append('"id": ' + draw(_IDS))
    if draw(st.integers(0, 9)):
        members.append('"method": ' + draw(_METHODS))
    params_kind = draw(st.integers(0, 9))
    if params_kind >= 2:
        arguments = draw(_ARGUMENTS_TEXT)
        name = draw(st.sampled_from(NAMES))
        members.append(f'"params": {{"name": {json.dumps(name)}, "arguments": {arguments}}}')
    elif params_kind == 1:
        members.append('"params": ' + draw(_VALUE_TEXT))
    members = draw(st.permutations(members))
    text = "{" + ", ".join(members) + "}"
    return text.encode("utf-8", "surrogateescape")


@st.composite
def _broken(draw: st.DrawFn) -> bytes:
    """A line that is not JSON-RPC: cut short, with bytes spliced in, or not JSON at all."""
    line = draw(_envelope())
    how = draw(st.sampled_from(["cut", "splice", "bytes", "shape"]))
    if how == "cut":
        return line[: draw(st.integers(0, len(line)))]
    if how == "splice":
        at = draw(st.integers(0, len(line)))
        return line[:at] + draw(st.binary(min_size=1, max_size=4)) + line[at:]
    if how == "bytes":
        return draw(st.binary(max_size=40))
    return draw(_VALUES).__repr__().encode() if draw(st.booleans()) else json.dumps(draw(_VALUES)).encode()


def inputs() -> st.SearchStrategy[bytes]:
    """One line (without its newline) for the server's stdin."""
    return st.one_of(_envelope(), _envelope(), _broken()).map(lambda line: line.replace(b"\n", b" "))


# -- the contract -------------------------------------------------------------------------------


def check(value: bytes) -> None:
    """Write ``value`` and a ``ping``; the answers must be what the contract says, and the server alive."""
    server = _SERVER
    assert server is not None, "setup() starts the server"
    expected = _expected_answers(value)
    sentinel = f"\x00sentinel-{next(server.sentinels)}"
    server.write(value)
    server.write(json.dumps({"jsonrpc": "2.0", "id": sentinel, "method": "ping"}).encode())
    answers: list[dict[str, Any]] = []
    sentinel_seen = False
    # Read up to the ping's answer, and on until the line's answer when the line expects one.
    while not sentinel_seen or (expected is not None and expected[0] > len(answers)):
        message = server.message()
        if message.get("id") == sentinel and "method" not in message:
            sentinel_seen = True
        elif "method" not in message:
            answers.append(message)
    for answer in answers:
        _check_answer(answer, value)
    if expected is not None:
        count, identifiers = expected
        assert len(answers) == count, f"{len(answers)} answers where {count} were due: {value[:300]!r}"
        for answer in answers:
            assert answer.get("id") in identifiers, f"answer with id {answer.get('id')!r} to {value[:300]!r}"
    else:
        assert len(answers) <= 1, f"{len(answers)} answers to one line: {value[:300]!r}"
    assert server.process.poll() is None, f"the server exited with status {server.process.poll()}"


_NOT_SENT = object()
_TOO_LONG = object()


def _expected_answers(line: bytes) -> tuple[int, list[Any]] | None:
    """How many answers the line is due and the ids they may carry; ``None`` when it cannot be told."""
    text = line.decode("utf-8", "surrogateescape")
    if not text.strip():
        return 0, []
    try:
        value = json.loads(text, parse_int=_integer)
    except RecursionError:
        return None  # too deep to tell a request from a notification here
    except ValueError:  # not JSON: a parse error, with the id if the line shows one
        return 1, [None, *_plausible_ids(text)]
    if type(value) is not dict:
        return 1, [None]
    identifier = value.get("id", _NOT_SENT)
    if identifier is _NOT_SENT:
        return 0, []
    if "method" not in value and ("result" in value or "error" in value):
        return 0, []  # a response
    return 1, [identifier if _can_carry(identifier) else None]


def _can_carry(identifier: object) -> bool:
    """Whether an answer can carry ``identifier`` as it came (two lone surrogates side by side come back as one)."""
    return type(identifier) is int or (type(identifier) is str and json.loads(json.dumps(identifier)) == identifier)


def _integer(digits: str) -> object:
    try:
        return int(digits)
    except ValueError:  # more digits than int() takes: an id no answer can carry
        return _TOO_LONG


def _plausible_ids(text: str) -> list[Any]:
    """Every string or integer the line holds after an ``"id":`` (the server may read one of them back)."""
    found = []
    decoder = json.JSONDecoder()
    for match in re.finditer(r'"id"\s*:\s*', text):
        with contextlib.suppress(ValueError, RecursionError):  # no JSON value there
            found.append(decoder.raw_decode(text, match.end())[0])
    return found


def _check_answer(answer: dict[str, Any], line: bytes) -> None:
    where = f"answering {line[:200]!r}"
    if "error" in answer:
        error = answer["error"]
        assert type(error) is dict, f"malformed error {error!r} {where}"
        assert type(error.get("code")) is int, f"malformed error {error!r} {where}"
        _check_line(error.get("message"), where)
        return
    result = answer.get("result")
    assert type(result) is dict, f"neither a result nor an error {where}: {answer!r}"
    if result.get("isError"):
        [block] = result["content"]
        _check_line(block["text"], where)


def _check_line(text: object, where: str) -> None:
    assert type(text) is str, f"error text {text!r} is not a string {where}"
    assert "\n" not in text, f"error text on more than one line {where}: {text[:300]!r}"
    assert "\r" not in text, f"error text on more than one line {where}: {text[:300]!r}"
    assert len(text) <= MAX_MESSAGE_LENGTH, f"error text of {len(text)} characters {where}"
