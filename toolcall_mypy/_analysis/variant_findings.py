"""What a tool's provider variants lose, one finding per site and problem.

``toolcall-strict`` for what a mode cannot carry or express, ``toolcall-name``
for a tool a provider cannot take at all (a Gemini function name).

The plugin renders every strict variant and Gemini for each tool, whatever
the project's settings, and records what they report (the record is reused
by later runs with other settings); ``in_scope`` then keeps what the
project's ``providers`` and ``strict`` settings ask about.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from toolcall._findings import NAME, STRICT, Finding
from toolcall._providers import PROVIDERS, VARIANTS, variant_key

if TYPE_CHECKING:
    from toolcall import _ir as ir
    from toolcall._render.definitions import Rendered

__all__ = ["CHECKED_VARIANTS", "any_asked", "asked", "in_scope", "merged", "variant_findings"]

#: The variants the plugin renders for their findings: every strict one, and each provider without strict mode.
CHECKED_VARIANTS: Final = tuple(
    (provider, strict) for provider, strict in VARIANTS if strict or not PROVIDERS[provider].strict
)


def variant_findings(tool: ir.Tool, rendered: Mapping[tuple[str, bool], Rendered | str]) -> tuple[Finding, ...]:
    """The findings of every checked variant, merged; a variant that cannot take the tool is an error."""
    findings: list[Finding] = []
    for provider, strict in CHECKED_VARIANTS:
        variant = rendered[provider, strict]
        mode = variant_key(provider, strict)
        if isinstance(variant, str):
            findings.append(Finding(NAME, f"{variant}; the tool is left out", tool.name, modes=(mode,)))
        else:
            findings.extend(finding for finding in variant.findings if finding.code == STRICT)
    return merged(findings)


def merged(findings: list[Finding]) -> tuple[Finding, ...]:
    """One finding per site and problem, naming every mode it concerns, in first-seen order.

    A note (a rule moved into a description) is about its site. An error
    that makes a mode drop strict is about the tool: the same problem at
    several sites (a parameter and the named type it uses) is one finding,
    at the first.
    """
    by_key: dict[tuple[object, ...], Finding] = {}
    for finding in findings:
        site = (finding.parameter, finding.path) if finding.severity == "note" else ()
        key = (finding.code, finding.severity, finding.tool, finding.message, *site)
        first = by_key.setdefault(key, finding)
        if first is not finding:
            modes = first.modes + tuple(m for m in finding.modes if m not in first.modes)
            by_key[key] = replace(first, modes=modes)
    return tuple(by_key.values())


def in_scope(finding: Finding, families: frozenset[str], strict: bool) -> Finding | None:
    """``finding`` with only the modes the settings ask about, or ``None`` when none is left."""
    modes = tuple(mode for mode in finding.modes if asked(mode, families, strict))
    if not modes:
        return None
    return finding if modes == finding.modes else replace(finding, modes=modes)


def asked(mode: str, families: frozenset[str], strict: bool) -> bool:
    """Whether settings with these ``providers`` and ``strict`` ask about ``mode`` (``"anthropic:strict"``)."""
    return PROVIDERS[mode.partition(":")[0]].family in families and (strict or not mode.endswith(":strict"))


def any_asked(families: frozenset[str], strict: bool) -> bool:
    """Whether these settings ask about any checked variant (else nothing reads their findings)."""
    return any(asked(variant_key(provider, is_strict), families, strict) for provider, is_strict in CHECKED_VARIANTS)
