"""The JSON Schema keywords whose values are subschemas: one vocabulary for the renderers and the cache.

Kept apart from ``toolcall._render`` so that the cache loader can read a
schema's structure without importing the renderers. Sets, not tuples:
every key of every node is looked up in them, and most keys miss.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MANY", "NAMED", "ONE"]

#: Keywords whose value is one subschema.
ONE: Final = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
#: Keywords whose value is a list of subschemas.
MANY: Final = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
#: Keywords whose value maps names to subschemas.
NAMED: Final = frozenset({"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"})
