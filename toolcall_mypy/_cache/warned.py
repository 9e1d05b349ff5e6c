"""Which of a tool's findings its cache entry records: those introspecting the tool warns too, in the same words.

The plugin reports every finding as a mypy error. The runtime warns, as it
loads a tool, the findings introspection makes (``toolcall-param``,
``toolcall-type``, ``toolcall-default``, and ``toolcall-example`` for an
example the dispatcher rejects); a tool served from its cache entry
warns the ones the entry records instead, so both warn alike. Both front
ends word a problem through the shared rules (``toolcall._rules``), so a
finding the plugin makes of a described tool is introspection's, but for
the limits of reading code without running it, which introspection does not
have:

* an implicit ``Any`` (a bare ``list``, an import mypy cannot follow, a type
  mypy could not analyze): the runtime cannot tell it from a written ``Any``;
* a default the plugin cannot evaluate without running code, a constructor
  call that raises with its arguments (at run time the module does not
  import), a string whose lone surrogates mypy's parser replaced: the
  runtime reads the value itself.

``toolcall-strict`` findings come from rendering, which the runtime does on
both paths; ``toolcall-name`` findings concern the decorator, not the tool.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from toolcall._findings import DEFAULT, EXAMPLE, PARAM, TYPE, Finding
from toolcall_mypy._analysis.defaults import UNREADABLE_FIX
from toolcall_mypy._analysis.types import IMPLICIT_ANY_MESSAGES

__all__ = ["warned_findings"]

_WARNED_CODES: Final = frozenset((PARAM, TYPE, DEFAULT, EXAMPLE))
#: How the plugin's own default findings end or what they hold: what it could not read, build, or confirm.
_UNREAD_ENDINGS: Final = (f"; {UNREADABLE_FIX}", "; fix its arguments")
_REPLACED_BY_PARSER: Final = ", which mypy's parser "


def warned_findings(findings: Iterable[Finding], tool: str) -> tuple[Finding, ...]:
    """The findings of the described tool named ``tool`` that introspecting it warns too, in their order."""
    return tuple(finding for finding in findings if finding.tool == tool and _runtime_warns(finding))


def _runtime_warns(finding: Finding) -> bool:
    if finding.code not in _WARNED_CODES:
        return False
    if finding.code == TYPE:
        return finding.message not in IMPLICIT_ANY_MESSAGES
    if finding.code == DEFAULT:
        message = finding.message
        return not message.endswith(_UNREAD_ENDINGS) and _REPLACED_BY_PARSER not in message
    return True
