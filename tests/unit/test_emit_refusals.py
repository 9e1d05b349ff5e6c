"""A tool one provider cannot take never makes ``emit`` raise for the rest of the module."""

from __future__ import annotations

import json
import warnings
from types import ModuleType

import pytest

import toolcall
from toolcall import ToolcallWarning


def module() -> ModuleType:
    tools = ModuleType("refusals_sample")

    @toolcall.tool(name="9lives")
    def nine(x: int) -> int:
        """Nine."""
        return x

    @toolcall.tool
    def fine(x: int) -> int:
        """Fine."""
        return x

    nine.__module__ = fine.__module__ = tools.__name__
    tools.nine, tools.fine = nine, fine  # type: ignore[attr-defined]
    return tools


def test_the_other_tools_are_emitted_and_the_refused_one_is_warned_once() -> None:
    source = toolcall.Toolset(module().nine, module().fine)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gemini = toolcall.emit(source, "gemini")
        again = toolcall.emit(source, "gemini")
    assert (
        json.dumps(gemini)
        == json.dumps(again)
        == (
            '[{"name": "fine", "description": "Fine.", "parameters": {"type": "OBJECT", "properties": '
            '{"x": {"type": "INTEGER"}}, "required": ["x"]}}]'
        )
    )
    assert [(w.category, str(w.message).split(":")[0:2]) for w in caught] == [(ToolcallWarning, ["9lives", " Gemini"])]
    assert str(caught[0].message).endswith("the tool is left out [toolcall-name]")
    assert [d["function"]["name"] for d in toolcall.emit(source, "openai")] == ["9lives", "fine"]


def test_a_variant_that_does_not_exist_still_raises() -> None:
    with pytest.raises(ValueError, match="gemini has no strict mode"):
        toolcall.emit(module().fine, "gemini", strict=True)
    with pytest.raises(ValueError, match="unknown provider 'bard'"):
        toolcall.emit(module().fine, "bard")
