"""TypedDicts, dataclasses and NamedTuples → the fields of an ``ObjectType`` (runtime toolcall/_introspect/structs.py).

Fields in declaration order; a field's type is mypy's (type arguments
applied), written as its class body annotates it. A field's description,
first that exists wins (``toolcall._rules.descriptions``): ``Param(description=...)``;
its attribute docstring; its class docstring's attribute entry (a
subclass's over its bases'). A dataclass field is in the object only if it is an ``__init__``
parameter (``InitVar`` included); only plain defaults are emitted, never a
``default_factory``'s.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Final

from mypy.expandtype import expand_type_by_instance
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import FuncDef, TypeInfo, Var
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    TupleType,
    Type,
    TypedDictType,
    TypeOfAny,
    get_proper_type,
    has_type_vars,
)

from toolcall import _ir as ir
from toolcall._findings import TYPE
from toolcall._rules import messages
from toolcall._rules.descriptions import field_description
from toolcall_mypy._analysis import classes
from toolcall_mypy._analysis.classes import Bindings, ClassSource
from toolcall_mypy._analysis.defaults import default_outcome, from_ast
from toolcall_mypy._analysis.sites import FieldSite
from toolcall_mypy._source.metadata import declared_description
from toolcall_mypy._source.names import assigned_value
from toolcall_mypy._source.syntax import Src

if TYPE_CHECKING:
    from toolcall_mypy._analysis.types import Walker

__all__ = ["dataclass_owner", "dataclass_fields", "namedtuple_fields", "typeddict_fields"]

_INIT_VAR: Final = frozenset({"dataclasses.InitVar"})
_FIELD_CALLS: Final = frozenset({"dataclasses.field"})


def typeddict_fields(w: Walker, info: TypeInfo, t: TypedDictType, bindings: Bindings) -> tuple[ir.Field, ...]:
    """The fields of a TypedDict; required ones by mypy's ``required_keys`` (totality and qualifiers folded in)."""
    own = classes.class_source(w.sources, info)
    lineage = classes.typeddict_lineage(own) if own is not None else []
    docs = classes.field_docs(lineage)
    declared = info.typeddict_type.items if info.typeddict_type is not None else {}
    return tuple(
        _field(
            w,
            name,
            t.items[name],
            classes.field_annotation(lineage, name, own, bindings),
            name in t.required_keys,
            None,
            docs,
            site=_site(lineage, name, declared.get(name)),
        )
        for name in classes.declaration_order(lineage, list(t.items))
    )


def dataclass_fields(w: Walker, info: TypeInfo, t: Instance, bindings: Bindings) -> tuple[ir.Field, ...]:
    """The ``__init__`` fields of a dataclass, from mypy's dataclass metadata (its order is the fields' order)."""
    owner = dataclass_owner(info)
    assert owner is not None
    lineage = classes.mro_lineage(w.sources, info)
    own = classes.class_source(w.sources, info)
    docs = classes.field_docs(lineage)
    fields = []
    for attribute in owner.metadata["dataclass"].get("attributes", []):
        if not attribute.get("is_in_init", True):
            continue
        name = attribute["name"]
        written = classes.field_annotation(lineage, name, own, bindings)
        if written is not None and written.is_subscript_of(_INIT_VAR):
            written = written.elements()[0]
        required = not attribute.get("has_default")
        field_type = _dataclass_field_type(info, t, name)
        default = _dataclass_default(lineage, name)
        site = _site(lineage, name, _dataclass_declared_type(info, name))
        fields.append(_field(w, name, field_type, written, required, default, docs, site=site))
    return tuple(fields)


def namedtuple_fields(w: Walker, info: TypeInfo, t: TupleType, bindings: Bindings) -> tuple[ir.Field, ...]:
    """The fields of a NamedTuple (class syntax or functional); a field with a default is optional."""
    names: list[str] = list(info.metadata["namedtuple"].get("fields", []))
    lineage = classes.mro_lineage(w.sources, info)
    own = classes.class_source(w.sources, info)
    docs = classes.field_docs(lineage)
    optional = _optional_new_arguments(info)
    defaults = _class_defaults(own, names) if own is not None else _functional_defaults(w, info, names)
    declared = info.tuple_type.items if info.tuple_type is not None else []
    fields = []
    for index, (name, item) in enumerate(zip(names, t.items, strict=False)):
        written = classes.field_annotation(lineage, name, own, bindings)
        unannotated = written is None and _is_unannotated(item)
        declared_type = declared[index] if index < len(declared) else None
        site = _site(lineage, name, declared_type) if own is not None else _functional_site(w, info, name)
        required = name not in optional
        fields.append(_field(w, name, item, written, required, defaults.get(name), docs, unannotated, site))
    return tuple(fields)


def dataclass_owner(info: TypeInfo) -> TypeInfo | None:
    """The class whose ``@dataclass`` gives ``info`` its fields (itself, or a base: subclasses inherit them).

    A ``dataclass_transform`` class (pydantic, ...) is no dataclass at run time;
    mypy types its ``__dataclass_fields__`` as ``dict[str, Any]`` instead of
    ``dict[str, dataclasses.Field[Any]]``.
    """
    owner = next((klass for klass in info.mro if "dataclass" in klass.metadata), None)
    symbol = owner.names.get("__dataclass_fields__") if owner is not None else None
    fields = get_proper_type(symbol.node.type) if symbol is not None and isinstance(symbol.node, Var) else None
    if not (isinstance(fields, Instance) and len(fields.args) == 2):
        return None
    value = get_proper_type(fields.args[1])
    return owner if isinstance(value, Instance) and value.type.fullname == "dataclasses.Field" else None


def _field(
    w: Walker,
    name: str,
    field_type: Type,
    written: Src | None,
    required: bool,
    default: Src | None,
    docs: dict[str, str],
    unannotated: bool = False,
    site: FieldSite | None = None,
) -> ir.Field:
    with w.field(name, site):
        if unannotated:
            w.note(TYPE, messages.UNANNOTATED_FIELD)
            node: ir.TypeNode = ir.AnyType("unannotated")
        else:
            node = w.walk(field_type, written)
        emitted = None
        if default is not None:
            default_src = default
            outcome = default_outcome(lambda: from_ast(default_src, w, calls=True), node, w.defs, path=tuple(w.path))
            w.record(outcome.findings)
            emitted = outcome.default
    declared = declared_description(written) if not unannotated else None
    return ir.Field(name, node, required, emitted, field_description(declared, docs.get(name)))


def _site(lineage: list[ClassSource], name: str, declared: Type | None) -> FieldSite | None:
    """Where field ``name`` is declared: its statement in the most derived class body that writes it.

    ``None`` (what is found inside belongs to the field or parameter around
    it) when no class body declares it, or when its declared type has type
    variables: the use site's type arguments decide what is inside.
    """
    if declared is not None and has_type_vars(declared):
        return None
    for where, node in reversed(lineage):
        statement = where.class_body(node).field(name)
        if statement is not None:
            return FieldSite(where.module, statement.lineno, statement.col_offset, node.name, name)
    return None


def _functional_site(w: Walker, info: TypeInfo, name: str) -> FieldSite | None:
    """A field of ``namedtuple("P", [...])``: the statement that makes the class."""
    where = w.sources.module(info.module_name)
    statement = where.statement(info.name, info.line) if where is not None else None
    if where is None or statement is None:
        return None
    return FieldSite(where.module, statement.lineno, statement.col_offset, info.name, name)


def _dataclass_declared_type(info: TypeInfo, name: str) -> Type | None:
    """A dataclass field's type as its class declares it (type variables unapplied), or ``None``."""
    for klass in info.mro:
        symbol = klass.names.get(name)
        if symbol is not None and isinstance(symbol.node, Var):
            return symbol.node.type
    init = info.get_method("__init__")  # an InitVar is no attribute, only an __init__ argument
    if isinstance(init, FuncDef) and isinstance(init.type, CallableType):
        for arg_name, arg_type in zip(init.type.arg_names, init.type.arg_types, strict=True):
            if arg_name == name:
                return arg_type
    return None


def _dataclass_default(lineage: list[ClassSource], name: str) -> Src | None:
    """The plain default of a dataclass field (``field(default=...)`` too; a ``default_factory`` gives none).

    As ``dataclass`` does, the nearest class body that assigns the name wins.
    """
    for where, node in reversed(lineage):
        statement = where.class_body(node).field(name)
        value = statement.value if statement is not None else None
        if value is None:
            continue
        if isinstance(value, ast.Call) and where.dotted(value.func) in _FIELD_CALLS:
            keyword = next((k.value for k in value.keywords if k.arg == "default"), None)
            return None if keyword is None else Src(keyword, where)
        return Src(value, where)
    return None


def _dataclass_field_type(info: TypeInfo, t: Instance, name: str) -> Type:
    """A dataclass field's declared type, type arguments applied (``InitVar[T]`` gives ``T``)."""
    for klass in info.mro:
        symbol = klass.names.get(name)
        if symbol is not None and isinstance(symbol.node, Var) and symbol.node.type is not None:
            return expand_type_by_instance(symbol.node.type, map_instance_to_supertype(t, klass))
    init = info.get_method("__init__")  # an InitVar is no attribute, only an __init__ argument
    if isinstance(init, FuncDef) and isinstance(init.type, CallableType):
        for arg_name, arg_type in zip(init.type.arg_names, init.type.arg_types, strict=True):
            if arg_name == name:
                return expand_type_by_instance(arg_type, t)
    return AnyType(TypeOfAny.unannotated)


def _class_defaults(own: ClassSource, names: list[str]) -> dict[str, Src]:
    where, node = own
    defaults = {}
    body = where.class_body(node)
    for name in names:
        statement = body.field(name)
        if statement is not None and statement.value is not None:
            defaults[name] = Src(statement.value, where)
    return defaults


def _functional_defaults(w: Walker, info: TypeInfo, names: list[str]) -> dict[str, Src]:
    """``namedtuple("P", [...], defaults=[...])``: the defaults of the last fields."""
    where = w.sources.module(info.module_name)
    statement = where.statement(info.name, info.line) if where is not None else None
    call = assigned_value(statement)
    if where is None or not isinstance(call, ast.Call):
        return {}
    values = next((k.value for k in call.keywords if k.arg == "defaults"), None)
    if not isinstance(values, (ast.List, ast.Tuple)) or len(values.elts) > len(names):
        return {}
    last = names[len(names) - len(values.elts) :]
    return {name: Src(value, where) for name, value in zip(last, values.elts, strict=True)}


def _optional_new_arguments(info: TypeInfo) -> set[str]:
    """Names of a NamedTuple's fields that have a default (optional in its ``__new__``)."""
    new = info.get_method("__new__")
    if not isinstance(new, FuncDef) or not isinstance(new.type, CallableType):
        return set()
    return {
        name
        for name, kind in zip(new.type.arg_names, new.type.arg_kinds, strict=True)
        if name is not None and kind.is_optional()
    }


def _is_unannotated(t: Type) -> bool:
    p = get_proper_type(t)
    return isinstance(p, AnyType) and p.type_of_any == TypeOfAny.unannotated
