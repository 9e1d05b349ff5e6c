"""Records (``toolcall._records``) behave as frozen dataclasses with slots, though their methods are written out.

Each record's hand-written ``__init__`` must take its fields in order, with
the defaults its fields declare, and the shared methods must agree with
what ``dataclass(frozen=True, slots=True)`` generates for the same fields
(shown on the IR's classes, whose fields take any value).
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from toolcall import _introspect
from toolcall import _ir as ir
from toolcall._cache import loader, problem, shapes
from toolcall._dispatch.binder import Binder
from toolcall._findings import Finding
from toolcall._introspect import custom_types
from toolcall._records import Record
from toolcall._render import canonical, definitions, profiles
from toolcall._rules import annotated, defaults, docstrings

CLASSES = sorted({*ir._NODE_CLASSES.values(), *ir._RECORD_CLASSES.values()}, key=lambda cls: cls.__name__)
OTHER_RECORDS = (
    Finding,
    shapes.SourceRecord,
    loader.CachedTool,
    shapes.CachedEntry,
    shapes._Expansion,
    shapes._SharedTypes,
    problem.Problem,
    definitions.Rendered,
    canonical.Canonical,
    profiles.Profile,
    docstrings.ParsedDocstring,
    docstrings._Read,
    docstrings.DocExamples,
    defaults.Defaulted,
    defaults._Where,
    defaults.Fit,
    defaults.Misfit,
    annotated.Metadata,
    _introspect.Introspected,
    custom_types.ProvidedType,
    Binder,
)


def test_every_record_is_checked() -> None:
    assert {cls for cls in Record.__subclasses__() if "__slots__" in vars(cls) and cls.__slots__} == {
        *CLASSES,
        *OTHER_RECORDS,
    }


def sample(cls: type[Any], salt: str = "") -> Any:
    """An instance with every field set to a value of its own (``salt`` makes a different one)."""
    values = {f.name: f"{f.name}{salt}" for f in dataclasses.fields(cls)}
    return cls(**values)


def reference(cls: type[Any]) -> type[Any]:
    """What ``dataclass(frozen=True, slots=True)`` makes of the same fields, under the same name."""
    return dataclasses.make_dataclass(
        cls.__name__,
        [(f.name, Any, dataclasses.field(default=f.default)) for f in dataclasses.fields(cls)],
        frozen=True,
        slots=True,
    )


@pytest.mark.parametrize("cls", [*CLASSES, *OTHER_RECORDS], ids=lambda cls: cls.__name__)
def test_init_takes_the_fields_in_order_with_their_defaults(cls: type[Any]) -> None:
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = [f for f in dataclasses.fields(cls) if f.init]
    assert [(p.name, p.default) for p in parameters] == [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default) for f in fields
    ]
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters)
    assert cls.__slots__ == tuple(f.name for f in dataclasses.fields(cls))


def dataclass_fields(cls: type[Any]) -> list[tuple[Any, ...]]:
    """Every ``Field`` attribute ``dataclasses.fields`` shows, private marker included, for each field."""
    attributes = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare", "kw_only")
    return [(*(getattr(f, a) for a in attributes), f._field_type) for f in dataclasses.fields(cls)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls", [*CLASSES, *OTHER_RECORDS], ids=lambda cls: cls.__name__)
def test_fields_are_what_dataclass_records_for_the_same_class_body(cls: type[Any]) -> None:
    own = {f.name: f for f in dataclasses.fields(cls) if f.name in vars(cls)["__annotations__"]}
    body = {
        "__annotations__": vars(cls)["__annotations__"],  # the text the class body wrote, ClassVars included
        "__module__": cls.__module__,  # where dataclass looks up ``ClassVar`` in that text
        **{name: f if not f.init else f.default for name, f in own.items() if f.default is not dataclasses.MISSING},
        **{name: f for name, f in own.items() if not f.init},
        **{name: vars(cls)[name] for name in dir(cls) if name == "kind" and name in vars(cls)},  # a ClassVar
    }
    made = dataclasses.dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)(
        type(cls.__name__, (), body)
    )
    assert dataclass_fields(cls) == dataclass_fields(made)
    assert cls.__slots__ == made.__slots__


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_methods_agree_with_a_generated_frozen_dataclass(cls: type[Any]) -> None:
    ours, other = sample(cls), sample(cls, "2")
    theirs = reference(cls)(**{f.name: getattr(ours, f.name) for f in dataclasses.fields(cls)})
    assert repr(ours) == repr(theirs)
    assert ours == sample(cls)
    assert hash(ours) == hash(sample(cls))
    assert ours != other
    assert ours != theirs  # another class, as for dataclasses
    assert (ours == object()) is False
    assert dataclasses.is_dataclass(ours)
    assert dataclasses.replace(ours, **{dataclasses.fields(cls)[0].name: "x"}) != ours
    for copied in (copy.copy(ours), copy.deepcopy(ours), pickle.loads(pickle.dumps(ours))):
        assert type(copied) is cls
        assert copied == ours
    assert not hasattr(ours, "__dict__")


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_fields_cannot_be_assigned_or_deleted(cls: type[Any]) -> None:
    record = sample(cls)
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field '{name}'"):
        setattr(record, name, "x")
    with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot delete field '{name}'"):
        delattr(record, name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.extra = 1
    assert getattr(record, name) == f"{name}"
