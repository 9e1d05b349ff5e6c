"""Enum values as Gemini's string enums, and the strings the model sends back as those values.

Gemini's enums hold strings only, so an enum of integers, numbers or booleans
(``IntEnum``, ``Literal[1, 2]``) is declared as the strings of its values'
JSON text (``"1"``, ``"2"``, ``"true"``), and the model answers with those
strings. ``string_forms`` is the one rule for that text; ``enum_restorer``
builds, once per tool, the function that turns the strings back into the
values at exactly the places of the arguments where the declaration
stringified an enum, so the dispatcher sees what the function takes.

A place is restored only when the text has one meaning there: in a union
whose other branch takes a string (``Level | str``) or any value, the text
is left as it is, and the dispatcher reads it as that branch would (the
Gemini pass declares no string enum in such a union; this holds for any
declaration). A string that is not one of the enum's texts is left as it
is too, so the dispatcher reports its usual error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolcall._ir import canonical_json

__all__ = ["Restore", "enum_restorer", "string_forms"]

#: Restores one value (the arguments object, or a part of it): the value itself when nothing changes.
Restore = Callable[[Any], Any]
#: Where a node sits in the declaration's ``parameters``: the keys from the root, e.g. ``("properties", "x")``.
Location = tuple[str | int, ...]

_SCALARS = (str, int, float, bool)


def string_forms(values: Sequence[Any]) -> list[str] | None:
    """Each enum value as a string (a string as it is, any other scalar as its JSON text).

    ``None`` when some value is not a scalar (``null``, an array, an object),
    or when two values would have the same text (``Literal["1", 1]``): such
    an enum cannot travel as strings without losing which value was meant.
    """
    if not values or not all(isinstance(value, _SCALARS) for value in values):
        return None
    texts = [value if isinstance(value, str) else canonical_json(value) for value in values]
    return texts if len(set(texts)) == len(texts) else None


def enum_restorer(parameters: Mapping[str, Any], stringified: Mapping[Location, Mapping[str, Any]]) -> Restore | None:
    """The function restoring a call's arguments, or ``None`` when no place needs it.

    ``parameters`` is the Gemini declaration's schema; ``stringified`` maps
    each place whose enum became strings to its ``text -> value`` table.
    """
    return _Planner(stringified).plan(parameters, ())


class _Planner:
    def __init__(self, stringified: Mapping[Location, Mapping[str, Any]]) -> None:
        self.stringified = stringified

    def plan(self, schema: Mapping[str, Any], at: Location) -> Restore | None:
        """What restores a value at ``at``, or ``None`` when nothing below it was stringified."""
        table = self.stringified.get(at)
        if table is not None:
            return _enum({text: value for text, value in table.items() if not isinstance(value, str)})
        branches = schema.get("anyOf")
        if isinstance(branches, list):
            return self.union(branches, at)
        properties = schema.get("properties")
        if isinstance(properties, dict):
            fields = {name: self.plan(sub, (*at, "properties", name)) for name, sub in properties.items()}
            kept = {name: restore for name, restore in fields.items() if restore is not None}
            return _object(kept) if kept else None
        items = schema.get("items")
        if isinstance(items, dict):
            restore = self.plan(items, (*at, "items"))
            return None if restore is None else _array(restore)
        return None

    def union(self, branches: list[Any], at: Location) -> Restore | None:
        """A union restores a string only when one meaning is possible, a container when one branch takes it."""
        tables: list[Mapping[str, Any]] = []
        strings: set[str] = set()  # texts a plain string enum branch takes as they are
        any_string = False
        containers: dict[str, list[Restore | None]] = {"OBJECT": [], "ARRAY": []}
        for branch, where in _leaves(branches, at):
            kind = branch.get("type")
            if where in self.stringified:
                tables.append(self.stringified[where])
            elif kind is None:  # any value: it takes every string and container as they are
                any_string = True
                containers["OBJECT"].append(None)
                containers["ARRAY"].append(None)
            elif kind == "STRING":
                if isinstance(branch.get("enum"), list):
                    strings.update(branch["enum"])
                else:
                    any_string = True
            elif kind in containers:
                containers[kind].append(self.plan(branch, where))
        texts = {} if any_string else _unambiguous(tables, strings)
        objects, arrays = (plans[0] if len(plans) == 1 else None for plans in containers.values())
        if not (texts or objects or arrays):
            return None
        return _union(texts, objects, arrays)


def _leaves(branches: list[Any], at: Location) -> list[tuple[Mapping[str, Any], Location]]:
    """The branches of a union with nested unions flattened, each with its location."""
    found: list[tuple[Mapping[str, Any], Location]] = []
    for index, branch in enumerate(branches):
        where = (*at, "anyOf", index)
        if not isinstance(branch, dict):
            continue
        if isinstance(branch.get("anyOf"), list) and "type" not in branch:
            found.extend(_leaves(branch["anyOf"], where))
        else:
            found.append((branch, where))
    return found


def _unambiguous(tables: list[Mapping[str, Any]], strings: set[str]) -> dict[str, Any]:
    """The texts with one meaning: not taken by a string branch, not mapped to two values."""
    merged: dict[str, Any] = {}
    clashing: set[str] = set()
    for table in tables:
        for text, value in table.items():
            if text in merged and canonical_json(merged[text]) != canonical_json(value):
                clashing.add(text)
            merged.setdefault(text, value)
    return {t: v for t, v in merged.items() if t not in clashing and t not in strings and not isinstance(v, str)}


def _enum(table: dict[str, Any]) -> Restore:
    def restore(value: Any) -> Any:
        return table.get(value, value) if type(value) is str else value

    return restore


def _object(fields: dict[str, Restore]) -> Restore:
    def restore(value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        restored = value
        for name, field in fields.items():
            if name in value:
                item = value[name]
                new = field(item)
                if new is not item:
                    if restored is value:
                        restored = dict(value)  # the caller's arguments are never changed
                    restored[name] = new
        return restored

    return restore


def _array(items: Restore) -> Restore:
    def restore(value: Any) -> Any:
        if not isinstance(value, list):
            return value
        restored = [items(item) for item in value]
        return value if all(new is old for new, old in zip(restored, value, strict=True)) else restored

    return restore


def _union(texts: dict[str, Any], objects: Restore | None, arrays: Restore | None) -> Restore:
    def restore(value: Any) -> Any:
        if type(value) is str:
            return texts.get(value, value)
        if objects is not None and isinstance(value, dict):
            return objects(value)
        if arrays is not None and isinstance(value, list):
            return arrays(value)
        return value

    return restore
