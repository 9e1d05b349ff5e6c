"""The IR round-trips losslessly through JSON (it is the cache format)."""

from __future__ import annotations

import importlib
import json
import warnings

import pytest

import toolcall
from tests import corpus
from toolcall import _ir as ir
from toolcall._toolset.toolset import as_toolset, loaded_tools


@pytest.mark.parametrize("module_name", corpus.MODULES)
def test_every_corpus_tool_round_trips_through_json(module_name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolcall.ToolcallWarning)
        tools = [loaded.ir for loaded in loaded_tools(as_toolset(importlib.import_module(module_name)))]
    for tool in tools:
        text = json.dumps(ir.to_json(tool), sort_keys=True)
        again = ir.from_json(json.loads(text))
        assert again == tool
        assert json.dumps(ir.to_json(again), sort_keys=True) == text


def test_empty_and_default_valued_fields_survive() -> None:
    tool = ir.Tool(
        name="t",
        module="m",
        qualname="t",
        description="",
        parameters=(
            ir.Parameter("a", "keyword_only", ir.TupleType(())),
            ir.Parameter("b", "positional_only", ir.LiteralType((False, 0, 0.0, "", None)), required=False),
        ),
    )
    assert ir.from_json(json.loads(json.dumps(ir.to_json(tool)))) == tool


def test_decoding_rejects_junk_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="cannot decode"):
        ir.from_json({"name": "t", "parameters": "nope"})
    with pytest.raises(ValueError, match="cannot decode"):
        ir.from_json({"name": "t"})
    with pytest.raises(ValueError, match="cannot decode"):
        ir.from_json([1, 2])
    with pytest.raises(ValueError, match="cannot decode"):
        ir.from_json({"name": "t", "module": "m", "qualname": "t", "description": "", "parameters": [{"kind": 1}]})
