"""Renderers: a tool's IR -> the tool definition each provider variant expects.

Every variant starts from one canonical JSON Schema (``parameters_schema``)
and runs one pass that never emits what its mode rejects. What a pass cannot
carry moves into the description text and is reported as a ``toolcall-strict``
finding; what a strict mode cannot express at all makes the tool fall back to
its non-strict schema, with a finding saying why. ``docs/rendering.md`` has
the per-provider details.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Final

from toolcall import _ir as ir
from toolcall._exceptions import ProviderError, UnknownProviderError
from toolcall._findings import Finding
from toolcall._providers import PROVIDERS, variant_key
from toolcall._records import Record, record, set_field
from toolcall._render import envelopes, limits
from toolcall._render.canonical import canonical_schema, output_schema, parameters_schema
from toolcall._render.losses import Losses
from toolcall._render.openai import changes_with_items, with_items
from toolcall._render.schema import Schema, plain

if TYPE_CHECKING:
    from toolcall._render.profiles import Profile

__all__ = [
    "PROVIDER_NAMES",
    "Rendered",
    "check_request",
    "check_variant",
    "parameters_schema",
    "render_tool",
    "render_variants",
]

#: The providers' names (``toolcall._providers``, the one table of providers), in order.
PROVIDER_NAMES: Final[tuple[str, ...]] = tuple(PROVIDERS)

_ENCODE: Final = json.JSONEncoder(allow_nan=False).encode  # as plain() encodes (one encoder, not one per call)

#: A strict pass's outcome: the schema, its findings, and whether it is strict (else the canonical schema).
_StrictPass = tuple[Schema, tuple[Finding, ...], bool]


@record(frozen=True, slots=True)
class Rendered(Record):
    """One tool rendered for one provider variant.

    ``definition`` is the provider envelope, a fresh plain dict of JSON data;
    ``findings`` are the ``toolcall-strict`` losses: what moved into a
    description, or why the tool fell back to non-strict.
    """

    definition: dict[str, Any]
    findings: tuple[Finding, ...]

    def __init__(self, definition: dict[str, Any], findings: tuple[Finding, ...]) -> None:
        set_field(self, "definition", definition)
        set_field(self, "findings", findings)


def render_tool(tool: ir.Tool, provider: str, *, strict: bool = False, copies: bool = True) -> Rendered:
    """Render ``tool`` for ``provider`` (one of ``PROVIDER_NAMES``).

    Raises ``ValueError`` for an unknown provider, for ``gemini`` with
    ``strict=True``, and when the tool breaks a hard provider limit. With
    ``copies=False`` the definition may share dicts with the passes that
    made it: for a caller that copies it at once (a toolset's read-only form).
    """
    _check_provider(provider)
    return _render(_Shared(tool, copies=copies), provider, strict)


def render_variants(
    tool: ir.Tool, variants: Sequence[tuple[str, bool]], *, copies: bool = True
) -> dict[tuple[str, bool], Rendered | str]:
    """Render ``tool`` for each ``(provider, strict)``: the result, or the ``ValueError`` message.

    What variants have in common (the canonical schema, a strict pass, the
    OpenAI ``items`` pass) is computed once for all of them; each result
    equals what ``render_tool`` gives for that variant. With
    ``copies=False`` the definitions share those parts instead of holding
    copies of their own: for a caller that only reads them (the cache
    writer), never one that hands them out.
    """
    for provider, _ in variants:
        _check_provider(provider)
    shared = _Shared(tool, copies=copies)
    rendered: dict[tuple[str, bool], Rendered | str] = {}
    for provider, strict in variants:
        try:
            rendered[provider, strict] = _render(shared, provider, strict)
        except ValueError as exc:
            rendered[provider, strict] = str(exc)
    return rendered


def _render(shared: _Shared, provider: str, strict: bool) -> Rendered:
    """The variant, its findings naming it (a pass shared by several variants does not know which it serves)."""
    rendered = _gemini(shared, strict) if provider == "gemini" else _json_schema_variant(shared, provider, strict)
    if not rendered.findings:
        return rendered
    modes = (variant_key(provider, strict),)
    return Rendered(rendered.definition, tuple(replace(finding, modes=modes) for finding in rendered.findings))


def _json_schema_variant(shared: _Shared, provider: str, strict: bool) -> Rendered:
    tool, findings = limits.fit_description(shared.tool, provider)
    schema, is_strict = shared.canonical, False
    if strict:
        schema, lost, is_strict = shared.anthropic_strict if provider == "anthropic" else shared.openai_strict
        findings = (*findings, *lost)
    if provider.startswith("openai") and not is_strict:
        schema = shared.canonical_with_items  # not strict means the canonical schema (a fallback gives it too)
    return Rendered(_ENVELOPES[provider](shared, tool, schema, is_strict), findings)


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
    if provider not in PROVIDER_NAMES:
        raise UnknownProviderError(f"unknown provider {provider!r}; known providers: {', '.join(PROVIDER_NAMES)}")


def check_variant(provider: str, strict: bool) -> None:
    """Raise ``ValueError`` for a variant that does not exist: an unknown provider, or strict where it has none.

    That is the caller's mistake, unlike a tool one provider cannot take
    (``ProviderError`` from ``render_tool``), which leaves the others usable.
    """
    _check_provider(provider)
    if strict and not PROVIDERS[provider].strict:
        raise ProviderError(f"{provider} has no strict mode in toolcall; call with strict=False")


class _Shared:
    """The parts of one tool's rendering that its variants share, each computed on first use.

    It lives for one ``render_variants`` (or ``render_tool``) call only. The
    parts are never mutated: every pass builds new dicts from its input, and
    each ``Rendered`` gets its own copy (``fresh``), unless ``copies`` is off. A part that raised is not
    kept (``cached_property``): the rare tool over a limit is checked again.
    """

    def __init__(self, tool: ir.Tool, *, copies: bool = True) -> None:
        self.tool = tool
        canonical = canonical_schema(tool)
        self.canonical, self._custom = canonical.schema, canonical.custom
        self._copies = copies
        #: The parts made for this rendering alone from a plain canonical schema (``Canonical.plain``): the
        #: first of them handed out goes as it is (``fresh``); ``None`` once one went, or with no copies.
        self._plain_parts: list[Schema] | None = [self.canonical] if copies and canonical.plain else None
        self._json: dict[int, tuple[Any, str]] = {}

    @cached_property
    def canonical_with_items(self) -> Schema:
        """The canonical schema after the OpenAI non-strict pass."""
        if not self._custom or not changes_with_items(self.canonical):
            return self.canonical  # the usual case: every array has items, so the pass would copy it unchanged
        schema = with_items(self.canonical)
        # Usually nothing is added: then the canonical schema itself, whose JSON text ``fresh`` has already.
        return self.canonical if schema == self.canonical else schema

    @cached_property
    def openai_strict(self) -> _StrictPass:
        """The OpenAI strict pass, the same for Chat Completions, Responses and MCP."""
        from toolcall._render.profiles import OPENAI_STRICT

        return self._plain_part(_strict(self.tool, self.canonical, OPENAI_STRICT, self.text))

    @cached_property
    def anthropic_strict(self) -> _StrictPass:
        """The Anthropic strict pass."""
        from toolcall._render.profiles import ANTHROPIC_STRICT

        return self._plain_part(_strict(self.tool, self.canonical, ANTHROPIC_STRICT, self.text))

    def _plain_part(self, strict_pass: _StrictPass) -> _StrictPass:
        """``strict_pass``, its schema noted as a plain part when the canonical schema it was made from is one.

        The strict pass makes every dict of its schema afresh, and takes its
        lists and values from the canonical schema or makes them (new lists, a
        note's text, a count).
        """
        if self._plain_parts is not None:
            self._plain_parts.append(strict_pass[0])
        return strict_pass

    @cached_property
    def output_schema(self) -> Schema | None:
        """The tool's output schema (MCP's ``outputSchema``), or ``None``."""
        return output_schema(self.tool)

    def fresh(self, value: Any) -> Any:
        """``plain(value)``, a copy for each use; without copies, ``value`` itself, once its JSON text is made.

        Either way what JSON cannot hold (NaN, the infinities) is refused. The
        one exception: the first plain part handed out (the canonical schema
        when ``Canonical.plain``, or a strict pass's schema made from it) is
        its own copy, since only this rendering holds it and ``plain`` would
        change nothing in it. Only one goes so: the parts share lists and
        values. The passes only read it, and the variants after it get
        copies before any caller can change it.
        """
        if self._copies:
            if self._plain_parts is not None and any(value is part for part in self._plain_parts):
                self._plain_parts = None
                return value
            return plain(value)
        self._encoded(value)
        return value

    def text(self, value: Any) -> str | None:
        """The JSON text of ``value``, made once per part; ``None`` where JSON cannot hold it (``fresh`` raises)."""
        try:
            return self._encoded(value)
        except ValueError:
            return None

    def _encoded(self, value: Any) -> str:
        known = self._json.get(id(value))
        if known is None:
            known = self._json[id(value)] = (value, _ENCODE(value))  # holding value keeps its id unique
        return known[1]


def _strict(tool: ir.Tool, canonical: Schema, profile: Profile, text: Callable[[Any], str | None]) -> _StrictPass:
    """The strict schema, or the canonical one with the reasons it cannot be strict (``text``: ``_Shared.text``)."""
    # The strict pass and its profiles load with the first strict variant: plain renderings never need them.
    from toolcall._render.profiles import OPENAI_STRICT
    from toolcall._render.strict import strict_schema

    losses = Losses(tool)
    schema = strict_schema(canonical, profile, losses)
    if profile is OPENAI_STRICT and not losses.fallbacks:
        over = limits.openai_strict_excess(schema, text(schema))
        if over:
            losses.fallback(
                (), f"{over}; split the tool's parameters or use strict=False (the tool is rendered without strict)"
            )
    if losses.fallbacks:
        return canonical, tuple(losses.fallbacks), False
    return schema, tuple(losses.findings), True


def _mcp(shared: _Shared, tool: ir.Tool, schema: Schema, strict: bool) -> dict[str, Any]:
    output = shared.output_schema  # first, as before: its ValueError comes before any of the copies
    return envelopes.mcp(tool, shared.fresh(schema), shared.fresh(output))


#: Each provider's envelope around fresh copies of its schemas (gemini has its own pass, ``_gemini``).
#: That equals ``plain`` of the whole envelope: its own dicts are new, and its other fields are
#: the tool's name and description (strings) and flags. ``tool`` is the tool with the description
#: the provider takes (``limits.fit_description``).
_ENVELOPES: Final[dict[str, Callable[[_Shared, ir.Tool, Schema, bool], dict[str, Any]]]] = {
    "openai": lambda shared, tool, schema, strict: envelopes.openai_chat(tool, shared.fresh(schema), strict),
    "openai-responses": lambda shared, tool, schema, strict: envelopes.openai_responses(
        tool, shared.fresh(schema), strict
    ),
    "anthropic": lambda shared, tool, schema, strict: envelopes.anthropic(tool, shared.fresh(schema), strict),
    "mcp": _mcp,
}


def _gemini(shared: _Shared, strict: bool) -> Rendered:
    from toolcall._render.gemini import NAME_PATTERN, gemini_parameters  # only Gemini's users pay for it

    tool = shared.tool
    if strict:
        check_variant("gemini", strict)
    if NAME_PATTERN.fullmatch(tool.name) is None:
        raise ProviderError(
            "function names start with a letter or '_', then letters, digits, '_', '.', ':' or '-' (at most 64); "
            'rename it with @tool(name="...")'
        )
    losses = Losses(tool)
    parameters = gemini_parameters(shared.canonical, losses)
    return Rendered(envelopes.gemini(tool, shared.fresh(parameters)), tuple(losses.findings))
