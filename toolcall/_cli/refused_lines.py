"""A request line the SDK's parser refuses: the message to dispatch after all, or the error that answers it.

The SDK parses each line with pydantic, which refuses more than JSON does: a
lone surrogate escape (``"\\ud800"``), an integer of more than 4300 digits,
nesting deeper than 128 levels, bytes that are not UTF-8. A refused line is
read again here with ``json.loads``:

- A well-formed request or notification is dispatched after all. Its strings
  keep their lone surrogates (bytes that are not UTF-8 become such
  surrogates), so the dispatcher refuses them as ``invalid_unicode``; an
  integer too long for ``int()`` and a value nested deeper than the decoder
  can go are held by ``json_limits``' stand-ins (``LongInteger``, ``TooDeep``) that
  ``unsendable_arguments`` turns into the ``too_long`` and ``too_deep``
  errors a tool call answers with.
- A line that is not JSON, or longer than the server reads, is answered with
  a JSON-RPC parse error (-32700); JSON that is not a request, with an
  invalid request error (-32600). Each carries the request's id when it can
  be read, ``null`` otherwise.
- A notification or a response that is not well-formed gets no answer.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any, Final

from toolcall._wire.json_limits import LongInteger, TooDeep, argument_errors, places_of
from toolcall.errors import ToolError

__all__ = ["Answer", "Dispatch", "read_overlong", "read_refused", "unsendable_arguments"]

#: JSON-RPC's error codes for a line that is not JSON and for JSON that is not a request.
PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
#: How deep a value may nest when a line is too deep for ``json.loads``: deeper containers become ``TooDeep``.
_KEPT_DEPTH: Final = 500
#: How much of a line that cannot be decoded is searched for its id (ids come first in practice).
_ID_SEARCH: Final = 64 << 10
#: A JSON string, or one bracket: the tokens that say how deep a place in the text is.
#: A string runs to the end of the text when it is not closed, so no place is scanned twice.
_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)|[\[\]{}]', re.DOTALL)
_SPACE = re.compile(r"[ \t\n\r]*")


@dataclass(frozen=True, slots=True)
class Dispatch:
    """A well-formed request or notification: ``message`` as JSON data, for the SDK to dispatch.

    ``stand_ins`` says whether the message holds ``LongInteger`` or ``TooDeep``.
    """

    message: dict[str, Any]
    stand_ins: bool


@dataclass(frozen=True, slots=True)
class Answer:
    """A JSON-RPC error message to write back at once."""

    message: dict[str, Any]


def read_refused(line: bytes) -> Dispatch | Answer | None:
    """What to do with a line the SDK's parser refused; ``None`` when nothing answers it."""
    text = line.decode("utf-8", "surrogateescape")  # a byte that is not UTF-8 becomes a lone surrogate
    if not text.strip():
        return None  # a blank line between messages
    decoder = _Decoder()
    try:
        try:
            value = decoder.loads(text)
        except RecursionError:
            value = decoder.loads(decoder.cut_deep(text))
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        return _error(_found_id(text), PARSE_ERROR, f"Parse error: {_why_not_json(exc)}")
    return _classify(value, decoder.stand_ins)


def read_overlong(head: bytes, limit: int) -> Answer:
    """The answer to a line longer than ``limit`` bytes, of which ``head`` is the start."""
    text = head[:_ID_SEARCH].decode("utf-8", "surrogateescape")
    return _error(_found_id(text), PARSE_ERROR, f"Parse error: the line is longer than {limit} bytes")


def unsendable_arguments(arguments: dict[str, Any]) -> ToolError | None:
    """The ``too_long`` and ``too_deep`` errors of the arguments that hold stand-ins; ``None`` if none do."""
    places = places_of(arguments)
    return argument_errors(places) if places else None


class _Decoder:
    """``json.loads`` with stand-ins for integers too long for ``int()`` and for cut-off deep values."""

    def __init__(self) -> None:
        #: Whether a stand-in was made.
        self.stand_ins = False
        self._placeholder = ""

    def loads(self, text: str) -> Any:
        return json.loads(text, parse_int=self._integer, parse_float=self._float)

    def cut_deep(self, text: str) -> str:
        """``text`` with each container deeper than ``_KEPT_DEPTH`` replaced by a placeholder ``TooDeep`` decodes to.

        What is cut off must be JSON too: it is decoded here in bands of
        ``_KEPT_DEPTH`` levels, each with its own deeper containers cut off, and
        a band that is not JSON raises ``JSONDecodeError`` as the line would.
        """
        while True:  # a number that is not in the text already cannot be mistaken for one the client sent
            self._placeholder = f"-0e-{secrets.randbelow(10**18)}"
            if self._placeholder not in text:
                break
        stand_in = f" {self._placeholder} "  # spaced, so that no digit or sign next to a cut joins the number
        bands: list[tuple[list[str], int]] = [([], 0)]  # per band open: its pieces so far, where its text resumes
        depth = 0
        for token in _TOKEN.finditer(text):
            bracket = token.group()
            if bracket in "[{":
                if depth and depth % _KEPT_DEPTH == 0:
                    pieces, resumes = bands[-1]
                    pieces += (text[resumes : token.start()], stand_in)
                    bands.append(([], token.start()))
                depth += 1
            elif bracket in "]}":
                depth -= 1
                if depth and depth % _KEPT_DEPTH == 0 and len(bands) > 1:
                    pieces, resumes = bands.pop()
                    self.loads("".join((*pieces, text[resumes : token.end()])))  # only checked: a stand-in holds it
                    bands[-1] = (bands[-1][0], token.end())
        if len(bands) > 1:
            raise json.JSONDecodeError("Expecting ']' or '}'", text, len(text))
        pieces, resumes = bands[0]
        return "".join((*pieces, text[resumes:]))

    def _integer(self, digits: str) -> int | LongInteger:
        try:
            return int(digits)
        except ValueError:  # more digits than int() accepts
            self.stand_ins = True
            return LongInteger(digits)

    def _float(self, digits: str) -> float | TooDeep:
        if digits == self._placeholder:
            self.stand_ins = True
            return TooDeep()
        return float(digits)


def _classify(value: Any, stand_ins: bool) -> Dispatch | Answer | None:
    """The decoded line as a message to dispatch, an error to answer, or nothing (a notification, a response)."""
    if type(value) is not dict:
        return _error(None, INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
    if "id" not in value:
        return _notification(value, stand_ins)
    if "method" not in value and ("result" in value or "error" in value):
        return None  # a response: the server sends no requests, so none is awaited
    identifier = value["id"]
    if not _is_id(identifier):
        why = "cannot be sent back as it came" if type(identifier) is str else "must be a string or an integer"
        return _error(None, INVALID_REQUEST, f"Invalid Request: the id {why}")
    problem = _envelope_problem(value)
    if problem is not None:
        return _error(identifier, INVALID_REQUEST, f"Invalid Request: {problem}")
    return Dispatch(value, stand_ins)


def _notification(value: dict[str, Any], stand_ins: bool) -> Dispatch | None:
    return Dispatch(value, stand_ins) if _envelope_problem(value) is None else None


def _envelope_problem(value: dict[str, Any]) -> str | None:
    if value.get("jsonrpc") != "2.0":
        return 'jsonrpc must be "2.0"'
    if type(value.get("method")) is not str:
        return "method must be a string"
    if value.get("params") is not None and type(value["params"]) is not dict:
        return "params must be a JSON object"
    return None


def _is_id(value: Any) -> bool:
    """Whether ``value`` is an id an answer can carry: an integer, or a string that JSON reads back unchanged.

    A lone high surrogate next to a lone low one (an escape beside a byte that
    is not UTF-8) is written as two escapes, which JSON reads back as one character.
    """
    return type(value) is int or (type(value) is str and json.loads(json.dumps(value)) == value)


def _error(identifier: Any, code: int, message: str) -> Answer:
    return Answer({"jsonrpc": "2.0", "id": identifier, "error": {"code": code, "message": message}})


def _why_not_json(exc: BaseException) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"the line is not JSON ({exc.msg} at column {exc.colno})"
    if isinstance(exc, RecursionError):
        return "the line is nested too deeply"
    return "the line is not JSON"


def _found_id(text: str) -> str | int | None:
    """The top-level ``"id"`` of a line that may not be JSON, if the start of the line shows it."""
    text = text[:_ID_SEARCH]
    depth = 0
    for token in _TOKEN.finditer(text):
        piece = token.group()
        if piece in "[{":
            depth += 1
        elif piece in "]}":
            depth -= 1
        elif depth == 1 and piece == '"id"':
            colon = _SPACE.match(text, token.end()).end()  # type: ignore[union-attr]  # matches the empty string
            if text[colon : colon + 1] == ":":
                found = _value_at(text, _SPACE.match(text, colon + 1).end())  # type: ignore[union-attr]
                return found if _is_id(found) else None
    return None


def _value_at(text: str, start: int) -> Any:
    try:
        return json.JSONDecoder().raw_decode(text, start)[0]
    except (ValueError, RecursionError):  # not JSON there, or an integer too long for int()
        return None
