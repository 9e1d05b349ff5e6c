"""Wire formats shared by the renderers and the dispatcher.

One place for each pattern, so the schema accepts exactly what the
dispatcher accepts.
"""

from __future__ import annotations

from typing import Final

__all__ = ["DECIMAL_PATTERN", "PRIMITIVE_FORMATS", "STRING_INTEGER_PATTERN"]

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
