"""Description rules: which text describes a tool, a parameter, a field or a class.

Both front ends read the texts in their own world (docstrings, parsed by
``toolcall._rules.docstrings``; ``Param(description=...)`` from ``Annotated``
metadata; ``@tool(description=...)``) and choose here, the first that
exists winning:

* a tool: ``@tool(description=...)``, else its docstring's description;
* a parameter: ``Param(description=...)``, its docstring's entry, the
  description of its declared class (TypedDict, dataclass, NamedTuple,
  Enum), also through ``X | None`` (``type_description``);
* a field: ``Param(description=...)``, its documentation (its attribute
  docstring, else its class docstring's attribute entry);
* a class: its own docstring's description.

``Param(description="")`` means "no description" and stops the fallback.
It is looked for on a parameter's or field's outer layers, each front end
peeling its annotation: ``Annotated``, TypedDict qualifiers, and a union
whose only other option is ``None`` (``sole_option``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Final, TypeVar

from toolcall import _ir as ir
from toolcall._rules.docstrings import description_of

__all__ = [
    "class_description",
    "field_description",
    "parameter_description",
    "sole_option",
    "tool_description",
    "type_description",
]

_NONE: Final = ir.Primitive("none")

_Option = TypeVar("_Option")


def tool_description(explicit: str | None, documented: str) -> str:
    """A tool's description: ``explicit`` (``@tool(description=...)``) unless ``None``, else its docstring's."""
    return explicit if explicit is not None else documented


def parameter_description(
    declared: str | None, documented: str | None, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]
) -> str | None:
    """A parameter's description: ``declared`` (``Param(description=...)``), ``documented``, its class's.

    ``node`` is the parameter's type and ``defs`` its tool's named types
    (a recursive class is a reference to one).
    """
    if declared is not None:
        return declared or None
    if documented is not None:
        return documented
    return type_description(node, defs)


def field_description(declared: str | None, documented: str | None) -> str | None:
    """A field's description: ``declared`` (``Param(description=...)``), else ``documented``."""
    if declared is not None:
        return declared or None
    return documented


def class_description(docstring: str | None) -> str | None:
    """A class's description: the description part of its own docstring, ``None`` when there is none."""
    return description_of(docstring) or None


def type_description(node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> str | None:
    """The description of the class ``node`` declares (an object or an Enum), also through ``X | None``."""
    if isinstance(node, ir.UnionType):
        option = sole_option(node.options, lambda option: option == _NONE)
        if option is None:
            return None
        node = option
    if isinstance(node, ir.RefType):
        node = defs.get(node.name, node)
    if isinstance(node, (ir.ObjectType, ir.EnumType)):
        return node.description
    return None


def sole_option(options: Iterable[_Option], is_none: Callable[[_Option], bool]) -> _Option | None:
    """The one option of a union that is not ``None`` (what ``X | None`` describes), or ``None`` if there are more."""
    rest = [option for option in options if not is_none(option)]
    return rest[0] if len(rest) == 1 else None
