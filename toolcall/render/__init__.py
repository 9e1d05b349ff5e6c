"""Renderers: a tool's IR -> the tool definition each provider variant expects.

Every variant starts from one canonical JSON Schema (``parameters_schema``)
and runs one pass that never emits what its mode rejects. What a pass cannot
carry moves into the description text and is reported as a ``toolcall-strict``
finding; what a strict mode cannot express at all makes the tool fall back to
its non-strict schema, with a finding saying why. ``docs/rendering.md`` has
the per-provider details.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from toolcall import ir
from toolcall.findings import Finding
from toolcall.render import envelopes, limits
from toolcall.render.canonical import output_schema, parameters_schema
from toolcall.render.gemini import NAME_PATTERN as GEMINI_NAME
from toolcall.render.gemini import gemini_parameters
from toolcall.render.losses import Losses
from toolcall.render.openai import with_items
from toolcall.render.profiles import ANTHROPIC_STRICT, OPENAI_STRICT
from toolcall.render.schema import Schema, plain
from toolcall.render.strict import strict_schema

__all__ = ["PROVIDERS", "Rendered", "check_request", "parameters_schema", "render_tool", "render_variants"]

PROVIDERS: Final[tuple[str, ...]] = ("openai", "openai-responses", "anthropic", "mcp", "gemini")


@dataclass(frozen=True)
class Rendered:
    """One tool rendered for one provider variant.

    ``definition`` is the provider envelope, a fresh plain dict of JSON data;
    ``findings`` are the ``toolcall-strict`` losses: what moved into a
    description, or why the tool fell back to non-strict.
    """

    definition: dict[str, Any]
    findings: tuple[Finding, ...]


def render_tool(tool: ir.Tool, provider: str, *, strict: bool = False) -> Rendered:
    """Render ``tool`` for ``provider`` (one of ``PROVIDERS``).

    Raises ``ValueError`` for an unknown provider, for ``gemini`` with
    ``strict=True``, and when the tool breaks a hard provider limit.
    """
    _check_provider(provider)
    return _render(tool, provider, strict, parameters_schema(tool))


def render_variants(tool: ir.Tool, variants: Sequence[tuple[str, bool]]) -> dict[tuple[str, bool], Rendered | str]:
    """Render ``tool`` for each ``(provider, strict)``: the result, or the ``ValueError`` message.

    The canonical schema is built once for all of them; each result equals
    what ``render_tool`` gives for that variant.
    """
    for provider, _ in variants:
        _check_provider(provider)
    canonical = parameters_schema(tool)
    found: dict[tuple[str, bool], Rendered | str] = {}
    for provider, strict in variants:
        try:
            found[provider, strict] = _render(tool, provider, strict, canonical)
        except ValueError as exc:
            found[provider, strict] = str(exc)
    return found


def _render(tool: ir.Tool, provider: str, strict: bool, canonical: Schema) -> Rendered:
    if provider == "gemini":
        return _gemini(tool, strict, canonical)
    limits.check_description(tool, provider)
    schema, findings, is_strict = canonical, list[Finding](), False
    if strict:
        schema, findings, is_strict = _strict(tool, canonical, provider)
    if provider.startswith("openai") and not is_strict:
        schema = with_items(schema)
    return Rendered(plain(_envelope(tool, provider, schema, is_strict)), tuple(findings))


def check_request(definitions: Sequence[dict[str, Any]], provider: str, strict: bool) -> tuple[Finding, ...]:
    """Check the limits that apply to one request carrying all of ``definitions``.

    Anthropic strict: at most 20 strict tools, 24 optional parameters and 16
    parameters using ``anyOf`` or type arrays, over the tools that rendered
    strict (``ValueError``, the API would refuse them). OpenAI (128 tools) and
    Gemini (512 declarations): a finding, since those caps are observed, not
    documented.
    """
    _check_provider(provider)
    if provider == "anthropic" and strict:
        limits.check_anthropic_strict_request(definitions)
    return tuple(limits.count_findings(provider, len(definitions)))


def _check_provider(provider: str) -> None:
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}; known providers: {', '.join(PROVIDERS)}")


def _strict(tool: ir.Tool, canonical: Schema, provider: str) -> tuple[Schema, list[Finding], bool]:
    """The strict schema, or the canonical one with the reasons it cannot be strict."""
    profile = ANTHROPIC_STRICT if provider == "anthropic" else OPENAI_STRICT
    losses = Losses(tool)
    schema = strict_schema(canonical, profile, losses)
    if losses.fallbacks:
        return canonical, losses.fallbacks, False
    if profile is OPENAI_STRICT:
        limits.check_openai_strict(tool.name, schema)
    return schema, losses.findings, True


def _envelope(tool: ir.Tool, provider: str, schema: Schema, strict: bool) -> dict[str, Any]:
    if provider == "openai":
        return envelopes.openai_chat(tool, schema, strict)
    if provider == "openai-responses":
        return envelopes.openai_responses(tool, schema, strict)
    if provider == "anthropic":
        return envelopes.anthropic(tool, schema, strict)
    return envelopes.mcp(tool, schema, output_schema(tool))


def _gemini(tool: ir.Tool, strict: bool, canonical: Schema) -> Rendered:
    if strict:
        raise ValueError("gemini has no strict mode in toolcall; call with strict=False")
    if GEMINI_NAME.fullmatch(tool.name) is None:
        raise ValueError(f"tool {tool.name!r}: Gemini function names start with a letter or '_' (at most 64)")
    losses = Losses(tool)
    parameters = gemini_parameters(canonical, losses)
    return Rendered(plain(envelopes.gemini(tool, parameters)), tuple(losses.findings))
