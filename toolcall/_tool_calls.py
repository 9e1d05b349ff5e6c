"""What the provider adapters share: a model's tool call in, what the model reads back out.

A call is a tool name and its arguments, as a JSON string (OpenAI) or as
decoded data (Anthropic, Gemini). ``outcome`` decodes and dispatches it with
``run``; ``aoutcomes`` dispatches a turn's calls concurrently with ``arun``
and keeps their order. A reply is ``(ok, payload)``: ``text_reply`` gives
the content text (a string value as it is, any other value as JSON text),
``data_reply`` the value as plain JSON data; when not ``ok`` the payload is
the error's one line. A value JSON cannot carry is an error
reply and an ERROR log on logger ``toolcall``, never an exception.

This is the adapters' hot path: a reply is a plain tuple, and each step is
one call.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolcall import errors
from toolcall._dispatch.result import Err, Ok
from toolcall._toolset.run import arun, run
from toolcall._wire.json_decode import decode_arguments
from toolcall._wire.json_limits import BeyondLimits, argument_errors
from toolcall._wire.return_values import NotJSON, json_text, plain

if TYPE_CHECKING:
    from toolcall._toolset.toolset import Source

__all__ = ["OPENAI_ERROR_PREFIX", "aoutcomes", "data_reply", "field", "openai_content", "outcome", "text_reply"]

_log = logging.getLogger("toolcall")

#: Where a failed call's line starts in an OpenAI tool output (OpenAI has no error flag): the model reads a failure.
OPENAI_ERROR_PREFIX = "Error: "


def openai_content(reply: tuple[bool, str]) -> str:
    """A ``text_reply`` as the content of an OpenAI tool output: the text, or the error's line after the prefix."""
    ok, text = reply
    return text if ok else OPENAI_ERROR_PREFIX + text


def field(item: Any, name: str) -> Any:
    """``item[name]`` of a plain dict, ``item.name`` of an SDK object; ``None`` when absent."""
    if type(item) is dict or isinstance(item, Mapping):
        return item.get(name)
    return getattr(item, name, None)


def _decoded(text: str) -> Any:
    """The arguments text as data, or an ``Err``: ``MalformedArguments`` for text that is not JSON."""
    try:
        return decode_arguments(text)
    except json.JSONDecodeError as exc:
        if not text.strip():  # some models send "" for a tool without parameters
            return {}
        return Err(errors.MalformedArguments(text, exc.msg, exc.pos))
    except BeyondLimits as exc:
        return _beyond_limits(text, exc)
    except (ValueError, RecursionError) as exc:  # nothing else is known to come; a clear error if it does
        return Err(errors.MalformedArguments(text, f"{type(exc).__name__}: {exc}", -1))


def _beyond_limits(text: str, exc: BeyondLimits) -> Err:
    """The error of JSON holding values Python cannot: each an argument error, as the dispatcher words it."""
    if exc.data is not None and type(exc.data) is not dict:
        return Err(errors.InvalidArguments(exc.data))
    if any(not path for path, _, _ in exc.places):  # nested too deeply before any argument's name could be read
        return Err(errors.MalformedArguments(text, "nested too deeply", -1))
    return Err(argument_errors(exc.places))


def outcome(source: Source, name: Any, arguments: Any, context: Mapping[str, Any] | None) -> Ok[Any] | Err:
    """Dispatch one call; ``arguments`` as JSON text is decoded first."""
    if type(arguments) is str:
        arguments = _decoded(arguments)
        if type(arguments) is Err:
            return arguments
    return run(source, name, arguments, context=context)


async def aoutcomes(
    source: Source, calls: Sequence[tuple[Any, Any]], context: Mapping[str, Any] | None
) -> list[Ok[Any] | Err]:
    """Dispatch a turn's ``(name, arguments)`` calls concurrently (``arun``); the outcomes in the calls' order."""

    async def dispatch(name: Any, arguments: Any) -> Ok[Any] | Err:
        if type(arguments) is str:
            arguments = _decoded(arguments)
            if type(arguments) is Err:
                return arguments
        return await arun(source, name, arguments, context=context)

    if len(calls) == 1:  # the common single call needs no task
        return [await dispatch(*calls[0])]
    import asyncio

    return list(await asyncio.gather(*(dispatch(name, arguments) for name, arguments in calls)))


def text_reply(name: Any, result: Ok[Any] | Err) -> tuple[bool, str]:
    """``(True, content text)`` for a value, ``(False, the error's line)`` otherwise."""
    if type(result) is Ok:
        value = result.value
        try:  # a string as it is (after plain's Unicode check), any other value as JSON text
            return True, plain(value) if type(value) is str else json_text(plain(value))
        except (NotJSON, RecursionError) as exc:
            return False, _unencodable(name, exc)
    return False, str(result.error)  # type: ignore[union-attr]


def data_reply(name: Any, result: Ok[Any] | Err) -> tuple[bool, Any]:
    """``(True, the value as plain JSON data)`` for a value, ``(False, the error's line)`` otherwise."""
    if type(result) is Ok:
        try:
            return True, plain(result.value)
        except (NotJSON, RecursionError) as exc:
            return False, _unencodable(name, exc)
    return False, str(result.error)  # type: ignore[union-attr]


def _unencodable(name: Any, exc: Exception) -> str:
    what = str(exc) if isinstance(exc, NotJSON) else "a value nested too deeply (or containing itself)"
    _log.error("tool %r returned %s, which JSON cannot carry", name, what)
    return f"the tool returned {what}, which JSON cannot carry"
