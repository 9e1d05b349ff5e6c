"""Recursion: mutually recursive TypedDicts, a $defs name taken twice, recursive dataclass through Optional."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, TypedDict, Union

import toolcall
from tests.analysis_cases import shared

Json = Union[None, bool, int, float, str, list["Json"], dict[str, "Json"]]


class Folder(TypedDict):
    """A folder."""

    name: str
    files: list[File]
    parent: Optional[Folder]


class File(TypedDict):
    name: str
    folder: Folder


@dataclass
class Node:
    value: int
    next: Optional[Node] = None


class Box(TypedDict):
    """A local Box (shared.Box is another class with the same name)."""

    inner: list[Box]
    other: shared.Box


@toolcall.tool
def walk_tree(root: Folder, file: File, chain: Node, doc: Json = None) -> Json:
    """Walk a folder tree."""
    return None


@toolcall.tool
def boxes(box: Box, more: list[Box]) -> None:
    """Two classes named Box: only the recursive one is a definition."""


class Tree(TypedDict):
    value: int
    kids: list[Tree]


@toolcall.tool
def two_trees(mine: Tree, theirs: shared.Tree, again: list[Tree] | None = None) -> shared.Tree:
    """Two recursive classes named Tree: the second one found is Tree_2."""
    return theirs
