"""``render_variants``: every variant at once, the same as ``render_tool`` for each, with or without copies."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from tests import render_samples as s
from toolcall._providers import VARIANTS
from toolcall._render.definitions import Rendered, render_tool, render_variants


def one_by_one(tool: Any) -> dict[tuple[str, bool], Rendered | str]:
    found: dict[tuple[str, bool], Rendered | str] = {}
    for provider, strict in VARIANTS:
        try:
            found[provider, strict] = render_tool(tool, provider, strict=strict)
        except ValueError as exc:
            found[provider, strict] = str(exc)
    return found


def dicts(value: Any) -> list[dict[str, Any]]:
    """Every dict inside ``value``, itself included."""
    found = [value] if isinstance(value, dict) else []
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        found.extend(dicts(child))
    return found


@pytest.mark.parametrize("name", sorted(s.SAMPLES))
@pytest.mark.parametrize("copies", [True, False])
def test_each_variant_is_what_render_tool_gives(name: str, copies: bool) -> None:
    assert render_variants(s.SAMPLES[name], VARIANTS, copies=copies) == one_by_one(s.SAMPLES[name])


def shared_dicts(rendered: dict[tuple[str, bool], Rendered | str]) -> int:
    seen: dict[int, int] = {}
    for variant in rendered.values():
        if not isinstance(variant, str):
            for found in dicts(variant.definition):
                seen[id(found)] = seen.get(id(found), 0) + 1
    return sum(1 for count in seen.values() if count > 1)


def test_copies_share_nothing_and_no_copies_share_the_schemas() -> None:
    tool = s.SAMPLES[sorted(s.SAMPLES)[0]]
    assert shared_dicts(render_variants(tool, VARIANTS)) == 0
    assert shared_dicts(render_variants(tool, VARIANTS, copies=False)) > 0


@pytest.mark.parametrize("copies", [True, False])
def test_what_json_cannot_hold_is_refused_with_or_without_copies(copies: bool) -> None:
    tool = s.tool("bounded", s.param("n", s.constrained(s.P("float"), ge=-math.inf)))
    rendered = render_variants(tool, VARIANTS, copies=copies)
    assert all(isinstance(variant, str) and "JSON" in variant for variant in rendered.values()), rendered


def rendered_text(tool: Any, provider: str, strict: bool, copies: bool) -> str:
    """The definition and findings as ``json.dumps`` text, or the ``ValueError`` message."""
    try:
        rendered = render_tool(tool, provider, strict=strict, copies=copies)
    except ValueError as exc:
        return str(exc)
    return json.dumps(rendered.definition) + repr(rendered.findings)


@pytest.mark.parametrize("name", sorted(s.SAMPLES))
def test_render_tool_without_copies_gives_the_same_json_text(name: str) -> None:
    for provider, strict in VARIANTS:
        copied = rendered_text(s.SAMPLES[name], provider, strict, copies=True)
        assert rendered_text(s.SAMPLES[name], provider, strict, copies=False) == copied
