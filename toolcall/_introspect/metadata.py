"""``Annotated`` metadata as live objects: ``Param``, ``Injected`` and ``annotated_types`` constraints.

The items are found here and merged by the shared rules of
``toolcall._rules.annotated``. ``annotated_types`` is not a dependency: its objects
are recognised by their class's module and name, so nothing is imported.
Unknown metadata (a plain string, another library's marker) is ignored.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import typing_extensions as te

from toolcall import _ir as ir
from toolcall._declarations.params import InjectedMarker, Param
from toolcall._exceptions import SchemaError
from toolcall._rules import messages
from toolcall._rules.annotated import ANNOTATED_TYPES, ConstraintsUnfit, Metadata, MetadataMerge, constrain
from toolcall._rules.descriptions import sole_option
from toolcall._rules.type_rules import QUALIFIERS

__all__ = ["Metadata", "MetadataReader", "apply_constraints", "declared_description", "read_metadata"]

_ANNOTATED = (typing.Annotated, te.Annotated)


def read_metadata(items: tuple[Any, ...]) -> Metadata:
    """Merge the metadata of one ``Annotated``, later items winning; a refused bound raises ``SchemaError``."""
    merge = MetadataMerge()
    for item in items:
        if isinstance(item, InjectedMarker):
            merge.add_injected()
        elif isinstance(item, Param):
            merge.add_param(item)
        elif _is_annotated_types(item):
            owner = type(item).__name__
            for name in ANNOTATED_TYPES[owner]:
                merge.add_bound(owner, name, getattr(item, name, None))
    metadata = merge.result()
    if metadata.problems:
        raise SchemaError(metadata.problems[0])
    return metadata


class MetadataReader:
    """Each ``Annotated``'s metadata, read once per tool however often the walk meets it.

    Keyed by the ``Annotated`` object's identity; the object is kept, so its
    identity is not reused while the reader lives (one tool's introspection).
    """

    __slots__ = ("_read",)

    def __init__(self) -> None:
        self._read: dict[int, tuple[Any, Metadata]] = {}

    def __call__(self, annotated: Any) -> Metadata:
        """The merged metadata of ``annotated`` (an ``Annotated[...]``); ``SchemaError`` for a refused bound."""
        cached = self._read.get(id(annotated))
        if cached is None or cached[0] is not annotated:
            cached = self._read[id(annotated)] = (annotated, read_metadata(te.get_args(annotated)[1:]))
        return cached[1]


def _is_annotated_types(item: object) -> bool:
    cls = type(item)
    return cls.__module__ == "annotated_types" and cls.__name__ in ANNOTATED_TYPES


def apply_constraints(node: ir.TypeNode, constraints: ir.Constraints, where: str) -> ir.TypeNode:
    """``node`` with ``constraints`` (``toolcall._rules.annotated.constrain``); ``SchemaError`` when they fit nothing.

    ``where`` names the annotation in the error.
    """
    try:
        return constrain(node, constraints)
    except ConstraintsUnfit as exc:
        raise SchemaError(messages.constraints_misfit(where, exc.constraints)) from None


def declared_description(hint: Any, metadata_of: MetadataReader) -> str | None:
    """The ``Param(description=...)`` written on a parameter's or field's own annotation.

    Looked up on the annotation itself, through TypedDict qualifiers
    (``Required[...]``) and through ``X | None``; ``""`` means "no description".
    """
    for layer in _outer_layers(hint):
        if te.get_origin(layer) in _ANNOTATED:
            description = metadata_of(layer).description
            if description is not None:
                return description
    return None


def _outer_layers(hint: Any) -> list[Any]:
    layers = [hint]
    origin = te.get_origin(hint)
    if origin in _ANNOTATED:
        layers.extend(_outer_layers(te.get_args(hint)[0]))
    elif origin is typing.Union or isinstance(hint, types.UnionType):
        option = sole_option(te.get_args(hint), lambda arg: arg is type(None))
        if option is not None:
            layers.extend(_outer_layers(option))
    elif getattr(origin, "_name", None) in QUALIFIERS:
        layers.extend(_outer_layers(te.get_args(hint)[0]))
    return layers
