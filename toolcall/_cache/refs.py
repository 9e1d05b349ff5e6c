"""The classes a cached tool names, resolved so that the cache chooses no code to run.

A cache file is data: its seal is an unkeyed digest anyone can recompute, so
a forged file must not be able to name ``os:system`` and have the dispatcher
call it. ``resolve_refs`` therefore resolves a ``"module:qualname"`` ref only

* from a module already in ``sys.modules``, or one it may import: a module
  of the tool module's own top-level package (where a tool's classes live,
  maybe imported by the tool module under ``TYPE_CHECKING`` only);
* through the ``__dict__`` of modules and classes, never ``getattr``: no
  module ``__getattr__``, metaclass ``__getattr__`` or descriptor runs, and
  a dunder name (``__globals__``, ``__builtins__``) is refused outright;
* to a class of the kind the IR node says: a TypedDict, dataclass or
  NamedTuple for an object, an Enum for an enum, a class that carries its
  schema (or any class, when a provider describes it) for a custom type, a
  ``TypeProvider`` subclass for a provider.

Anything else raises ``MalformedCacheError`` naming the ref and the reason.
"""

from __future__ import annotations

import enum
import importlib
import sys
import typing
from collections.abc import Callable, Iterator
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import Any, Final, TypeGuard

from toolcall import _ir as ir
from toolcall._cache.constants import MalformedCacheError
from toolcall._declarations.custom import COERCE_ATTRIBUTE, SCHEMA_ATTRIBUTE, TypeProvider

__all__ = ["resolve_refs"]

_ABSENT: Final = object()
# The descriptors behind ``cls.__mro__``, ``cls.__dict__`` and ``module.__dict__``, taken from the base
# classes so that a metaclass or module subclass cannot put code of its own in their place.
_MRO: Final = vars(type)["__mro__"]
_CLASS_DICT: Final = vars(type)["__dict__"]
_MODULE_DICT: Final = vars(ModuleType)["__dict__"]
_FUNCTIONS: Final = (FunctionType, BuiltinFunctionType, MethodType)
_SHAPES: Final = ("typeddict", "dataclass", "namedtuple")


def resolve_refs(tool: ir.Tool, module: str) -> dict[str, Any]:
    """``{ref: class}`` for every ref of ``tool`` (sorted), each checked against what its nodes declare.

    ``module`` is the tool module's name, as the loader knows it (not as the
    cache says): its top-level package is the one whose modules may be imported.
    """
    package = module.partition(".")[0]
    kinds = _ref_kinds(tool)
    return {ref: _resolve(ref, kinds[ref], package) for ref in sorted(kinds)}


def _ref_kinds(tool: ir.Tool) -> dict[str, set[str]]:
    """Each ref the loader resolves today (``loader._refs``: parameters, defs, providers) → the kinds it must be."""
    kinds: dict[str, set[str]] = {}
    for ref, kind in _tool_kinds(tool):
        if not isinstance(ref, str):  # the IR decoder keeps whatever JSON the file holds
            raise MalformedCacheError(f"a ref is not a string: {ref!r:.80}")
        kinds.setdefault(ref, set()).add(kind)
    return kinds


def _tool_kinds(tool: ir.Tool) -> Iterator[tuple[str, str]]:
    """Every (ref, kind) pair of the tool, its providers first."""
    if not isinstance(tool.providers, tuple):
        raise MalformedCacheError("the tool's providers are not a list")
    for provider in tool.providers:
        yield provider, "provider"
    stack: list[ir.TypeNode] = [p.type for p in tool.parameters] + [d.type for d in tool.defs]
    while stack:
        node = stack.pop()
        yield from _node_kinds(node)
        stack.extend(ir.child_types(node))


def _node_kinds(node: ir.TypeNode) -> Iterator[tuple[str, str]]:
    """The refs one node names and the kind each must be."""
    if isinstance(node, ir.ObjectType):
        if node.shape not in _SHAPES:
            raise MalformedCacheError(f"ref {node.ref!r:.200} has an unknown object shape {node.shape!r:.40}")
        yield node.ref, node.shape
    elif isinstance(node, ir.EnumType):
        yield node.ref, "enum"
    elif isinstance(node, ir.CustomType) and node.provider is not None:
        yield node.ref, "class"  # the provider describes and coerces it: any class will do
        yield node.provider, "provider"
    elif isinstance(node, ir.CustomType):
        yield node.ref, "self-described"
        if node.coerce:  # the dispatcher calls the class's own hook
            yield node.ref, "self-coercing"


# (ref, kind, package) -> the class it resolved to: a module of many tools names the same classes again and
# again. Only what resolved is kept (a module imported later may make a refused ref resolve); two threads
# may resolve one ref at once, and both get the same class.
_RESOLVED: dict[tuple[str, str, str], Any] = {}


def _resolve(ref: str, kinds: set[str], package: str) -> Any:
    """The class ``ref`` names, when it is of every kind in ``kinds``."""
    key = (ref, ",".join(sorted(kinds)), package)
    found = _RESOLVED.get(key, _ABSENT)
    if found is _ABSENT:
        found = _RESOLVED[key] = _resolved(ref, kinds, package)
    return found


def _resolved(ref: str, kinds: set[str], package: str) -> Any:
    module_name, qualname = _split(ref)
    obj: Any = _module(ref, module_name, package)
    for part in qualname:
        if not (_is_class(obj) or _is_module(obj)):
            raise MalformedCacheError(f"ref {ref!r} reaches {_what(obj)} before {part!r}")
        obj = _lookup(obj, part)
        if obj is _ABSENT:
            raise MalformedCacheError(f"ref {ref!r} names nothing: there is no {part!r}")
    for kind in sorted(kinds):
        _check(ref, obj, kind)
    return obj


def _split(ref: str) -> tuple[str, list[str]]:
    """The module name and the qualname's parts of ``"module:qualname"``, each part a plain identifier."""
    module_name, colon, qualname = ref.partition(":")
    if not colon:
        raise MalformedCacheError(f"ref {ref!r} is not of the form 'module:qualname'")
    for part in module_name.split("."):
        if not part.isidentifier():
            raise MalformedCacheError(f"ref {ref!r} has a malformed module name")
    parts = qualname.split(".")
    for part in parts:
        if not part.isidentifier():
            raise MalformedCacheError(f"ref {ref!r} has an empty or malformed part in its qualname")
        if _is_dunder(part):  # the way out of a class to its functions' globals, builtins, loaders
            raise MalformedCacheError(f"ref {ref!r} has a dunder part ({part!r}) in its qualname")
    return module_name, parts


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _module(ref: str, name: str, package: str) -> ModuleType:
    """The module ``name``: already imported, else imported only inside ``package``."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        if not _is_module(loaded):  # a placeholder some library put there: not ours to read
            raise MalformedCacheError(f"ref {ref!r}: sys.modules[{name!r}] is not a module")
        return loaded
    if name.partition(".")[0] != package:
        raise MalformedCacheError(f"ref {ref!r}: module {name!r} is outside package {package!r} and not imported")
    if any(_is_dunder(part) for part in name.split(".")):  # e.g. pkg.__init__ would run the package twice
        raise MalformedCacheError(f"ref {ref!r}: module {name!r} has a dunder part")
    try:
        return importlib.import_module(name)
    except Exception as exc:  # the package's own bug or a missing module: either way the ref cannot be served
        raise MalformedCacheError(f"ref {ref!r}: importing {name!r} failed: {type(exc).__name__}: {exc}") from exc


def _lookup(owner: type[Any] | ModuleType, name: str) -> Any:
    """``owner.name`` as stored: a module's own ``__dict__``, else the class's (then its metaclass's) MRO.

    Nothing is called on the way: a descriptor comes back as itself, and a
    module's ``__getattr__`` (lazy imports) is never asked.
    """
    if _is_module(owner):
        return _MODULE_DICT.__get__(owner).get(name, _ABSENT)
    for klass in (*_MRO.__get__(owner), *_MRO.__get__(type(owner))):
        namespace = _CLASS_DICT.__get__(klass)
        if name in namespace:
            return namespace[name]
    return _ABSENT


# These ask type(obj), not isinstance: isinstance falls back on obj.__class__, which may be a property (code).
def _is_class(obj: object) -> TypeGuard[type[Any]]:
    return issubclass(type(obj), type)


def _is_module(obj: object) -> TypeGuard[ModuleType]:
    return issubclass(type(obj), ModuleType)


def _has(cls: type[Any], name: str) -> bool:
    return _lookup(cls, name) is not _ABSENT


def _is_typeddict(obj: object) -> bool:
    if not _is_class(obj):
        return False
    # typing_extensions makes TypedDicts of its own class; one can exist only if it was imported.
    extensions = sys.modules.get("typing_extensions")
    is_extension_typeddict: Callable[[object], bool] | None = getattr(extensions, "is_typeddict", None)
    return typing.is_typeddict(obj) or (is_extension_typeddict is not None and is_extension_typeddict(obj))


def _is_dataclass(obj: object) -> bool:
    # dataclasses.is_dataclass is hasattr(cls, "__dataclass_fields__"); the same, looked up statically.
    return _is_class(obj) and issubclass(type(_lookup(obj, "__dataclass_fields__")), dict)


def _is_namedtuple(obj: object) -> bool:
    return _is_class(obj) and tuple in _MRO.__get__(obj) and issubclass(type(_lookup(obj, "_fields")), tuple)


def _is_enum(obj: object) -> bool:
    return _is_class(obj) and enum.Enum in _MRO.__get__(obj)


def _is_self_described(obj: object) -> bool:
    return _is_class(obj) and _has(obj, SCHEMA_ATTRIBUTE)


def _is_self_coercing(obj: object) -> bool:
    return _is_class(obj) and _has(obj, COERCE_ATTRIBUTE)


def _is_provider(obj: object) -> bool:
    # A real subclass (its MRO), not ABC's issubclass, which would accept registered virtual subclasses.
    return _is_class(obj) and obj is not TypeProvider and TypeProvider in _MRO.__get__(obj)


#: Each kind a ref may have to be: what to call it in a refusal, and the check.
_KINDS: Final[dict[str, tuple[str, Callable[[object], bool]]]] = {
    "typeddict": ("a TypedDict", _is_typeddict),
    "dataclass": ("a dataclass", _is_dataclass),
    "namedtuple": ("a NamedTuple", _is_namedtuple),
    "enum": ("an Enum", _is_enum),
    "class": ("a class", _is_class),
    "self-described": (f"a class with {SCHEMA_ATTRIBUTE}", _is_self_described),
    "self-coercing": (f"a class with {COERCE_ATTRIBUTE}", _is_self_coercing),
    "provider": ("a TypeProvider subclass", _is_provider),
}


def _check(ref: str, obj: object, kind: str) -> None:
    """Refuse ``obj`` unless it is of ``kind``."""
    noun, accepts = _KINDS[kind]
    if not accepts(obj):
        raise MalformedCacheError(f"ref {ref!r} names {_what(obj)}, not {noun}")


def _what(obj: object) -> str:
    """What ``obj`` is, in a few words, for a refusal."""
    if issubclass(type(obj), _FUNCTIONS):
        return "a function"
    if _is_module(obj):
        return "a module"
    if not _is_class(obj):
        return f"a {type(obj).__name__} object"
    for kind in ("typeddict", "dataclass", "namedtuple", "enum", "provider", "self-described"):
        noun, accepts = _KINDS[kind]
        if accepts(obj):
            return noun
    return "a plain class"
