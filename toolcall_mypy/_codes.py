"""The plugin's error codes, registered with mypy when this module is imported.

mypy validates ``disable_error_code`` / ``enable_error_code`` and
``# type: ignore[...]`` against its registry of codes, and it loads plugins
before it validates them, so defining the codes at import is what makes
those switches work (from mypy 1.19 in config files and on the command
line; ``# type: ignore[...]`` and ``# mypy: disable-error-code=`` on every
supported version).
"""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import ErrorCode

from toolcall import _findings as findings

__all__ = ["BY_FINDING", "CATEGORY", "DEFAULT", "DOC", "EXAMPLE", "NAME", "PARAM", "STRICT", "TYPE"]

CATEGORY: Final = "toolcall"

NAME: Final = ErrorCode(findings.NAME, "A tool name is invalid, duplicated or not readable statically", CATEGORY)
PARAM: Final = ErrorCode(findings.PARAM, "A parameter a model cannot send, or a docstring entry for none", CATEGORY)
TYPE: Final = ErrorCode(findings.TYPE, "A tool parameter type no JSON Schema describes", CATEGORY)
STRICT: Final = ErrorCode(findings.STRICT, "What a provider's strict mode cannot express", CATEGORY)
DEFAULT: Final = ErrorCode(findings.DEFAULT, "A tool parameter default that is dropped or loses precision", CATEGORY)
EXAMPLE: Final = ErrorCode(findings.EXAMPLE, "A docstring example of tool arguments the dispatcher rejects", CATEGORY)
# Off unless enabled (enable_error_code): many projects leave some parameters undocumented on purpose.
DOC: Final = ErrorCode(
    findings.DOC, "A missing, lost or too long tool or parameter description", CATEGORY, default_enabled=False
)

#: The mypy code of each finding code.
BY_FINDING: Final[dict[findings.FindingCode, ErrorCode]] = {
    findings.NAME: NAME,
    findings.PARAM: PARAM,
    findings.TYPE: TYPE,
    findings.STRICT: STRICT,
    findings.DEFAULT: DEFAULT,
    findings.EXAMPLE: EXAMPLE,
    findings.DOC: DOC,
}
