"""JSON text with sorted keys and a 2-space indent, as ``json.dumps(sort_keys=True, indent=2, ensure_ascii=False)``.

The standard library's C encoder has no indent, and its pure-Python one
passes every piece of text up through one generator per nesting level. A
cache file is thousands of small nested schemas, so the plugin spent most
of a module's write there. This writer appends to one list instead and
gives the same text for the JSON data a cache file holds (``str`` keys;
``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``).
Anything else goes to ``json.dumps``, so the result never differs.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # the C function, where it is built
from typing import Any

__all__ = ["indented"]


class _Unusual(Exception):
    """Data this writer leaves to ``json.dumps``."""


def indented(value: Any) -> str:
    """``value`` as ``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)`` writes it."""
    out: list[str] = []
    try:
        _write(value, out, "\n")
    except _Unusual:
        return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)
    return "".join(out)


def _write(value: Any, out: list[str], newline: str) -> None:
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif kind is dict:
        _write_dict(value, out, newline)
    elif kind is list:
        _write_list(value, out, newline)
    elif value is None:
        out.append("null")
    elif kind is bool:
        out.append("true" if value else "false")
    elif kind is int or (kind is float and value == value and value not in (_INF, -_INF)):
        out.append(repr(value))  # json writes int and finite float with repr
    else:
        raise _Unusual  # NaN, infinities, tuples, subclasses: json.dumps decides


_INF = float("inf")


def _write_dict(value: dict[Any, Any], out: list[str], newline: str) -> None:
    if not value:
        out.append("{}")
        return
    if any(type(key) is not str for key in value):
        raise _Unusual  # json turns int, float, bool and None keys into strings, with its own ordering rules
    inner = newline + "  "
    separator = "{"
    for key in sorted(value):
        out.append(separator + inner + encode_basestring(key) + ": ")
        _write(value[key], out, inner)
        separator = ","
    out.append(newline + "}")


def _write_list(value: list[Any], out: list[str], newline: str) -> None:
    if not value:
        out.append("[]")
        return
    inner = newline + "  "
    separator = "["
    for item in value:
        out.append(separator + inner)
        _write(item, out, inner)
        separator = ","
    out.append(newline + "]")
