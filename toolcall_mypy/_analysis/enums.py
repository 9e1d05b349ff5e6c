"""Enum classes → ``EnumType``: their members' values, as iterating the class gives them at run time.

A member's value is what mypy inferred (``Var.type.last_known_value``:
``final_value`` is ``None`` for enum members), else its assignment in the
class body: a literal, a ``Final``, or ``enum.auto()`` under the standard
rules of ``Enum``, ``IntEnum``, ``StrEnum`` and ``Flag``. Members in
definition order; an alias (a value an earlier member has) is left out.
An inferred str holding U+FFFD is taken from the class body, which says
whether mypy's parser replaced a lone surrogate there (``surrogates``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from mypy.nodes import TypeInfo, Var
from mypy.types import Instance, get_proper_type

from toolcall import _ir as ir
from toolcall._rules import messages
from toolcall._rules.defaults import NotJson
from toolcall._rules.json_literals import is_json_scalar
from toolcall_mypy._analysis import classes
from toolcall_mypy._analysis.defaults import Env, Unreadable, from_ast
from toolcall_mypy._source import surrogates
from toolcall_mypy._source.names import Sources
from toolcall_mypy._source.syntax import Src

__all__ = ["Enums"]

_Values = dict[str, tuple[ir.JsonValue, str]]  # member -> (value, its text for messages); never changed once read


@dataclass(frozen=True)
class _Inferred:
    """An Enum's member values, all inferred by mypy, for every walk of the module (``Sources.shared``)."""

    values: _Values


class Enums:
    """The Enum classes one walk meets, their member values read once.

    ``fail`` makes the exception for an enum no schema describes (the
    walker's, which knows where in the parameter it is).
    """

    def __init__(self, sources: Sources, env: Env, fail: Callable[[str], Exception]) -> None:
        self._sources = sources
        self._env = env
        self._fail = fail
        self._infos: dict[str, TypeInfo] = {}
        self.meetings: list[TypeInfo] = []  # each time a class was met, in order (for nodes shared between walks)
        self._values: dict[str, _Values] = {}

    def node(self, info: TypeInfo, values: tuple[ir.JsonScalar, ...] | None = None) -> ir.EnumType:
        """The ``EnumType`` of ``info``: every member, or only ``values`` (the members a ``Literal`` lists)."""
        self.meet(info)
        if values is None:
            values = tuple(value for _, value in self._members(info))
        return ir.EnumType(classes.info_ref(info), values, classes.class_description(self._sources, info))

    def met(self, fullname: str) -> TypeInfo:
        """The Enum class named ``fullname`` this walk met (``scalar`` or ``node`` was called for it)."""
        return self._infos[fullname]

    def meet(self, info: TypeInfo) -> None:
        """Count ``info`` as met (also for a node another walk built, which met it)."""
        self._infos[info.fullname] = info
        self.meetings.append(info)

    def scalar(self, info: TypeInfo, member: str) -> ir.JsonScalar:
        """The value of one member, which must be a JSON scalar."""
        self.meet(info)
        value, text = self._member(info, member)
        return self._checked(info, member, value, text)

    def value(self, info: TypeInfo, member: str) -> ir.JsonValue:
        """The value of a member a default names; raises ``Unreadable`` when it cannot be read."""
        self.meet(info)
        try:
            return self._member(info, member)[0]
        except Exception:  # the walker's failure, here only a reason the default cannot be read
            raise Unreadable(messages.shorten(f"{info.name}.{member}")) from None

    def value_by_name(self, fullname: str, member: str) -> ir.JsonValue:
        """The value of a member of an Enum this walk met, by the class's full name; raises ``Unreadable``."""
        info = self._infos.get(fullname)
        if info is None:
            raise Unreadable(messages.shorten(f"{fullname.rpartition('.')[2]}.{member}"))
        return self.value(info, member)

    def _members(self, info: TypeInfo) -> list[tuple[str, ir.JsonScalar]]:
        members: list[tuple[str, ir.JsonScalar]] = []
        for name, (value, text) in self._read(info).items():
            if any(value == seen for _, seen in members):
                continue  # an alias, as Enum makes it (by equality)
            members.append((name, self._checked(info, name, value, text)))
        return members

    def _checked(self, info: TypeInfo, member: str, value: ir.JsonValue, text: str) -> ir.JsonScalar:
        if is_json_scalar(value):
            return value
        raise self._fail(messages.enum_value_not_scalar(info.fullname, text, member))

    def _member(self, info: TypeInfo, member: str) -> tuple[ir.JsonValue, str]:
        value = self._read(info).get(member)
        if value is None:
            raise self._fail(f"{info.fullname}.{member} is not a member the plugin can read")
        return value

    def _read(self, info: TypeInfo) -> _Values:
        cached = self._values.get(info.fullname)
        if cached is None:
            cached = self._values[info.fullname] = self._read_shared(info)
        return cached

    def _read_shared(self, info: TypeInfo) -> _Values:
        """The members' values; when mypy inferred them all, the module's other walks reuse them."""
        key = ("enum values", info.fullname)
        shared = self._sources.shared.get(key)
        if isinstance(shared, _Inferred):
            return shared.values
        values, inferred = self._read_class(info)
        if inferred:  # nothing was evaluated with this walk (its Enum classes met, its path for messages)
            self._sources.shared[key] = _Inferred(values)
        return values

    def _read_class(self, info: TypeInfo) -> tuple[_Values, bool]:
        """The members' values, and whether mypy inferred every one."""
        own = classes.class_source(self._sources, info)
        lineage = [own] if own is not None else []
        values: _Values = {}
        inferred = True
        for name in classes.declaration_order(lineage, info.enum_members, annotated=False):
            known = _inferred_value(info, name)
            if known is not None and not surrogates.suspect(known[0]):
                values[name] = known
                continue
            inferred = False  # mypy's value may have lost a lone surrogate: the class body says which
            statement = own[0].class_body(own[1]).field(name) if own is not None else None
            expr = statement.value if statement is not None else None
            if (own is None or expr is None) and known is not None:
                raise self._fail(_unconfirmed(info, name, known[1]))
            if own is None or expr is None:
                raise self._fail(f"the plugin cannot read the value of {info.fullname}.{name}; write it as a literal")
            value = self._from_source(info, name, Src(expr, own[0]), values)
            if known is not None and surrogates.confirmed(str(known[0]), value) is None:
                raise self._fail(_unconfirmed(info, name, known[1]))
            values[name] = (value, ast.unparse(expr))
        return values, inferred

    def _from_source(self, info: TypeInfo, name: str, expr: Src, before: _Values) -> ir.JsonValue:
        if isinstance(expr.expr, ast.Call) and expr.module.dotted(expr.expr.func) == "enum.auto":
            return self._auto(info, name, [value for value, _ in before.values()])
        try:
            return from_ast(expr, self._env)
        except (NotJson, Unreadable):
            raise self._fail(
                f"the plugin cannot read the value of {info.fullname}.{name} ({ast.unparse(expr.expr)}); "
                "write it as a literal"
            ) from None

    def _auto(self, info: TypeInfo, name: str, before: list[ir.JsonValue]) -> ir.JsonValue:
        """``enum.auto()``: the standard ``_generate_next_value_`` of Enum, IntEnum, StrEnum and Flag."""
        custom = any("_generate_next_value_" in c.names for c in info.mro if c.module_name != "enum")
        if not custom and info.has_base("enum.StrEnum"):
            return name.lower()
        ints = [value for value in before if isinstance(value, int) and not isinstance(value, bool)]
        if custom or len(ints) != len(before) or (ints and ints[-1] != max(ints)):
            raise self._fail(f"the plugin cannot compute {info.fullname}.{name} = auto(); write the value")
        if info.has_base("enum.Flag"):
            return 2 ** max(ints).bit_length() if ints else 1
        return ints[-1] + 1 if ints else 1


def _unconfirmed(info: TypeInfo, name: str, text: str) -> str:
    return surrogates.unconfirmed(
        f"the value {text} of {info.fullname}.{name}",
        "the enum has no schema",
        "assign the member a string literal in its class body, or a value without lone surrogates",
    )


def _inferred_value(info: TypeInfo, name: str) -> tuple[ir.JsonValue, str] | None:
    """A member's value as mypy inferred it (``Literal['c']?`` keeps it in ``last_known_value``)."""
    symbol = info.names.get(name)
    node = symbol.node if symbol is not None else None
    if not isinstance(node, Var):
        return None
    inferred = get_proper_type(node.type) if node.type is not None else None
    known = inferred.last_known_value if isinstance(inferred, Instance) else None
    if known is None or known.fallback.type.is_enum or known.fallback.type.fullname == "builtins.bytes":
        return None
    value = known.value
    assert isinstance(value, (str, int, float, bool))
    return value, repr(value)
