"""What introspecting one tool gives: its IR, its findings and the classes its references name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolcall import _ir as ir
from toolcall._findings import Finding
from toolcall._records import Record, record, set_field

__all__ = ["Introspected"]


@record(frozen=True, slots=True)
class Introspected(Record):
    """What introspecting one tool gives.

    ``findings`` are warnings (``toolcall-param``, ``toolcall-type``,
    ``toolcall-default``). ``classes`` maps every ``"module:qualname"`` ref in
    the IR (enums, objects, custom types, providers) to the live class, so the
    dispatcher needs no import.
    """

    tool: ir.Tool
    findings: tuple[Finding, ...]
    classes: Mapping[str, Any]

    def __init__(self, tool: ir.Tool, findings: tuple[Finding, ...], classes: Mapping[str, Any]) -> None:
        set_field(self, "tool", tool)
        set_field(self, "findings", findings)
        set_field(self, "classes", classes)
