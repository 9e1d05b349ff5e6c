"""JSON text with a 2-space indent, as ``json.dumps(indent=2, ensure_ascii=False)``: dict order kept.

The standard library's C encoder has no indent, and its pure-Python one
passes every piece of text up through one generator per nesting level. A
cache file is thousands of small nested schemas, so the plugin spent most
of a module's write there. This writer appends to one list instead and
gives the same text for the JSON data a cache file holds (``str`` keys;
``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``).
Anything else goes to ``json.dumps``, so the result never differs.

A dict reached more than once (the rendered variants of one tool share
their schemas) is written once: its text, made at the outermost indent, is
indented again for each further place (JSON strings hold no raw newline, so
each newline in the text starts one of its lines).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # the C function, where it is built
from typing import Any

__all__ = ["indented"]


class _Unusual(Exception):
    """Data this writer leaves to ``json.dumps``."""


def indented(value: Any) -> str:
    """``value`` as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it (keys in dict order)."""
    out: list[str] = []
    try:
        _write(value, out, "\n", _repeated(value))
    except _Unusual:
        return json.dumps(value, indent=2, ensure_ascii=False)
    return "".join(out)


#: id of a dict reached more than once -> its text at the outermost indent, once written
_Texts = dict[int, "str | None"]


def _repeated(value: Any) -> _Texts:
    """The dicts inside ``value`` reached more than once, each with no text yet."""
    seen: set[int] = set()
    repeated: _Texts = {}
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if id(item) in seen:
                repeated[id(item)] = None
                continue
            seen.add(id(item))
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
    return repeated


def _write(value: Any, out: list[str], newline: str, texts: _Texts) -> None:
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif kind is dict:
        if id(value) in texts:
            _write_repeated(value, out, newline, texts)
        else:
            _write_dict(value, out, newline, texts)
    elif kind is list:
        _write_list(value, out, newline, texts)
    elif value is None:
        out.append("null")
    elif kind is bool:
        out.append("true" if value else "false")
    elif kind is int or (kind is float and value == value and value not in (_INF, -_INF)):
        out.append(repr(value))  # json writes int and finite float with repr
    else:
        raise _Unusual  # NaN, infinities, tuples, subclasses: json.dumps decides


_INF = float("inf")


def _write_repeated(value: dict[Any, Any], out: list[str], newline: str, texts: _Texts) -> None:
    text = texts[id(value)]
    if text is None:
        part: list[str] = []
        _write_dict(value, part, "\n", texts)
        text = texts[id(value)] = "".join(part)
    out.append(text if newline == "\n" else text.replace("\n", newline))


def _write_dict(value: dict[Any, Any], out: list[str], newline: str, texts: _Texts) -> None:
    if not value:
        out.append("{}")
        return
    if any(type(key) is not str for key in value):
        raise _Unusual  # json turns int, float, bool and None keys into strings
    inner = newline + "  "
    separator = "{"
    for key, item in value.items():
        out.append(separator + inner + encode_basestring(key) + ": ")
        _write(item, out, inner, texts)
        separator = ","
    out.append(newline + "}")


def _write_list(value: list[Any], out: list[str], newline: str, texts: _Texts) -> None:
    if not value:
        out.append("[]")
        return
    inner = newline + "  "
    separator = "["
    for item in value:
        out.append(separator + inner)
        _write(item, out, inner, texts)
        separator = ","
    out.append(newline + "]")
