"""``toolcall.openai_agents``: real ``agents.Runner`` runs, offline, with a scripted model that records what it saw."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

import pytest

agents = pytest.importorskip("agents")

from agents import Agent, FunctionTool, Model, ModelResponse, RunContextWrapper, Runner  # noqa: E402
from agents.items import TResponseInputItem, TResponseOutputItem  # noqa: E402
from agents.usage import Usage  # noqa: E402
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText  # noqa: E402

import toolcall  # noqa: E402
import toolcall.openai  # noqa: E402
import toolcall.openai_agents  # noqa: E402
from tests.adapter_tools import get_weather  # noqa: E402
from toolcall import Injected  # noqa: E402
from toolcall.errors import MissingInjectedError  # noqa: E402


@toolcall.tool
def now() -> str:
    """A tool without parameters: openai-agents' own strict conversion would add ``"required": []``."""
    return "12:00"


@toolcall.tool
async def slow_echo(text: str) -> str:
    """An ``async def`` tool: it yields to the event loop before answering."""
    await asyncio.sleep(0)
    return f"echo {text}"


@toolcall.tool
def whoami(user: Annotated[str, Injected], greeting: str) -> str:
    """An injected parameter, filled from the run's context."""
    return f"{greeting}, {user}"


@toolcall.tool
def tally(**counts: int) -> int:
    """Open keyword arguments: OpenAI strict mode cannot express them, so the tool is not strict."""
    return sum(counts.values())


TOOLS = toolcall.Toolset(get_weather, now, slow_echo)

#: What the scripted model answers, given the input items it has seen so far: the items of its next turn.
Script = Callable[[list[dict[str, Any]]], list[TResponseOutputItem]]


def call(call_id: str, name: str, arguments: str) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        type="function_call", id=f"fc_{call_id}", call_id=call_id, name=name, arguments=arguments, status="completed"
    )


def say(text: str) -> ResponseOutputMessage:
    content: list[Any] = [ResponseOutputText(type="output_text", text=text, annotations=[])]
    return ResponseOutputMessage(type="message", id="msg", role="assistant", status="completed", content=content)


def outputs(items: list[dict[str, Any]]) -> dict[str, str]:
    """The ``function_call_output`` items the model was sent: call id → output text."""
    return {item["call_id"]: item["output"] for item in items if item.get("type") == "function_call_output"}


class ScriptedModel(Model):
    """An offline ``agents.Model``: answers from ``script``, and records the tools and input of every turn."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.tools: list[list[Any]] = []
        self.inputs: list[list[dict[str, Any]]] = []

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: Any,
        tools: list[Any],
        output_schema: Any,
        handoffs: list[Any],
        tracing: Any,
        **kwargs: Any,
    ) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else [dict(i) for i in input]
        self.tools.append(list(tools))
        self.inputs.append(items)
        return ModelResponse(output=self.script(items), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("these tests do not stream")


@pytest.fixture(autouse=True)
def no_tracing() -> None:
    agents.set_tracing_disabled(True)


def run(model: ScriptedModel, tools: list[FunctionTool], context: Any = None) -> str:
    agent = Agent(name="tester", instructions="Use the tools.", model=model, tools=list(tools))
    result = asyncio.run(Runner.run(agent, "go", context=context, max_turns=6))
    return str(result.final_output)


def openai_content(source: Any, name: str, arguments: str, context: dict[str, Any] | None = None) -> str:
    """What ``toolcall.openai`` answers for the same call: the bridge must agree with it."""
    message = {
        "role": "assistant",
        "tool_calls": [{"id": "x", "type": "function", "function": {"name": name, "arguments": arguments}}],
    }
    (reply,) = toolcall.openai.tool_messages(source, message, context=context)
    content = reply["content"]
    assert isinstance(content, str)
    return content


def rendered(source: Any, provider: str = "openai") -> list[dict[str, Any]]:
    """``emit``'s strict OpenAI definitions, as plain dicts."""
    return toolcall.emit(source, provider, strict=True)


def test_the_model_is_shown_toolcalls_strict_schemas_as_rendered() -> None:
    model = ScriptedModel(lambda items: [say("nothing to do")])
    tools = toolcall.openai_agents.function_tools(TOOLS)
    assert run(model, tools) == "nothing to do"
    (shown,) = model.tools
    assert [tool.name for tool in shown] == ["get_weather", "now", "slow_echo"]
    for tool, definition in zip(shown, rendered(TOOLS), strict=True):
        function = definition["function"]
        assert json.dumps(tool.params_json_schema) == json.dumps(function["parameters"])
        assert tool.strict_json_schema is True
        assert tool.description == function["description"]


def test_a_good_call_returns_the_value_as_json_text() -> None:
    arguments = '{"city": "Oslo", "days": 2}'

    def script(items: list[dict[str, Any]]) -> list[TResponseOutputItem]:
        seen = outputs(items)
        return [say(seen["c1"])] if seen else [call("c1", "get_weather", arguments)]

    model = ScriptedModel(script)
    final = run(model, toolcall.openai_agents.function_tools(TOOLS))
    assert final == '{"city": "Oslo", "days": 2, "temp": 21.5}'
    assert final == openai_content(TOOLS, "get_weather", arguments)


def test_a_bad_call_shows_the_model_the_error_line_and_it_retries() -> None:
    bad, malformed, good = (
        '{"city": "Oslo", "days": "5"}',
        '{"city": "Oslo",, "days": 5}',
        '{"city": "Oslo", "days": 5}',
    )

    def script(items: list[dict[str, Any]]) -> list[TResponseOutputItem]:
        seen = outputs(items)
        if not seen:
            return [call("c1", "get_weather", bad), call("c2", "get_weather", malformed)]
        if "c3" not in seen:
            assert seen["c1"].startswith("Error: ")  # the model reads a failure, and sends the call again
            return [call("c3", "get_weather", good)]
        return [say(seen["c3"])]

    model = ScriptedModel(script)
    final = run(model, toolcall.openai_agents.function_tools(TOOLS))
    seen = outputs(model.inputs[1])
    assert seen["c1"] == 'Error: invalid argument "days": expected an integer, got "5"'
    assert seen["c1"] == openai_content(TOOLS, "get_weather", bad)
    assert seen["c2"] == openai_content(TOOLS, "get_weather", malformed)
    assert "(position 16)" in seen["c2"]
    assert final == '{"city": "Oslo", "days": 5, "temp": 21.5}'


def test_an_async_tool_is_awaited() -> None:
    def script(items: list[dict[str, Any]]) -> list[TResponseOutputItem]:
        seen = outputs(items)
        return [say(seen["c1"])] if seen else [call("c1", "slow_echo", '{"text": "hi"}')]

    assert run(ScriptedModel(script), toolcall.openai_agents.function_tools(TOOLS)) == "echo hi"


def test_an_injected_parameter_comes_from_the_run_context() -> None:
    wrappers: list[object] = []

    def context(wrapper: RunContextWrapper[Any]) -> dict[str, Any]:
        wrappers.append(wrapper)
        return {"user": wrapper.context["user"]}

    def script(items: list[dict[str, Any]]) -> list[TResponseOutputItem]:
        seen = outputs(items)
        return [say(seen["c1"])] if seen else [call("c1", "whoami", '{"greeting": "Hello"}')]

    model = ScriptedModel(script)
    tools = toolcall.openai_agents.function_tools(whoami, context=context)
    assert run(model, tools, context={"user": "Ann"}) == "Hello, Ann"
    assert isinstance(wrappers[0], RunContextWrapper)
    (shown,) = model.tools[0]
    assert list(shown.params_json_schema["properties"]) == ["greeting"]  # the model never sees it


def test_an_injected_parameter_without_context_is_refused_naming_the_tool() -> None:
    with pytest.raises(MissingInjectedError, match=r"tool 'whoami' \(user\) has Injected parameters and no context"):
        toolcall.openai_agents.function_tools(toolcall.Toolset(now, whoami))


def test_a_tool_strict_mode_cannot_express_is_sent_non_strict() -> None:
    with pytest.warns(toolcall.ToolcallWarning, match="toolcall-strict"):
        (definition,) = rendered(tally)
    (tool,) = toolcall.openai_agents.function_tools(tally)
    assert "strict" not in definition["function"]
    assert tool.strict_json_schema is False
    assert json.dumps(tool.params_json_schema) == json.dumps(definition["function"]["parameters"])

    def script(items: list[dict[str, Any]]) -> list[TResponseOutputItem]:
        seen = outputs(items)
        return [say(seen["c1"])] if seen else [call("c1", "tally", '{"a": 2, "b": 3}')]

    assert run(ScriptedModel(script), [tool]) == "5"


def test_openai_agents_own_schema_code_never_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.function_schema
    import agents.strict_schema
    import agents.tool

    def refuse(*args: object, **kwargs: object) -> Any:
        raise AssertionError("openai-agents built or converted a schema")

    monkeypatch.setattr(agents.function_schema, "function_schema", refuse)
    monkeypatch.setattr(agents.strict_schema, "ensure_strict_json_schema", refuse)
    # and where ``agents.tool`` imported them (older releases do not import the strict conversion there)
    monkeypatch.setattr(agents.tool, "function_schema", refuse)
    monkeypatch.setattr(agents.tool, "ensure_strict_json_schema", refuse, raising=False)

    def script(items: list[dict[str, Any]]) -> list[TResponseOutputItem]:
        seen = outputs(items)
        return [say(seen["c1"])] if seen else [call("c1", "now", "{}")]

    assert run(ScriptedModel(script), toolcall.openai_agents.function_tools(TOOLS)) == "12:00"


def test_a_failed_call_reads_as_the_openai_adapter_writes_it() -> None:
    message = {"tool_calls": [{"id": "c1", "function": {"name": "get_weather", "arguments": '{"city": 1}'}}]}
    [adapter] = toolcall.openai.tool_messages(TOOLS, message)

    def script(items: list[dict[str, Any]]) -> list[TResponseOutputItem]:
        seen = outputs(items)
        return [say(seen["c1"])] if seen else [call("c1", "get_weather", '{"city": 1}')]

    assert run(ScriptedModel(script), toolcall.openai_agents.function_tools(TOOLS)) == adapter["content"]


def test_importing_the_bridge_does_not_import_agents() -> None:
    code = "import sys, toolcall.openai_agents; print('agents' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_context_without_the_injected_value_fails_the_run_as_a_program_error() -> None:
    def script(items: list[dict[str, Any]]) -> list[TResponseOutputItem]:
        return [call("c1", "whoami", '{"greeting": "Hello"}')]

    tools = toolcall.openai_agents.function_tools(whoami, context=lambda wrapper: {})
    with pytest.raises(Exception) as raised:  # openai-agents wraps it (in UserError), as each release does
        run(ScriptedModel(script), tools)
    causes = [raised.value, raised.value.__cause__]
    assert any(isinstance(cause, MissingInjectedError) and "'user'" in str(cause) for cause in causes), causes
