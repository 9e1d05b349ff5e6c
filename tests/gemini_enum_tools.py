"""Tools whose enums Gemini declares as strings: the adapter must turn the texts back into the values."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal, TypedDict, Union

import toolcall


class Level(enum.IntEnum):
    """How loud."""

    LOW = 1
    HIGH = 2


class Line(TypedDict):
    """An order line."""

    sku: str
    level: Level


@dataclass
class Node:
    """A tree node with a priority."""

    priority: Literal[1, 2, 3]
    children: list[Node] = field(default_factory=list)


@toolcall.tool
def levels(
    level: Level,
    lines: list[Line],
    maybe: Level | None = None,
    flag: Literal[True, 7] | None = None,
    either: Union[Level, str] = "none",
) -> list[str]:
    """Every value as the function received it, by its repr."""
    return [repr(level), repr(lines), repr(maybe), repr(flag), repr(either)]


@toolcall.tool
def tree(root: Node) -> list[str]:
    """The priorities of the tree, depth first, by their repr."""
    found: list[str] = []
    todo = [root]
    while todo:
        node = todo.pop()
        found.append(repr(node.priority))
        todo.extend(reversed(node.children))
    return found
