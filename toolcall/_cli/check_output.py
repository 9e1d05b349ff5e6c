"""What ``toolcall check`` reports, and its three forms: mypy's text lines, JSON, GitHub annotations."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Final

__all__ = ["FORMATS", "Finding", "print_findings"]

FORMATS: Final = ("text", "json", "github")


@dataclass(frozen=True)
class Finding:
    """One reported problem: a ``toolcall-*`` error or note of the plugin, or a ``--frozen`` difference.

    ``line`` and ``column`` (1-based) are ``None`` for a difference, which is about a whole file.
    A note (a rule moved into a description that the dispatcher still
    enforces) is shown and does not fail the check.
    """

    file: str
    line: int | None
    column: int | None
    code: str
    message: str
    severity: str = "error"

    def key(self) -> tuple[str, int, int, str, str]:
        """The report order: by file, then position."""
        return (self.file, self.line or 0, self.column or 0, self.code, self.message)


def print_findings(findings: list[Finding], form: str) -> None:
    """Print the findings on stdout in ``form`` (one of ``FORMATS``)."""
    if form == "json":
        print(json.dumps([_as_json(finding) for finding in findings], indent=2))
        return
    for finding in findings:
        print(_github(finding) if form == "github" else _text(finding))


def _as_json(finding: Finding) -> dict[str, object]:
    return {
        "file": finding.file,
        "line": finding.line,
        "column": finding.column,
        "code": finding.code,
        "severity": finding.severity,
        "message": finding.message,
    }


def _text(finding: Finding) -> str:
    """mypy's own line: ``file:line: error: message  [code]`` (``note:`` for a note)."""
    where = finding.file if finding.line is None else f"{finding.file}:{finding.line}"
    return f"{where}: {finding.severity}: {finding.message}  [{finding.code}]"


def _github(finding: Finding) -> str:
    """A GitHub Actions ``error`` or ``notice`` annotation (its file relative to the workspace, when in one)."""
    properties = [f"file={_escape(_in_workspace(finding.file), True)}"]
    if finding.line is not None:
        properties.append(f"line={finding.line}")
    if finding.column is not None:
        properties.append(f"col={finding.column}")
    properties.append(f"title={_escape(finding.code, True)}")
    command = "notice" if finding.severity == "note" else "error"
    return f"::{command} {','.join(properties)}::{_escape(finding.message, False)}"


def _in_workspace(path: str) -> str:
    """``path`` relative to ``GITHUB_WORKSPACE`` (the checkout, where annotations point), if it is below it."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if workspace:
        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(workspace))
        if not relative.startswith(os.pardir):
            return relative.replace(os.sep, "/")
    return path


def _escape(value: str, property_: bool) -> str:
    """Escape a workflow command's data (``%``, CR, LF) or property value (also ``:`` and ``,``)."""
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if property_ else value
