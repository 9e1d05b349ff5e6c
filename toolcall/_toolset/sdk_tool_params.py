"""``emit``'s result types: toolcall's own copies of the provider SDKs' tool parameter types.

A project that calls ``emit`` need not use an SDK, and a type checker
follows every module a signature names: naming ``openai``'s or
``anthropic``'s types made a cold mypy run analyse both SDKs, thousands of
modules. These TypedDicts copy the SDKs' shapes instead, key for key, with
the same value types, ``Literal``\\ s and required keys, so each is
structurally assignable to the SDK's own type and ``emit``'s result goes to
``tools=`` without a cast:

- ``OpenAIChatTool`` to ``openai``'s ``ChatCompletionToolParam``
  (``chat.completions.create``);
- ``OpenAIResponsesTool`` to ``openai``'s ``FunctionToolParam``
  (``responses.create``);
- ``AnthropicTool`` to ``anthropic``'s ``ToolParam`` (``messages.create``).

A TypedDict is assignable to another only when it has every key of the
other, and a mutable key's value type must be the same both ways, so the
optional keys toolcall never writes are copied too: a caller may set them
(``defer_loading`` on a tool). A key whose type an SDK has changed since
its lowest version toolcall supports (openai 1.40, anthropic 0.40) is
``Any``, the one type both checkers hold equal to each of its versions; a
comment says what changed. tests/typing_sdk checks the assignments with
mypy and pyright against the installed SDKs; a key an SDK adds later must
be added here.

Nothing imports this module at run time: ``emit`` names it only for type
checkers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, NotRequired, Optional, Required, TypedDict

__all__ = ["AnthropicTool", "OpenAIChatTool", "OpenAIResponsesTool"]

# --- openai: chat.completions.create(tools=...) --------------------------------------------------


class OpenAIFunctionDefinition(TypedDict):
    """``openai.types.shared_params.FunctionDefinition``: a Chat Completions tool's function."""

    name: Required[str]
    description: NotRequired[str]
    parameters: NotRequired[dict[str, object]]
    strict: NotRequired[Optional[bool]]


class OpenAIChatTool(TypedDict):
    """``openai.types.chat.ChatCompletionToolParam`` (``ChatCompletionFunctionToolParam``): a function tool."""

    function: Required[OpenAIFunctionDefinition]
    type: Required[Literal["function"]]


# --- openai: responses.create(tools=...) ---------------------------------------------------------

# ``async`` is a keyword, so the SDK declares that key in a functional TypedDict; so does this copy.
_OpenAIResponsesReservedKeys = TypedDict("_OpenAIResponsesReservedKeys", {"async": NotRequired[bool]})


class OpenAIResponsesTool(_OpenAIResponsesReservedKeys):
    """``openai.types.responses.FunctionToolParam``: a Responses API function tool."""

    name: Required[str]
    # ``Any``: ``Dict[str, object]`` and ``bool`` in openai 1.66 (the first with the Responses API), both
    # ``Optional`` since; an invariant key of either type would fit one of them only.
    parameters: Required[Any]
    strict: Required[Any]
    type: Required[Literal["function"]]
    allowed_callers: NotRequired[Optional[list[Literal["direct", "programmatic"]]]]
    defer_loading: NotRequired[bool]
    description: NotRequired[Optional[str]]
    output_schema: NotRequired[Optional[dict[str, object]]]


# --- anthropic: messages.create(tools=...) -------------------------------------------------------


class AnthropicTool(TypedDict):
    """``anthropic.types.ToolParam``: a custom (client) tool."""

    # ``Any``: the SDK's ``InputSchema`` is its ``InputSchemaTyped`` or any JSON object, and the typed
    # keys changed (``properties: Optional[object]`` in anthropic 0.40, a dict since; ``required`` added,
    # typed with a protocol of the SDK's own, which pyright matches by its class in a mutable key).
    input_schema: Required[Any]
    name: Required[str]
    # ``Any``: the SDK adds a ``Literal`` to this list with each new code-execution tool version.
    allowed_callers: NotRequired[Any]
    # ``Any``: the SDK's ``CacheControlEphemeralParam`` gained ``ttl`` after it gained this key.
    cache_control: NotRequired[Any]
    defer_loading: NotRequired[bool]
    description: NotRequired[str]
    eager_input_streaming: NotRequired[Optional[bool]]
    input_examples: NotRequired[Iterable[dict[str, object]]]
    strict: NotRequired[bool]
    type: NotRequired[Optional[Literal["custom"]]]
