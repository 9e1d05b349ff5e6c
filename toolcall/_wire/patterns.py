"""Wire formats shared by the renderers and the dispatcher, and how the dispatcher reads a schema's patterns.

One place for each pattern, so the schema accepts exactly what the
dispatcher accepts; ``ecma_regex`` compiles a pattern to match as JSON
Schema's regex dialect does.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["DECIMAL_PATTERN", "PRIMITIVE_FORMATS", "STRING_INTEGER_PATTERN", "ecma_regex"]

#: A finite decimal number as a string: ``"12"``, ``"-0.50"``, ``"1.5e3"``.
DECIMAL_PATTERN: Final = r"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$"

#: ``Param(wire="string_integer")``: an integer as a decimal string.
STRING_INTEGER_PATTERN: Final = r"^-?[0-9]+$"

#: The JSON Schema ``format`` of the string-typed primitives.
PRIMITIVE_FORMATS: Final = {
    "datetime": "date-time",
    "date": "date",
    "time": "time",
    "timedelta": "duration",
    "uuid": "uuid",
    "ipv4": "ipv4",
    "ipv6": "ipv6",
}


# ECMA 262's WhiteSpace and LineTerminator characters: what ``\s`` matches in a schema pattern.
_ECMA_SPACE = r"\t\n\x0b\x0c\r\x20\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_ECMA_DOT = r"[^\n\r\u2028\u2029]"


def ecma_regex(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled to match as ECMA 262 (JSON Schema's regex dialect) does, not as Python's ``re``.

    The differences that change what a schema pattern accepts: ``$`` matches
    only at the very end (Python's also before a final newline, so
    ``"abc\\n"`` would pass ``^[a-z]+$``), ``.`` excludes every line
    terminator, ``\\d``, ``\\w`` and ``\\b`` are ASCII, and ``\\s`` is ECMA's
    whitespace set. A pattern the translation cannot carry is used as written.
    """
    try:
        return re.compile(_python_spelling(pattern), re.ASCII)
    except re.error:
        return re.compile(pattern)


def _python_spelling(pattern: str) -> str:
    # Walks the pattern as Python's parser reads it (the pattern compiled as
    # Python when its Param was made), rewriting ``$``, ``.`` and ``\s``.
    out: list[str] = []
    i, end, in_class = 0, len(pattern), False
    while i < end:
        ch = pattern[i]
        if ch == "\\" and i + 1 < end:
            escaped = pattern[i + 1]
            if escaped == "s":
                out.append(_ECMA_SPACE if in_class else f"[{_ECMA_SPACE}]")
            elif escaped == "S" and not in_class:
                out.append(f"[^{_ECMA_SPACE}]")
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        i += 1
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class, start = True, i
            i += pattern.startswith("^", i)  # a negated class
            i += pattern.startswith("]", i)  # a "]" first in a class is a literal to Python
            ch += pattern[start:i]
        elif ch == "$":
            ch = r"\Z"
        elif ch == ".":
            ch = _ECMA_DOT
        out.append(ch)
    return "".join(out)
