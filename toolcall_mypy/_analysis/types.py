"""mypy types → IR type nodes, with the rules of the runtime front end (toolcall/_introspect/types.py).

``Walker.walk(type, src)`` walks an analyzed type together with the
annotation written for it (``src``, from ``toolcall_mypy._source.syntax``; ``None``
when the source cannot be read). The walker finds the facts in mypy's
types; the rules that build nodes from them are the runtime's
(``toolcall._rules.type_rules``, ``toolcall._rules.annotated``, ``toolcall._rules.messages``).
The analyzed type decides what the type is; the written one adds what mypy
drops: ``Annotated`` metadata, and which union members one ``Literal[...]``
listed (mypy flattens ``Literal["a", "b"]`` into a union of single
literals). Aliases are followed in both: a plain alias
is transparent, as at run time; a ``TypeAliasType``/``type`` alias and a
recursive plain alias are keyed, so a recursion becomes ``$defs`` + ``$ref``
under the runtime's naming rule (the alias's or class's ``__name__``, then
``_2``, ``_3``, ... in the order recursions are found).

The walker collects what the tool needs besides the node: ``defs``, the
``findings`` (``toolcall-type``/``toolcall-default`` at the current field
path, each with the innermost field it is about: ``sites``), the providers
used and the ``modules`` the node comes from. A type no schema describes
raises ``NoSchema`` with the runtime's message. Classes have modules of their own:
``structs`` (TypedDict, dataclass and NamedTuple fields), ``enums``,
``customtypes`` (``__toolcall_schema__``, providers) and ``classes`` (a
class's source).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final, Literal

from mypy.nodes import TypeAlias, TypeInfo
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    NoneType,
    Overloaded,
    ProperType,
    TupleType,
    Type,
    TypeAliasType,
    TypedDictType,
    TypeOfAny,
    TypeType,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from toolcall import _ir as ir
from toolcall._findings import TYPE, Finding
from toolcall._rules import messages
from toolcall._rules.annotated import NO_CONSTRAINTS, ConstraintsUnfit, constrain
from toolcall._rules.recursion import RecursionTracker
from toolcall._rules.type_rules import ARRAY_CLASSES, MAP_CLASSES, MAX_DEPTH, as_string_integer, literal_union, union_of
from toolcall_mypy._analysis import classes, structs
from toolcall_mypy._analysis.classes import info_ref
from toolcall_mypy._analysis.custom_types import Providers, self_described
from toolcall_mypy._analysis.enums import Enums
from toolcall_mypy._analysis.sites import FieldSite, Noted
from toolcall_mypy._source import surrogates
from toolcall_mypy._source.metadata import read_metadata
from toolcall_mypy._source.names import ModuleSource, Sources, assigned_value
from toolcall_mypy._source.syntax import (
    LITERAL,
    Src,
    alias_value,
    bindings_of,
    literal_items,
    literal_values,
    peel,
    plain_alias,
    subscript_args,
    union_options,
)

__all__ = ["IMPLICIT_ANY_MESSAGES", "NoSchema", "Walker", "info_ref", "type_name"]

_MAX_HOPS: Final = 16
_PRIMITIVES: Final = ir.PRIMITIVE_CLASSES  # full name -> primitive, the table the runtime reads too
_IMPLICIT_ANY: Final[dict[int, str]] = {
    TypeOfAny.unannotated: "this value has no annotation, so any JSON value is accepted; annotate it",
    TypeOfAny.from_omitted_generics: (
        "a generic type without type arguments accepts any JSON value inside; write its type arguments "
        "(e.g. list[str]), or Any to mean any value"
    ),
    TypeOfAny.from_unimported_type: (
        "a type from a module mypy cannot follow (not installed, no stubs, or not followed) became Any, "
        "so any JSON value is accepted; make that import resolvable"
    ),
    TypeOfAny.from_error: (
        "a type mypy could not resolve became Any, so any JSON value is accepted; fix the error mypy reports for it"
    ),
}
#: What the plugin says of an implicit ``Any``, which the runtime cannot tell from a written one.
IMPLICIT_ANY_MESSAGES: Final = frozenset(_IMPLICIT_ANY.values())


class NoSchema(Exception):
    """A type no schema describes; ``path`` is where inside the parameter (field names), ``site`` the field."""

    def __init__(self, message: str, path: tuple[str | int, ...] = (), site: FieldSite | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.site = site


_BUILTINS_PREFIX: Final = re.compile(r"\bbuiltins\.")


def type_name(t: Type) -> str:
    """A readable name of a mypy type, for messages (``socket.socket``, ``type[int]``)."""
    return _BUILTINS_PREFIX.sub("", str(t))  # mypy before 2.0 spells ``builtins.int``


@dataclass(frozen=True)
class _Shared:
    """A class's node built by one tool's walk, for the module's other tools (``Walker._shared``).

    ``keys`` are the type keys built inside it, ``enums`` the Enum classes it
    met, ``reach`` how many levels below its own it walked and ``modules``
    the modules it came from (``Walker.touch``).
    """

    node: ir.TypeNode
    keys: frozenset[Hashable]
    enums: tuple[TypeInfo, ...]
    reach: int
    modules: frozenset[str]


@dataclass
class _Recording:
    """What building one class's node touched so far."""

    findings: int  # how many findings the walker had at the start
    enums: int  # how many times the walk had met an Enum class
    keys: set[Hashable] = dataclasses.field(default_factory=set)
    modules: set[str] = dataclasses.field(default_factory=set)
    pure: bool = True  # nothing but its own types decided the node


class Walker(RecursionTracker):
    """Walks the parameter types of one tool; one instance per tool."""

    def __init__(self, sources: Sources, providers: tuple[str, ...] = ()) -> None:
        self.sources = sources
        self.defs: dict[str, ir.TypeNode] = {}
        self.findings: list[Noted] = []  # each with the field it was found in (``field``)
        self.path: list[str | int] = []
        self._sites: list[tuple[FieldSite, int]] = []  # the fields being walked that have a site, and their depth
        self.providers = Providers(providers)
        self.enums = Enums(sources, self, self.fail)
        self._names: dict[Hashable, str] = {}
        self._active: set[Hashable] = set()
        self._depth = 0
        self._deepest = 0  # the deepest level a walk started at (``_shared`` resets it)
        self._recordings: list[_Recording] = []  # the class nodes being built for sharing, innermost last
        self._provider_modules = tuple(dict.fromkeys(ref.partition(":")[0] for ref in providers))
        #: The modules the tool's types, values and sources come from (``touch``).
        self.modules: set[str] = set()

    @property
    def providers_used(self) -> list[str]:
        """The ``"module:qualname"`` refs of the providers that described a type, in order of first use."""
        return self.providers.used

    def touch(self, module: str) -> None:
        """Count ``module`` as one the tool's schema comes from, also for the class node being built for sharing.

        The walk calls it for each class, alias, TypeVar and provider it
        consults; ``collect_tool`` makes it the reader of ``Sources``, so each
        module whose source is read counts too.
        """
        self.modules.add(module)
        if self._recordings:
            self._recordings[-1].modules.add(module)

    def _touch_class(self, info: TypeInfo) -> None:
        """``touch`` the modules of a class whose members, fields or docstrings the walk reads, and its bases'."""
        for module in classes.defining_modules(info):
            self.touch(module)

    # -- state ---------------------------------------------------------------

    def checkpoint(self) -> tuple[Any, ...]:
        """A snapshot of what the walker collected, for ``restore``."""
        return dict(self.defs), list(self.findings), list(self.providers.used), dict(self._names)

    def restore(self, snapshot: tuple[Any, ...]) -> None:
        """Forget everything collected since ``snapshot`` (a walk that failed), except the modules touched.

        A type with no schema still depends on them: an edit there can give
        it one (a return type that gets an output schema).
        """
        defs, findings, providers, names = snapshot
        self.defs, self.findings, self.providers.used, self._names = (
            dict(defs),
            list(findings),
            list(providers),
            dict(names),
        )

    def fail(self, message: str) -> NoSchema:
        """A ``NoSchema`` for ``message`` at the current path and field."""
        return NoSchema(message, tuple(self.path), self._site())

    def note(self, code: Literal["toolcall-type", "toolcall-default"], message: str) -> None:
        """Record a finding at the current path and field (the caller adds tool and parameter)."""
        self.record([Finding(code, message, path=tuple(self.path))])

    def record(self, findings: Iterable[Finding]) -> None:
        """Record findings made at the current path, as found in the current field."""
        site = self._site()
        self.findings.extend(Noted(finding, site) for finding in findings)

    @contextmanager
    def field(self, name: str, site: FieldSite | None) -> Iterator[None]:
        """Walk into field ``name``; what is found inside is about the field at ``site`` (``None``: the one around)."""
        with self.at(name):
            if site is None:
                yield
                return
            self._sites.append((site, len(self.path)))
            try:
                yield
            finally:
                self._sites.pop()

    def _site(self) -> FieldSite | None:
        """The innermost field being walked that has a site, with the steps below it."""
        if not self._sites:
            return None
        site, depth = self._sites[-1]
        within = tuple(self.path[depth:])
        return dataclasses.replace(site, within=within) if within else site

    # -- walking -------------------------------------------------------------

    def walk(self, t: Type, src: Src | None) -> ir.TypeNode:
        """The IR node of ``t`` written as ``src``; raises ``NoSchema`` when none describes it."""
        if self._depth >= MAX_DEPTH:
            raise self.fail(messages.nests_too_deep(type_name(t)))
        self._deepest = max(self._deepest, self._depth)
        self._depth += 1
        try:
            written = src
            t, src, levels = self._unwrap(t, src)
            meta = read_metadata(levels)
            if meta.problems:
                raise self.fail(meta.problems[0])
            if meta.injected:
                raise self.fail(messages.INJECTED_INSIDE_TYPE)
            node = self._node(t, src)
            if meta.string_integer:
                node = self._string_integer(node, t)
            return self._constrained(node, meta.constraints, t, written)
        finally:
            self._depth -= 1

    def _constrained(self, node: ir.TypeNode, constraints: ir.Constraints, t: Type, written: Src | None) -> ir.TypeNode:
        """``node`` with the constraints of its metadata; ``t`` or ``written`` names it when they cannot apply."""
        if constraints is NO_CONSTRAINTS or constraints == NO_CONSTRAINTS:
            return node
        try:
            return constrain(node, constraints)
        except ConstraintsUnfit as exc:
            # Unparsing the annotation costs more than applying constraints: done only for the message.
            where = ast.unparse(written.expr) if written is not None else type_name(t)
            raise self.fail(messages.constraints_misfit(where, exc.constraints)) from None

    def _unwrap(self, t: Type, src: Src | None) -> tuple[Type, Src | None, list[tuple[Src, ...]]]:
        """Peel ``Annotated`` and follow transparent aliases, in the analyzed type and in the source alike."""
        levels: list[tuple[Src, ...]] = []
        for _ in range(_MAX_HOPS):
            src, layers = peel(src)
            levels.extend(layers)
            if isinstance(t, TypeAliasType) and t.alias is not None and _transparent(t):
                src = self._alias_source(t, src)
                t = t._expand_once()  # one step: each alias in a chain has its own source
                continue
            if not isinstance(t, TypeAliasType):
                follow = plain_alias(src)  # an alias mypy inlined (a no-argument alias to a class)
                if follow is not None:
                    src = follow
                    continue
            break
        return t, src, levels

    def _alias_source(self, t: TypeAliasType, use: Src | None) -> Src | None:
        alias = t.alias
        assert alias is not None
        if _class_alias(alias):
            return use  # a TypedDict/NamedTuple class: its fields come from the class body
        # ``TypeAlias.module`` is new in mypy 1.16; before it, the module is found from the full name.
        module = getattr(alias, "module", None) or self.sources.defining_module(alias.fullname)
        if module is not None:
            self.touch(module)  # mypy's value of the alias comes from there, even without its source
        where = self.sources.module(module) if module is not None else None
        if where is None:
            return None
        params = [tv.name for tv in alias.alias_tvars]
        return alias_value(where, alias.name, alias.line, params, use)

    def _node(self, t: Type, src: Src | None) -> ir.TypeNode:
        if isinstance(t, TypeAliasType):
            return self._alias(t, src)
        p = get_proper_type(t)
        if src is not None and src.is_subscript_of(LITERAL):
            items: list[Type] = list(p.items) if isinstance(p, UnionType) else [p]
            if all(isinstance(get_proper_type(i), (LiteralType, NoneType)) for i in items):
                return self._literal(items, src)
        handler = _HANDLERS.get(type(p))
        if handler is not None:
            return handler(self, p, src)
        if isinstance(p, TypeType):
            raise self.fail(messages.not_carried(type_name(p), "a class object"))
        if isinstance(p, (CallableType, Overloaded)):
            raise self.fail(messages.not_carried(type_name(p), "a callable"))
        raise self.fail(messages.no_schema(type_name(p)))

    def _alias(self, t: TypeAliasType, src: Src | None) -> ir.TypeNode:
        """A ``TypeAliasType``/``type`` alias (an object of its own at run time) or a recursive plain alias."""
        alias = t.alias
        assert alias is not None
        arg_nodes = tuple(self.walk(arg, s) for arg, s in zip(t.args, _arg_sources(src, len(t.args)), strict=True))

        def build() -> ir.TypeNode:
            return self.walk(t._expand_once(), self._alias_source(t, src))

        return self.keyed(("alias", alias.fullname, arg_nodes), alias.name, build)

    def _any(self, p: ProperType, src: Src | None) -> ir.TypeNode:
        assert isinstance(p, AnyType)
        while p.type_of_any == TypeOfAny.from_another_any and p.source_any is not None:
            p = p.source_any
        message = _IMPLICIT_ANY.get(p.type_of_any)
        if message is not None:
            self.note(TYPE, message)
        return ir.AnyType("any")

    def _none(self, p: ProperType, src: Src | None) -> ir.TypeNode:
        return ir.Primitive("none")

    def _literal_type(self, p: ProperType, src: Src | None) -> ir.TypeNode:
        return self._literal([p])

    def _literal(self, items: list[Type], src: Src | None = None) -> ir.TypeNode:
        """One ``Literal[...]``: plain values in one node, Enum members under their class (``literal_union``).

        ``src`` is the ``Literal[...]`` written for ``items``, when the source can be read.
        """
        members = self._literal_members(items, src)
        return literal_union(members, lambda key, values: self.enums.node(self.enums.met(key), values))

    def _literal_members(self, items: list[Type], src: Src | None) -> Iterator[tuple[str | None, ir.JsonScalar]]:
        """The values of one ``Literal[...]``, each once (as ``typing.Literal`` keeps them), with its Enum's name."""
        seen: set[tuple[str, object]] = set()
        for index, item in enumerate(items):
            p = get_proper_type(item)
            if isinstance(p, NoneType):
                key: str | None = None
                value: ir.JsonScalar = None
                identity: tuple[str, object] = ("none", None)
            else:
                assert isinstance(p, LiteralType)
                info = p.fallback.type
                if info.is_enum:
                    self._touch_class(info)
                    key, identity = info.fullname, (info.fullname, p.value)
                    value = self.enums.scalar(info, str(p.value))
                else:
                    key, value = None, self._literal_scalar(p, src, index, len(items))
                    identity = (type(value).__name__, value)
            if identity not in seen:
                seen.add(identity)
                yield key, value

    def _literal_scalar(self, p: LiteralType, src: Src | None = None, index: int = 0, count: int = 1) -> ir.JsonScalar:
        """A plain literal's value; a str mypy may have changed (``surrogates``) as ``src`` writes it.

        ``src`` is the ``Literal[...]`` that lists ``count`` values, this one at ``index``.
        """
        if p.fallback.type.fullname == "builtins.bytes":
            raise self.fail(messages.literal_not_scalar(p.value))
        value = p.value
        assert isinstance(value, (str, int, float, bool))
        if isinstance(value, str) and surrogates.suspect(value):
            written = literal_values(src)
            aligned = written is not None and len(written) == count
            exact = surrogates.confirmed(value, written[index] if written is not None and aligned else None)
            if exact is None:
                raise self.fail(
                    surrogates.unconfirmed(
                        f"Literal value {value!r}",
                        "the type has no schema",
                        "write the Literal[...] where the plugin reads it (in the annotation or a plain alias), "
                        "or its values without lone surrogates",
                    )
                )
            return exact
        return value

    def _union(self, p: ProperType, src: Src | None) -> ir.TypeNode:
        assert isinstance(p, UnionType)
        items = list(p.items)
        aligned = self._align(items, src)
        nodes: list[ir.TypeNode] = []
        if aligned is None:
            for group in _literal_runs(items):
                nodes.append(self._literal(group) if len(group) > 1 else self.walk(group[0], None))
        else:
            for option, group in aligned:
                nodes.append(self.walk(group[0] if len(group) == 1 else UnionType(group), option))
        return union_of(tuple(nodes))

    def _align(self, items: list[Type], src: Src | None) -> list[tuple[Src, list[Type]]] | None:
        """Pair the union's analyzed items with the options written in the source, or ``None`` if they differ."""
        options = union_options(src) if src is not None else None
        if options is None:
            return None
        aligned: list[tuple[Src, list[Type]]] = []
        start = 0
        for option in options:
            count = _item_count(option)
            group = items[start : start + count]
            if len(group) != count or not _matches(option, group):
                return None
            aligned.append((option, group))
            start += count
        return aligned if start == len(items) else None

    def _typevar(self, p: ProperType, src: Src | None) -> ir.TypeNode:
        assert isinstance(p, TypeVarType)
        defined_in = self.sources.defining_module(p.fullname)
        if defined_in is not None:
            self.touch(defined_in)  # its bound, constraints and default are written there
        if p.has_default():  # unbound: a type checker takes the default (PEP 696), so do we
            return self.walk(p.default, None)
        if p.values:
            return union_of(tuple(self.walk(value, None) for value in p.values))
        bound = get_proper_type(p.upper_bound)
        if isinstance(bound, Instance) and bound.type.fullname == "builtins.object" and not self._bound_written(p):
            self.note(TYPE, messages.unbound_typevar(p.name))
            return ir.AnyType("typevar")
        return self.walk(p.upper_bound, None)

    def _bound_written(self, p: TypeVarType) -> bool:
        """Whether ``TypeVar(..., bound=object)`` says so (mypy gives every unbounded TypeVar the bound object)."""
        module, _, name = p.fullname.rpartition(".")
        where = self.sources.module(module)
        resolved = where.lookup(name) if where is not None else None
        value = (
            assigned_value(resolved[1]) if resolved is not None and not isinstance(resolved[1], ModuleSource) else None
        )
        return isinstance(value, ast.Call) and any(keyword.arg == "bound" for keyword in value.keywords)

    def _instance(self, p: ProperType, src: Src | None) -> ir.TypeNode:
        assert isinstance(p, Instance)
        info, name = p.type, p.type.fullname
        if info.is_newtype and info.bases:
            self.touch(info.module_name)
            return self.walk(info.bases[0], None)
        if name == "builtins.object":
            return ir.AnyType("object")
        container = self._container(p, src)
        if container is not None:
            return container
        primitive = _PRIMITIVES.get(name)
        if primitive is not None:
            return ir.Primitive(primitive)
        self._touch_class(info)
        custom = self_described(self.sources, self, info, self.fail)
        if custom is not None:
            return custom
        if info.is_enum:
            return self._shared(("enum", info.fullname), lambda: self.enums.node(info), info)
        if structs.dataclass_owner(info) is not None:
            return self._structured(info, p, src)
        if info.has_base("os.PathLike"):
            return ir.Primitive("path")
        self._unshareable()  # the tool's providers, which another tool's may not be
        for module in self._provider_modules:  # each is asked in turn: any of them may decide
            self.touch(module)
        provided = self.providers.describe(p, self.fail)
        if provided is not None:
            return provided
        problems = "".join(f" ({problem})" for problem in self.providers.problems)
        raise self.fail(messages.no_schema(type_name(p)) + problems)

    def _container(self, p: Instance, src: Src | None) -> ir.TypeNode | None:
        name = p.type.fullname
        array = ARRAY_CLASSES.get(name)
        if array is not None or name == "builtins.tuple":
            items = self.walk(p.args[0], _arg_sources(src, len(p.args))[0]) if p.args else ir.AnyType("any")
            return ir.ArrayType(items, "tuple" if array is None else array)
        if name in MAP_CLASSES:
            if len(p.args) != 2:
                return ir.MapType(ir.AnyType("any"))
            written = _arg_sources(src, 2)
            unwrapped, _, _ = self._unwrap(p.args[0], written[0])  # not walked, but its aliases count as touched
            key = get_proper_type(unwrapped)
            omitted = isinstance(key, AnyType) and key.type_of_any == TypeOfAny.from_omitted_generics
            if not omitted and not (isinstance(key, Instance) and key.type.fullname == "builtins.str"):
                raise self.fail(messages.mapping_key_not_str(type_name(key)))
            return ir.MapType(self.walk(p.args[1], written[1]))
        if name == "builtins.type":
            raise self.fail(messages.not_carried(type_name(p), "a class object"))
        return None

    def _tuple(self, p: ProperType, src: Src | None) -> ir.TypeNode:
        assert isinstance(p, TupleType)
        fallback = p.partial_fallback
        if "namedtuple" in fallback.type.metadata:
            return self._structured(fallback.type, p, src)
        sources = _arg_sources(src, len(p.items))
        return ir.TupleType(tuple(self.walk(item, s) for item, s in zip(p.items, sources, strict=True)))

    def _typeddict(self, p: ProperType, src: Src | None) -> ir.TypeNode:
        assert isinstance(p, TypedDictType)
        return self._structured(p.fallback.type, p, src)

    def _string_integer(self, node: ir.TypeNode, base: Type) -> ir.TypeNode:
        swapped = as_string_integer(node)
        if swapped is None:
            raise self.fail(messages.string_integer_misfit(type_name(base)))
        return swapped

    # -- classes ---------------------------------------------------------------

    def _structured(self, info: TypeInfo, t: TypedDictType | Instance | TupleType, src: Src | None) -> ir.TypeNode:
        """A TypedDict, dataclass or NamedTuple: keyed by class and type arguments, fields in ``structs``."""
        self._touch_class(info)
        args = _class_args(t)
        arg_sources = _arg_sources(src, len(args))
        arg_nodes = tuple(self.walk(arg, s) for arg, s in zip(args, arg_sources, strict=True))
        bindings = bindings_of(list(info.type_vars), arg_sources)

        def build() -> ir.TypeNode:
            description = classes.class_description(self.sources, info)
            ref = classes.info_ref(info)
            if isinstance(t, TypedDictType):
                keys = surrogates.typeddict_keys(self.sources, info, list(t.items))  # mypy's may have lost a surrogate
                if isinstance(keys, str):
                    raise self.fail(keys)
                fields = structs.typeddict_fields(self, info, t, bindings)
                if keys:
                    fields = tuple(dataclasses.replace(f, name=keys.get(f.name, f.name)) for f in fields)
                return ir.ObjectType(ref, "typeddict", fields, description)
            if isinstance(t, Instance):
                return ir.ObjectType(ref, "dataclass", structs.dataclass_fields(self, info, t, bindings), description)
            return ir.ObjectType(ref, "namedtuple", structs.namedtuple_fields(self, info, t, bindings), description)

        key = ("class", info.fullname, arg_nodes)
        if args:  # the fields' annotations depend on the written type arguments, which the key leaves out
            return self.keyed(key, info.name, build)
        return self._shared(key, lambda: self.keyed(key, info.name, build), info)

    # -- nodes shared by the tools of a module -------------------------------------

    def keyed(self, key: Hashable, name: str, build: Callable[[], ir.TypeNode]) -> ir.TypeNode:
        """As ``RecursionTracker.keyed``; a class node being built for sharing notes the keys inside it."""
        if self._recordings:
            self._recordings[-1].keys.add(key)
        return super().keyed(key, name, build)

    def _unshareable(self) -> None:
        """The node being built depends on this walk (its providers, the Enum classes it met before)."""
        if self._recordings:
            self._recordings[-1].pure = False

    def _shared(self, key: Hashable, build: Callable[[], ir.TypeNode], owner: TypeInfo) -> ir.TypeNode:
        """``build()``, or the node an earlier tool built for ``key`` (class ``owner``) when this walk's would equal it.

        The earlier tool is one of this module's, or of a module mypy
        checked before (``Sources.reused``).

        A node is shared only when nothing but its types decided it: no
        findings, no provider, no Enum member looked up by name, no recursion
        (no key inside it got a named type). Reusing it then only has to
        check what this walk adds: recursion into a type being built or
        already named, and the depth limit; and to count its Enum classes as
        met and its modules as touched.
        """
        shared = self.sources.reused(key)
        if isinstance(shared, _Shared) and self._reusable(shared):
            return self._reuse(shared)
        recording = _Recording(len(self.findings), len(self.enums.meetings))
        node, reach = self._recorded(recording, build)
        named = not self._names.keys().isdisjoint(recording.keys)
        if recording.pure and len(self.findings) == recording.findings and not named:
            met = {info.fullname: info for info in self.enums.meetings[recording.enums :]}
            keys, modules = frozenset(recording.keys), frozenset(recording.modules)
            # The class's own modules too: its TypeInfo is mypy's analysis of them, even where no source was read.
            origins = modules | classes.defining_modules(owner)
            self.sources.share(key, _Shared(node, keys, tuple(met.values()), reach, modules), origins)
        return node

    def _recorded(self, recording: _Recording, build: Callable[[], ir.TypeNode]) -> tuple[ir.TypeNode, int]:
        """``build()``, noting in ``recording`` what it touches; and how many levels below this one it walked."""
        outer_deepest, self._deepest = self._deepest, self._depth - 1
        self._recordings.append(recording)
        try:
            node = build()
        except BaseException:
            recording.pure = False  # an error caught further out must not leave the node around shareable
            raise
        finally:
            self._recordings.pop()
            reach = self._deepest - self._depth
            self._deepest = max(outer_deepest, self._deepest)
            if self._recordings:  # the node around this one touched all this too
                outer = self._recordings[-1]
                outer.keys |= recording.keys
                outer.modules |= recording.modules
                outer.pure = outer.pure and recording.pure
        return node, reach

    def _reusable(self, shared: _Shared) -> bool:
        keys = shared.keys
        return (
            self._depth + shared.reach < MAX_DEPTH
            and self._active.isdisjoint(keys)
            and self._names.keys().isdisjoint(keys)
        )

    def _reuse(self, shared: _Shared) -> ir.TypeNode:
        for info in shared.enums:
            self.enums.meet(info)
        self._deepest = max(self._deepest, self._depth + shared.reach)
        if self._recordings:
            self._recordings[-1].keys |= shared.keys
        for module in shared.modules:
            self.touch(module)
        return shared.node

    # Env (toolcall_mypy._analysis.defaults): the Enum members a default names.

    def enum_member(self, info: TypeInfo, member: str) -> ir.JsonValue:
        """The value of an Enum member named by a default; raises ``Unreadable``."""
        self._touch_class(info)
        return self.enums.value(info, member)

    def enum_member_by_name(self, fullname: str, member: str) -> ir.JsonValue:
        """The value of a member of an Enum met in this walk; raises ``Unreadable``."""
        self._unshareable()  # what this walk met before decides it
        return self.enums.value_by_name(fullname, member)


_HANDLERS: Final[dict[type[ProperType], Callable[[Walker, ProperType, Src | None], ir.TypeNode]]] = {
    NoneType: Walker._none,
    AnyType: Walker._any,
    LiteralType: Walker._literal_type,
    UnionType: Walker._union,
    TypeVarType: Walker._typevar,
    Instance: Walker._instance,
    TupleType: Walker._tuple,
    TypedDictType: Walker._typeddict,
}


# -- helpers -------------------------------------------------------------------------------------


def _transparent(t: TypeAliasType) -> bool:
    """Whether an alias is followed in place: a plain, non-recursive alias, or a TypedDict/NamedTuple class."""
    alias = t.alias
    assert alias is not None
    if _class_alias(alias):
        return True
    return not alias.python_3_12_type_alias and not t.is_recursive


def _class_alias(alias: TypeAlias) -> bool:
    """mypy's alias for a TypedDict or NamedTuple class (the class itself, not a user's alias)."""
    target = alias.target
    if isinstance(target, TypedDictType):
        return target.fallback.type.fullname == alias.fullname
    if isinstance(target, TupleType):
        return target.partial_fallback.type.fullname == alias.fullname
    return False


def _arg_sources(src: Src | None, count: int) -> list[Src | None]:
    """The written type arguments matching ``count`` analyzed ones (``tuple[X, ...]`` gives ``X``)."""
    written = subscript_args(src)
    if written is not None and len(written) == count:
        return list(written)
    if written is not None and count == 1 and len(written) == 2:
        last = written[1].expr
        if isinstance(last, ast.Constant) and last.value is Ellipsis:
            return [written[0]]
    return [None] * count


def _item_count(option: Src) -> int:
    """How many analyzed union items one written option stands for (mypy flattens literals and nested unions)."""
    inner, _ = peel(option)
    if inner is None:
        return 1
    literal = literal_items(inner)
    if literal is not None:
        return literal
    nested = union_options(inner)
    return 1 if nested is None else sum(_item_count(o) for o in nested)


def _matches(option: Src, group: list[Type]) -> bool:
    inner, _ = peel(option)
    proper = [get_proper_type(item) for item in group]
    if inner is not None and isinstance(inner.expr, ast.Constant) and inner.expr.value is None:
        return all(isinstance(p, NoneType) for p in proper)
    if inner is not None and inner.is_subscript_of(LITERAL):
        return all(isinstance(p, (LiteralType, NoneType)) for p in proper)
    return True


def _literal_runs(items: list[Type]) -> list[list[Type]]:
    """Without source: consecutive literals are taken as one ``Literal[...]`` (``None`` stays apart)."""
    runs: list[list[Type]] = []
    for item in items:
        literal = isinstance(get_proper_type(item), LiteralType)
        if literal and runs and isinstance(get_proper_type(runs[-1][-1]), LiteralType):
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _class_args(t: ProperType) -> list[Type]:
    if isinstance(t, Instance):
        return list(t.args)
    if isinstance(t, TypedDictType):
        return list(t.fallback.args)
    if isinstance(t, TupleType):
        return list(t.partial_fallback.args)
    return []
