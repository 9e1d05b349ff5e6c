"""Every schema, for every test tool and every provider variant, is valid.

Valid means: it passes the JSON Schema 2020-12 metaschema (Gemini's OpenAPI
form is checked by the rules checker only) and the provider rules checker of
tests/provider_rules.py for that mode.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import jsonschema
import pytest

import toolcall
from tests import corpus
from tests.provider_rules import check_schema

VARIANTS = [
    ("openai", False, "openai"),
    ("openai", True, "openai-strict"),
    ("openai-responses", False, "openai"),
    ("openai-responses", True, "openai-strict"),
    ("anthropic", False, "anthropic"),
    ("anthropic", True, "anthropic-strict"),
    ("mcp", False, "mcp"),
    ("mcp", True, "openai-strict"),
    ("gemini", False, "gemini"),
]


def _schema_of(provider: str, definition: dict[str, Any]) -> dict[str, Any] | None:
    """The parameters schema inside an envelope (Gemini omits it for a tool without parameters)."""
    if provider == "openai":
        return definition["function"]["parameters"]  # type: ignore[no-any-return]
    key = {"openai-responses": "parameters", "anthropic": "input_schema", "mcp": "inputSchema"}.get(provider)
    return definition[key] if key else definition.get("parameters")


def _kept_strict(module: Any, provider: str, definition: dict[str, Any]) -> bool:
    """Whether a strict rendering stayed strict (a tool can fall back to non-strict, with a warning)."""
    if provider == "openai":
        return definition["function"].get("strict") is True
    if provider == "mcp":  # MCP has no strict flag: it is strict exactly when the OpenAI rendering is
        openai = toolcall.emit(module, "openai", strict=True)
        (twin,) = [d for d in openai if d["function"]["name"] == definition["name"]]
        return _kept_strict(module, "openai", twin)
    return definition.get("strict") is True


def _cases() -> list[Any]:
    return [pytest.param(name, id=name) for name in corpus.MODULES]


@pytest.mark.parametrize("module_name", _cases())
@pytest.mark.parametrize(("provider", "strict", "mode"), VARIANTS)
def test_every_schema_is_valid(module_name: str, provider: str, strict: bool, mode: str) -> None:
    module = importlib.import_module(module_name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolcall.ToolcallWarning)
        emitted = toolcall.emit(module, provider, strict=strict)
    assert emitted, module_name
    for definition in emitted:
        schema = _schema_of(provider, definition)
        if schema is None:
            assert provider == "gemini"
            assert "parameters" not in definition
            continue
        if provider != "gemini":
            jsonschema.Draft202012Validator.check_schema(schema)
        effective = mode
        if strict and not _kept_strict(module, provider, definition):
            effective = "mcp" if provider == "mcp" else mode.removesuffix("-strict")
        violations = check_schema(effective, schema)
        assert not violations, (definition, violations)
