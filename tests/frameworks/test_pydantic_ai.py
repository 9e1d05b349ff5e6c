"""``toolcall.pydantic_ai.tools``: real agent runs with pydantic-ai's offline ``FunctionModel``.

The model is a script: each turn returns the tool calls the test chose, and
records what pydantic-ai showed it (the tool definitions and the last
request's parts), so the tests assert on the schema and the error text the
model read.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import subprocess
import sys
from typing import Annotated, Any, Literal

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, ModelRetry, RunContext, Tool
from pydantic_ai.exceptions import UnexpectedModelBehavior
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import toolcall
import toolcall.pydantic_ai
from tests.adapter_tools import get_weather
from toolcall import Injected
from toolcall.errors import MissingInjectedError
from toolcall.errors import UnknownTool as UnknownToolError


@toolcall.tool
async def add(a: int, b: int) -> int:
    """Add two integers, asynchronously."""
    await asyncio.sleep(0)
    return a + b


@toolcall.tool
def holiday(year: int) -> dict[str, dt.date]:
    """The first holiday of a year."""
    return {"day": dt.date(year, 1, 1)}


@toolcall.tool
def broken() -> object:
    """Returns what JSON cannot carry."""
    return object()


@toolcall.tool
def greet(greeting: str, user: Annotated[str, Injected]) -> str:
    """Greet the signed-in user."""
    return f"{greeting}, {user}!"


PLAIN = toolcall.Toolset(get_weather, add, holiday, broken)
Turn = list[ToolCallPart] | str


class Script:
    """A ``FunctionModel`` that answers each request with the next turn, recording what it was shown."""

    def __init__(self, *turns: Turn) -> None:
        self.turns = list(turns)
        self.infos: list[AgentInfo] = []
        self.requests: list[ModelRequest] = []

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.infos.append(info)
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        self.requests.append(last)
        turn = self.turns.pop(0) if self.turns else "done"
        return ModelResponse(parts=[TextPart(turn)] if isinstance(turn, str) else list(turn))

    @property
    def model(self) -> FunctionModel:
        return FunctionModel(self.respond)


def call(name: str, args: Any, call_id: str = "c1") -> ToolCallPart:
    return ToolCallPart(tool_name=name, args=args, tool_call_id=call_id)


def answers(request: ModelRequest) -> list[tuple[str, Any, bool]]:
    """``(tool name, content, retried)`` of each tool answer in a request, as the model reads it."""
    found = []
    for part in request.parts:
        if part.part_kind == "retry-prompt":  # pydantic-ai before 2: a retry is a part of its own
            found.append((part.tool_name, part.content, True))  # type: ignore[union-attr]
        elif part.part_kind == "tool-return":
            found.append((part.tool_name, part.content, getattr(part, "outcome", "success") == "retried"))  # type: ignore[union-attr]
    return found


def error_line(source: Any, name: str, args: Any) -> str:
    result = toolcall.run(source, name, args)
    assert isinstance(result, toolcall.Err)
    return str(result.error)


def run(script: Script, tools: list[Tool[Any]], **options: Any) -> Any:
    return Agent(script.model, tools=tools, **options).run_sync("go")


def test_the_model_is_shown_toolcalls_schemas_and_descriptions() -> None:
    script = Script("done")
    run(script, toolcall.pydantic_ai.tools(PLAIN))
    shown = script.infos[0].function_tools
    expected = toolcall.emit(PLAIN, "openai")
    assert [t.name for t in shown] == [d["function"]["name"] for d in expected]
    for definition, function in zip(shown, (d["function"] for d in expected), strict=True):
        assert json.dumps(definition.parameters_json_schema) == json.dumps(function.get("parameters"))
        assert definition.description == function.get("description")
        assert definition.strict is None  # pydantic-ai decides per provider, as for its own tools


def test_pydantic_ais_schema_builder_never_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import pydantic_ai._function_schema

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("pydantic-ai's function schema builder ran")

    monkeypatch.setattr(pydantic_ai._function_schema, "function_schema", refuse)
    with pytest.raises(AssertionError, match="builder ran"):  # the patch is where pydantic-ai's Tool looks
        Tool(get_weather)
    script = Script([call("get_weather", {"city": "Oslo"})], "done")
    result = run(script, toolcall.pydantic_ai.tools(PLAIN))
    assert result.output == "done"
    assert answers(script.requests[1]) == [("get_weather", {"city": "Oslo", "days": 3, "temp": 21.5}, False)]


def test_a_good_call_a_bad_call_and_its_retry() -> None:
    bad = {"city": "Oslo", "days": "5"}
    script = Script([call("get_weather", bad)], [call("get_weather", {"city": "Oslo", "days": 5}, "c2")], "done")
    result = run(script, toolcall.pydantic_ai.tools(PLAIN))
    line = error_line(PLAIN, "get_weather", bad)
    assert line == 'invalid argument "days": expected an integer, got "5"'
    assert answers(script.requests[1]) == [("get_weather", line, True)]  # the retry prompt is toolcall's line
    assert answers(script.requests[2]) == [("get_weather", {"city": "Oslo", "days": 5, "temp": 21.5}, False)]
    assert result.output == "done"


def test_every_problem_of_a_call_is_in_the_one_retry_line() -> None:
    bad = {"days": 1.5, "c": 1}
    script = Script([call("get_weather", bad)], "done")
    run(script, toolcall.pydantic_ai.tools(PLAIN))
    [(_, content, retried)] = answers(script.requests[1])
    assert (content, retried) == (error_line(PLAIN, "get_weather", bad), True)
    for named in ("city", "days", '"c"'):  # the missing, the invalid and the unknown argument, in one line
        assert named in content


@pytest.mark.parametrize("arguments", ["[1, 2]", [1, 2], "7"])
def test_arguments_that_are_not_an_object_get_toolcalls_error(arguments: Any) -> None:
    script = Script([call("get_weather", arguments)], "done")
    run(script, toolcall.pydantic_ai.tools(PLAIN))
    data = json.loads(arguments) if isinstance(arguments, str) else arguments
    assert answers(script.requests[1]) == [("get_weather", error_line(PLAIN, "get_weather", data), True)]


def test_an_async_tool_runs() -> None:
    script = Script([call("add", '{"a": 2, "b": 40}')], "done")
    run(script, toolcall.pydantic_ai.tools(PLAIN))
    assert answers(script.requests[1]) == [("add", 42, False)]


def test_a_value_is_encoded_as_the_adapters_encode_it() -> None:
    script = Script([call("holiday", {"year": 2025})], "done")
    run(script, toolcall.pydantic_ai.tools(PLAIN))
    assert answers(script.requests[1]) == [("holiday", {"day": "2025-01-01"}, False)]


def test_a_value_json_cannot_carry_is_a_retry_with_toolcalls_line(caplog: pytest.LogCaptureFixture) -> None:
    script = Script([call("broken", {})], "done")
    run(script, toolcall.pydantic_ai.tools(PLAIN))
    [(_, content, retried)] = answers(script.requests[1])
    assert retried
    assert content.startswith("the tool returned ")
    assert content.endswith(", which JSON cannot carry")
    assert "broken" in caplog.text


def test_injected_parameters_come_from_the_context() -> None:
    seen: list[RunContext[Any]] = []

    def context(run_context: RunContext[Any]) -> dict[str, Any]:
        seen.append(run_context)
        return {"user": run_context.deps}

    script = Script([call("greet", {"greeting": "Hello"}), call("add", {"a": 1, "b": 2}, "c2")], "done")
    tools = toolcall.pydantic_ai.tools(toolcall.Toolset(greet, add), context=context)
    assert "user" not in json.dumps(tools[0].tool_def.parameters_json_schema)
    Agent(script.model, tools=tools, deps_type=str).run_sync("go", deps="Ada")
    assert answers(script.requests[1]) == [("greet", "Hello, Ada!", False), ("add", 3, False)]
    assert [c.tool_name for c in seen] == ["greet"]  # a tool without Injected parameters needs no context


def test_the_model_cannot_send_an_injected_parameter() -> None:
    script = Script([call("greet", {"greeting": "Hi", "user": "Eve"})], "done")
    tools = toolcall.pydantic_ai.tools(greet, context=lambda run_context: {"user": "Ada"})
    Agent(script.model, tools=tools).run_sync("go")
    [(_, content, retried)] = answers(script.requests[1])
    assert retried
    assert content == str(toolcall.errors.UnknownArguments(("user",), ("greeting",)))


def test_injected_parameters_without_a_context_are_refused_naming_the_tool() -> None:
    with pytest.raises(MissingInjectedError, match=r"tool 'greet' \(user\) has Injected parameters and no context"):
        toolcall.pydantic_ai.tools(toolcall.Toolset(get_weather, greet))
    assert len(toolcall.pydantic_ai.tools(PLAIN)) == 4  # tools without one need no context


def max_retries_outcome(tools: list[Tool[Any]], name: str, args: Any) -> tuple[str, list[Any]]:
    """The error and the retry answers of a run whose model sends the same bad call until pydantic-ai stops it."""
    script = Script(*([call(name, args, f"c{i}")] for i in range(5)))
    with pytest.raises(UnexpectedModelBehavior) as raised:
        Agent(script.model, tools=tools, retries=2).run_sync("go")
    return str(raised.value), [answers(request) for request in script.requests[1:]]


def test_exceeding_max_retries_ends_the_run_as_for_pydantic_ais_own_tools() -> None:
    bad = {"city": "Oslo", "days": "5"}
    ours, our_answers = max_retries_outcome(toolcall.pydantic_ai.tools(PLAIN), "get_weather", bad)

    def get_weather(city: str, days: int = 3) -> str:
        raise ModelRetry(error_line(PLAIN, "get_weather", bad))

    theirs, their_answers = max_retries_outcome([Tool(get_weather)], "get_weather", bad)
    assert ours == theirs
    assert "exceeded max retries count of 2" in ours
    assert our_answers == their_answers
    assert len(our_answers) == 2


def test_a_strict_tool_carries_toolcalls_strict_rendering() -> None:
    tools = toolcall.pydantic_ai.tools(get_weather)
    tools[0].strict = True
    script = Script("done")
    run(script, tools)
    [shown] = script.infos[0].function_tools
    strict = toolcall.emit(get_weather, "openai", strict=True)[0]["function"].get("parameters")
    assert shown.strict is True
    assert json.dumps(shown.parameters_json_schema) == json.dumps(strict)
    assert json.dumps(strict) != json.dumps(toolcall.emit(get_weather, "openai")[0]["function"].get("parameters"))


def test_a_strict_call_sending_null_for_an_optional_argument_gets_its_default() -> None:
    tools = toolcall.pydantic_ai.tools(get_weather)
    tools[0].strict = True
    script = Script([call("get_weather", {"city": "Oslo", "days": None})], "done")
    run(script, tools)
    assert answers(script.requests[1]) == [("get_weather", {"city": "Oslo", "days": 3, "temp": 21.5}, False)]


def test_an_unknown_tool_is_pydantic_ais_own_business() -> None:
    """pydantic-ai answers a name it has no tool for before any tool runs: toolcall's ``UnknownTool`` never shows."""
    script = Script([call("nope", {})], "done")
    run(script, toolcall.pydantic_ai.tools(PLAIN))
    [(name, content, retried)] = answers(script.requests[1])
    assert (name, retried) == ("nope", True)
    assert str(UnknownToolError("nope", ("get_weather",))) not in str(content)


def test_the_source_can_be_a_module_and_the_tools_keep_their_order() -> None:
    module = sys.modules[__name__]
    with pytest.raises(MissingInjectedError):
        toolcall.pydantic_ai.tools(module)
    tools = toolcall.pydantic_ai.tools(module, context=lambda run_context: {"user": "Ada"})
    assert [t.name for t in tools] == toolcall.tool_names(module)


def test_importing_the_module_imports_no_pydantic_ai() -> None:
    code = "import sys, toolcall.pydantic_ai; print('pydantic_ai' in sys.modules, 'pydantic' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.split() == ["False", "False"]


@toolcall.tool
def pick(a: int, mode: Literal["x", "y"]) -> int:
    """Every parameter required: a schema OpenAI's strict mode takes as it is."""
    return a


def sent_to_openai(tools: list[Tool[Any]], monkeypatch: pytest.MonkeyPatch) -> Any:
    """The ``tools`` that pydantic-ai's OpenAI model sends, through the real SDK client, to the replay server."""
    pytest.importorskip("openai")
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    from tests.replay_server import Conversation, OpenAI, Turn, replay

    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.setenv(name, "")  # the client reaches 127.0.0.1 directly, whatever proxy the environment names
    with replay(OpenAI(), Conversation("go", (Turn("r1", text="done"),))) as server:
        provider = OpenAIProvider(base_url=server.url + "/v1", api_key="sk-test-replay")
        result = Agent(OpenAIChatModel("gpt-4o", provider=provider), tools=tools).run_sync("go")
    assert result.output == "done"
    return server.requests[0]["tools"]


def test_openais_chat_model_sends_toolcalls_definitions(monkeypatch: pytest.MonkeyPatch) -> None:
    source = toolcall.Toolset(get_weather, pick)
    sent = sent_to_openai(toolcall.pydantic_ai.tools(source), monkeypatch)
    weather, picked = toolcall.emit(source, "openai")
    # pydantic-ai marks a schema strict when OpenAI's strict mode takes it unchanged (every property required).
    picked["function"]["strict"] = True
    assert json.dumps(sent) == json.dumps([weather, picked])


def test_openais_chat_model_sends_toolcalls_strict_definitions(monkeypatch: pytest.MonkeyPatch) -> None:
    source = toolcall.Toolset(get_weather, pick)
    tools = toolcall.pydantic_ai.tools(source)
    for tool in tools:
        tool.strict = True
    sent = sent_to_openai(tools, monkeypatch)
    expected = toolcall.emit(source, "openai", strict=True)
    for definition in expected:
        definition["function"]["strict"] = True
    # pydantic-ai's OpenAI strict transformer rebuilds a node with ``anyOf`` (2.78 moves that key last): the same
    # schema, so here (only) the comparison is of the data, not of its text.
    assert sent == expected
