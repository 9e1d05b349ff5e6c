"""OpenAI's tool calls → the messages the API expects back, for SDK objects and plain dicts alike.

Chat Completions::

    message = client.chat.completions.create(model=..., messages=messages, tools=tools).choices[0].message
    messages.append(message)
    messages += toolcall.openai.tool_messages(weather, message)

Responses API::

    response = client.responses.create(model=..., input=items, tools=tools)
    items += response.output
    items += toolcall.openai.function_call_outputs(weather, response)

No SDK is imported: the SDK's objects are read by attribute, plain dicts by
key. The arguments arrive as JSON text; text that is not JSON is an error
reply naming the position. A failed call's content starts with ``Error: ``
(OpenAI has no error flag), so the model can tell it from a value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolcall._tool_calls import OPENAI_ERROR_PREFIX, aoutcomes, field, openai_content, outcome, text_reply

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionToolMessageParam
    from openai.types.responses.response_input_param import FunctionCallOutput

    from toolcall._dispatch.result import Err, Ok
    from toolcall._toolset.toolset import Source

__all__ = ["afunction_call_outputs", "atool_messages", "function_call_outputs", "tool_messages"]

#: Where an error's line starts in the content, so the model reads it as a failure.
ERROR_PREFIX = OPENAI_ERROR_PREFIX


def _chat_calls(completion: Any) -> list[Any]:
    """The tool calls of a ``ChatCompletion`` (its first choice) or of an assistant message."""
    # Asked of an SDK message, ``choices`` goes through pydantic's slow ``__getattr__`` to find nothing:
    # a dict or an object with an instance dict is asked whether it holds ``choices`` first.
    mapping = type(completion) is dict or isinstance(completion, Mapping)
    attributes = completion if mapping else getattr(completion, "__dict__", None)
    choices = field(completion, "choices") if attributes is None or "choices" in attributes else None
    message = field(choices[0], "message") if choices else completion
    return list(field(message, "tool_calls") or ())


def _chat_call(tool_call: Any) -> tuple[Any, Any]:
    """A tool call's ``(name, arguments)``."""
    if type(tool_call) is dict:  # plain JSON, the common case: no ``field`` calls
        function = tool_call.get("function")
        if type(function) is dict:
            return function.get("name"), function.get("arguments")
    function = field(tool_call, "function")
    if function is None:  # a custom tool call: toolcall defines function tools only, so the name is unknown
        custom = field(tool_call, "custom")
        return field(custom, "name"), field(custom, "input")
    return field(function, "name"), field(function, "arguments")


def tool_messages(
    source: Source, completion: object, *, context: Mapping[str, Any] | None = None
) -> list[ChatCompletionToolMessageParam]:
    """Run a Chat Completions turn's tool calls; one ``{"role": "tool", ...}`` message per call, in order.

    ``completion`` is a ``ChatCompletion`` (its first choice is read) or an
    assistant message, as the SDK's objects or as plain dicts. Returns ``[]``
    when the turn has no tool calls. ``context`` supplies injected parameters.
    """
    out: list[ChatCompletionToolMessageParam] = []
    for tool_call in _chat_calls(completion):
        name, arguments = _chat_call(tool_call)
        ok, text = text_reply(name, outcome(source, name, arguments, context))
        call_id: Any = tool_call.get("id") if type(tool_call) is dict else field(tool_call, "id")
        out.append({"role": "tool", "tool_call_id": call_id, "content": text if ok else ERROR_PREFIX + text})
    return out


async def atool_messages(
    source: Source, completion: object, *, context: Mapping[str, Any] | None = None
) -> list[ChatCompletionToolMessageParam]:
    """``tool_messages`` for asyncio: the turn's calls run concurrently, the messages keep their order."""
    tool_calls = _chat_calls(completion)
    calls = [_chat_call(tool_call) for tool_call in tool_calls]
    results = await aoutcomes(source, calls, context)
    return [
        {"role": "tool", "tool_call_id": field(tool_call, "id"), "content": openai_content(text_reply(call[0], result))}
        for tool_call, call, result in zip(tool_calls, calls, results, strict=True)
    ]


def _function_calls(response: Any) -> list[Any]:
    """The ``function_call`` items of a Responses API ``Response`` or of its ``output`` list."""
    items = response if isinstance(response, Sequence) else field(response, "output") or ()
    return [item for item in items if field(item, "type") == "function_call"]


def _output(item: Any, result: Ok[Any] | Err) -> FunctionCallOutput:
    content = openai_content(text_reply(field(item, "name"), result))
    return {"type": "function_call_output", "call_id": field(item, "call_id"), "output": content}


def function_call_outputs(
    source: Source, response: object, *, context: Mapping[str, Any] | None = None
) -> list[FunctionCallOutput]:
    """Run a Responses API turn's ``function_call`` items; one ``function_call_output`` item per call, in order.

    ``response`` is a ``Response`` or its ``output`` list, as the SDK's objects
    or as plain dicts. Returns ``[]`` when the turn has no function calls.
    """
    return [
        _output(item, outcome(source, field(item, "name"), field(item, "arguments"), context))
        for item in _function_calls(response)
    ]


async def afunction_call_outputs(
    source: Source, response: object, *, context: Mapping[str, Any] | None = None
) -> list[FunctionCallOutput]:
    """``function_call_outputs`` for asyncio: the calls run concurrently, the items keep their order."""
    items = _function_calls(response)
    results = await aoutcomes(source, [(field(item, "name"), field(item, "arguments")) for item in items], context)
    return [_output(item, result) for item, result in zip(items, results, strict=True)]
