"""``docs/mcp-clients.md`` works as written: its configurations parse, and their command lines serve.

Each command line is taken from the page itself, with the placeholder
directory replaced by a temporary project holding the bundled example
module (``examples/weather.py``) and the Python replaced by this one. The
server is started in another directory, as a client starts it, and spoken
to with the official MCP client. toolcall is found through ``PYTHONPATH``
(this checkout), standing in for the project environment that has it
installed; the tool modules are found through their file paths alone.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

import toolcall
from tests.paths import ROOT

#: Left out of the fast loop (``-m "not slow"``): each case starts a server subprocess.
pytestmark = pytest.mark.slow

PAGE = ROOT / "docs" / "mcp-clients.md"
PROJECT = "/ABSOLUTE/PATH/TO/PROJECT"
PYTHON = f"{PROJECT}/.venv/bin/python"
#: Seconds before a wait counts as a hung server: a guard, never a measurement.
GUARD = 60

APP_TOOLS = '''
from typing import Annotated

import toolcall


@toolcall.tool
def whoami(greeting: str, user: Annotated[str, toolcall.Injected]) -> str:
    """Greet the user.

    Args:
        greeting: how to greet
    """
    return f"{greeting}, {user}"
'''


def blocks(language: str) -> list[str]:
    """The page's fenced code blocks in ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", PAGE.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The reader's project: the example weather module, a package with an Injected tool, the context module."""
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "weather.py", root / "weather.py")
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "tools.py").write_text(APP_TOOLS)
    [context_module] = blocks("python")
    assert context_module.startswith("# /ABSOLUTE/PATH/TO/PROJECT/server_context.py\n")
    (root / "server_context.py").write_text(context_module)
    return root


def example_weather(project: Path) -> ModuleType:
    """The project's ``weather.py``, imported here under a name of its own (another test may import ``weather``)."""
    spec = importlib.util.spec_from_file_location("mcp_clients_doc_weather", project / "weather.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def filled(command_line: list[str], project: Path) -> list[str]:
    """The command line with this Python and the project's directory for the placeholders."""
    return [sys.executable if part == PYTHON else part.replace(PROJECT, str(project)) for part in command_line]


def serve(command_line: list[str], cwd: Path, call: tuple[str, dict[str, Any]] | None = None) -> Any:
    """Start ``command_line`` in ``cwd``; the ``tools/list`` result, and the call's result when given."""
    parameters = StdioServerParameters(
        command=command_line[0],
        args=command_line[1:],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), "USER": "reader"},
    )

    async def session() -> tuple[list[dict[str, Any]], CallToolResult | None]:
        with anyio.fail_after(GUARD), tempfile.TemporaryFile("w+") as errors:
            async with stdio_client(parameters, errlog=errors) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                listed = await client.list_tools()
                result = None if call is None else await client.call_tool(*call)
        tools = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listed.tools]
        return tools, result

    return anyio.run(session)


def test_every_configuration_on_the_page_is_json() -> None:
    configurations = [json.loads(block) for block in blocks("json")]
    assert len(configurations) == 2
    for configuration in configurations:
        [server] = configuration["mcpServers"].values()
        assert server["command"] == PYTHON
        assert server["args"][:3] == ["-m", "toolcall", "serve"]


def test_the_claude_desktop_configuration_serves_the_weather_tools(project: Path, tmp_path: Path) -> None:
    [server] = json.loads(blocks("json")[0])["mcpServers"].values()
    elsewhere = tmp_path / "elsewhere"  # not the project: a client starts the server where it likes
    elsewhere.mkdir()
    tools, _ = serve(filled([server["command"], *server["args"]], project), elsewhere)
    expected = toolcall.emit(example_weather(project), "mcp")
    assert tools == [{k: v for k, v in tool.items() if k != "outputSchema"} for tool in expected]
    assert [tool["name"] for tool in tools] == ["get_weather", "forecast_at", "convert-temperature"]


def test_the_inspector_command_serves_the_weather_tools(project: Path, tmp_path: Path) -> None:
    [inspector] = [line for block in blocks("bash") for line in block.splitlines() if "inspector" in line]
    words = shlex.split(inspector)
    assert words[:3] == ["npx", "@modelcontextprotocol/inspector", "--"]
    tools, _ = serve(filled(words[3:], project), tmp_path)
    assert [tool["name"] for tool in tools] == ["get_weather", "forecast_at", "convert-temperature"]
    assert json.dumps(tools) == json.dumps(toolcall.emit(example_weather(project), "mcp"))


def test_the_context_configuration_serves_the_injected_tool(project: Path, tmp_path: Path) -> None:
    [server] = json.loads(blocks("json")[1])["mcpServers"].values()
    _, result = serve(filled([server["command"], *server["args"]], project), tmp_path, ("whoami", {"greeting": "hi"}))
    assert not result.is_error
    [block] = result.content
    assert isinstance(block, TextContent)
    assert block.text == "hi, reader"
