"""emit, describe and tool_names: shapes, fresh emit results, describe's shared read-only form, determinism."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest

import toolcall
from tests.paths import ROOT
from tests.sources import ordered

EXAMPLES = ROOT / "examples"


def test_emit_returns_a_new_equal_list_on_every_call() -> None:
    first = toolcall.emit(ordered, "openai")
    second = toolcall.emit(ordered, "openai")
    assert second is not first
    assert json.dumps(second) == json.dumps(first)
    assert json.dumps(toolcall.emit(ordered, "openai", strict=True)) != json.dumps(first)


def test_callers_may_change_a_result_without_corrupting_later_results() -> None:
    result = toolcall.emit(ordered, "anthropic")
    before = json.dumps(result)
    result.append({})
    result[0]["name"] = "x"
    result[1]["input_schema"]["properties"].pop("b")
    result[1]["input_schema"].update(type="array")
    result[1]["input_schema"]["required"].append("zz")
    result[-2]["cache_control"] = {"type": "ephemeral"}
    assert json.dumps(toolcall.emit(ordered, "anthropic")) == before


def test_results_are_plain_json() -> None:
    result = toolcall.emit(ordered, "openai")
    assert type(result) is list
    assert all(type(entry) is dict for entry in result)
    assert type(result[0]["function"]["parameters"]["required"]) is list
    assert json.loads(json.dumps(result)) == result
    assert copy.deepcopy(result) == result


def test_envelopes_per_provider() -> None:
    (openai, *_) = toolcall.emit(ordered, "openai")
    assert openai["type"] == "function"
    assert set(openai["function"]) >= {"name", "description", "parameters"}
    (responses, *_) = toolcall.emit(ordered, "openai-responses")
    assert responses["type"] == "function"
    assert responses["name"] == "zeta"
    assert "strict" in responses
    (anthropic, *_) = toolcall.emit(ordered, "anthropic")
    assert set(anthropic) >= {"name", "description", "input_schema"}
    (mcp, *_) = toolcall.emit(ordered, "mcp")
    assert set(mcp) >= {"name", "description", "inputSchema"}
    (gemini, *_) = toolcall.emit(ordered, "gemini")
    assert set(gemini) >= {"name", "parameters"}


def test_describe_has_no_envelope() -> None:
    described = toolcall.describe(ordered)
    assert [set(d) for d in described] == [{"module", "name", "description", "parameters"}] * 3
    assert described[1] == {
        "module": "tests.sources.ordered",
        "name": "alpha-tool",
        "description": "Overridden description.",
        "parameters": {
            "type": "object",
            "properties": {"b": {"type": "string"}},
            "required": ["b"],
            "additionalProperties": False,
        },
    }
    with pytest.raises(TypeError):
        described[0]["name"] = "x"


def test_gemini_refuses_strict() -> None:
    with pytest.raises(ValueError, match=r"(?i)gemini"):
        toolcall.emit(ordered, "gemini", strict=True)


_EMIT_EVERYTHING = """
import json, sys
sys.path.insert(0, sys.argv[1])
import weather, toolcall
out = {}
for provider in ("openai", "openai-responses", "anthropic", "mcp", "gemini"):
    for strict in (False, True) if provider != "gemini" else (False,):
        out[f"{provider}:{strict}"] = toolcall.emit(weather, provider, strict=strict)
out["describe"] = toolcall.describe(weather)
print(json.dumps(out))
"""


def test_two_processes_emit_identical_json() -> None:
    runs = []
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", _EMIT_EVERYTHING, str(EXAMPLES)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        runs.append(run.stdout)
    assert runs[0] == runs[1]
    assert len(json.loads(runs[0])) == 10
