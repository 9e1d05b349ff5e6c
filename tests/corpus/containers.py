"""Containers: lists, sequences, tuples, sets and str-keyed mappings."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence, Set

import toolcall


@toolcall.tool
def tag_photos(photo_ids: list[int], tags: Sequence[str], history: MutableSequence[str], loose: list) -> int:  # type: ignore[type-arg]
    """Tag photos.

    Args:
        photo_ids: the photos to tag
        tags: the tags to add
        history: previous tags
        loose: anything, in a list
    """
    return len(photo_ids)


@toolcall.tool
def plot(point: tuple[float, float], path: tuple[int, ...], legacy: tuple[str, int], empty: tuple[()]) -> str:
    """Plot a point and a path."""
    return "ok"


@toolcall.tool
def dedupe(words: set[str], frozen: frozenset[int], view: Set[str], old: frozenset[str]) -> list[str]:
    """Remove duplicate words."""
    return sorted(words)


@toolcall.tool
def label(labels: dict[str, str], counts: Mapping[str, int], scratch: MutableMapping[str, float]) -> None:
    """Attach labels."""


@toolcall.tool
def legacy_typing(names: list[str], scores: dict[str, list[float]]) -> None:
    """Use the typing module's generic aliases."""
