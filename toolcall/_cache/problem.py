"""Why one tool's schema cache entry is not served: what the loader finds, and the report warns or raises about.

Its own module: serving from a cache needs the record, not the report's
warning machinery, which loads only when an entry is not served.
"""

from __future__ import annotations

from typing import Literal

from toolcall._records import Record, record, set_field

__all__ = ["Problem", "ProblemKind"]

ProblemKind = Literal["missing", "stale", "corrupt", "refused"]


@record(frozen=True, slots=True)
class Problem(Record):
    """Why one tool's cache entry is not served: ``kind`` and a phrase for the warning or the error."""

    kind: ProblemKind
    text: str
    #: the source modules that changed, for a stale entry
    changed: tuple[str, ...] = ()

    def __init__(self, kind: ProblemKind, text: str, changed: tuple[str, ...] = ()) -> None:
        set_field(self, "kind", kind)
        set_field(self, "text", text)
        set_field(self, "changed", changed)
