"""``toolcall serve``: an MCP server over stdio, driven as a subprocess.

Most tests talk to it through the official MCP client (``stdio_client`` and
``ClientSession``). The ones about the key order of ``tools/list``, bad
input on stdin, stdout and the exit status write JSON-RPC lines themselves
(``RawServer``): the client hides them. Every wait has a generous
guard, so a broken server fails a test instead of hanging it; nothing
asserts how long anything took.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any, TypeVar

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

import toolcall
from tests.cli_tools import reports, weather
from tests.paths import ROOT
from tests.subprocesses import stop
from toolcall.errors import UnknownTool

#: Left out of the fast loop (``-m "not slow"``): every case starts a server subprocess.
pytestmark = pytest.mark.slow

SERVED = ("tests.cli_tools.weather", "tests.cli_tools.reports")
#: Seconds before a wait counts as a hung server: a guard against hanging, never a measurement.
GUARD = 60
INITIALIZE = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "tests", "version": "1"}}

_T = TypeVar("_T")


def command(*arguments: str) -> list[str]:
    """``python -m toolcall serve ...`` with this interpreter."""
    return [sys.executable, "-m", "toolcall", "serve", *arguments]


def served(body: Callable[[ClientSession], Awaitable[_T]], *arguments: str) -> _T:
    """Start ``serve`` on ``arguments`` (default ``SERVED``) and run ``body`` with an initialized client session."""
    parameters = StdioServerParameters(
        command=sys.executable, args=command(*(arguments or SERVED))[1:], cwd=ROOT, env=dict(os.environ)
    )

    async def session() -> _T:
        with anyio.fail_after(GUARD), tempfile.TemporaryFile("w+") as errors:
            async with stdio_client(parameters, errlog=errors) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                return await body(client)

    return anyio.run(session)


def text(result: CallToolResult) -> str:
    """The one text block of a ``tools/call`` result."""
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text


class RawServer:
    """``serve`` spoken to in JSON-RPC lines, with its stdout read on a thread.

    stdout is a pipe, as an MCP client starts a server, or the regular file
    ``output``, read as it grows (the server's other transport).
    """

    def __init__(self, arguments: Sequence[str], errors: IO[str], output: IO[str] | None) -> None:
        self.errors = errors
        self.output = output
        self.process = subprocess.Popen(
            command(*arguments),
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=self.output or subprocess.PIPE,
            stderr=self.errors,
            text=True,
            encoding="utf-8",
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read if self.output is None else self._tail, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _tail(self) -> None:
        assert self.output is not None
        with open(self.output.name, encoding="utf-8") as output:
            partial = ""
            while True:
                exited = self.process.poll() is not None  # before reading: nothing is missed
                partial += output.readline()
                if partial.endswith("\n"):
                    self.lines.put(partial)
                    partial = ""
                elif exited:
                    break
                else:
                    time.sleep(0.01)
        self.lines.put(None)

    def send(self, line: str) -> None:
        """Write one line to the server's stdin."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def request(self, identifier: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a request and return the server's answer to it (other lines are skipped)."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": identifier, "method": method}
        if params is not None:
            message["params"] = params
        self.send(json.dumps(message))
        return self.answer(identifier)

    def answer(self, identifier: int) -> dict[str, Any]:
        """The next message whose id is ``identifier``."""
        while True:
            line = self.lines.get(timeout=GUARD)
            if line is None:
                raise AssertionError(f"the server closed stdout before answering request {identifier}")
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == identifier:
                return message

    def initialize(self) -> None:
        """The MCP handshake."""
        assert "result" in self.request(0, "initialize", INITIALIZE)
        self.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    def close(self) -> tuple[int, str]:
        """Close stdin; the exit status and everything the server wrote on stderr."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        status = self.process.wait(timeout=GUARD)
        self.errors.seek(0)
        return status, self.errors.read()


@contextmanager
def raw_server(*arguments: str, to_file: bool = False) -> Iterator[RawServer]:
    """A ``RawServer`` (stdout to a file with ``to_file``), killed if the test leaves it running."""
    with ExitStack() as stack:
        errors = stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8"))
        # Read through a file object of its own, with its own offset, while the server writes.
        output = stack.enter_context(tempfile.NamedTemporaryFile("w", encoding="utf-8")) if to_file else None
        server = RawServer(arguments, errors, output)
        try:
            yield server
        finally:
            stop(server.process)


def expected_tools(strict: bool) -> list[dict[str, Any]]:
    return [*toolcall.emit(weather, "mcp", strict=strict), *toolcall.emit(reports, "mcp", strict=strict)]


# tools/list


@pytest.mark.parametrize("strict", [False, True])
def test_tools_list_is_emit_byte_for_byte(strict: bool) -> None:
    flags = ("--strict",) if strict else ()
    with raw_server(*SERVED, *flags) as server:
        server.initialize()
        answer = server.request(1, "tools/list")
    # json.loads keeps the wire's key order, and json.dumps without sort_keys shows it.
    assert json.dumps(answer["result"]["tools"]) == json.dumps(expected_tools(strict))
    assert "nextCursor" not in answer["result"]


def test_tools_list_through_the_client() -> None:
    async def body(client: ClientSession) -> list[dict[str, Any]]:
        listed = await client.list_tools()
        return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listed.tools]

    assert served(body) == expected_tools(False)


# tools/call


def test_a_good_call_returns_json_text_and_structured_content() -> None:
    async def body(client: ClientSession) -> CallToolResult:
        return await client.call_tool("get_weather", {"city": "Oslo"})

    result = served(body)
    assert not result.is_error
    assert text(result) == json.dumps({"city": "Oslo", "days": 3, "temp": 21.5})
    assert result.structured_content == {"city": "Oslo", "days": 3, "temp": 21.5}


BAD_ARGUMENTS: list[Any] = [{}, {"days": 5}, {"city": "Oslo", "days": 1.5}, {"city": "Oslo", "days": "5"}]
BAD_ARGUMENTS += [{"city": "Oslo", "c": 1}, {"city": "Oslo", "days": 0.5, "c": 1}]


def test_bad_arguments_are_an_error_result_with_the_dispatch_text() -> None:
    async def body(client: ClientSession) -> list[CallToolResult]:
        return [await client.call_tool("get_weather", arguments) for arguments in BAD_ARGUMENTS]

    for arguments, result in zip(BAD_ARGUMENTS, served(body), strict=True):
        assert result.is_error, arguments
        expected = toolcall.run(weather, "get_weather", arguments)
        assert not expected.ok
        assert text(result) == str(expected.error)
        assert "\n" not in text(result)


def test_arguments_that_are_not_an_object_are_refused_by_the_protocol() -> None:
    # The SDK checks tools/call params before toolcall sees them: a JSON-RPC error, and the server goes on.
    with raw_server(*SERVED) as server:
        server.initialize()
        answer = server.request(1, "tools/call", {"name": "get_weather", "arguments": [1, 2]})
        assert "error" in answer
        assert "result" in server.request(2, "tools/call", {"name": "get_weather", "arguments": {"city": "Oslo"}})


def test_an_unknown_tool_is_an_error_result_naming_every_served_tool() -> None:
    async def body(client: ClientSession) -> CallToolResult:
        return await client.call_tool("forecast", {"city": "Oslo"})

    result = served(body)
    assert result.is_error
    names = tuple(tool["name"] for tool in expected_tools(False))
    assert text(result) == str(UnknownTool("forecast", names))


def test_a_tool_that_raises_is_an_error_result_and_the_server_goes_on() -> None:
    async def body(client: ClientSession) -> tuple[CallToolResult, CallToolResult, CallToolResult]:
        failed = await client.call_tool("explode", {"reason": "bad value"})
        multiline = await client.call_tool("explode", {"reason": "first\nsecond"})
        return failed, multiline, await client.call_tool("get_weather", {"city": "Oslo"})

    failed, multiline, after = served(body)
    assert failed.is_error
    assert text(failed) == "the tool failed with ValueError: bad value"
    assert multiline.is_error
    assert text(multiline) == str(toolcall.run(weather, "explode", {"reason": "first\nsecond"}).error)
    assert "\n" not in text(multiline)
    assert not after.is_error


def test_an_async_tool_is_awaited() -> None:
    async def body(client: ClientSession) -> CallToolResult:
        return await client.call_tool("meet", {"key": "alone", "call": 7, "expected": 1})

    result = served(body)
    assert not result.is_error
    assert result.structured_content == {"call": 7, "met": 1}


def test_fifty_concurrent_calls_run_together_and_each_gets_its_own_answer() -> None:
    # Each call of meet waits until all 50 are in progress at once: calls run one after another
    # never get there (the first would give up and report meeting 1).
    async def body(client: ClientSession) -> list[CallToolResult]:
        results: list[CallToolResult | None] = [None] * 50

        async def call(number: int) -> None:
            results[number] = await client.call_tool("meet", {"key": "fifty", "call": number, "expected": 50})

        async with anyio.create_task_group() as group:
            for number in range(50):
                group.start_soon(call, number)
        return [result for result in results if result is not None]

    results = served(body)
    assert len(results) == 50
    for number, result in enumerate(results):
        assert not result.is_error, text(result)
        assert result.structured_content == {"call": number, "met": 50}
        assert json.loads(text(result)) == {"call": number, "met": 50}


def test_structured_content_follows_the_output_schema() -> None:
    async def body(client: ClientSession) -> list[CallToolResult]:
        calls = [("summarize", {"city": "Oslo"}), ("locate", {"name": "x"}), ("measure", {"length": 3})]
        return [await client.call_tool(name, arguments) for name, arguments in calls]

    summary, point, span = served(body)
    # A TypedDict with an Enum and a date, a dataclass, a NamedTuple: each as its schema's object.
    assert summary.structured_content == {"city": "Oslo", "level": "high", "seen": "2024-05-17"}
    assert point.structured_content == {"x": 1.5, "y": -2.0}
    assert span.structured_content == {"start": 0, "end": 3}
    for result in (summary, point, span):
        assert not result.is_error
        assert text(result) == json.dumps(result.structured_content)


def test_a_scalar_return_is_wrapped_in_the_schema_and_the_structured_content() -> None:
    async def body(client: ClientSession) -> tuple[list[Any], CallToolResult, CallToolResult]:
        listed = await client.list_tools()
        ratio = await client.call_tool("ratio", {"numerator": 1, "denominator": 4})
        return listed.tools, ratio, await client.call_tool("explode", {"reason": ""})

    tools, ratio, failed = served(body)
    # The client checks structuredContent against the outputSchema: an unwrapped 0.25 would fail the call.
    [listed] = [tool for tool in tools if tool.name == "ratio"]
    assert json.dumps(listed.output_schema) == json.dumps(
        {
            "type": "object",
            "properties": {"result": {"type": "number"}},
            "required": ["result"],
            "additionalProperties": False,
        }
    )
    assert not ratio.is_error
    assert text(ratio) == "0.25"  # the text is the value itself
    assert ratio.structured_content == {"result": 0.25}
    assert failed.is_error
    assert failed.structured_content is None


def test_a_tool_without_an_output_schema_sends_text_only() -> None:
    async def body(client: ClientSession) -> CallToolResult:
        return await client.call_tool("nothing", {})

    result = served(body)
    assert "outputSchema" not in toolcall.emit(reports.nothing, "mcp")[0]
    assert not result.is_error
    assert text(result) == "null"
    assert result.structured_content is None


def test_no_output_schema_leaves_out_the_schemas_and_the_structured_content() -> None:
    with raw_server(*SERVED, "--no-output-schema") as server:
        server.initialize()
        listed = server.request(1, "tools/list")["result"]["tools"]
        weather_call = server.request(2, "tools/call", {"name": "get_weather", "arguments": {"city": "Oslo"}})
        ratio_call = server.request(3, "tools/call", {"name": "ratio", "arguments": {"numerator": 1, "denominator": 2}})
    expected = [{k: v for k, v in tool.items() if k != "outputSchema"} for tool in expected_tools(False)]
    assert any("outputSchema" in tool for tool in expected_tools(False))
    assert json.dumps(listed) == json.dumps(expected)
    assert weather_call["result"] == {
        "content": [{"type": "text", "text": json.dumps({"city": "Oslo", "days": 3, "temp": 21.5})}]
    }
    assert ratio_call["result"] == {"content": [{"type": "text", "text": "0.5"}]}


def test_a_value_json_cannot_carry_is_an_error_result() -> None:
    async def body(client: ClientSession) -> list[CallToolResult]:
        nan = await client.call_tool("ratio", {"numerator": 0, "denominator": 0})
        return [nan, await client.call_tool("opaque", {}), await client.call_tool("get_weather", {"city": "Oslo"})]

    nan, opaque, after = served(body)
    assert nan.is_error
    assert text(nan) == "the tool returned the number nan, which JSON cannot carry"
    assert opaque.is_error
    assert text(opaque) == "the tool returned an object of type object, which JSON cannot carry"
    assert not after.is_error


def test_a_value_that_breaks_its_own_output_schema_is_an_error_result() -> None:
    async def body(client: ClientSession) -> CallToolResult:
        return await client.call_tool("mislabeled", {})

    result = served(body)
    assert result.is_error
    assert text(result) == "the tool returned an object of type list where its output schema promises a JSON object"


def test_a_value_that_breaks_its_wrapped_output_schema_is_an_error_result() -> None:
    async def body(client: ClientSession) -> tuple[CallToolResult, CallToolResult]:
        return await client.call_tool("miscounted", {}), await client.call_tool("whole", {})

    miscounted, whole = served(body)
    assert miscounted.is_error
    assert text(miscounted) == "the tool returned an object of type int where its output schema promises a string"
    assert not whole.is_error  # 3.0 is an integer to JSON Schema, and to the client's check
    assert whole.structured_content == {"result": 3.0}


# The process: bad input, shutdown, start-up errors


def test_bad_json_rpc_input_does_not_stop_the_server() -> None:
    with raw_server(*SERVED) as server:
        server.send("this is not JSON")  # before the handshake too
        server.initialize()
        for line in ["{not json", '{"hello": "world"}', "[1, 2]", "42", '{"jsonrpc": "2.0", "id": 3}', ""]:
            server.send(line)
        answer = server.request(4, "tools/call", {"name": "get_weather", "arguments": {"city": "Oslo"}})
        status, errors = server.close()
    assert json.loads(answer["result"]["content"][0]["text"]) == {"city": "Oslo", "days": 3, "temp": 21.5}
    assert status == 0
    assert "Traceback" not in errors


@pytest.mark.parametrize("to_file", [False, True], ids=["pipe", "file"])
def test_what_a_tool_prints_goes_to_stderr_not_onto_the_wire(to_file: bool) -> None:
    with raw_server(*SERVED, to_file=to_file) as server:
        server.initialize()
        for identifier in (1, 2):  # RawServer.answer parses every line of stdout: a printed one would fail it
            answer = server.request(identifier, "tools/call", {"name": "shout", "arguments": {"text": "hello"}})
            assert answer["result"]["content"][0]["text"] == "HELLO"
        answer = server.request(3, "tools/call", {"name": "get_weather", "arguments": {"city": "Oslo"}})
        assert answer["result"]["structuredContent"] == {"city": "Oslo", "days": 3, "temp": 21.5}
        status, errors = server.close()
    assert status == 0
    assert errors == "hello\nhello\n"


def test_closing_stdin_ends_the_server_cleanly() -> None:
    with raw_server(*SERVED) as server:
        server.initialize()
        assert "result" in server.request(1, "tools/call", {"name": "get_weather", "arguments": {"city": "Oslo"}})
        status, errors = server.close()
    assert status == 0
    assert errors == ""


def test_closing_stdin_before_any_request_ends_the_server_cleanly() -> None:
    with raw_server(*SERVED) as server:
        status, errors = server.close()
    assert status == 0
    assert errors == ""


def run_serve(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(*arguments), cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=GUARD
    )


@pytest.mark.parametrize(
    ("module", "said"),
    [
        ("tests.cli_tools.broken", "RuntimeError: the configuration file is missing"),
        ("tests.cli_tools.no_such_module", "ModuleNotFoundError"),
        ("tests.cli_tools.empty", "has no tools"),
    ],
)
def test_a_module_that_cannot_be_served_is_one_error_line(module: str, said: str) -> None:
    done = run_serve("tests.cli_tools.weather", module)
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("toolcall: error: ")
    assert module in line
    assert said in line
    assert done.stdout == ""


def test_a_tool_name_in_two_modules_is_refused_naming_both() -> None:
    done = run_serve("tests.cli_tools.weather", "tests.cli_tools.clash")
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("toolcall: error: tool get_weather ")
    assert "tests.cli_tools.weather" in line
    assert "tests.cli_tools.clash" in line


def test_the_same_module_named_twice_is_served_once() -> None:
    with raw_server("tests.cli_tools.weather", "tests.cli_tools.weather") as server:
        server.initialize()
        answer = server.request(1, "tools/list")
    assert json.dumps(answer["result"]["tools"]) == json.dumps(toolcall.emit(weather, "mcp"))


def test_help() -> None:
    done = run_serve("--help")
    assert done.returncode == 0
    assert "--strict" in done.stdout
    assert "MODULE" in done.stdout


def test_no_module_is_a_usage_error() -> None:
    done = run_serve()
    assert done.returncode == 2


# Injected parameters and --context

CONTEXT_TOOLS = "tests.cli_tools.context"


def test_a_tool_with_injected_parameters_is_refused_without_a_context() -> None:
    done = run_serve("tests.cli_tools.weather", CONTEXT_TOOLS)
    assert done.returncode == 2
    assert done.stderr == (
        "toolcall: error: tool whoami in tests.cli_tools.context has Injected parameters (user, call) "
        "that no MCP client can send: serve it with --context MODULE:FACTORY\n"
    )
    assert done.stdout == ""


@pytest.mark.parametrize(("factory", "user"), [("numbered", "ada"), ("awaited", "grace")])
def test_the_context_factory_fills_injected_parameters_anew_for_each_call(factory: str, user: str) -> None:
    async def body(client: ClientSession) -> list[CallToolResult]:
        return [await client.call_tool("whoami", {"greeting": "hello"}) for _ in range(2)]

    first, second = served(body, CONTEXT_TOOLS, "--context", f"{CONTEXT_TOOLS}:{factory}")
    assert not first.is_error, text(first)
    assert text(first) == f"hello, {user} (context 1)"
    assert text(second) == f"hello, {user} (context 2)"
    assert second.structured_content == {"result": f"hello, {user} (context 2)"}


def test_the_factory_is_called_only_for_tools_with_injected_parameters() -> None:
    async def body(client: ClientSession) -> tuple[CallToolResult, CallToolResult]:
        weather_call = await client.call_tool("get_weather", {"city": "Oslo"})
        return weather_call, await client.call_tool("whoami", {"greeting": "hi"})

    weather_call, whoami = served(
        body, "tests.cli_tools.weather", CONTEXT_TOOLS, "--context", f"{CONTEXT_TOOLS}:failing"
    )
    assert not weather_call.is_error  # the broken factory breaks only the tools that need it
    assert whoami.is_error


@pytest.mark.parametrize(
    ("factory", "said"),
    [
        ("failing", "the server's context factory failed with RuntimeError: the session store is down"),
        ("listing", "the server's context factory returned an object of type list, not a dict"),
        ("partial", "the server's context factory gave no value for 'call'"),
    ],
)
def test_a_broken_factory_makes_the_call_an_error_result_and_the_server_goes_on(factory: str, said: str) -> None:
    with raw_server(CONTEXT_TOOLS, "--context", f"{CONTEXT_TOOLS}:{factory}") as server:
        server.initialize()
        answers = [
            server.request(number, "tools/call", {"name": "whoami", "arguments": {"greeting": "hi"}})
            for number in (1, 2)
        ]
        listed = server.request(3, "tools/list")
        status, errors = server.close()
    for answer in answers:
        assert answer["result"] == {"content": [{"type": "text", "text": said}], "isError": True}
    assert [tool["name"] for tool in listed["result"]["tools"]] == ["whoami"]
    assert status == 0
    assert ("Traceback" in errors) == (factory == "failing")  # what raised is logged, with its traceback


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("tests.cli_tools.context", "expected MODULE:FACTORY"),
        ("tests.cli_tools.context:", "expected MODULE:FACTORY"),
        (":numbered", "expected MODULE:FACTORY"),
        ("tests.cli_tools.no_such_module:make", "cannot import tests.cli_tools.no_such_module: ModuleNotFoundError"),
        ("tests/cli_tools/no_such_file.py:make", "no such Python file"),
        ("tests.cli_tools.context:missing", "tests.cli_tools.context has no attribute missing"),
        ("tests.cli_tools.context:NOT_CALLABLE", "NOT_CALLABLE is not callable (it is dict)"),
        ("tests.cli_tools.context:needs_an_argument", "needs_an_argument must be callable with no arguments"),
    ],
)
def test_a_bad_context_is_a_usage_error(spec: str, said: str) -> None:
    done = run_serve(CONTEXT_TOOLS, "--context", spec)
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith(f"toolcall: error: --context {spec}: ")
    assert said in line
    assert done.stdout == ""


def test_the_context_factory_may_be_named_by_its_file() -> None:
    async def body(client: ClientSession) -> CallToolResult:
        return await client.call_tool("whoami", {"greeting": "hi"})

    result = served(body, CONTEXT_TOOLS, "--context", "tests/cli_tools/context.py:numbered")
    assert text(result) == "hi, ada (context 1)"


# File paths


def test_a_module_inside_a_package_is_served_from_its_file_path() -> None:
    with raw_server("tests/cli_tools/weather.py", os.path.join("tests", "cli_tools", "reports.py")) as server:
        server.initialize()
        answer = server.request(1, "tools/list")
        called = server.request(2, "tools/call", {"name": "get_weather", "arguments": {"city": "Oslo"}})
    # Imported as tests.cli_tools.weather: the same module, the same definitions, as named by its dotted name.
    assert json.dumps(answer["result"]["tools"]) == json.dumps(expected_tools(False))
    assert called["result"]["structuredContent"] == {"city": "Oslo", "days": 3, "temp": 21.5}


def test_a_stand_alone_file_is_served(tmp_path: Path) -> None:
    script = tmp_path / "loose_tools.py"
    script.write_text(
        "import toolcall\n\n\n@toolcall.tool\ndef double(x: int) -> int:\n    return 2 * x\n", encoding="utf-8"
    )

    async def body(client: ClientSession) -> CallToolResult:
        return await client.call_tool("double", {"x": 21})

    result = served(body, str(script))
    assert result.structured_content == {"result": 42}


def test_a_file_path_that_does_not_exist_is_a_usage_error() -> None:
    done = run_serve("tests.cli_tools.weather", "tests/cli_tools/missing.py")
    assert done.returncode == 2
    assert done.stderr == "toolcall: error: tests/cli_tools/missing.py: no such Python file\n"
