"""Findings: schema problems both front ends and the renderers report.

A finding carries one of the plugin's error codes and a severity. The mypy
plugin reports an ``"error"`` as a mypy error and a ``"note"`` (a rule moved
into a description that the dispatcher still enforces) as a mypy note; the
runtime turns both into ``ToolcallWarning``s (or raises, where the problem is
fatal: a type without a schema, ``*args``). A finding from rendering names
the provider variants it affects (``modes``).
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterable
from types import FrameType
from typing import Final, Literal

from toolcall._records import Record, record, set_field
from toolcall._warning import ToolcallWarning

__all__ = [
    "CODES",
    "DEFAULT",
    "DOC",
    "EXAMPLE",
    "FIX_HINT",
    "NAME",
    "PARAM",
    "STRICT",
    "TYPE",
    "Finding",
    "FindingCode",
    "Severity",
    "modes_label",
    "ToolcallWarning",
    "outside_stacklevel",
    "warn_findings",
]

FindingCode = Literal[
    "toolcall-name",
    "toolcall-param",
    "toolcall-type",
    "toolcall-strict",
    "toolcall-default",
    "toolcall-doc",
    "toolcall-example",
]
#: ``"error"`` fails a mypy run; ``"note"`` is shown and does not.
Severity = Literal["error", "note"]

NAME: Final = "toolcall-name"
PARAM: Final = "toolcall-param"
TYPE: Final = "toolcall-type"
STRICT: Final = "toolcall-strict"
DEFAULT: Final = "toolcall-default"
DOC: Final = "toolcall-doc"
EXAMPLE: Final = "toolcall-example"
CODES: Final[tuple[FindingCode, ...]] = (NAME, PARAM, TYPE, STRICT, DEFAULT, DOC, EXAMPLE)

#: How to fix a type with no schema, the end of every such ``toolcall-type`` message.
FIX_HINT: Final = (
    "mark it Injected (Annotated[T, toolcall.Injected]) or give it a schema "
    "(__toolcall_schema__ or a toolcall.TypeProvider)"
)


@record(frozen=True, slots=True)
class Finding(Record):
    """One problem with a tool's schema.

    ``tool`` is the tool name, ``parameter`` the parameter (or ``None`` for the
    whole tool) and ``path`` the place inside the parameter's type, e.g.
    ``("items", "qty")``. ``message`` says what is wrong and how to fix it.
    ``modes`` are the provider variants it concerns (``"anthropic:strict"``,
    ``"gemini"``), empty for a finding about the tool itself.
    """

    code: FindingCode
    message: str
    tool: str | None = None
    parameter: str | None = None
    path: tuple[str | int, ...] = ()
    severity: Severity = "error"
    modes: tuple[str, ...] = ()

    def __init__(
        self,
        code: FindingCode,
        message: str,
        tool: str | None = None,
        parameter: str | None = None,
        path: tuple[str | int, ...] = (),
        severity: Severity = "error",
        modes: tuple[str, ...] = (),
    ) -> None:
        set_field(self, "code", code)
        set_field(self, "message", message)
        set_field(self, "tool", tool)
        set_field(self, "parameter", parameter)
        set_field(self, "path", path)
        set_field(self, "severity", severity)
        set_field(self, "modes", modes)

    def __str__(self) -> str:
        return f"{self.text()} [{self.code}]"

    def where(self) -> str:
        """``tool.parameter.path``, as far as it is known."""
        return ".".join(str(p) for p in (self.tool, self.parameter, *self.path) if p is not None)

    def text(self) -> str:
        """The message with where it is and the modes it concerns: ``search.limit: Anthropic strict mode: ...``."""
        parts = [self.where(), modes_label(self.modes), self.message]
        return ": ".join(part for part in parts if part)


def modes_label(modes: tuple[str, ...]) -> str:
    """``("openai:strict", "anthropic:strict", "gemini")`` -> ``"OpenAI and Anthropic strict mode, Gemini"``.

    ``""`` for no modes. The strict modes are named together; providers that
    share a label (Chat Completions and Responses) are named once.
    """
    from toolcall._providers import PROVIDERS

    def names(providers: Iterable[str]) -> list[str]:
        return list(dict.fromkeys(PROVIDERS[p].label if p in PROVIDERS else p for p in providers))

    strict = names(mode.removesuffix(":strict") for mode in modes if mode.endswith(":strict"))
    plain = names(mode for mode in modes if not mode.endswith(":strict"))
    parts = ([f"{_joined(strict)} strict mode"] if strict else []) + ([_joined(plain)] if plain else [])
    return ", ".join(parts)


def _joined(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}" if words else ""


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
