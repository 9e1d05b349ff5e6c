"""Anthropic's ``tool_use`` blocks → one user message of ``tool_result`` blocks.

::

    message = client.messages.create(model=..., max_tokens=1024, messages=messages, tools=tools)
    messages.append({"role": "assistant", "content": message.content})
    results = toolcall.anthropic.tool_results(weather, message)
    if results is None:  # no tool_use: the model has answered
        ...
    messages.append(results)

The SDK's objects and plain dicts are read alike; no SDK is imported. A
failed call's block has ``"is_error": true`` and the error's one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolcall._tool_calls import aoutcomes, field, outcome, text_reply

if TYPE_CHECKING:
    from anthropic.types import MessageParam, ToolResultBlockParam

    from toolcall._dispatch.result import Err, Ok
    from toolcall._toolset.toolset import Source

__all__ = ["atool_results", "tool_results"]


def _tool_uses(message: Any) -> list[Any]:
    """The ``tool_use`` blocks of a ``Message`` or of its ``content`` list (server tools' blocks are not ours)."""
    blocks = message if isinstance(message, Sequence) else field(message, "content") or ()
    if isinstance(blocks, str):  # a message whose content is plain text
        return []
    return [block for block in blocks if field(block, "type") == "tool_use"]


def _block(tool_use: Any, result: Ok[Any] | Err) -> ToolResultBlockParam:
    ok, text = text_reply(field(tool_use, "name"), result)
    if ok:
        return {"type": "tool_result", "tool_use_id": field(tool_use, "id"), "content": text}
    return {"type": "tool_result", "tool_use_id": field(tool_use, "id"), "content": text, "is_error": True}


def tool_results(source: Source, message: object, *, context: Mapping[str, Any] | None = None) -> MessageParam | None:
    """Run a turn's ``tool_use`` blocks; the user message of their ``tool_result`` blocks, in order.

    ``message`` is a ``Message`` or its ``content`` list, as the SDK's objects
    or as plain dicts. Returns ``None`` when the turn has no ``tool_use``
    block (the model has answered). ``context`` supplies injected parameters.
    """
    blocks = [
        _block(block, outcome(source, field(block, "name"), field(block, "input"), context))
        for block in _tool_uses(message)
    ]
    return {"role": "user", "content": blocks} if blocks else None


async def atool_results(
    source: Source, message: object, *, context: Mapping[str, Any] | None = None
) -> MessageParam | None:
    """``tool_results`` for asyncio: the turn's calls run concurrently, the blocks keep their order."""
    tool_uses = _tool_uses(message)
    if not tool_uses:
        return None
    results = await aoutcomes(source, [(field(b, "name"), field(b, "input")) for b in tool_uses], context)
    return {"role": "user", "content": [_block(b, r) for b, r in zip(tool_uses, results, strict=True)]}
