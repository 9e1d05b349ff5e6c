"""openai-agents' tools built from toolcall's: ``agents.FunctionTool`` objects for an ``agents.Agent``.

::

    import agents
    import toolcall.openai_agents
    import weather

    tools = toolcall.openai_agents.function_tools(weather)
    agent = agents.Agent(name="forecaster", tools=[*tools])  # a new list: ``tools=`` wants ``list[Tool]``
    result = agents.Runner.run_sync(agent, "Weather in Oslo?")

Each tool carries toolcall's OpenAI strict schema, as
``toolcall.emit(source, "openai", strict=True)`` renders it, with
``strict_json_schema=True``: openai-agents sends strict schemas by default.
A tool that strict mode cannot express gets its non-strict schema and
``strict_json_schema=False``, as ``emit`` falls back (with the same
``toolcall-strict`` warning). openai-agents' own schema code never runs on
these tools: neither its builder nor its strict conversion.

A call's JSON arguments are decoded and dispatched with ``toolcall.arun``,
as ``toolcall.openai`` does, so ``def`` and ``async def`` tools both work.
The tool's output is the value as text (a string as it is, anything else
as JSON); a failed call's output is ``Error: `` and toolcall's one line,
which the model reads and can retry from.

``context`` takes the run's ``agents.RunContextWrapper`` (the tool call's
``ToolContext``) and returns the dict that fills ``Injected`` parameters.
The ``agents`` package (``pip install "toolcall[openai-agents]"``) is
imported only when ``function_tools`` is called.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from toolcall._tool_calls import aoutcomes, openai_content, text_reply
from toolcall._toolset.injected import injected_parameters, refuse_without_context
from toolcall._toolset.toolset import Toolset, as_toolset, plain_definitions

if TYPE_CHECKING:
    from agents import FunctionTool, RunContextWrapper

    from toolcall._toolset.toolset import Source

__all__ = ["function_tools"]


#: How to pass a context, for the refusal of tools with ``Injected`` parameters and none.
_HOW = (
    "toolcall.openai_agents.function_tools(source, context=...), "
    "a function of the run's RunContextWrapper that returns their values"
)


def function_tools(
    source: Source, *, context: Callable[[RunContextWrapper[Any]], Mapping[str, Any]] | None = None
) -> list[FunctionTool]:
    """One ``agents.FunctionTool`` per tool of ``source``, in declaration order.

    ``source`` is what ``toolcall.emit`` takes: a module, a tool function or
    a ``toolcall.Toolset``. A tool with an ``Injected`` parameter needs
    ``context``: without it, ``MissingInjectedError`` is raised here, naming
    the tool, rather than on the model's first call.
    """
    from agents import FunctionTool

    toolset = as_toolset(source)
    injected = injected_parameters(toolset)
    if context is None:
        refuse_without_context(injected, _HOW)
    tools: list[FunctionTool] = []
    for definition in plain_definitions(toolset, "openai", True):
        function = definition["function"]
        name: str = function["name"]
        # Made non-strict, so openai-agents' strict conversion leaves toolcall's schema as it is
        # (it would add ``"required": []`` to a tool without parameters); then marked as rendered.
        tool = FunctionTool(
            name=name,
            description=function.get("description", ""),
            params_json_schema=function["parameters"],
            # Only a tool with Injected parameters calls ``context``: the others need nothing from the run.
            on_invoke_tool=_invoker(toolset, name, context if name in injected else None),
            strict_json_schema=False,
        )
        tool.strict_json_schema = function.get("strict", False)
        tools.append(tool)
    return tools


def _invoker(
    toolset: Toolset, name: str, context: Callable[[RunContextWrapper[Any]], Mapping[str, Any]] | None
) -> Callable[[RunContextWrapper[Any], str], Awaitable[str]]:
    """The tool's ``on_invoke_tool``: the model's arguments text in, the text the model reads out.

    openai-agents passes the call's ``ToolContext``, a ``RunContextWrapper`` (older releases pass the
    wrapper itself), and that is what ``context`` is given.
    """

    async def invoke(wrapper: RunContextWrapper[Any], arguments: str) -> str:
        values = None if context is None else context(wrapper)
        (result,) = await aoutcomes(toolset, [(name, arguments)], values)
        return openai_content(text_reply(name, result))  # as toolcall.openai writes it: an OpenAI tool output too

    return invoke
