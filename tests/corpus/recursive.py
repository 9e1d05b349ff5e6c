"""Recursive types: string-forward-ref aliases, TypedDicts and dataclasses.

(A recursive ``typing_extensions.TypeAliasType`` is tested in
tests/unit/test_types_recursive.py: mypy cannot resolve that form, and the corpus
must type-check; PEP 695 recursive aliases are in ``pep695``.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict, Union

import toolcall

Json = Union[None, bool, int, float, str, list["Json"], dict[str, "Json"]]


class Category(TypedDict):
    """A category in the tree."""

    name: str
    children: list[Category]


@dataclass
class Comment:
    """A comment with its replies."""

    text: str
    replies: list[Comment] = field(default_factory=list)


@toolcall.tool
def save_document(doc: Json, meta: dict[str, Json] | None = None) -> None:
    """Save a JSON document.

    Args:
        doc: any JSON value
    """


@toolcall.tool
def import_categories(root: Category, extra: list[Category] | None = None) -> int:
    """Import a category tree."""
    return 1


@toolcall.tool
def post_thread(first: Comment) -> str:
    """Post a comment thread."""
    return first.text
