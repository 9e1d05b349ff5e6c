"""Where a field is declared, for the findings about it (reported once, at the field's line).

A finding found while walking a field of a TypedDict, dataclass or
NamedTuple is about that field, not about each tool whose parameter reaches
it: the walker notes the innermost field it was in (``Noted``), and the hook
layer reports it at the field's line when the class is in the module mypy is
checking, or once per tool module otherwise (docs/mypy-plugin.md, "Field-level
findings"; docs/decisions.md says why).
"""

from __future__ import annotations

from dataclasses import dataclass

from toolcall._findings import Finding

__all__ = ["FieldSite", "Noted"]


@dataclass(frozen=True)
class FieldSite:
    """A field's declaration: its class's module, the line (and column) of its statement, its names.

    ``within`` are the steps below the field the finding is at, inside
    classes whose own fields have no site (no source to read, or a type
    that the use site's type arguments decide).
    """

    module: str
    line: int
    column: int
    owner: str  # the name of the class that declares the field
    name: str
    within: tuple[str | int, ...] = ()

    def label(self) -> str:
        """``Class.field`` (and the steps within it), as messages name the field."""
        return ".".join(str(step) for step in (self.owner, self.name, *self.within))


@dataclass(frozen=True)
class Noted:
    """A finding of a type walk and the innermost field it was found in (``None``: outside any field)."""

    finding: Finding
    site: FieldSite | None = None
