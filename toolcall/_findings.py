"""Findings: schema problems both front ends and the renderers report.

A finding carries one of the plugin's error codes. The mypy plugin reports
findings as mypy errors; the runtime turns them into ``ToolcallWarning``s
(or raises, where the problem is fatal: a type without a schema, ``*args``).
"""

from __future__ import annotations

import os
import sys
import warnings
from dataclasses import dataclass
from types import FrameType
from typing import Final, Literal

from toolcall._warning import ToolcallWarning

__all__ = [
    "CODES",
    "DEFAULT",
    "DOC",
    "FIX_HINT",
    "NAME",
    "PARAM",
    "STRICT",
    "TYPE",
    "Finding",
    "FindingCode",
    "ToolcallWarning",
    "outside_stacklevel",
    "warn_findings",
]

FindingCode = Literal[
    "toolcall-name", "toolcall-param", "toolcall-type", "toolcall-strict", "toolcall-default", "toolcall-doc"
]

NAME: Final = "toolcall-name"
PARAM: Final = "toolcall-param"
TYPE: Final = "toolcall-type"
STRICT: Final = "toolcall-strict"
DEFAULT: Final = "toolcall-default"
DOC: Final = "toolcall-doc"  # off unless enabled: only the plugin reports it
CODES: Final[tuple[FindingCode, ...]] = (NAME, PARAM, TYPE, STRICT, DEFAULT, DOC)

#: How to fix a type with no schema, the end of every such ``toolcall-type`` message.
FIX_HINT: Final = (
    "mark it Injected (Annotated[T, toolcall.Injected]) or give it a schema "
    "(__toolcall_schema__ or a toolcall.TypeProvider)"
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem with a tool's schema.

    ``tool`` is the tool name, ``parameter`` the parameter (or ``None`` for the
    whole tool) and ``path`` the place inside the parameter's type, e.g.
    ``("items", "qty")``. ``message`` says what is wrong and how to fix it.
    """

    code: FindingCode
    message: str
    tool: str | None = None
    parameter: str | None = None
    path: tuple[str | int, ...] = ()

    def __str__(self) -> str:
        where = ".".join(str(p) for p in (self.tool, self.parameter, *self.path) if p is not None)
        prefix = f"{where}: " if where else ""
        return f"{prefix}{self.message} [{self.code}]"


def warn_findings(findings: tuple[Finding, ...] | list[Finding], stacklevel: int = 3) -> None:
    """Issue each finding as a ``ToolcallWarning``, attributed to the first caller outside toolcall.

    ``stacklevel`` is only the fallback when the stack cannot be walked.
    """
    if not findings:
        return
    level = outside_stacklevel(stacklevel)
    for finding in findings:
        warnings.warn(str(finding), ToolcallWarning, stacklevel=level)


_PACKAGE_DIR: Final = os.path.dirname(os.path.abspath(__file__))


def outside_stacklevel(fallback: int) -> int:
    """The ``stacklevel`` for a ``warnings.warn`` in the calling function: the first frame outside toolcall.

    ``fallback`` where the stack cannot be walked.
    """
    frame: FrameType | None
    try:
        frame = sys._getframe(2)  # the caller of the function that warns
    except ValueError:
        return fallback
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR + os.sep):
        frame = frame.f_back
        level += 1
    return level
