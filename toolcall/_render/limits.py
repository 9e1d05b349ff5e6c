"""Provider limits that can be known before a request is sent.

Per tool, what a provider would refuse is made to fit, with a finding:
OpenAI Chat Completions' 1024-character description is cut; over OpenAI
strict's nesting, property, enum and total-size budgets the tool is
rendered without strict. Per request (``check_request``):
Anthropic strict's tool, optional-parameter and union budgets (``ValueError``)
and the tool-count caps of OpenAI and Gemini (a finding: they are observed,
not documented, and a caller may know better).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from toolcall import _ir as ir
from toolcall._exceptions import ProviderError
from toolcall._findings import DOC, STRICT, Finding
from toolcall._ir import canonical_json
from toolcall._providers import PROVIDERS
from toolcall._render.schema import Schema, has_type, iter_schemas, subschemas

__all__ = [
    "ANTHROPIC_STRICT_MAX_OPTIONAL",
    "ANTHROPIC_STRICT_MAX_TOOLS",
    "ANTHROPIC_STRICT_MAX_UNIONS",
    "OPENAI_MAX_DESCRIPTION",
    "OPENAI_STRICT_MAX_CHARS",
    "OPENAI_STRICT_MAX_DEPTH",
    "OPENAI_STRICT_MAX_ENUM_VALUES",
    "OPENAI_STRICT_MAX_PROPERTIES",
    "check_anthropic_strict_request",
    "count_findings",
    "fit_description",
    "openai_strict_excess",
    "within_every_budget",
]

OPENAI_MAX_DESCRIPTION: Final = 1024
OPENAI_STRICT_MAX_DEPTH: Final = 10
OPENAI_STRICT_MAX_PROPERTIES: Final = 5000
OPENAI_STRICT_MAX_ENUM_VALUES: Final = 1000
OPENAI_STRICT_MAX_CHARS: Final = 120_000
# One string enum with more than this many values may total at most _LARGE_ENUM_CHARS characters.
_LARGE_ENUM: Final = 250
_LARGE_ENUM_CHARS: Final = 15_000
ANTHROPIC_STRICT_MAX_TOOLS: Final = 20
ANTHROPIC_STRICT_MAX_OPTIONAL: Final = 24
ANTHROPIC_STRICT_MAX_UNIONS: Final = 16


def fit_description(tool: ir.Tool, provider: str) -> tuple[ir.Tool, tuple[Finding, ...]]:
    """The tool with a description ``provider`` takes, and a finding when it had to be cut.

    Chat Completions rejects a function description over 1024 characters
    (strict or not): it gets the first 1024, ending in "...", rather than
    no tool at all.
    """
    length = len(tool.description)
    if provider != "openai" or length <= OPENAI_MAX_DESCRIPTION:
        return tool, ()
    cut = tool.description[: OPENAI_MAX_DESCRIPTION - 3].rstrip() + "..."
    message = (
        f"the description has {length} characters and OpenAI Chat Completions accepts at most "
        f"{OPENAI_MAX_DESCRIPTION}, so the rest is cut; shorten the docstring or pass description="
    )
    return replace(tool, description=cut), (Finding(DOC, message, tool.name, severity="note"),)


def openai_strict_excess(schema: Schema, text: str | None = None) -> str | None:
    """The first of OpenAI Structured Outputs' documented budgets that ``schema`` exceeds, else ``None``.

    ``text``, the schema's JSON text when the caller has it, answers most
    schemas without a walk (``within_every_budget``).
    """
    if text is not None and within_every_budget(text):
        return None
    nodes: list[Schema] = []
    depth = _depth(schema, nodes)
    # Most nodes have neither properties nor values: the counts skip them.
    objects = [s for s in nodes if "properties" in s]
    valued = [s for s in nodes if "enum" in s or "const" in s]
    checks = [
        ("levels of object nesting", depth, OPENAI_STRICT_MAX_DEPTH),
        ("object properties", sum(len(s["properties"]) for s in objects), OPENAI_STRICT_MAX_PROPERTIES),
        ("enum values", sum(len(_values(s)) for s in valued), OPENAI_STRICT_MAX_ENUM_VALUES),
        ("characters of names and enum values", _chars(schema, nodes), OPENAI_STRICT_MAX_CHARS),
    ]
    for s in valued:
        strings = [v for v in s.get("enum", ()) if isinstance(v, str)]
        if len(strings) > _LARGE_ENUM:
            checks.append(
                (f"characters in an enum of {len(strings)} strings", sum(map(len, strings)), _LARGE_ENUM_CHARS)
            )
    return next((f"{value} {what}, over the limit of {limit}" for what, value, limit in checks if value > limit), None)


#: A schema's JSON text at most this long cannot exceed a budget but the nesting (see ``within_every_budget``).
_SHORT_TEXT: Final = 2000


def within_every_budget(text: str) -> bool:
    """Whether the schema whose JSON text is ``text`` is certainly within every OpenAI strict budget.

    Each object node has ``"object"`` in its type, so a text with at most
    ``OPENAI_STRICT_MAX_DEPTH`` of them cannot nest objects deeper. A text of
    at most ``_SHORT_TEXT`` characters holds fewer than 1000 enum values
    (each takes a character and a separator), fewer than 5000 properties and
    fewer than the budgets' characters. ``False`` means only: count them.
    """
    return len(text) <= _SHORT_TEXT and text.count('"object"') <= OPENAI_STRICT_MAX_DEPTH


def check_anthropic_strict_request(definitions: Sequence[dict[str, Any]]) -> None:
    """Anthropic's budgets across the strict tools of one request (non-strict tools do not count)."""
    schemas = [d["input_schema"] for d in definitions if d.get("strict") is True]
    where = "one Anthropic request (strict tools)"
    _at_most(where, "strict tools", len(schemas), ANTHROPIC_STRICT_MAX_TOOLS)
    _at_most(where, "optional parameters", sum(_optional(s) for s in schemas), ANTHROPIC_STRICT_MAX_OPTIONAL)
    unions = sum(_unions(s) for s in schemas)
    _at_most(where, "parameters using anyOf or type arrays", unions, ANTHROPIC_STRICT_MAX_UNIONS)


def count_findings(provider: str, count: int) -> list[Finding]:
    """A finding when a request has more tools than the provider is known to accept."""
    cap = PROVIDERS[provider].max_tools
    if cap is None or count <= cap:
        return []
    message = f"{count} tools in one request; {provider} has rejected more than {cap}: send a subset per request"
    return [Finding(STRICT, message)]


def _at_most(where: str, what: str, value: int, limit: int) -> None:
    if value > limit:
        raise ProviderError(f"{where}: {value} {what}, over the provider's limit of {limit}")


def _depth(schema: Any, nodes: list[Schema]) -> int:
    """Object nesting in the document as written: a ``$ref`` is not followed (recursion is allowed).

    Also appends every dict subschema to ``nodes``, in ``iter_schemas`` order, so the
    other budgets need no second walk.
    """
    if not isinstance(schema, dict):
        return 0
    nodes.append(schema)
    below = defs = 0
    for key, child in subschemas(schema):
        if key == "$defs":
            defs = max(defs, _depth(child, nodes))  # a named type's nesting starts again at its root
        else:
            below = max(below, _depth(child, nodes))
    here = 1 if has_type(schema, "object") else 0
    return max(here + below, defs)


def _values(schema: Schema) -> list[Any]:
    return [*schema.get("enum", ()), *([schema["const"]] if "const" in schema else [])]


def _chars(root: Schema, nodes: list[Schema]) -> int:
    """The characters of the root's named types' names and of every node's property names and enum values."""
    total = sum(len(name) for name in root.get("$defs", {}))
    for s in nodes:
        if "properties" in s:
            total += sum(len(name) for name in s["properties"])
        if "enum" in s or "const" in s:
            total += sum(len(v) if isinstance(v, str) else len(canonical_json(v)) for v in _values(s))
    return total


def _optional(schema: Schema) -> int:
    return sum(
        len([n for n in s.get("properties", {}) if n not in s.get("required", ())]) for _, s in iter_schemas(schema)
    )


def _unions(schema: Schema) -> int:
    """Properties (at any depth) whose schema is an ``anyOf`` or has a list of types."""
    return sum(
        1
        for _, s in iter_schemas(schema)
        for p in s.get("properties", {}).values()
        if isinstance(p, dict) and ("anyOf" in p or isinstance(p.get("type"), list))
    )
