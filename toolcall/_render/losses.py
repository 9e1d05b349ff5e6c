"""Collecting what a rendering pass could not carry, as ``toolcall-strict`` findings."""

from __future__ import annotations

from toolcall import _ir as ir
from toolcall._findings import STRICT, Finding, Severity
from toolcall._render.schema import Location

__all__ = ["Losses"]

_NAMED = frozenset({"properties", "patternProperties", "dependentSchemas", "definitions"})
_BRANCHES = frozenset({"anyOf", "oneOf", "allOf"})


class Losses:
    """The findings of one pass over one tool.

    ``lost`` records a rule moved into a description (the schema is still
    used, and the dispatcher still enforces the rule: a note); ``fallback``
    records a reason the strict schema cannot be used at all (the tool is
    rendered non-strict instead: an error). Messages do not name the mode:
    the caller that knows which variants a pass serves adds them.
    """

    def __init__(self, tool: ir.Tool) -> None:
        self.tool = tool
        self.findings: list[Finding] = []
        self.fallbacks: list[Finding] = []

    def lost(self, at: Location, message: str) -> None:
        """Record a loss at ``at``."""
        self.findings.append(self.finding(at, message, "note"))

    def fallback(self, at: Location, message: str) -> None:
        """Record why the strict schema cannot be used."""
        self.fallbacks.append(self.finding(at, message, "error"))

    def finding(self, at: Location, message: str, severity: Severity) -> Finding:
        """A finding at schema location ``at``, named by parameter and a readable path."""
        parameter: str | None = None
        steps = _steps(at)
        if at[:1] == ("properties",) and len(at) > 1:
            parameter, steps = str(at[1]), steps[1:]
        elif at[:1] == ("additionalProperties",):
            parameter, steps = self._kwargs_name(), steps[1:]
        return Finding(STRICT, message, self.tool.name, parameter, tuple(steps), severity)

    def _kwargs_name(self) -> str | None:
        return next((p.name for p in self.tool.parameters if p.kind == "var_keyword"), None)


def _steps(at: Location) -> list[str | int]:
    """``("properties", "a", "items", "anyOf", 0)`` -> ``["a", "items"]``: names, not keywords."""
    steps: list[str | int] = []
    i = 0
    while i < len(at):
        key = at[i]
        if key in _NAMED or key == "prefixItems":
            steps.append(at[i + 1])
            i += 2
        elif key in _BRANCHES:
            i += 2  # a union is transparent: the branch index says little to a reader
        else:
            steps.append("values" if key == "additionalProperties" else key)
            i += 1
    return steps
