"""toolcall's tools as pydantic-ai ``Tool`` objects: toolcall's schemas, dispatch and one-line errors.

::

    from pydantic_ai import Agent

    import toolcall.pydantic_ai
    import weather

    agent = Agent("openai:gpt-5.2", tools=toolcall.pydantic_ai.tools(weather))
    print(agent.run_sync("Weather in Oslo?").output)

Each tool carries toolcall's OpenAI rendering of its parameters (the strict
one when pydantic-ai asks for a strict tool) and toolcall's description;
pydantic-ai's own schema builder never runs. A call is dispatched with
``toolcall.arun``, so sync and ``async def`` tools both work. An ``Err``
reaches the model as its one line through ``ModelRetry``: a retry prompt,
counted against the tool's ``max_retries``. A value reaches pydantic-ai as
plain JSON data, encoded as the SDK adapters encode it. ``Injected``
parameters are filled from ``context(run_context)``. pydantic-ai is
imported only when ``tools`` is called.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic_ai import RunContext, Tool
    from pydantic_ai.tools import ToolDefinition

    from toolcall._toolset.toolset import LoadedTool, Source, Toolset

__all__ = ["tools"]

#: The key a non-object arguments value travels under, from pydantic-ai's validation to the dispatch, which
#: answers it with toolcall's ``InvalidArguments`` (pydantic-ai would call the function with it as ``**kwargs``).
_NOT_AN_OBJECT = "\x00toolcall: arguments that are not an object"


#: How to pass a context, for the refusal of tools with ``Injected`` parameters and none.
_HOW = (
    "toolcall.pydantic_ai.tools(source, context=...), a function of pydantic-ai's RunContext that returns their values"
)


def tools(source: Source, *, context: Callable[[RunContext[Any]], Mapping[str, Any]] | None = None) -> list[Tool[Any]]:
    """The tools of ``source`` (a module, a tool function or a ``Toolset``) as pydantic-ai ``Tool`` objects.

    ``context`` takes pydantic-ai's ``RunContext`` of a call and returns the
    dict that fills the tool's ``Injected`` parameters. Without it, a tool
    with ``Injected`` parameters raises ``MissingInjectedError`` here, naming
    the tool, since none of its calls could succeed.
    """
    from pydantic_ai import Tool

    from toolcall._toolset.injected import injected_parameters, refuse_without_context
    from toolcall._toolset.toolset import as_toolset, loaded_tools

    toolset = as_toolset(source)
    loaded = loaded_tools(toolset)
    injected = injected_parameters(toolset)
    if context is None:
        refuse_without_context(injected, _HOW)
    validator = _arguments_validator()
    made: list[Tool[Any]] = []
    for tool in loaded:
        # A plain copy: pydantic-ai's models may edit a schema in place.
        function: dict[str, Any] = tool.plain_definition("openai", False)["function"]
        made_tool: Tool[Any] = Tool.from_schema(
            _dispatcher(toolset, tool.name, context if tool.name in injected else None),
            name=tool.name,
            description=function.get("description"),
            json_schema=function["parameters"],
            takes_ctx=True,
        )
        made_tool.function_schema.validator = validator
        made_tool.prepare = _strict_schema(tool)
        made.append(made_tool)
    return made


def _function(tool: LoadedTool, strict: bool) -> dict[str, Any]:
    """A plain copy of the ``function`` of the tool's OpenAI definition, copied from its shared form.

    For ``prepare``, which runs on every request: the shared form is rendered
    once, and each request gets a copy of it.
    """
    from toolcall._toolset.emit_copies import plain_copy

    function: dict[str, Any] = plain_copy(tool.definition("openai", strict)["function"])
    return function


def _arguments_validator() -> Any:
    """pydantic-ai's argument validation, which keeps every value as it came: toolcall's dispatch checks it.

    An object is the arguments as they are; anything else (a list, a
    scalar) travels under ``_NOT_AN_OBJECT``, so the dispatch answers it
    with toolcall's error rather than pydantic-ai calling the tool with it.
    """
    from pydantic_core import SchemaValidator, core_schema

    def as_arguments(value: Any) -> dict[str, Any]:
        return value if type(value) is dict else {_NOT_AN_OBJECT: value}

    return SchemaValidator(core_schema.no_info_plain_validator_function(as_arguments))


def _dispatcher(
    toolset: Toolset, name: str, context: Callable[[RunContext[Any]], Mapping[str, Any]] | None
) -> Callable[..., Any]:
    """The function pydantic-ai calls for the tool: ``arun``, an ``Err`` raised as ``ModelRetry`` with its line."""
    from pydantic_ai import ModelRetry

    async def dispatch(run_context: RunContext[Any], **arguments: Any) -> Any:
        # The dispatch machinery loads on the first call, not when the tools are made: start-up stays cheap.
        from toolcall._tool_calls import data_reply
        from toolcall._toolset.run import arun

        args: Any = arguments.get(_NOT_AN_OBJECT, arguments) if len(arguments) == 1 else arguments
        values = None if context is None else context(run_context)
        ok, payload = data_reply(name, await arun(toolset, name, args, context=values))
        if not ok:
            raise ModelRetry(payload)
        return payload

    dispatch.__name__ = dispatch.__qualname__ = name
    return dispatch


def _strict_schema(tool: LoadedTool) -> Callable[[RunContext[Any], ToolDefinition], Awaitable[ToolDefinition]]:
    """The ``prepare`` that gives a strict tool toolcall's strict rendering (OpenAI's), the rest as they are.

    A coroutine function: pydantic-ai before 2 awaits what ``prepare`` returns.
    """

    async def prepare(run_context: RunContext[Any], definition: ToolDefinition) -> ToolDefinition:
        if definition.strict is not True:
            return definition
        from dataclasses import replace

        return replace(definition, parameters_json_schema=_function(tool, True)["parameters"])

    return prepare
