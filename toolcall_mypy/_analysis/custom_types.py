"""Custom types: classes with ``__toolcall_schema__`` and the module's ``TypeProvider``s (runtime customtypes.py).

``__toolcall_schema__`` is read from the class body that defines it (a JSON
literal, so the plugin can read it); the providers the module names in
``use_types(...)`` are imported, as they must be where mypy runs, and asked
the same ``resolve(fullname, args)`` the runtime asks. The answers are
checked by the runtime's rules (``toolcall._rules.custom_schemas``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from mypy.nodes import TypeInfo
from mypy.types import Instance, NoneType, Type, get_proper_type

from toolcall import _ir as ir
from toolcall._declarations.custom import (
    COERCE_ATTRIBUTE,
    SCHEMA_ATTRIBUTE,
    TypeProvider,
    class_ref,
    provider_instance,
    resolve_ref,
)
from toolcall._rules import messages
from toolcall._rules.custom_schemas import NONE_ARGUMENT, provider_coerces, schema_text
from toolcall._rules.defaults import NotJson
from toolcall_mypy._analysis import classes
from toolcall_mypy._analysis.defaults import Env, Unreadable, from_ast
from toolcall_mypy._source.names import Sources
from toolcall_mypy._source.syntax import Src

__all__ = ["Providers", "self_described"]


def self_described(
    sources: Sources, env: Env, info: TypeInfo, fail: Callable[[str], Exception]
) -> ir.CustomType | None:
    """The ``CustomType`` of a class that has ``__toolcall_schema__`` (its own or a base's), else ``None``."""
    owner = next((klass for klass in info.mro if SCHEMA_ATTRIBUTE in klass.names), None)
    if owner is None:
        return None
    where = f"{info.fullname}.{SCHEMA_ATTRIBUTE}"
    source = classes.class_source(sources, owner)
    statement = source[0].class_body(source[1]).field(SCHEMA_ATTRIBUTE) if source is not None else None
    value = statement.value if statement is not None else None
    if source is None or value is None:
        raise fail(f"{where}: the plugin reads it from the class body; assign it a dict literal there")
    try:
        schema = from_ast(Src(value, source[0]), env)
    except (NotJson, Unreadable):
        schema = None
    text = schema_text(schema)
    if text is None:
        raise fail(messages.not_json_schema(where, messages.shorten(ast.unparse(value))))
    coerce = any(COERCE_ATTRIBUTE in klass.names for klass in info.mro)
    return ir.CustomType(classes.info_ref(info), text, None, coerce)


class Providers:
    """The ``TypeProvider`` classes of one tool module, imported on first need; ``used`` in order of first use."""

    def __init__(self, refs: tuple[str, ...]) -> None:
        self._refs = refs
        self._classes: list[tuple[str, type[TypeProvider]]] | None = None
        self.problems: list[str] = []
        self.used: list[str] = []

    def describe(self, p: Instance, fail: Callable[[str], Exception]) -> ir.CustomType | None:
        """Ask each provider in turn for ``p``'s schema; the first one wins."""
        fullname = p.type.fullname
        args = tuple(_type_fullname(arg) for arg in p.args)
        for ref, provider in self._providers():
            try:
                schema = provider_instance(provider).resolve(fullname, args)
            except Exception as exc:  # a provider's bug, reported like a missing schema
                raise fail(f"{ref} failed to describe {fullname}: {type(exc).__name__}: {exc}") from None
            if schema is None:
                continue
            text = schema_text(schema)
            if text is None:
                raise fail(messages.not_json_schema(f"{ref.replace(':', '.')}.resolve({fullname!r})", repr(schema)))
            if ref not in self.used:
                self.used.append(ref)
            return ir.CustomType(classes.info_ref(p.type), text, ref, provider_coerces(provider), args)
        return None

    def _providers(self) -> list[tuple[str, type[TypeProvider]]]:
        if self._classes is None:
            self._classes = []
            for ref in self._refs:
                try:
                    provider = resolve_ref(ref)
                except Exception as exc:  # any import failure: the provider must be importable where mypy runs
                    self.problems.append(
                        f"the TypeProvider {ref} cannot be imported where mypy runs: {type(exc).__name__}: {exc}"
                    )
                    continue
                if isinstance(provider, type) and issubclass(provider, TypeProvider):
                    self._classes.append((class_ref(provider), provider))
                else:
                    self.problems.append(f"{ref} is not a toolcall.TypeProvider subclass")
        return self._classes


def _type_fullname(t: Type) -> str:
    """A type argument's full name as providers receive it (``"builtins.int"``)."""
    p = get_proper_type(t)
    if isinstance(p, NoneType):
        return NONE_ARGUMENT
    if isinstance(p, Instance):
        return p.type.fullname
    return str(p)
