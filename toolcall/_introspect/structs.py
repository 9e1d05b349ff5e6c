"""TypedDicts, dataclasses and NamedTuples → ``ObjectType`` (closed objects, fields in declaration order).

A field's description, first that exists wins (``toolcall._rules.descriptions``):
``Param(description=...)`` on its annotation; its attribute docstring; its
class docstring's attribute entry (a subclass's docs over its bases'). A dataclass field is in the object
only if it is an ``__init__`` parameter (``init=True``, ``InitVar`` included);
a field with a default or ``default_factory`` is optional, and only plain
defaults are emitted (by the rules of ``toolcall._rules.defaults``).
"""

from __future__ import annotations

import dataclasses
import typing
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal

import typing_extensions as te

from toolcall import _ir as ir
from toolcall._declarations.custom import class_ref
from toolcall._findings import TYPE
from toolcall._introspect.docs import class_description, field_docs, source_bases
from toolcall._introspect.hints import class_hints, module_globals
from toolcall._introspect.metadata import declared_description
from toolcall._rules import messages
from toolcall._rules.defaults import default_for
from toolcall._rules.descriptions import field_description

if TYPE_CHECKING:
    from toolcall._introspect.types import Walker

__all__ = ["Shape", "shape_of", "structured"]

Shape = Literal["typeddict", "dataclass", "namedtuple"]
_MISSING: Final = dataclasses.MISSING
_REQUIRED: Final = frozenset({typing.Required, te.Required} if hasattr(typing, "Required") else {te.Required})
_NOT_REQUIRED: Final = frozenset(
    {typing.NotRequired, te.NotRequired} if hasattr(typing, "NotRequired") else {te.NotRequired}
)


def shape_of(cls: type[Any]) -> Shape | None:
    """Which structured kind ``cls`` is, or ``None``."""
    if te.is_typeddict(cls):
        return "typeddict"
    if dataclasses.is_dataclass(cls):
        return "dataclass"
    if issubclass(cls, tuple) and isinstance(getattr(cls, "_fields", None), tuple):
        return "namedtuple"
    return None


def structured(w: Walker, cls: type[Any], args: tuple[Any, ...]) -> ir.TypeNode | None:
    """The node of a TypedDict, dataclass or NamedTuple ``cls[args]``, or ``None`` for other classes."""
    shape = shape_of(cls)
    if shape is None:
        return None
    bindings = w.bind(getattr(cls, "__parameters__", ()), args)
    arg_nodes = tuple(bindings.values())

    def build() -> ir.TypeNode:
        ref = w.remember(class_ref(cls), cls)
        with w.scope(cls.__module__, bindings):
            fields = _FIELDS[shape](w, cls)
        return ir.ObjectType(ref, shape, fields, class_description(cls))

    return w.keyed(("class", cls, arg_nodes), cls.__name__, build)


#: A class's resolved annotations and field descriptions.
_Facts = tuple[Mapping[str, Any], Mapping[str, str]]

#: Each class's facts, read once per process: a class many tools use is walked once for each of them, and
#: resolving its annotations and reading its source are most of that walk. Weak keys: a class defined in a
#: function is not kept alive. A class whose annotations do not resolve yet is not kept, and is read again.
_FACTS: Final[weakref.WeakKeyDictionary[type[Any], _Facts]] = weakref.WeakKeyDictionary()


def _facts(cls: type[Any], lineage: Callable[[type[Any]], tuple[type[Any], ...]]) -> _Facts:
    """``cls``'s resolved annotations and its fields' descriptions (``lineage``: its classes, bases first)."""
    known = _FACTS.get(cls)
    if known is None:  # two threads may both read it: the same facts, stored whole
        known = _FACTS[cls] = (class_hints(cls), field_docs(cls, lineage(cls)))
    return known


def _typeddict_fields(w: Walker, cls: type[Any]) -> tuple[ir.Field, ...]:
    hints, docs = _facts(cls, _typeddict_lineage)
    required_keys = getattr(cls, "__required_keys__", frozenset(hints))
    return tuple(
        _field(w, name, hint, _typeddict_required(name, hint, required_keys), _MISSING, docs)
        for name, hint in hints.items()
    )


def _typeddict_required(name: str, hint: Any, required_keys: frozenset[str]) -> bool:
    # An explicit qualifier wins: typing.TypedDict may not know typing_extensions' Required
    # (a newer release of it) when it computes __required_keys__.
    for layer in (hint, *te.get_args(hint)[:1]):
        origin = te.get_origin(layer)
        if origin in _REQUIRED:
            return True
        if origin in _NOT_REQUIRED:
            return False
    return name in required_keys


def _typeddict_lineage(cls: type[Any]) -> tuple[type[Any], ...]:
    # TypedDict flattens its bases away (its __mro__ is cls, dict, object);
    # __orig_bases__ still names them on 3.12+, the class statement before.
    lineage: list[type[Any]] = []
    bases = cls.__dict__.get("__orig_bases__") or source_bases(cls, module_globals(cls.__module__))
    for base in bases:
        base_cls = te.get_origin(base) or base
        if isinstance(base_cls, type) and te.is_typeddict(base_cls) and base_cls is not cls:
            lineage.extend(b for b in _typeddict_lineage(base_cls) if b not in lineage)
    return (*lineage, cls)


def _dataclass_fields(w: Walker, cls: type[Any]) -> tuple[ir.Field, ...]:
    hints, docs = _facts(cls, _mro_lineage)
    real = {f.name for f in dataclasses.fields(cls)}
    fields: list[ir.Field] = []
    for f in cls.__dataclass_fields__.values():
        hint = hints.get(f.name, f.type)
        if isinstance(hint, dataclasses.InitVar):
            hint = hint.type
        elif f.name not in real:
            continue  # a ClassVar pseudo-field
        if not f.init:
            continue
        required = f.default is _MISSING and f.default_factory is _MISSING
        fields.append(_field(w, f.name, hint, required, f.default, docs))
    return tuple(fields)


def _namedtuple_fields(w: Walker, cls: type[Any]) -> tuple[ir.Field, ...]:
    hints, docs = _facts(cls, _mro_lineage)
    defaults: dict[str, Any] = getattr(cls, "_field_defaults", {})
    return tuple(
        _field(w, name, hints.get(name, _UNANNOTATED), name not in defaults, defaults.get(name, _MISSING), docs)
        for name in cls._fields
    )


def _mro_lineage(cls: type[Any]) -> tuple[type[Any], ...]:
    return tuple(c for c in reversed(cls.__mro__) if _annotates(c) and c.__module__ != "typing")


def _annotates(cls: type[Any]) -> bool:
    """Whether the class body annotates anything: Python 3.14 keeps a function that makes the annotations
    (PEP 649) and leaves ``__annotations__`` out of the class until they are first asked for."""
    return "__annotations__" in cls.__dict__ or cls.__dict__.get("__annotate_func__") is not None


_UNANNOTATED: Final = object()


def _field(w: Walker, name: str, hint: Any, required: bool, default: Any, docs: Mapping[str, str]) -> ir.Field:
    with w.at(name):
        if hint is _UNANNOTATED:
            w.note(TYPE, messages.UNANNOTATED_FIELD)
            node: ir.TypeNode = ir.AnyType("unannotated")
        else:
            node = w.walk(hint)
        emitted = None
        if default is not _MISSING:
            outcome = default_for(default, node, w.defs, path=tuple(w.path))
            w.findings.extend(outcome.findings)
            emitted = outcome.default
    declared = declared_description(hint, w.metadata) if hint is not _UNANNOTATED else None
    return ir.Field(name, node, required, emitted, field_description(declared, docs.get(name)))


_FIELDS: Final[dict[Shape, Callable[[Walker, type[Any]], tuple[ir.Field, ...]]]] = {
    "typeddict": _typeddict_fields,
    "dataclass": _dataclass_fields,
    "namedtuple": _namedtuple_fields,
}
