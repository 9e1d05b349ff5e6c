"""LangChain tools built on toolcall's schemas and dispatch: ``tools(source, context=...)``.

::

    import toolcall.langchain
    import weather

    tools = toolcall.langchain.tools(weather)
    model = chat_model.bind_tools(tools)  # any LangChain chat model that calls tools
    reply = model.invoke(messages)
    by_name = {tool.name: tool for tool in tools}
    messages += [reply, *(by_name[call["name"]].invoke(call) for call in reply.tool_calls)]

Each tool is a ``langchain_core.tools.BaseTool`` whose args schema is
toolcall's: the JSON Schema dict of ``emit(source, "openai")``'s
``parameters``, with toolcall's description; LangChain builds no schema of
its own from the function. ``bind_tools`` and ``convert_to_openai_tool`` pass
that schema on. A call is dispatched by toolcall: ``ainvoke`` awaits
``toolcall.arun``, ``invoke`` calls ``toolcall.run`` (which runs an
``async def`` tool to completion when no event loop is running), so sync and
async tools work through both. Invoked with a tool call, a tool returns a
``ToolMessage``: the value as text (a string as it is, any other value as
JSON) with the value itself as the message's ``artifact``; for an ``Err``,
``status="error"`` and toolcall's one-line text, for the model to act on.
A string input is taken as the arguments' JSON text.

``context`` is called with each call's ``RunnableConfig`` and returns the
dict that fills ``Injected`` parameters, e.g.
``context=lambda config: {"user": config.get("configurable", {})["user"]}``. A tool
with ``Injected`` parameters and no ``context`` is refused by ``tools``
(``MissingInjectedError``, naming it): no call of it could succeed.

langchain-core (extra ``toolcall[langchain]``) is imported on the first call
of ``tools``, never by ``import toolcall.langchain``.
"""

# No ``from __future__ import annotations``: LangChain passes the RunnableConfig to
# the parameter of ``_run`` annotated with that class, which it finds with
# ``typing.get_type_hints``; the tool class is built inside a function, where a
# postponed (string) annotation could not be resolved.

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import BaseTool

    from toolcall._dispatch.result import Err, Ok
    from toolcall._toolset.toolset import Source, Toolset

__all__ = ["tools"]


def tools(
    source: "Source", *, context: "Callable[[RunnableConfig], Mapping[str, Any]] | None" = None
) -> "list[BaseTool]":
    """The tools of ``source`` (what ``toolcall.emit`` takes) as LangChain tools, in declaration order.

    ``context`` takes a call's ``RunnableConfig`` and returns the values of
    the tools' ``Injected`` parameters. Without it, a tool with ``Injected``
    parameters raises ``toolcall.errors.MissingInjectedError`` here, naming
    the tool. A tool OpenAI cannot take is left out with a warning, as
    ``emit(source, "openai")`` leaves it out.
    """
    from toolcall._toolset.injected import injected_parameters, refuse_without_context
    from toolcall._toolset.toolset import as_toolset, plain_definitions

    toolset = as_toolset(source)
    injected = injected_parameters(toolset)
    if context is None:
        refuse_without_context(injected, _HOW)
    tool_class = _tool_class()
    made: list[BaseTool] = []
    for definition in plain_definitions(toolset, "openai", False):  # a plain copy LangChain may change
        function = definition["function"]
        name = function["name"]
        # Only a tool with Injected parameters calls ``context``: the others need nothing from the config.
        values = context if name in injected else None
        made.append(tool_class.of(toolset, name, function["description"], function["parameters"], values))
    return made


#: How to pass a context, for the refusal of tools with ``Injected`` parameters and none.
_HOW = (
    "toolcall.langchain.tools(source, context=...), a function of the call's RunnableConfig that returns their values"
)

_TOOL_CLASS: "list[Any]" = []  # the class, once built


def _tool_class() -> "Any":
    """The ``BaseTool`` subclass of toolcall's tools, built on first use (LangChain is imported only then)."""
    if not _TOOL_CLASS:
        _TOOL_CLASS.append(_build_tool_class())  # two threads may both build: either class serves
    return _TOOL_CLASS[0]


def _build_tool_class() -> "Any":
    from typing import Any

    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import BaseTool, ToolException
    from pydantic import PrivateAttr

    class ToolcallTool(BaseTool):
        """A toolcall tool as a LangChain tool: toolcall's schema, dispatch and error text."""

        _toolset: Any = PrivateAttr()
        _context: Any = PrivateAttr(default=None)

        @classmethod
        def of(
            cls,
            toolset: "Toolset",
            name: str,
            description: str,
            parameters: dict[str, Any],
            context: "Callable[[RunnableConfig], Mapping[str, Any]] | None",
        ) -> "ToolcallTool":
            # Every value is made here and valid, so pydantic's validation of each field is skipped:
            # a tenth of a millisecond a tool, the largest part of ``tools``' own time.
            made = cls.model_construct(
                name=name,
                description=description,
                args_schema=parameters,
                # An Err is raised as a ToolException; handled, it is a ToolMessage with status="error".
                handle_tool_error=True,
                # The ToolMessage's content is the text the model reads; its artifact is the tool's value.
                response_format="content_and_artifact",
            )
            made._toolset = toolset
            made._context = context
            return made

        def _to_args_and_kwargs(
            self, tool_input: Any, tool_call_id: str | None
        ) -> tuple[tuple[Any, ...], dict[str, Any]]:
            # The model's arguments reach toolcall as they came, as one value: spread as
            # keywords, LangChain's own (``config``) would overwrite a parameter of that name.
            return (tool_input,), {}

        # Dispatch is imported on the first call, not by ``tools``, as ``import toolcall`` defers it.
        def _run(self, arguments: Any, config: RunnableConfig) -> tuple[str, Any]:
            from toolcall._tool_calls import outcome

            return self._reply(outcome(self._toolset, self.name, arguments, self._values(config)))

        async def _arun(self, arguments: Any, config: RunnableConfig) -> tuple[str, Any]:
            from toolcall._tool_calls import aoutcomes

            (result,) = await aoutcomes(self._toolset, [(self.name, arguments)], self._values(config))
            return self._reply(result)

        def _values(self, config: RunnableConfig) -> "Mapping[str, Any] | None":
            return None if self._context is None else self._context(config)

        def _reply(self, result: "Ok[Any] | Err") -> tuple[str, Any]:
            from toolcall._tool_calls import text_reply

            ok, text = text_reply(self.name, result)
            if not ok:
                raise ToolException(text)
            return text, result.value  # type: ignore[union-attr]  # ok: an Ok

    return ToolcallTool
