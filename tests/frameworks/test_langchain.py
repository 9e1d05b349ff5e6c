"""``toolcall.langchain.tools``: a real LangChain agent loop, offline, with a chat model that binds tools.

The chat model binds tools as LangChain's provider models do
(``convert_to_openai_tool`` on each, passed to every request) and answers
from a script; it records what it was shown: the tools' schemas and each
request's messages. The loop runs the model's tool calls by invoking the
tools with LangChain's ``ToolCall`` dicts, so ``ToolMessage``\\ s come back.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

import toolcall
import toolcall.langchain
from tests.frameworks import langchain_tools
from tests.paths import ROOT
from toolcall import Injected
from toolcall.errors import MissingInjectedError

USER = "ann"
CONFIG: RunnableConfig = {"configurable": {"user": USER}}


def user_of(config: RunnableConfig) -> dict[str, Any]:
    return {"user": config.get("configurable", {})["user"]}


class ScriptedChatModel(BaseChatModel):
    """A chat model that binds tools as the provider models do and answers from a script."""

    replies: list[AIMessage]
    #: The tools each request carried, as the provider would receive them.
    shown_tools: list[Any] = []
    #: The messages of each request.
    requests: list[list[BaseMessage]] = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(
        self, tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool], **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools], **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.shown_tools.append(kwargs.get("tools"))
        self.requests.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=self.replies[len(self.requests) - 1])])


def call(name: str, args: dict[str, Any], call_id: str) -> ToolCall:
    return {"name": name, "args": args, "id": call_id, "type": "tool_call"}


def scripted() -> ScriptedChatModel:
    """A bad call with a good one and an injected one; then the bad call fixed; then the answer."""
    return ScriptedChatModel(
        replies=[
            AIMessage(
                "",
                tool_calls=[
                    call("get_weather", {"city": "Oslo", "days": "5"}, "c1"),
                    call("lookup", {"word": "fjord"}, "c2"),
                    call("whoami", {"greeting": "hello"}, "c3"),
                ],
            ),
            AIMessage("", tool_calls=[call("get_weather", {"city": "Oslo", "days": 5}, "c4")]),
            AIMessage("Sunny in Oslo."),
        ],
        shown_tools=[],
        requests=[],
    )


def agent(model: ScriptedChatModel, tools: list[BaseTool]) -> list[BaseMessage]:
    """The agent loop: ask the model, run its tool calls, until it answers."""
    bound = model.bind_tools(tools)
    by_name = {tool.name: tool for tool in tools}
    messages: list[BaseMessage] = [HumanMessage("Weather in Oslo?")]
    while True:
        reply = bound.invoke(messages, CONFIG)
        messages.append(reply)
        if not reply.tool_calls:
            return messages
        messages += [by_name[tool_call["name"]].invoke(tool_call, CONFIG) for tool_call in reply.tool_calls]


async def aagent(model: ScriptedChatModel, tools: list[BaseTool]) -> list[BaseMessage]:
    """The agent loop for asyncio: a turn's tool calls run concurrently."""
    bound = model.bind_tools(tools)
    by_name = {tool.name: tool for tool in tools}
    messages: list[BaseMessage] = [HumanMessage("Weather in Oslo?")]
    while True:
        reply = await bound.ainvoke(messages, CONFIG)
        messages.append(reply)
        if not reply.tool_calls:
            return messages
        calls = [by_name[tool_call["name"]].ainvoke(tool_call, CONFIG) for tool_call in reply.tool_calls]
        messages += await asyncio.gather(*calls)


EXPECTED_ERROR = 'invalid argument "days": expected an integer, got "5"'


def check_run(model: ScriptedChatModel, messages: list[BaseMessage]) -> None:
    """The model saw toolcall's schemas, the error's one line, and each tool's result; it retried and answered."""
    definitions = json.dumps(toolcall.emit(langchain_tools, "openai"))
    assert [json.dumps(shown) for shown in model.shown_tools] == [definitions] * 3
    (whoami,) = [tool["function"] for tool in model.shown_tools[0] if tool["function"]["name"] == "whoami"]
    assert list(whoami["parameters"]["properties"]) == ["greeting"]  # the Injected parameter is not the model's
    first, second = model.requests[1][-3:], model.requests[2][-1:]
    assert all(isinstance(message, ToolMessage) for message in first + second)
    bad, looked_up, greeted = first
    assert isinstance(bad, ToolMessage)
    assert (bad.status, bad.content, bad.tool_call_id) == ("error", EXPECTED_ERROR, "c1")
    assert isinstance(looked_up, ToolMessage)
    assert (looked_up.status, looked_up.content) == ("success", "fjord: a word")
    assert isinstance(greeted, ToolMessage)
    assert (greeted.status, greeted.content) == ("success", f"hello, {USER}")
    (fixed,) = second
    assert isinstance(fixed, ToolMessage)
    assert (fixed.status, fixed.content) == ("success", '{"city": "Oslo", "days": 5, "temp": 21.5}')
    assert fixed.artifact == {"city": "Oslo", "days": 5, "temp": 21.5}  # the value itself, for the program
    assert messages[-1].content == "Sunny in Oslo."


def test_an_agent_run_with_invoke() -> None:
    model = scripted()
    messages = agent(model, toolcall.langchain.tools(langchain_tools, context=user_of))
    check_run(model, messages)


def test_an_agent_run_with_ainvoke() -> None:
    model = scripted()
    messages = asyncio.run(aagent(model, toolcall.langchain.tools(langchain_tools, context=user_of)))
    check_run(model, messages)


def test_each_tool_carries_toolcalls_schema_and_description() -> None:
    made = toolcall.langchain.tools(langchain_tools, context=user_of)
    definitions = toolcall.emit(langchain_tools, "openai")
    assert [tool.name for tool in made] == toolcall.tool_names(langchain_tools)
    assert all(isinstance(tool, BaseTool) for tool in made)
    assert [json.dumps(tool.args_schema) for tool in made] == [
        json.dumps(d["function"].get("parameters")) for d in definitions
    ]
    assert [tool.description for tool in made] == [d["function"].get("description") for d in definitions]
    assert [json.dumps(convert_to_openai_tool(tool)) for tool in made] == [json.dumps(d) for d in definitions]


def test_langchains_schema_builder_never_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building, binding and calling the tools never builds a schema from a function's signature."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("LangChain built a schema from a function")

    import langchain_core.tools.base
    import langchain_core.tools.structured
    import langchain_core.utils.function_calling

    monkeypatch.setattr(langchain_core.tools.base, "create_schema_from_function", refuse)
    monkeypatch.setattr(langchain_core.tools.structured, "create_schema_from_function", refuse)
    monkeypatch.setattr(langchain_core.utils.function_calling, "_convert_python_function_to_openai_function", refuse)
    model = scripted()
    check_run(model, agent(model, toolcall.langchain.tools(langchain_tools, context=user_of)))
    # The patch does catch LangChain's own way: its @tool decorator builds one.
    with pytest.raises(AssertionError, match="built a schema"):
        langchain_core.tools.StructuredTool.from_function(langchain_tools.get_weather)


def test_sync_and_async_tools_through_invoke_and_ainvoke() -> None:
    weather, lookup = toolcall.langchain.tools(langchain_tools, context=user_of)[:2]
    for tool, arguments, content in (
        (weather, {"city": "Bergen"}, '{"city": "Bergen", "days": 3, "temp": 21.5}'),
        (lookup, {"word": "fjord"}, "fjord: a word"),
    ):
        tool_call = call(tool.name, arguments, "c9")
        for message in (tool.invoke(tool_call), asyncio.run(tool.ainvoke(tool_call))):
            assert isinstance(message, ToolMessage)
            assert (message.status, message.content) == ("success", content)


def test_injected_parameters_without_context_are_refused_naming_the_tool() -> None:
    with pytest.raises(MissingInjectedError, match=r"tool 'whoami' \(user\) has Injected parameters and no context"):
        toolcall.langchain.tools(langchain_tools)
    (weather,) = toolcall.langchain.tools(langchain_tools.get_weather)  # none to fill: no context needed
    assert weather.invoke({"city": "Oslo"}) == '{"city": "Oslo", "days": 3, "temp": 21.5}'


def test_the_refusal_names_every_tool_with_injected_parameters() -> None:
    @toolcall.tool
    def audit(action: str, user: Annotated[str, Injected], session: Annotated[str, Injected]) -> str:
        """Record an action."""
        return action

    with pytest.raises(MissingInjectedError, match=r"tools 'whoami' \(user\), 'audit' \(user, session\) have"):
        toolcall.langchain.tools(toolcall.Toolset(langchain_tools, audit))


def test_only_tools_with_injected_parameters_call_context() -> None:
    configs: list[RunnableConfig] = []

    def context(config: RunnableConfig) -> dict[str, Any]:
        configs.append(config)
        return {"user": "bob"}

    by_name = {tool.name: tool for tool in toolcall.langchain.tools(langchain_tools, context=context)}
    assert by_name["get_weather"].invoke({"city": "Oslo"}) == '{"city": "Oslo", "days": 3, "temp": 21.5}'
    assert configs == []
    assert by_name["whoami"].invoke({"greeting": "hi"}, {"configurable": {"thread": "t1"}}) == "hi, bob"
    (config,) = configs
    assert config.get("configurable") == {"thread": "t1"}


def test_a_parameter_named_like_langchains_keywords_gets_the_models_value() -> None:
    (set_mode,) = toolcall.langchain.tools(langchain_tools.set_mode)
    message = set_mode.invoke(call("set_mode", {"config": "fast"}, "c1"), CONFIG)
    assert isinstance(message, ToolMessage)
    assert (message.status, message.content) == ("success", "mode fast")
    (weather,) = toolcall.langchain.tools(langchain_tools.get_weather)
    message = weather.invoke(call("get_weather", {"city": "Oslo", "config": {}}, "c2"), CONFIG)
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert str(message.content).startswith('unknown arguments "config"')  # toolcall saw the model's key


def test_importing_the_module_imports_no_langchain() -> None:
    code = "import sys, toolcall.langchain; print(sorted(m for m in sys.modules if m.startswith('langchain')))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert run.stdout.strip() == "[]"


def test_arguments_as_json_text_are_decoded_by_toolcall() -> None:
    (weather,) = toolcall.langchain.tools(langchain_tools.get_weather)
    assert weather.invoke('{"city": "Oslo", "days": 2}') == '{"city": "Oslo", "days": 2, "temp": 21.5}'
    # A handled error: its text, as LangChain returns one when there is no call id for a ToolMessage.
    assert weather.invoke("{oops").startswith("the arguments are not valid JSON: Expecting property name")
