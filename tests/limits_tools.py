"""Tools for the tests of values beyond Python's limits: long integers in and out, deep nesting."""

from __future__ import annotations

import dataclasses
from typing import Literal

import toolcall

#: Longer than the int-string limit (4300 digits by default): ``str()`` refuses it.
HUGE = 10**5000


@toolcall.tool
def digits(n: int, extra: object = None) -> int:
    """How many characters ``n`` has as decimal text: proves the exact integer arrived."""
    return len(str(n))


@toolcall.tool
def total(values: list[int], label: str = "") -> int:
    """The sum of ``values``."""
    return sum(values)


@dataclasses.dataclass
class Holder:
    """A dataclass holding a long integer."""

    n: int


@toolcall.tool
def huge(kind: Literal["int", "negative", "list", "dict", "key", "dataclass"]) -> object:
    """A value holding an integer longer than the int-string limit, shaped by ``kind``."""
    values: dict[str, object] = {
        "int": HUGE,
        "negative": -HUGE,
        "list": [1, 2, HUGE],
        "dict": {"a": {"b": HUGE}},
        "key": {HUGE: "a key"},
        "dataclass": Holder(HUGE),
    }
    return values[kind]
