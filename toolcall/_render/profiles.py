"""What each restrictive provider mode carries: a frozen capability table.

A pass first rewrites structure its mode spells differently (tuples,
nullability, ``$ref`` siblings, Gemini's OpenAPI types) and then calls
``carry``: every keyword the profile does not list leaves the schema, as a
description note and a finding. The sources for each set are in
``docs/rendering.md`` and ``docs/providers/``.

The non-strict JSON Schema modes (OpenAI, Anthropic, MCP) carry the canonical
schema as it is, so they have no profile.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Final

from toolcall._records import Record, record, set_field
from toolcall._render.keywords import MANY, NAMED, ONE
from toolcall._render.losses import Losses
from toolcall._render.notes import append_note, notes_for
from toolcall._render.schema import Location, Schema

__all__ = ["ANNOTATIONS", "ANTHROPIC_STRICT", "GEMINI", "OPENAI_STRICT", "Profile", "carry", "unsupported_regex"]

#: Keywords that only annotate; a mode that does not carry them loses nothing a model needs.
ANNOTATIONS: Final = frozenset(
    {"title", "examples", "$comment", "$schema", "$id", "$anchor", "deprecated", "readOnly", "writeOnly"}
)

#: The keywords whose value ``Profile.carries`` checks; any other listed keyword is carried as it is.
_VALUE_RULES: Final = frozenset({"format", "minItems", "pattern"})


@record(frozen=True, slots=True)
class Profile(Record):
    """The keywords and value rules of one mode.

    ``quiet`` keywords move to the description without a finding: they carry
    no rule a model could break (a ``default`` still applies when the model
    sends ``null``). ``max_min_items`` caps ``minItems``; ``simple_patterns``
    keeps only regexes without backreferences, lookaround or word boundaries.
    """

    keywords: frozenset[str]
    formats: frozenset[str] | None = None
    quiet: frozenset[str] = frozenset()
    all_required: bool = False
    recursion: bool = True
    max_min_items: int | None = None
    simple_patterns: bool = False
    #: The keywords kept whatever their value (``keywords`` without the value rules), for ``carry``'s fast path.
    plain_keywords: frozenset[str] = field(init=False)
    #: Those of them that hold no subschema and no reference: a typed schema of only these is a leaf the
    #: strict pass keeps as it is (its fast path).
    leaf_keywords: frozenset[str] = field(init=False)

    def __init__(
        self,
        keywords: frozenset[str],
        formats: frozenset[str] | None = None,
        quiet: frozenset[str] = frozenset(),
        all_required: bool = False,
        recursion: bool = True,
        max_min_items: int | None = None,
        simple_patterns: bool = False,
    ) -> None:
        set_field(self, "keywords", keywords)
        set_field(self, "formats", formats)
        set_field(self, "quiet", quiet)
        set_field(self, "all_required", all_required)
        set_field(self, "recursion", recursion)
        set_field(self, "max_min_items", max_min_items)
        set_field(self, "simple_patterns", simple_patterns)
        set_field(self, "plain_keywords", keywords - _VALUE_RULES)
        set_field(self, "leaf_keywords", self.plain_keywords - ONE - MANY - NAMED - {"$ref"})

    def carries(self, key: str, value: Any) -> bool:
        """True when this mode keeps ``key: value`` as it is."""
        if key not in self.keywords:
            return False
        if key not in _VALUE_RULES:
            return True
        if key == "format" and self.formats is not None:
            return value in self.formats
        if key == "minItems" and self.max_min_items is not None:
            return isinstance(value, int) and value <= self.max_min_items
        if key == "pattern" and self.simple_patterns:
            return isinstance(value, str) and unsupported_regex(value) is None
        return True


_STRUCTURE = frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "$ref", "$defs"})
_VALUES = frozenset({"enum", "const", "description", "title"})

#: OpenAI Structured Outputs (``strict: true``), the function-calling and structured-outputs guides.
#: minLength/maxLength: the docs are ambiguous, a 2026-08 probe saw them enforced (``docs/providers/openai.md``).
OPENAI_STRICT: Final = Profile(
    keywords=_STRUCTURE
    | _VALUES
    | {"pattern", "format", "minLength", "maxLength", "minItems", "maxItems"}
    | {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
    formats=frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}),
    quiet=frozenset({"default"}),
    all_required=True,
)

#: Anthropic strict tool use: no bounds, minItems 0 or 1, a regex subset, no recursion.
ANTHROPIC_STRICT: Final = Profile(
    keywords=_STRUCTURE | _VALUES | {"default", "pattern", "format", "minItems"},
    formats=frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}),
    recursion=False,
    max_min_items=1,
    simple_patterns=True,
)

#: Gemini ``parameters`` (the OpenAPI 3.0 subset of the ``Schema`` proto), with the
#: keywords that have a reported 400 left out: exclusive bounds, const, additionalProperties.
#: ``format: enum`` is how the docs spell a string enum.
GEMINI: Final = Profile(
    keywords=frozenset(
        {"type", "format", "description", "nullable", "enum", "default", "items", "minItems", "maxItems"}
        | {"minLength", "maxLength", "pattern", "minProperties", "maxProperties", "minimum", "maximum"}
        | {"properties", "required", "anyOf"}
    ),
    formats=frozenset({"date", "date-time", "enum"}),
    recursion=False,  # the Gemini pass inlines $defs, unrolling a recursive type to a fixed depth
)


def carry(profile: Profile, schema: Schema, at: Location, losses: Losses) -> Schema:
    """``schema`` without what ``profile`` cannot carry; the rules lost go to the description."""
    if schema.keys() <= profile.plain_keywords:
        return dict(schema)  # most nodes: every key is kept as it is, nothing to note
    kept: Schema = {}
    moved: Schema = {}
    quiet: Schema = {}
    for key, value in schema.items():
        # Most keys are listed and have no value rule: no call to ``carries`` for those.
        if key in profile.keywords and (key not in _VALUE_RULES or profile.carries(key, value)):
            kept[key] = value
        elif key in profile.quiet:
            quiet[key] = value
        elif key not in ANNOTATIONS:
            moved[key] = value
    if not (moved or quiet):
        return kept  # nothing to note, as for most nodes
    note = notes_for(moved)
    append_note(kept, note)
    append_note(kept, notes_for(quiet))
    if moved:
        names = ", ".join(moved)
        losses.lost(at, f"cannot carry {names}; moved to the description ({note!r})")
    return kept


_LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")


def unsupported_regex(pattern: str) -> str | None:
    """What in ``pattern`` a restricted regex engine rejects (lookaround, ...), else ``None``."""
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            escaped = pattern[i + 1 : i + 2]
            if escaped in ("b", "B"):
                return "a word boundary"
            if escaped and escaped in "k123456789":
                return "a backreference"
            i += 2  # an escaped character is literal: r"\(?=" is no lookahead
            continue
        if pattern.startswith(_LOOKAROUND, i):
            return "lookaround"
        if pattern.startswith("(?P=", i):
            return "a backreference"
        i += 1
    return None
