"""Which Python values are JSON literals, the test both front ends apply to values they find.

* A **JSON scalar** is ``None``, a ``bool``, an ``int``, a ``str`` or a
  finite ``float``: what a ``Literal[...]`` may list and an Enum member's
  value may be (``nan`` and ``inf`` have no JSON spelling).
* A **JSON value** is a scalar, or a list or a str-keyed dict of JSON
  values: what a custom type's schema (``__toolcall_schema__``, a
  ``TypeProvider``'s answer) is made of.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeGuard

    from toolcall import _ir as ir

__all__ = ["is_json", "is_json_scalar", "json_kind"]


def json_kind(value: object) -> str:
    """The JSON Schema type name ``value`` is read as, or ``"other"``.

    ``True`` is a boolean, not an integer, and a subclass instance (an
    ``IntEnum`` member, an ``OrderedDict``) is read as its base kind.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "other"


def is_json_scalar(value: object) -> TypeGuard[ir.JsonScalar]:
    """Whether ``value`` is a JSON scalar: ``None``, a bool, an int, a str or a finite float."""
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (bool, int, str))


def is_json(value: object) -> TypeGuard[ir.JsonValue]:
    """Whether ``value`` is a JSON value: a JSON scalar, or a list or str-keyed dict of JSON values."""
    if isinstance(value, list):
        return all(is_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and is_json(item) for key, item in value.items())
    return is_json_scalar(value)
