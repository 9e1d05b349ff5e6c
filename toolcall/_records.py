"""Frozen dataclasses whose methods are written out once, not generated at every import.

``dataclass(frozen=True, slots=True)`` compiles each class's generated
``__init__``, ``__eq__``, ``__hash__``, ``__repr__`` and frozen ``__setattr__``
whenever its module is imported: about 0.4 ms a class, which a process that
loads a schema cache pays for every class on that path (8 ms for the IR's
alone). A class made with ``record`` instead inherits those methods from
``Record``, written here once and kept in the bytecode cache, and writes its
own ``__init__`` (``set_field`` for each field, in order, with the defaults
its fields declare).

``record`` gives the class what ``dataclass`` would record about it: the
``Field`` of each annotated name that is not a ``ClassVar`` (its default from
the class body) and slots in field order, so ``dataclasses.fields``,
``dataclasses.replace`` and ``dataclasses.is_dataclass`` work as on any
dataclass, and the type checkers see a frozen dataclass with slots, which is
what it is. It reads the annotations as the text they are under postponed
evaluation, without ``dataclass``'s general parsing of them (another 50
microseconds a class): every record's module postpones its annotations, and
a field's annotation never spells ``ClassVar`` but for a class variable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar

__all__ = ["Record", "record", "set_field"]

_R = TypeVar("_R")

#: How a hand-written ``__init__`` sets a field of a frozen record.
set_field: Final = object.__setattr__

if TYPE_CHECKING:
    from dataclasses import dataclass as record
else:

    def record(*, frozen: bool, slots: bool) -> Callable[[type[_R]], type[_R]]:
        """``dataclass(frozen=True, slots=True)`` for a subclass of ``Record`` that writes its own ``__init__``."""
        assert frozen, "a record is frozen"
        assert slots, "a record has slots"
        return _with_fields


#: The marker ``dataclasses.fields`` keeps a ``Field`` by (a class variable's is another).
_FIELD_MARKER: Final = dataclasses._FIELD  # type: ignore[attr-defined]  # private, the same on 3.11 to 3.14
#: What a class variable's annotation starts with, as postponed evaluation keeps it.
_CLASS_VARIABLE: Final = ("ClassVar", "typing.ClassVar")


def _with_fields(cls: type[_R]) -> type[_R]:
    """``cls`` remade with its fields recorded as ``dataclass`` records them, and slots in field order."""
    namespace = dict(cls.__dict__)
    annotations: dict[str, Any] = namespace["__annotations__"]  # a record's module postpones annotations
    fields: dict[str, dataclasses.Field[Any]] = {}
    for name, annotation in annotations.items():
        assert isinstance(annotation, str), f"{cls.__qualname__}.{name}: annotations are postponed in a record"
        if annotation.startswith(_CLASS_VARIABLE):
            continue
        default = namespace.pop(name, dataclasses.MISSING)  # a class attribute would shadow the slot
        field = default if isinstance(default, dataclasses.Field) else dataclasses.field(default=default)
        field.name, field.type, field.kw_only = name, annotation, False
        setattr(field, "_field_type", _FIELD_MARKER)  # noqa: B010  # what dataclass sets on a field
        fields[name] = field
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    namespace["__slots__"] = tuple(fields)
    namespace["__dataclass_fields__"] = fields
    made: type[_R] = type(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


class Record:
    """The methods of a frozen dataclass: equality and hashing by field values, its repr, and no assignment."""

    __slots__ = ()
    #: The field values of a record as one tuple, made for each class once it has its slots.
    _values: ClassVar[Callable[[Any], tuple[Any, ...]]]

    def __init_subclass__(cls) -> None:
        names = cls.__dict__.get("__slots__")
        if names:  # the class ``dataclass`` remade with slots, in field order
            getter = attrgetter(*names)
            cls._values = getter if len(names) > 1 else lambda record: (getter(record),)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        values = type(self)._values
        return values(self) == values(other)

    def __hash__(self) -> int:
        return hash(type(self)._values(self))

    def __repr__(self) -> str:
        names: tuple[str, ...] = self.__slots__
        pairs = ", ".join(f"{name}={value!r}" for name, value in zip(names, type(self)._values(self), strict=True))
        return f"{type(self).__qualname__}({pairs})"

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), type(self)._values(self))
