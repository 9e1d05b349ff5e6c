"""Subclasses of the JSON kinds, read as their kind: the slow path of the generated type checks.

A Python caller may pass a ``str``, ``int``, ``float``, ``list`` or ``dict``
subclass instance where a JSON value is expected (a ``StrEnum`` or
``IntEnum`` member, an ``OrderedDict``, a ``defaultdict``). It is accepted
wherever its kind is, read through the base type (its own methods, such as
``__iter__``, ``__getitem__`` or ``__missing__``, are never called), and
what the tool receives is the exact type. ``bool`` is not an ``int`` here.

The generated checks test the exact type first and call these only when it
differs, so a decoded JSON value never reaches them.
"""

from __future__ import annotations

from typing import Any, Final

from toolcall._wire.scalars import Fail

__all__ = ["EXACT_KINDS", "as_dict", "as_list", "object_key", "plain"]

#: The types a JSON decoder makes: a value of one of these is read as it is.
EXACT_KINDS: Final = frozenset({str, int, float, bool, type(None), list, dict})


def as_list(value: Any) -> list[Any]:
    """A list subclass instance as a plain list of its items; anything else is ``expected_array``."""
    if isinstance(value, list):
        return list.copy(value)
    raise Fail("expected_array", value)


def as_dict(value: Any) -> dict[Any, Any]:
    """A dict subclass instance as a plain dict (``str`` subclass keys as ``str``); else ``expected_object``."""
    if isinstance(value, dict):
        return {_plain_key(key): item for key, item in dict.items(value)}
    raise Fail("expected_object", value)


def object_key(key: Any) -> str:
    """An object key that is not exactly a ``str``: a ``str`` subclass as its ``str``, else ``expected_string``."""
    if isinstance(key, str):
        return str.__str__(key)
    raise Fail("expected_string", key, "object keys must be strings")


def plain(value: Any) -> Any:
    """``value`` read as its JSON kind's exact type (containers shallowly), or as it is when of no JSON kind."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int.__index__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, list):
        return list.copy(value)
    return as_dict(value) if isinstance(value, dict) else value


def _plain_key(key: Any) -> Any:
    return str.__str__(key) if type(key) is not str and isinstance(key, str) else key
