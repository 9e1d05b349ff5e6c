"""Edge cases: plain module constants as defaults, an explicit object bound, nested and functional classes."""

from __future__ import annotations

import pathlib
from typing import Any, NamedTuple, Optional, TypedDict, TypeVar

import toolcall

O = TypeVar("O", bound=object)  # noqa: E741
LIMIT = 5  # not Final, but assigned once: its value when the def runs
WORDS = ["x", "y"]
Functional = NamedTuple("Functional", [("a", int), ("b", str)])  # noqa: UP014 - the functional form is the case


class Outer:
    class Inner(TypedDict):
        """A nested class."""

        y: int


@toolcall.tool
def constants(limit: int = LIMIT, words: list[str] = WORDS) -> None:
    """Plain module constants."""


@toolcall.tool
def bounds(x: O, y: Any, z: list[Any]) -> Any:
    """An explicit bound=object is no unbounded TypeVar."""


@toolcall.tool
def classes(inner: Outer.Inner, maybe: Optional[Outer.Inner] = None, functional: Functional | None = None) -> None:
    """Nested and functional classes."""


@toolcall.tool
def paths(pure: pathlib.PurePath, path: pathlib.Path, posix: pathlib.PurePosixPath) -> None:
    """PathLike classes."""
