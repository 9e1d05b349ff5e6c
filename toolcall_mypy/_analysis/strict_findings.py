"""What a tool's strict variants lose: its ``toolcall-strict`` findings, from its rendered variants."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from toolcall._findings import STRICT, Finding
from toolcall._render.providers import VARIANTS

if TYPE_CHECKING:
    from toolcall import _ir as ir
    from toolcall._render.definitions import Rendered

__all__ = ["STRICT_VARIANTS", "strict_findings"]

_STRICT_PROVIDERS: Final = tuple(provider for provider, strict in VARIANTS if strict)
#: The variants ``strict_findings`` reads: the only ones the plugin renders.
STRICT_VARIANTS: Final = tuple((provider, True) for provider in _STRICT_PROVIDERS)


def strict_findings(tool: ir.Tool, rendered: Mapping[tuple[str, bool], Rendered | str]) -> tuple[Finding, ...]:
    """Every strict variant's findings in turn (repeats included), and a variant that cannot render as one."""
    findings: list[Finding] = []
    for provider in _STRICT_PROVIDERS:
        variant = rendered[provider, True]
        if isinstance(variant, str):
            message = f"{variant} (the {provider} strict variant cannot be rendered)"
            findings.append(Finding(STRICT, message, tool=tool.name))
        else:
            findings.extend(finding for finding in variant.findings if finding.code == STRICT)
    return tuple(findings)
