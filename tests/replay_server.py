"""A local stand-in for the OpenAI and Anthropic HTTP APIs: it replays a scripted conversation.

The examples' agent loops run against it with the real SDK clients, so no
test needs the network. Each POST is answered with the next scripted turn,
shaped as the provider answers (ids, usage, ``finish_reason`` or
``stop_reason``), after checking what the client sent back: the history of
earlier turns, then one result per tool call, referencing the call's id, in
the calls' order, an error result exactly for the calls scripted to fail.
A request that breaks a rule gets the provider's own 400 error body, so the
SDK raises; every request body is recorded for the test to read.

Which turn to answer is read from the request (the number of assistant
turns it carries), not counted, so a client's retry gets the same answer.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

__all__ = ["Anthropic", "Call", "Conversation", "OpenAI", "Provider", "ReplayServer", "Turn", "replay"]

#: A Unix time for ``created``, so the responses are the same on every run.
CREATED = 1764849600


@dataclass(frozen=True)
class Call:
    """A tool call the model makes: ``arguments`` is JSON text for OpenAI, the input object for Anthropic."""

    id: str
    name: str
    arguments: Any
    #: Whether the client's result for this call must be an error (bad JSON, bad arguments).
    fails: bool = False


@dataclass(frozen=True)
class Turn:
    """One assistant turn: its response id, optional text, and its tool calls (none in the final answer)."""

    id: str
    text: str | None = None
    calls: tuple[Call, ...] = ()


@dataclass(frozen=True)
class Conversation:
    """The user's question and the assistant's turns, in order."""

    question: str
    turns: tuple[Turn, ...]


class Rejected(Exception):
    """What is wrong with a request: its HTTP status, error type and message."""

    def __init__(self, message: str, *, status: int = 400, kind: str = "invalid_request_error") -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind


class Provider(Protocol):
    """One provider's wire format: its endpoint, its checks of a request, its response and error bodies."""

    path: str
    request_id_header: str

    def check_headers(self, headers: Message) -> None:
        """Raise ``Rejected`` for missing credentials or version headers."""

    def turn_index(self, body: dict[str, Any], conversation: Conversation) -> int:
        """The turn the request asks for, after checking the history and the tool results it carries."""

    def response(self, body: dict[str, Any], turn: Turn) -> dict[str, Any]:
        """The provider's response body for ``turn``."""

    def error(self, rejected: Rejected, request_id: str) -> dict[str, Any]:
        """The provider's error body."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise Rejected(message)


def _messages(body: dict[str, Any]) -> list[Any]:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise Rejected("messages: a non-empty list is required")
    _require(isinstance(body.get("model"), str), "model: a string is required")
    return messages


def _offered(names: list[Any], turn: Turn) -> None:
    """A model calls only the tools it was offered."""
    for call in turn.calls:
        _require(call.name in names, f"tools: no tool named {call.name!r} was offered")


def _tokens(body: dict[str, Any]) -> int:
    """A plausible prompt size: about four characters a token."""
    return len(json.dumps(body)) // 4


class OpenAI:
    """Chat Completions (``POST /v1/chat/completions``)."""

    path = "/v1/chat/completions"
    request_id_header = "x-request-id"

    def check_headers(self, headers: Message) -> None:
        """OpenAI wants a bearer token."""
        if not headers.get("Authorization", "").startswith("Bearer "):
            raise Rejected("You didn't provide an API key.", status=401)

    def turn_index(self, body: dict[str, Any], conversation: Conversation) -> int:
        """Check the question, each earlier assistant turn as sent, and one tool message per call after it."""
        messages = _messages(body)
        _require(messages[0] == {"role": "user", "content": conversation.question}, "messages.[0]: not the question")
        at = 1
        for index, turn in enumerate(conversation.turns):
            if at == len(messages):
                _offered([tool.get("function", {}).get("name") for tool in body.get("tools") or ()], turn)
                return index
            self._check_assistant(messages[at], turn, at)
            at += 1
            for call in turn.calls:
                _require(at < len(messages), f"messages: no tool message for tool call {call.id}")
                self._check_result(messages[at], call, at)
                at += 1
        raise Rejected("messages: the conversation is over, no turn is left to answer")

    @staticmethod
    def _check_assistant(message: Any, turn: Turn, at: int) -> None:
        _require(
            isinstance(message, dict) and message.get("role") == "assistant", f"messages.[{at}]: not the assistant"
        )
        sent = [OpenAI._tool_call(call) for call in turn.calls]
        _require((message.get("tool_calls") or []) == sent, f"messages.[{at}].tool_calls: not the calls sent")

    @staticmethod
    def _check_result(message: Any, call: Call, at: int) -> None:
        where = f"messages.[{at}]"
        _require(isinstance(message, dict) and message.get("role") == "tool", f"{where}.role: 'tool' expected")
        _require(message.get("tool_call_id") == call.id, f"{where}.tool_call_id: {call.id} expected")
        content = message.get("content")
        _require(isinstance(content, str), f"{where}.content: a string is required")
        failed = content.startswith("Error: ")
        _require(failed == call.fails, f"{where}.content: {'an' if call.fails else 'no'} error expected, got {content}")

    @staticmethod
    def _tool_call(call: Call) -> dict[str, Any]:
        return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}

    def response(self, body: dict[str, Any], turn: Turn) -> dict[str, Any]:
        """A ``ChatCompletion`` as the API writes it, with ``finish_reason: "tool_calls"`` when there are calls."""
        message: dict[str, Any] = {"role": "assistant", "content": turn.text}
        if turn.calls:
            message["tool_calls"] = [self._tool_call(call) for call in turn.calls]
        message |= {"refusal": None, "annotations": []}
        prompt, completion = _tokens(body), 12 + 24 * len(turn.calls)
        return {
            "id": turn.id,
            "object": "chat.completion",
            "created": CREATED,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": "tool_calls" if turn.calls else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
                "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
                "completion_tokens_details": {
                    "reasoning_tokens": 0,
                    "audio_tokens": 0,
                    "accepted_prediction_tokens": 0,
                    "rejected_prediction_tokens": 0,
                },
            },
            "service_tier": "default",
            "system_fingerprint": "fp_6f2eabb9a5",
        }

    def error(self, rejected: Rejected, request_id: str) -> dict[str, Any]:
        """``{"error": {message, type, param, code}}``."""
        return {"error": {"message": str(rejected), "type": rejected.kind, "param": None, "code": None}}


class Anthropic:
    """Messages (``POST /v1/messages``)."""

    path = "/v1/messages"
    request_id_header = "request-id"

    def check_headers(self, headers: Message) -> None:
        """Anthropic wants a key (``x-api-key``, or a bearer token as newer SDKs send it) and ``anthropic-version``."""
        if not headers.get("x-api-key") and not headers.get("Authorization", "").startswith("Bearer "):
            raise Rejected("x-api-key header is required", status=401, kind="authentication_error")
        if not headers.get("anthropic-version"):
            raise Rejected("anthropic-version: header is required")

    def turn_index(self, body: dict[str, Any], conversation: Conversation) -> int:
        """Check the question, each earlier assistant turn as sent, and a user turn of its tool results after it."""
        messages = _messages(body)
        _require(isinstance(body.get("max_tokens"), int), "max_tokens: Field required")
        _require(messages[0] == {"role": "user", "content": conversation.question}, "messages.0: not the question")
        at = 1
        for index, turn in enumerate(conversation.turns):
            if at == len(messages):
                _offered([tool.get("name") for tool in body.get("tools") or ()], turn)
                return index
            sent = self._content(turn)
            _require(messages[at] == {"role": "assistant", "content": sent}, f"messages.{at}: not the turn sent")
            at += 1
            if turn.calls:
                _require(at < len(messages), f"messages: tool_use ids were found without tool_result blocks: {turn.id}")
                self._check_results(messages[at], turn.calls, at)
                at += 1
        raise Rejected("messages: the conversation is over, no turn is left to answer")

    @staticmethod
    def _check_results(message: Any, calls: Sequence[Call], at: int) -> None:
        where = f"messages.{at}"
        _require(isinstance(message, dict) and message.get("role") == "user", f"{where}.role: 'user' expected")
        blocks = message.get("content")
        _require(isinstance(blocks, list) and len(blocks) == len(calls), f"{where}: one tool_result per tool_use")
        for index, (block, call) in enumerate(zip(blocks, calls, strict=True)):
            here = f"{where}.content.{index}"
            _require(isinstance(block, dict) and block.get("type") == "tool_result", f"{here}: tool_result expected")
            _require(block.get("tool_use_id") == call.id, f"{here}.tool_use_id: {call.id} expected")
            _require(isinstance(block.get("content"), str), f"{here}.content: a string is required")
            is_error = block.get("is_error", False)
            _require(is_error is call.fails, f"{here}.is_error: {call.fails} expected, got {is_error}")

    @staticmethod
    def _content(turn: Turn) -> list[dict[str, Any]]:
        text = [{"type": "text", "text": turn.text}] if turn.text is not None else []
        uses = [{"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments} for call in turn.calls]
        return text + uses

    def response(self, body: dict[str, Any], turn: Turn) -> dict[str, Any]:
        """A ``Message`` as the API writes it, with ``stop_reason: "tool_use"`` when there are calls."""
        return {
            "id": turn.id,
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": self._content(turn),
            "stop_reason": "tool_use" if turn.calls else "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": _tokens(body),
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
                "output_tokens": 12 + 40 * len(turn.calls),
                "service_tier": "standard",
            },
        }

    def error(self, rejected: Rejected, request_id: str) -> dict[str, Any]:
        """``{"type": "error", "error": {type, message}, "request_id"}``."""
        return {"type": "error", "error": {"type": rejected.kind, "message": str(rejected)}, "request_id": request_id}


@dataclass
class ReplayServer:
    """The running server: its base URL, the request bodies it received, and the errors it answered."""

    url: str
    requests: list[Any] = field(default_factory=list)
    rejections: list[str] = field(default_factory=list)


def _handler(provider: Provider, conversation: Conversation, server: ReplayServer) -> type[BaseHTTPRequestHandler]:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with lock:
                request_id = f"req_011CVnR{len(server.requests):04d}yTzWq8hLcXk2pD"
                status, body = self._answer(raw, request_id)
                if status != 200:
                    server.rejections.append(f"{status}: {body}")
            self._send(status, body, request_id)

        def _answer(self, raw: bytes, request_id: str) -> tuple[int, dict[str, Any]]:
            try:
                data = json.loads(raw)
            except ValueError:
                data = raw.decode("utf-8", "replace")
            server.requests.append(data)
            try:
                if self.path != provider.path:
                    raise Rejected(f"Unknown request URL: POST {self.path}", status=404)
                provider.check_headers(self.headers)
                _require(isinstance(data, dict), "the body is not a JSON object")
                turn = conversation.turns[provider.turn_index(data, conversation)]
                return 200, provider.response(data, turn)
            except Rejected as rejected:
                return rejected.status, provider.error(rejected, request_id)

        def _send(self, status: int, body: dict[str, Any], request_id: str) -> None:
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.send_header(provider.request_id_header, request_id)
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:  # the test output stays quiet
            pass

    return Handler


@contextmanager
def replay(provider: Provider, conversation: Conversation) -> Iterator[ReplayServer]:
    """Serve ``conversation`` on 127.0.0.1 (a free port) for as long as the block runs."""
    state = ReplayServer("")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(provider, conversation, state))
    httpd.daemon_threads = True
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()
