"""Turning schema keywords a mode cannot carry into description text.

A keyword that leaves a schema is not dropped silently: it becomes a short
English note ("between 1 and 7; at most 5 items") appended to the schema's
description, so the model still sees the rule. The dispatcher keeps
enforcing it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolcall._ir import canonical_json
from toolcall._render.schema import Schema, as_schema, def_name, types_of

__all__ = ["append_note", "describe_type", "notes_for", "python_type"]

# (minimum keyword, maximum keyword, unit) for each length family.
_LENGTHS = (
    ("minLength", "maxLength", "characters"),
    ("minItems", "maxItems", "items"),
    ("minProperties", "maxProperties", "properties"),
)
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def notes_for(keywords: Mapping[str, Any]) -> str:
    """One note for the given keywords and values, e.g. ``"between 1 and 7; default: 3"``."""
    if not keywords:
        return ""  # the common case: the passes ask for every node, and most lose nothing
    if len(keywords) == 1 and "default" in keywords:
        return _one("default", keywords["default"])  # the next most common: strict schemas carry no default
    parts: list[str] = []
    handled: set[str] = set()
    bounds = _bounds(keywords)
    if bounds:
        parts.append(bounds)
        handled.update(k for k in _NUMERIC if _is_number(keywords.get(k)))
    for low, high, unit in _LENGTHS:
        text = _range(keywords.get(low), keywords.get(high), unit)
        if text:
            parts.append(text)
            handled.update((low, high))
    for key, value in keywords.items():
        if key not in handled:
            parts.append(_one(key, value))
    return "; ".join(parts)


def append_note(schema: Schema, note: str) -> None:
    """Add ``note`` as a sentence at the end of ``schema``'s description."""
    if not note:
        return
    sentence = note[0].upper() + note[1:] + ("" if note.endswith(".") else ".")
    current = schema.get("description")
    if not current:
        schema["description"] = sentence
        return
    current = current.rstrip()
    stop = "" if current.endswith((".", "!", "?")) else "."
    schema["description"] = f"{current}{stop} {sentence}"


def describe_type(value: Any) -> str:
    """A short human name for a schema: ``"string (date-time)"``, ``"array of integer"``, ``"one of 1, 2"``."""
    schema = as_schema(value)
    if isinstance(schema.get("$ref"), str):
        return def_name(schema["$ref"]) or schema["$ref"]
    if "anyOf" in schema:
        return " or ".join(describe_type(b) for b in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(canonical_json(v) for v in schema["enum"])
    if "const" in schema:
        return canonical_json(schema["const"])
    names = sorted(types_of(schema))
    if not names:
        return "any value"
    return " or ".join(_describe_named(schema, name) for name in names)


#: The Python spelling of each JSON type, as a tool's annotation would write it.
_PYTHON_NAMES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def python_type(value: Any) -> str:
    """A schema spelled as the Python type a tool would annotate: ``dict[str, Json]``, ``list[int] | None``.

    Named types keep their names (``Json``, a TypedDict's class name); a
    schema that admits anything is ``Any``.
    """
    schema = as_schema(value)
    if isinstance(schema.get("$ref"), str):
        return def_name(schema["$ref"]) or schema["$ref"]
    if "anyOf" in schema:
        return " | ".join(python_type(branch) for branch in schema["anyOf"])
    if "enum" in schema or "const" in schema:
        values = schema["enum"] if "enum" in schema else [schema["const"]]
        return "Literal[" + ", ".join(canonical_json(v) for v in values) + "]"
    types = schema.get("type")
    names = [types] if isinstance(types, str) else types if isinstance(types, list) else []
    return " | ".join(_python_named(schema, name) for name in names) or "Any"


def _python_named(schema: Schema, name: str) -> str:
    if name == "array":
        items = schema.get("items")
        return f"list[{python_type(items)}]" if isinstance(items, dict) else "list[Any]"
    if name == "object":
        extra = schema.get("additionalProperties")
        return f"dict[str, {python_type(extra)}]" if isinstance(extra, dict) else "dict[str, Any]"
    return _PYTHON_NAMES.get(name, name)


def _describe_named(schema: Schema, name: str) -> str:
    if name == "array" and "items" in schema:
        return f"array of {describe_type(schema['items'])}"
    if name == "string" and "format" in schema:
        return f"string ({schema['format']})"
    return name


def _bounds(keywords: Mapping[str, Any]) -> str:
    low, high = keywords.get("minimum"), keywords.get("maximum")
    if _is_number(low) and _is_number(high) and not {"exclusiveMinimum", "exclusiveMaximum"} & keywords.keys():
        return f"between {_num(low)} and {_num(high)}"
    parts = [
        f"{phrase} {_num(keywords[key])}"
        for key, phrase in (
            ("minimum", "at least"),
            ("exclusiveMinimum", "greater than"),
            ("maximum", "at most"),
            ("exclusiveMaximum", "less than"),
        )
        if _is_number(keywords.get(key))
    ]
    return " and ".join(parts)


def _range(low: Any, high: Any, unit: str) -> str:
    if low is not None and low == high:
        return f"exactly {low} {unit}"
    if low is not None and high is not None:
        return f"{low} to {high} {unit}"
    if low is not None:
        return f"at least {low} {unit}"
    if high is not None:
        return f"at most {high} {unit}"
    return ""


def _one(key: str, value: Any) -> str:
    if key == "multipleOf":
        return f"a multiple of {_num(value)}"
    if key == "pattern":
        return f"matching the regular expression {value}"
    if key == "format":
        return f"format: {value}"
    if key == "uniqueItems" and value is True:
        return "items must be unique"
    if key == "default":
        return f"default: {canonical_json(value)}"
    return f"{key}: {canonical_json(value)}"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _num(value: Any) -> str:
    return canonical_json(value)
