"""Gemini's ``function_call`` parts → ``function_response`` parts.

::

    response = client.models.generate_content(model=..., contents=contents, config=config)
    contents.append(response.candidates[0].content)
    parts = toolcall.gemini.function_responses(weather, response)
    if parts:
        contents.append({"role": "user", "parts": parts})

The SDK's objects and plain dicts are read alike, in the SDK's snake_case or
the REST API's camelCase (``functionCall``); no SDK is imported. The
response object holds ``{"output": value}``, or ``{"error": line}`` for a
failed call, as Gemini's documentation asks.

Gemini's enums hold strings only, so ``emit`` declares an enum of integers
(or other non-string scalars) as their JSON texts; the arguments the model
sends with those texts are turned back into the values before dispatch
(``toolcall._wire.gemini_enums``), with a table made once per tool.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolcall._once import OnceMap
from toolcall._tool_calls import aoutcomes, data_reply, field, outcome
from toolcall._toolset.toolset import LoadedTool, as_toolset, find_tool

if TYPE_CHECKING:
    from google.genai.types import PartDict

    from toolcall._dispatch.result import Err, Ok
    from toolcall._toolset.toolset import Source
    from toolcall._wire.gemini_enums import Restore

__all__ = ["afunction_responses", "function_responses"]


def _parts(response: Any) -> Sequence[Any]:
    """The parts of a ``GenerateContentResponse`` (its first candidate), of a ``Content``, or a list of parts."""
    if isinstance(response, Sequence):
        return response
    candidates = field(response, "candidates")
    content = field(candidates[0], "content") if candidates else response
    return field(content, "parts") or ()


def _function_calls(response: Any) -> list[Any]:
    calls = (field(part, "function_call") or field(part, "functionCall") for part in _parts(response))
    return [call for call in calls if call is not None]


#: Each tool's restorer of stringified enums (``None`` when its declaration has none), made on its first call.
#: Keyed by the loaded tool (one per ``@tool`` declaration, by identity): it grows with the tools a process
#: dispatches through Gemini, not with its calls, and a redefined tool is a new key.
_RESTORERS: OnceMap[LoadedTool, Restore | None] = OnceMap()


def _restorer(loaded: LoadedTool) -> Restore | None:
    """The tool's restorer, from its Gemini declaration rendered once more with the stringified places recorded."""
    from toolcall._render.canonical import parameters_schema
    from toolcall._render.gemini import gemini_parameters
    from toolcall._render.losses import Losses
    from toolcall._wire.gemini_enums import enum_restorer

    stringified: dict[tuple[str | int, ...], dict[str, Any]] = {}
    try:
        parameters = gemini_parameters(parameters_schema(loaded.ir), Losses(loaded.ir), stringified=stringified)
    except ValueError:  # Gemini cannot take the tool (a property name it refuses): it declared no enum
        return None
    return enum_restorer(parameters, stringified) if parameters is not None and stringified else None


def _arguments(source: Source, name: Any, args: Any) -> Any:
    """``args`` with the enum texts Gemini sent turned back into the tool's values."""
    loaded = find_tool(as_toolset(source), name)
    if loaded is None:
        return args  # the dispatcher answers UnknownTool
    restore = _RESTORERS.get(loaded, _restorer)
    return args if restore is None else restore(args)


def _call(source: Source, function_call: Any) -> tuple[Any, Any]:
    """A call's ``(name, args)``: ``args`` is optional in Gemini's FunctionCall, for a tool without parameters."""
    name, args = field(function_call, "name"), field(function_call, "args")
    return name, {} if args is None else _arguments(source, name, args)


def _part(function_call: Any, result: Ok[Any] | Err) -> PartDict:
    name = field(function_call, "name")
    ok, payload = data_reply(name, result)
    body = {"output": payload} if ok else {"error": payload}
    call_id = field(function_call, "id")
    if call_id is None:
        return {"function_response": {"name": name, "response": body}}
    return {"function_response": {"id": call_id, "name": name, "response": body}}


def function_responses(source: Source, response: object, *, context: Mapping[str, Any] | None = None) -> list[PartDict]:
    """Run a turn's function calls; one ``function_response`` part per call, in order.

    ``response`` is a ``GenerateContentResponse`` (its first candidate is
    read), a ``Content`` or a list of parts, as the SDK's objects or as plain
    dicts. Returns ``[]`` when the turn has no function call. A call with no
    ``args`` is a call without arguments. Where the declaration turned an
    enum of integers (or other non-string values) into strings, the strings
    the model sends are turned back into the values before the call.
    """
    return [_part(call, outcome(source, *_call(source, call), context)) for call in _function_calls(response)]


async def afunction_responses(
    source: Source, response: object, *, context: Mapping[str, Any] | None = None
) -> list[PartDict]:
    """``function_responses`` for asyncio: the calls run concurrently, the parts keep their order."""
    function_calls = _function_calls(response)
    results = await aoutcomes(source, [_call(source, call) for call in function_calls], context)
    return [_part(call, result) for call, result in zip(function_calls, results, strict=True)]
