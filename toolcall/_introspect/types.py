"""Python annotations → IR type nodes, for the runtime front end.

``Walker.walk(annotation)`` returns the node; the walker collects what the
tool needs besides: ``defs`` (recursive types), ``classes`` (every ref →
the live class), ``findings`` and the providers used.

The walker finds the facts in live annotations; the rules that build nodes
from them are shared with the mypy plugin (``toolcall._rules.type_rules``: unions,
literals, containers, ``string_integer``, the depth limit;
``toolcall._rules.annotated``: metadata and constraints; ``toolcall._rules.messages``:
the errors' texts). Decisions of this front end (``docs/decisions.md``):

* ``Literal`` of Enum members becomes an ``EnumType`` listing only those
  members' values (the function receives the members); other literal values
  stay a ``LiteralType``; a mix is a union of both, in order of appearance.
* ``Sequence``, ``MutableSequence``, ``Collection`` and ``Iterable`` are
  received as a list; ``collections.abc.Set`` (``AbstractSet``) as a
  frozenset, ``MutableSet`` as a set. Mapping keys must be ``str``.
* Bounds on ``X | None`` apply to the options they fit (``None`` stays plain).
  ``wire="string_integer"`` applies to ``int`` options likewise.
* ``LiteralString`` is ``str``.

**Recursion and ``$defs`` names.** Only a type that refers back to itself
(a TypedDict, dataclass or NamedTuple class, a ``TypeAliasType`` / PEP 695
alias, or a plain alias reached through a string forward reference) goes to
``defs``; the recursion point becomes ``RefType(name)``. The name is the
class's or alias's ``__name__`` (for a forward reference, its last dotted
part), made of ``[A-Za-z0-9_]``; a second, different type with a taken name
gets ``_2``, ``_3``, ... in the order the recursions are found: parameters in
signature order, depth first, fields in declaration order, then the return
type. The same type always gets the same name within a tool (a generic type
is "the same" when its type arguments give the same nodes). Subtrees equal to
a declaration's body are folded into a ``RefType`` afterwards, so a plain alias
that ``get_type_hints`` unrolled once still reads as one reference.
"""

from __future__ import annotations

import collections.abc
import enum
import os
import types
import typing
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, Final, TypeVar

import typing_extensions as te

from toolcall import _ir as ir
from toolcall._declarations.custom import TypeProvider, class_ref, resolve_ref
from toolcall._exceptions import SchemaError
from toolcall._findings import TYPE, Finding
from toolcall._introspect import structs
from toolcall._introspect.custom_types import from_providers, self_described, type_fullname
from toolcall._introspect.hints import module_globals
from toolcall._introspect.metadata import MetadataReader, apply_constraints
from toolcall._introspect.shared_annotations import SharedAnnotations, Walked
from toolcall._rules import messages
from toolcall._rules.json_literals import is_json_scalar
from toolcall._rules.recursion import RecursionTracker
from toolcall._rules.type_rules import (
    ARRAY_CLASSES,
    MAP_CLASSES,
    MAX_DEPTH,
    QUALIFIERS,
    as_string_integer,
    literal_union,
    union_of,
)

__all__ = ["Walker", "type_name"]


def _live(fullname: str) -> Any:
    """The class a full name of the shared tables names (``typing.Sequence`` is ``collections.abc.Sequence``)."""
    resolved = resolve_ref(":".join(fullname.rsplit(".", 1)))
    return te.get_origin(resolved) or resolved


# The live classes of ir.PRIMITIVE_CLASSES, the table the plugin reads by name (None is _special's).
_PRIMITIVES: Final[dict[Any, ir.PrimitiveName]] = {
    _live(fullname): name for fullname, name in ir.PRIMITIVE_CLASSES.items()
}
# The live classes of type_rules.ARRAY_CLASSES and MAP_CLASSES.
_ARRAYS: Final[dict[Any, typing.Literal["list", "set", "frozenset"]]] = {
    _live(fullname): container for fullname, container in ARRAY_CLASSES.items()
}
_MAPS: Final = frozenset(_live(fullname) for fullname in MAP_CLASSES)
_ANNOTATED: Final = frozenset({typing.Annotated, te.Annotated})
_T = TypeVar("_T")
_LITERALS: Final = frozenset({typing.Literal, te.Literal})
_ANYS: Final = frozenset({typing.Any, te.Any})
_STRS: Final = frozenset({getattr(typing, "LiteralString", te.LiteralString), te.LiteralString})
# TypedDict key qualifiers: they say whether a key is required, not its type.
_QUALIFIERS: Final = frozenset(
    getattr(module, name) for module in (typing, te) for name in QUALIFIERS if hasattr(module, name)
)
_ALIAS_CLASSES: Final = tuple({getattr(typing, "TypeAliasType", te.TypeAliasType), te.TypeAliasType})


#: What ``typevar_default`` returns for a type parameter without a default.
NO_DEFAULT: Final = object()


def typevar_default(param: Any) -> Any:
    """The default of a type parameter (PEP 696), or ``NO_DEFAULT``.

    ``typing`` has defaults from Python 3.13; ``typing_extensions.TypeVar``
    adds them before.
    """
    has_default = getattr(param, "has_default", None)
    return param.__default__ if has_default is not None and has_default() else NO_DEFAULT


def type_name(tp: Any) -> str:
    """A readable name for an annotation, for messages."""
    if isinstance(tp, type) and typing.get_origin(tp) is None:  # before 3.11, list[int] is a type too
        return tp.__qualname__ if tp.__module__ == "builtins" else f"{tp.__module__}.{tp.__qualname__}"
    return repr(tp).replace("typing_extensions.", "").replace("typing.", "")


class Walker(RecursionTracker):
    """Walks the annotations of one tool; one instance per tool."""

    def __init__(
        self,
        module: str,
        providers: tuple[type[TypeProvider], ...],
        namespace: dict[str, Any],
        shared: SharedAnnotations | None = None,
    ) -> None:
        self.module = module
        self.providers = providers
        self.defs: dict[str, ir.TypeNode] = {}
        self.classes: dict[str, Any] = {}
        self.findings: list[Finding] = []
        self.providers_used: list[str] = []
        self._names: dict[Hashable, str] = {}
        self._active: set[Hashable] = set()
        self._namespaces: list[dict[str, Any]] = [namespace]
        self._bindings: list[dict[Any, ir.TypeNode]] = [{}]
        self.path: list[str | int] = []
        #: Each ``Annotated``'s metadata, read once for this tool (its parameters, the walk, the descriptions).
        self.metadata = MetadataReader()
        self._depth = 0
        #: What the module's other tools evaluated and walked (``shared_annotations``); for this tool alone if none.
        self._shared = shared if shared is not None else SharedAnnotations()

    # -- state ---------------------------------------------------------------

    def checkpoint(self) -> tuple[Any, ...]:
        """A snapshot of what the walker collected, for ``restore``."""
        return (dict(self.defs), dict(self.classes), list(self.findings), list(self.providers_used), dict(self._names))

    def restore(self, snapshot: tuple[Any, ...]) -> None:
        """Forget everything collected since ``snapshot`` (a walk that failed)."""
        defs, classes, findings, providers, names = snapshot
        self.defs, self.classes, self.findings, self.providers_used, self._names = (
            dict(defs),
            dict(classes),
            list(findings),
            list(providers),
            dict(names),
        )

    def fail(self, message: str) -> SchemaError:
        """A ``SchemaError`` for ``message``, saying where inside the parameter it happened."""
        where = f" (at {'.'.join(map(str, self.path))})" if self.path else ""
        return SchemaError(f"{message}{where}")

    def note(self, code: typing.Literal["toolcall-type", "toolcall-default"], message: str) -> None:
        """Record a finding at the current path (the caller adds tool and parameter)."""
        self.findings.append(Finding(code, message, path=tuple(self.path)))

    def remember(self, ref: str, obj: Any) -> str:
        """Record that the IR names ``obj`` by ``ref``; returns ``ref``."""
        self.classes.setdefault(ref, obj)
        return ref

    @contextmanager
    def scope(self, module: str | None, bindings: dict[Any, ir.TypeNode]) -> Iterator[None]:
        """Walk inside a class or alias: its module's names, its own type arguments."""
        self._namespaces.append(module_globals(module) if module else self._namespaces[-1])
        self._bindings.append(bindings)
        try:
            yield
        finally:
            self._namespaces.pop()
            self._bindings.pop()

    # -- walking -------------------------------------------------------------

    def walk(self, tp: Any) -> ir.TypeNode:
        """The IR node of annotation ``tp``; raises ``SchemaError`` when none describes it."""
        if self._depth >= MAX_DEPTH:
            # Only a generic type that recurs with ever-growing arguments gets here.
            raise self.fail(messages.nests_too_deep(type_name(tp)))
        self._depth += 1
        try:
            # A plain primitive class (most parameters are ``str``, ``int``...) is what every handler before
            # ``_class`` passes over: answered here, without asking each.
            primitive = _PRIMITIVES.get(tp) if type(tp) is type else None
            if primitive is not None:
                return ir.Primitive(primitive)
            for handler in _handlers_for(tp):
                node = handler(self, tp)
                if node is not None:
                    return node
        finally:
            self._depth -= 1
        raise self.fail(messages.no_schema(type_name(tp)))

    def walk_annotation(self, tp: Any) -> ir.TypeNode:
        """``walk`` of a parameter's or the return's annotation, taking a walk another tool of the module kept.

        Not once a recursive type was met in this tool: its name may change
        what a later walk gives.
        """
        if self._names:
            return self.walk(tp)
        kept = self._shared.walked(tp, self.providers)
        if kept is not None:
            self._take(kept.classes, kept.providers_used)
            return kept.node
        if not self._shared.keeps(tp):
            return self.walk(tp)
        return self._walk_to_keep(tp)

    def annotation_fact(self, tp: Any, kind: str, compute: Callable[[], _T]) -> _T:
        """``compute()``, a fact of annotation ``tp`` alone, taken from another tool of the module when it has it."""
        return self._shared.fact(tp, kind, compute)

    def _walk_to_keep(self, tp: Any) -> ir.TypeNode:
        """``walk``, recording what it adds so another tool can take it; kept when that is all it did."""
        classes, providers_used, findings = self.classes, self.providers_used, self.findings
        self.classes, self.providers_used, self.findings = {}, [], []
        defs, names = len(self.defs), len(self._names)
        try:
            node = self.walk(tp)
        finally:
            added = (tuple(self.classes.items()), tuple(self.providers_used), self.findings)
            self.classes, self.providers_used, self.findings = classes, providers_used, findings
            self._take(added[0], added[1])
            findings.extend(added[2])
        if not added[2] and len(self.defs) == defs and len(self._names) == names:
            self._shared.keep(Walked(tp, self.providers, node, added[0], added[1]))
        return node

    def _take(self, classes: tuple[tuple[str, Any], ...], providers_used: tuple[str, ...]) -> None:
        """Record what a walk recorded, as ``remember`` and ``_provided`` record it."""
        for ref, obj in classes:
            self.classes.setdefault(ref, obj)
        for ref in providers_used:
            if ref not in self.providers_used:
                self.providers_used.append(ref)

    def walk_args(self, args: tuple[Any, ...]) -> tuple[ir.TypeNode, ...]:
        """The nodes of type arguments."""
        return tuple(self.walk(arg) for arg in args)

    def bind(self, params: tuple[Any, ...], args: tuple[Any, ...]) -> dict[Any, ir.TypeNode]:
        """What a generic's type parameters stand for: its arguments, then the defaults of those left out (PEP 696).

        A default that names an earlier parameter stands for what that one is
        bound to; ``typing`` writes it into the arguments as that parameter
        (``Pair[int]`` is ``Pair[int, A]`` for ``class Pair[A, B = A]``).
        """
        bindings: dict[Any, ir.TypeNode] = {}
        for index, param in enumerate(params):
            default = typevar_default(param)
            if index < len(args):
                arg = args[index]
                earlier = arg is default and isinstance(arg, typing.TypeVar) and arg in bindings
                bindings[param] = bindings[arg] if earlier else self.walk(arg)
            elif default is not NO_DEFAULT:
                with self.scope(None, bindings):
                    bindings[param] = self.walk(default)
        return bindings

    def binding(self, typevar: Any) -> ir.TypeNode | None:
        """The node a type variable is bound to in the current scope."""
        return self._bindings[-1].get(typevar)

    def namespace_id(self) -> int:
        """Identifies the current scope's namespace (forward references are keyed by it)."""
        return id(self._namespaces[-1])

    def evaluate(self, text: str, module: str | None) -> Any:
        """Evaluate a string forward reference in its module (or the current scope's)."""
        namespace = module_globals(module) if module else self._namespaces[-1]
        try:
            return eval(text, dict(namespace))  # an annotation, as typing.get_type_hints does
        except NameError as exc:
            raise self.fail(f"cannot resolve the forward reference {text!r}: {exc}; define or import it") from None


# -- handlers: each returns a node, or None when the annotation is not its kind ---------------


def _annotated(w: Walker, tp: Any) -> ir.TypeNode | None:
    if te.get_origin(tp) not in _ANNOTATED:
        return None
    base = te.get_args(tp)[0]
    meta = w.metadata(tp)
    if meta.injected:
        raise w.fail(messages.INJECTED_INSIDE_TYPE)
    node = w.walk(base)
    if meta.string_integer:
        node = _string_integer(w, node, base)
    return apply_constraints(node, meta.constraints, type_name(tp))


def _string_integer(w: Walker, node: ir.TypeNode, base: Any) -> ir.TypeNode:
    swapped = as_string_integer(node)
    if swapped is None:
        raise w.fail(messages.string_integer_misfit(type_name(base)))
    return swapped


def _forward_ref(w: Walker, tp: Any) -> ir.TypeNode | None:
    if isinstance(tp, str):
        text, module = tp, None
    elif isinstance(tp, typing.ForwardRef):
        text, module = tp.__forward_arg__, getattr(tp, "__forward_module__", None)
    else:
        return None
    target = w.evaluate(text, module)
    if isinstance(target, (type, *_ALIAS_CLASSES)):
        return w.walk(target)  # a named type recurs under its own identity
    key = ("forward", module or w.namespace_id(), text)
    return w.keyed(key, text.rpartition(".")[2], lambda: w.walk(target))


def _typevar(w: Walker, tp: Any) -> ir.TypeNode | None:
    # An origin: typing_extensions' Unpack[...] before 3.11, which poses as a TypeVar.
    if not isinstance(tp, typing.TypeVar) or typing.get_origin(tp) is not None:
        return None
    bound = w.binding(tp)
    if bound is not None:
        return bound
    default = typevar_default(tp)
    if default is not NO_DEFAULT:  # unbound: a type checker takes the default (PEP 696), so do we
        return w.walk(default)
    if tp.__bound__ is not None:
        return w.walk(tp.__bound__)
    if tp.__constraints__:
        return union_of(w.walk_args(tp.__constraints__))
    w.note(TYPE, messages.unbound_typevar(tp.__name__))
    return ir.AnyType("typevar")


def _newtype(w: Walker, tp: Any) -> ir.TypeNode | None:
    supertype = getattr(tp, "__supertype__", None)
    if supertype is None or isinstance(tp, type):
        return None
    return w.walk(supertype)


def _alias(w: Walker, tp: Any) -> ir.TypeNode | None:
    # The subscripted form first: ``Alias[int]`` is an alias of ``Alias``, not an instance of its class.
    alias, args = te.get_origin(tp), te.get_args(tp)
    if not isinstance(alias, _ALIAS_CLASSES):
        alias, args = tp, ()
        if not isinstance(alias, _ALIAS_CLASSES):
            return None
    bindings = w.bind(getattr(alias, "__type_params__", ()), args)
    arg_nodes = tuple(bindings.values())

    def build() -> ir.TypeNode:
        with w.scope(getattr(alias, "__module__", None), bindings):
            return w.walk(alias.__value__)

    return w.keyed(("alias", alias, arg_nodes), alias.__name__, build)


def _special(w: Walker, tp: Any) -> ir.TypeNode | None:
    if tp is None or tp is type(None):
        return ir.Primitive("none")
    # Identity, not ``in``: an annotation may be unhashable (``x: [int]``).
    if any(tp is special for special in _ANYS):
        return ir.AnyType("any")
    if tp is object:
        return ir.AnyType("object")
    if any(tp is special for special in _STRS):
        return ir.Primitive("str")
    return None


def _literal(w: Walker, tp: Any) -> ir.TypeNode | None:
    if te.get_origin(tp) not in _LITERALS:
        return None
    members = (_literal_member(w, value) for value in te.get_args(tp))
    return literal_union(members, lambda cls, values: _enum_node(w, cls, values))


def _literal_member(w: Walker, value: object) -> tuple[type[enum.Enum] | None, ir.JsonScalar]:
    """A value a ``Literal[...]`` lists, with its Enum class (``None`` for a plain value)."""
    if isinstance(value, enum.Enum):
        return type(value), _enum_value(w, type(value), value)
    if is_json_scalar(value):
        return None, value
    raise w.fail(messages.literal_not_scalar(value))


def _union(w: Walker, tp: Any) -> ir.TypeNode | None:
    origin = te.get_origin(tp)
    if origin is not typing.Union and not (isinstance(tp, types.UnionType)):
        return None
    return union_of(w.walk_args(te.get_args(tp)))


def _qualifier(w: Walker, tp: Any) -> ir.TypeNode | None:
    if te.get_origin(tp) not in _QUALIFIERS:
        return None
    return w.walk(te.get_args(tp)[0])


def _container(w: Walker, tp: Any) -> ir.TypeNode | None:
    origin = te.get_origin(tp)
    if origin is None and isinstance(tp, type):
        origin = tp  # a bare ``list``, ``dict``, ...
    args = te.get_args(tp)
    container = _ARRAYS.get(origin)
    if container is not None:
        return ir.ArrayType(w.walk(args[0]) if args else ir.AnyType("any"), container)
    if origin is tuple:
        return _tuple(w, tp, args)
    if origin in _MAPS:
        return _mapping(w, args)
    if origin is type or origin is collections.abc.Callable:
        raise w.fail(messages.not_carried(type_name(tp), "a class object" if origin is type else "a callable"))
    return None


def _tuple(w: Walker, tp: Any, args: tuple[Any, ...]) -> ir.TypeNode:
    if tp is tuple or tp is typing.Tuple:  # noqa: UP006 - the bare typing alias is a distinct object
        return ir.ArrayType(ir.AnyType("any"), "tuple")
    if len(args) == 2 and args[1] is Ellipsis:
        return ir.ArrayType(w.walk(args[0]), "tuple")
    return ir.TupleType(w.walk_args(args))


def _mapping(w: Walker, args: tuple[Any, ...]) -> ir.TypeNode:
    if not args:
        return ir.MapType(ir.AnyType("any"))
    if args[0] is not str:
        raise w.fail(messages.mapping_key_not_str(type_name(args[0])))
    return ir.MapType(w.walk(args[1]))


def _class(w: Walker, tp: Any) -> ir.TypeNode | None:
    # The subscripted form first: ``list[int]`` is the generic ``list`` given arguments.
    cls, args = te.get_origin(tp), te.get_args(tp)
    if cls is None:
        cls, args = tp, ()
    if not isinstance(cls, type):
        return None
    primitive = _PRIMITIVES.get(cls)
    if primitive is not None:
        return ir.Primitive(primitive)
    custom = self_described(cls)
    if custom is not None:
        w.remember(custom.ref, cls)
        return custom
    if issubclass(cls, enum.Enum):
        return _enum_node(w, cls, tuple(_enum_value(w, cls, m) for m in cls))
    structured = structs.structured(w, cls, args)
    if structured is not None:
        return structured
    if issubclass(cls, os.PathLike):
        return ir.Primitive("path")
    return _provided(w, cls, args)


def _provided(w: Walker, cls: type[Any], args: tuple[Any, ...]) -> ir.TypeNode | None:
    provided = from_providers(cls, tuple(type_fullname(a) for a in args), w.providers)
    if provided is None:
        return None
    w.remember(provided.node.ref, cls)
    provider_ref = w.remember(class_ref(provided.provider), provided.provider)
    if provider_ref not in w.providers_used:
        w.providers_used.append(provider_ref)
    return provided.node


def _enum_value(w: Walker, cls: type[enum.Enum], member: enum.Enum) -> ir.JsonScalar:
    value = member.value
    if is_json_scalar(value):
        return value
    raise w.fail(messages.enum_value_not_scalar(type_name(cls), repr(value), member.name))


def _enum_node(w: Walker, cls: type[enum.Enum], values: tuple[ir.JsonScalar, ...]) -> ir.EnumType:
    from toolcall._introspect.docs import class_description

    return ir.EnumType(w.remember(class_ref(cls), cls), values, class_description(cls))


_HANDLERS: Final[tuple[Callable[[Walker, Any], ir.TypeNode | None], ...]] = (
    _annotated,
    _forward_ref,
    _typevar,
    _newtype,
    _alias,
    _special,
    _literal,
    _union,
    _qualifier,
    _container,
    _class,
)

#: The handlers from ``_union`` on, and from ``_container`` on: where the walk starts for an annotation whose
#: Python type alone says that every handler before passes it over (``_handlers_for``).
_FROM_UNION: Final = _HANDLERS[_HANDLERS.index(_union) :]
_FROM_CONTAINER: Final = _HANDLERS[_HANDLERS.index(_container) :]
#: The classes a builtin ``types.GenericAlias`` of a container has as its origin (``list[int]``, ``dict[str, X]``).
_CONTAINER_ORIGINS: Final = frozenset((*_ARRAYS, *_MAPS, tuple, type))


def _handlers_for(tp: Any) -> tuple[Callable[[Walker, Any], ir.TypeNode | None], ...]:
    """The handlers to ask for ``tp``, in order: all of them, or the tail that can answer ``X | Y`` and ``list[X]``.

    Most annotations that are not a plain class are one of those two, and
    each handler before would only look and pass (a few microseconds each).
    """
    kind = type(tp)
    if kind is types.UnionType:
        return _FROM_UNION
    if kind is types.GenericAlias and tp.__origin__ in _CONTAINER_ORIGINS:
        return _FROM_CONTAINER
    return _HANDLERS
