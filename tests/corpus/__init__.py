"""The test corpus: tool modules, one per type family, used by every front-end and renderer test.

``MODULES`` lists the importable names of the corpus modules available on
the running Python (``pep695`` needs 3.12 for its ``type`` statements,
``pep696`` 3.13 for type parameter defaults).
"""

from __future__ import annotations

import sys
from typing import Any

_FAMILIES = [
    "scalars",
    "containers",
    "typeddicts",
    "dataclasses_",
    "namedtuples",
    "enums",
    "literals",
    "unions",
    "newtypes",
    "typevars",
    "aliases",
    "recursive",
    "annotated",
    "dates",
    "custom",
    "docstyles",
    "defaults",
    "future_annotations",
    "kwargs",
    "positional",
    "injected",
    "typevar_defaults",
]
if sys.version_info >= (3, 12):
    _FAMILIES.append("pep695")
if sys.version_info >= (3, 13):
    _FAMILIES.append("pep696")

#: Importable names of the corpus modules, e.g. ``"tests.corpus.scalars"``.
MODULES: list[str] = [f"{__name__}.{family}" for family in _FAMILIES]


def introspected(fn: object) -> Any:
    """``toolcall._introspect.introspect`` of a tool function (the tests' shortcut)."""
    from toolcall._declarations.tool import declaration_of
    from toolcall._introspect import introspect

    definition = declaration_of(fn)
    assert definition is not None, f"{fn!r} is not a @tool"
    return introspect(definition)
