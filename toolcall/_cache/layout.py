"""The text layout of a schema cache file: its records indented, each stored value on one line.

Its structure is laid out as ``json.dumps(indent=2)`` would: each top-level
record, each module of the ``sources`` table, each tool entry starts a line.
What fills one of those places (a tool's entry, its IR included) is written
compactly on its line, as ``json.dumps(separators=(",", ":"),
ensure_ascii=False)`` writes it, so a changed tool is one changed line and
the file is not half indentation. Key order is kept everywhere, and parsing
the text gives back the same data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from json.encoder import encode_basestring  # the C function, where it is built
from typing import Any, Final, Union

__all__ = ["Shape", "compact", "laid_out"]

#: Which containers are laid out over lines: a mapping from a key (or ``"*"``, any key or list
#: item) to the shape of what is under it. A container with no shape is written compactly.
Shape = Mapping[str, Union["Shape", None]]

_ANY: Final = "*"


def compact(value: Any) -> str:
    """``value`` as one line of JSON, dict order kept, non-ASCII text as it is."""
    return _COMPACT(value)


# json.dumps with arguments builds an encoder per call; a cache file makes thousands of calls.
_COMPACT: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def laid_out(value: Any, shape: Shape | None) -> str:
    """``value`` as JSON text: the containers ``shape`` names indented by 2 spaces a level, the rest compact."""
    out: list[str] = []
    _write(value, shape, "\n", out)
    return "".join(out)


def _write(value: Any, shape: Shape | None, newline: str, out: list[str]) -> None:
    kind = type(value)
    if shape is None or not value or (kind is not dict and kind is not list):
        out.append(compact(value))
        return
    inner = newline + "  "
    separator = "{" if kind is dict else "["
    items = value.items() if kind is dict else ((None, item) for item in value)
    for key, item in items:
        prefix = "" if key is None else encode_basestring(key) + ": "
        out.append(separator + inner + prefix)
        _write(item, shape.get(_ANY) if key is None else shape.get(key, shape.get(_ANY)), inner, out)
        separator = ","
    out.append(newline + ("}" if kind is dict else "]"))
