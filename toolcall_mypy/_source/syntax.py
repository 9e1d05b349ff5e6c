"""Annotations as written, walked beside mypy's analyzed types: what the analyzed types drop.

mypy's analyzed types lose how an annotation was written: its ``Annotated``
layers, string quotes, TypedDict qualifiers, the plain aliases it names,
the options of a union and the values of a ``Literal`` as spelled. The
walkers (``toolcall_mypy._analysis.types``, ``toolcall_mypy._analysis.structs``) keep the
annotation written for a parameter or a class field, and the value of a
type alias, beside the analyzed type (``Src``), and read it with these:
``peel``, ``plain_alias``, ``alias_value``, ``union_options``,
``literal_values``, ``subscript_args``. Names in it are resolved by
``toolcall_mypy._source.names``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Final, Union

from toolcall._rules.type_rules import QUALIFIERS as QUALIFIER_NAMES
from toolcall_mypy._source.names import MAX_HOPS, ModuleSource, assigned_value

__all__ = [
    "FINAL",
    "LITERAL",
    "Bindings",
    "Levels",
    "Src",
    "alias_value",
    "bindings_of",
    "is_none",
    "literal_items",
    "literal_values",
    "peel",
    "plain_alias",
    "subscript_args",
    "union_options",
]

ANNOTATED: Final = frozenset({"typing.Annotated", "typing_extensions.Annotated"})
LITERAL: Final = frozenset({"typing.Literal", "typing_extensions.Literal"})
UNION: Final = frozenset({"typing.Union", "typing_extensions.Union"})
OPTIONAL: Final = frozenset({"typing.Optional", "typing_extensions.Optional"})
QUALIFIERS: Final = frozenset(
    f"{module}.{name}" for module in ("typing", "typing_extensions") for name in QUALIFIER_NAMES
)
TYPE_ALIAS: Final = frozenset({"typing.TypeAlias", "typing_extensions.TypeAlias"})
TYPE_ALIAS_TYPE: Final = frozenset({"typing.TypeAliasType", "typing_extensions.TypeAliasType"})
FINAL: Final = frozenset({"typing.Final", "typing_extensions.Final"})

Bindings = tuple[tuple[str, Union["Src", None]], ...]  # type parameter names -> their written arguments


@dataclass(frozen=True, slots=True)
class Src:
    """An annotation expression, the module it is written in, and its alias/class type parameters."""

    expr: ast.expr
    module: ModuleSource
    bindings: tuple[tuple[str, Src | None], ...] = ()

    def at(self, expr: ast.expr) -> Src:
        """Another expression of the same module and scope."""
        return Src(expr, self.module, self.bindings)

    def dotted(self) -> str | None:
        """The dotted name this expression (or its subscripted base) stands for."""
        target = self.expr.value if isinstance(self.expr, ast.Subscript) else self.expr
        return self.module.dotted(target)

    def is_subscript_of(self, names: frozenset[str]) -> bool:
        """Whether this is ``X[...]`` for one of ``names``."""
        return isinstance(self.expr, ast.Subscript) and self.dotted() in names

    def elements(self) -> list[Src]:
        """The subscript's arguments (``X[a, b]`` → ``a``, ``b``)."""
        assert isinstance(self.expr, ast.Subscript)
        inner = self.expr.slice
        items = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        return [self.at(item) for item in items]


def _bound(src: Src) -> Src | bool | None:
    """The binding of a type parameter name, or ``False`` when ``src`` is not one."""
    if isinstance(src.expr, ast.Name):
        for name, value in src.bindings:
            if name == src.expr.id:
                return value
    return False


def is_none(src: Src) -> bool:
    """Whether ``src`` is the constant ``None``."""
    return isinstance(src.expr, ast.Constant) and src.expr.value is None


def _parsed_string(src: Src) -> Src | None:
    assert isinstance(src.expr, ast.Constant)
    assert isinstance(src.expr.value, str)
    try:
        return src.at(ast.parse(src.expr.value.strip(), mode="eval").body)
    except SyntaxError:
        return None


Levels = tuple[tuple["Src", ...], ...]  # the metadata of each ``Annotated`` layer, outermost first


def peel(src: Src | None) -> tuple[Src | None, Levels]:
    """Strip ``Annotated``, string quotes, TypedDict qualifiers and bound type parameters.

    Returns the inner expression and the metadata of each ``Annotated``
    layer, outermost first.
    """
    if src is None or src.bindings:
        return _peel(src)
    memo = src.module.peeled  # each annotation is peeled for its schema, its description and Injected
    peeled = memo.get(src.expr)
    if peeled is None:
        peeled = memo[src.expr] = _peel(src)
    return peeled


def _peel(src: Src | None) -> tuple[Src | None, Levels]:
    levels: list[tuple[Src, ...]] = []
    for _ in range(MAX_HOPS):
        if src is None:
            break
        expr = src.expr
        if isinstance(expr, ast.Name):
            bound = _bound(src) if src.bindings else False
            if bound is False:
                break
            src = bound if isinstance(bound, Src) else None
        elif isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            src = _parsed_string(src)
        elif isinstance(expr, ast.Subscript):
            subscripted = src.dotted()
            if subscripted in ANNOTATED:
                base, *items = src.elements()
                levels.append(tuple(items))
                src = base
            elif subscripted in QUALIFIERS:
                src = src.elements()[0]
            else:
                break
        else:
            break
    return src, tuple(levels)


def plain_alias(src: Src | None) -> Src | None:
    """The value of the plain alias (``X = int | None``, ``X: TypeAlias = ...``) that ``src`` names, or ``None``.

    A ``TypeAliasType(...)`` or ``type X = ...`` alias is no plain alias: at
    run time it stays an object of its own.
    """
    if src is None or not isinstance(src.expr, (ast.Name, ast.Attribute)):
        return None
    if src.bindings and _bound(src) is not False:
        return None
    where, expr = src.module, src.expr
    return where.sources.record.remembered(("alias", where, expr), lambda: _alias_target(where, expr))


def _alias_target(module: ModuleSource, expr: ast.Name | ast.Attribute) -> Src | None:
    """The value of the plain alias a name of ``module`` refers to (see ``plain_alias``), or ``None``."""
    resolved = module.resolve(expr)
    if resolved is None or isinstance(resolved[1], ModuleSource):
        return None
    where, statement = resolved
    if isinstance(statement, ast.AnnAssign) and where.dotted(statement.annotation) not in TYPE_ALIAS:
        return None
    value = assigned_value(statement) if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
    if value is None or not isinstance(value, (ast.Name, ast.Attribute, ast.Subscript, ast.BinOp, ast.Constant)):
        return None
    return Src(value, where)


def alias_value(where: ModuleSource, name: str, line: int, params: list[str], use: Src | None) -> Src | None:
    """The value of alias ``name`` (on ``line`` of ``where``), its type parameters bound to ``use``'s arguments."""
    statement = where.statement(name, line)
    value = assigned_value(statement)
    if isinstance(value, ast.Call) and where.dotted(value.func) in TYPE_ALIAS_TYPE:
        keyword = next((k.value for k in value.keywords if k.arg == "value"), None)
        value = value.args[1] if len(value.args) > 1 else keyword
    if value is None:
        return None
    args: list[Src | None] = list(subscript_args(use) or [])
    if len(args) != len(params):
        args = [None] * len(params)
    return Src(value, where, tuple(zip(params, args, strict=True)))


def subscript_args(src: Src | None) -> list[Src] | None:
    """The arguments of a subscripted annotation (``list[int]`` → ``int``), or ``None``."""
    if src is None or not isinstance(src.expr, ast.Subscript):
        return None
    return src.elements()


def union_options(src: Src) -> list[Src] | None:
    """The options of a union written ``A | B``, ``Union[A, B]`` or ``Optional[A]``, flattened; else ``None``."""
    expr = src.expr
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        return _options(src.at(expr.left)) + _options(src.at(expr.right))
    if src.is_subscript_of(UNION):
        return [option for element in src.elements() for option in _options(element)]
    if src.is_subscript_of(OPTIONAL):
        inner = _options(src.elements()[0])
        has_none = any(is_none(o) or (o.is_subscript_of(LITERAL) and None in _literal_values(o)) for o in inner)
        return inner if has_none else [*inner, src.at(ast.Constant(None))]
    return None


def _options(src: Src) -> list[Src]:
    options = union_options(src)
    return [src] if options is None else options


def literal_items(src: Src) -> int | None:
    """How many values ``Literal[...]`` lists (nested literal aliases flattened), or ``None`` if it is none."""
    if not src.is_subscript_of(LITERAL):
        return None
    return len(_literal_values(src))


def literal_values(src: Src | None) -> list[object] | None:
    """The values ``Literal[...]`` lists, nested literal aliases flattened (a ``Src`` for one that is no constant).

    ``None`` when ``src`` is no ``Literal[...]``.
    """
    if src is None or not src.is_subscript_of(LITERAL):
        return None
    return _literal_values(src)


def _literal_values(src: Src, hops: int = 0) -> list[object]:
    values: list[object] = []
    for element in src.elements():
        target = plain_alias(element) if hops < MAX_HOPS else None
        if target is not None and target.is_subscript_of(LITERAL):
            values.extend(_literal_values(target, hops + 1))
        else:
            values.append(element.expr.value if isinstance(element.expr, ast.Constant) else element)
    return values


def bindings_of(names: list[str], args: list[Src | None] | None) -> tuple[tuple[str, Src | None], ...]:
    """Type parameter names bound to the arguments written at the use site (unknown when they differ in number)."""
    values: list[Src | None] = list(args or [])
    if len(values) != len(names):
        values = [None] * len(names)
    return tuple(zip(names, values, strict=True))
