"""Defaults read statically: a parameter's initializer (a mypy expression) or a class field's value (``ast``) → JSON.

The JSON value then goes through the shared rules (``toolcall._rules.defaults.json_default``:
domain, bounds, wire spelling, the 2**53 warning), so both front ends drop
and keep the same defaults. What is read here:

* literals: str, int, float, bool, ``None``; lists, tuples (as arrays) and
  str-keyed dicts of those; unary minus/plus and int/float arithmetic
  (``2**60``, ``1 << 10``);
* ``Final`` constants, from mypy's ``Var.final_value`` or else their
  assignment in the defining module's source; a module-level variable that
  is not ``Final`` when its module assigns it exactly once (the value it has
  when the ``def`` runs);
* Enum members (``Unit.CELSIUS``), as their values;
* constant calls of the constructors of dates, datetimes, times, timedeltas,
  UUIDs and Decimals (``timedelta(hours=1)``, ``datetime(2024, 5, 1,
  tzinfo=timezone.utc)``), and their ``min`` and ``max``: known by mypy's
  full name of the callee (``datetime.timedelta``), however it is imported.
  The plugin builds the value itself, calling only those constructors (and
  ``timezone`` for a ``tzinfo``), with arguments read by these same rules
  that are ``None``, bool, int, float or str, such calls, ``timezone.utc``
  or ``datetime.UTC``. The shared rule (``toolcall._wire.strings``) then
  gives the wire string the runtime gives for the same value. A call that
  raises (``date(2024, 13, 1)``) is dropped with a message saying so.

A value JSON cannot carry (a set, ``float("nan")``, a ``timezone``, a
non-str key) gives the runtime's ``toolcall-default`` message; an expression
the plugin cannot evaluate without running code (any other call, such as
``datetime.now()``, a plain variable) gives one saying so. Both drop the
default; the parameter stays optional.
A string mypy's parser changed (a lone surrogate became U+FFFD,
``toolcall_mypy._source.surrogates``) is read from the source instead; one the
source does not confirm is dropped the same way, with a message saying why.
"""

from __future__ import annotations

import ast
import datetime as dt
import math
import operator
from collections.abc import Callable, Mapping
from typing import Final, Protocol

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    BytesExpr,
    CallExpr,
    ComplexExpr,
    DictExpr,
    EllipsisExpr,
    Expression,
    FloatExpr,
    IntExpr,
    LambdaExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OpExpr,
    RefExpr,
    SetExpr,
    StrExpr,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
)

from toolcall import _ir as ir
from toolcall._findings import DEFAULT, Finding
from toolcall._rules.defaults import Defaulted, NotJson, json_default, json_of, non_str_key
from toolcall._rules.messages import shorten
from toolcall._rules.type_rules import MAX_DEPTH
from toolcall._wire.strings import WIRE_STRING_CLASSES, WireString
from toolcall_mypy._source import surrogates
from toolcall_mypy._source.files import strings_at
from toolcall_mypy._source.names import ModuleSource, Sources, assigned_value
from toolcall_mypy._source.syntax import FINAL, Src

__all__ = ["Env", "Inexact", "Unbuildable", "Unreadable", "default_outcome", "from_ast", "from_expression"]

UNREADABLE_FIX: Final = "use a literal, a Final constant or an Enum member (or None, and set the value in the body)"
_SURROGATE_FIX: Final = "write it as a string literal in the def, or without lone surrogates"
_CONSTANT_NAMES: Final = {"math.nan": "nan", "math.inf": "inf", "builtins.None": None}
_BINARY: Final[dict[str, Callable[[object, object], object]]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "<<": operator.lshift,
    ">>": operator.rshift,
    "|": operator.or_,
    "&": operator.and_,
    "^": operator.xor,
}
_AST_BINARY: Final[dict[type[ast.operator], str]] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.BitXor: "^",
}
_MAX_SHIFT: Final = 4096  # exponents and shifts beyond this are not folded (no huge numbers at check time)

#: The only callables the plugin ever calls, by full name: the classes whose constants travel as
#: wire strings, and ``timezone`` for their ``tzinfo``.
_CONSTRUCTORS: Final[dict[str, Callable[..., object]]] = {**WIRE_STRING_CLASSES, "datetime.timezone": dt.timezone}
#: Constants of those classes read by full name: UTC, and the date family's ``min`` and ``max``.
_CLASS_CONSTANTS: Final[dict[str, object]] = {
    "datetime.timezone.utc": dt.UTC,
    "datetime.UTC": dt.UTC,
    **{
        f"{name}.{bound}": getattr(cls, bound)
        for name, cls in WIRE_STRING_CLASSES.items()
        if name.startswith("datetime.")
        for bound in ("min", "max")
    },
}


class Unreadable(Exception):
    """A default the plugin cannot evaluate without running code; the text names the expression."""


class Inexact(Unreadable):
    """A string mypy may have changed that the source does not confirm (see ``_source.surrogates``); the message."""


class Unbuildable(Unreadable):
    """A constant constructor call that raises with its arguments (``date(2024, 13, 1)``); the message."""


class Env(Protocol):
    """What evaluating a default needs from the walk of its parameter."""

    @property
    def sources(self) -> Sources:
        """The module sources (``Final`` constants without a recorded value are read there)."""

    def enum_member(self, info: TypeInfo, member: str) -> ir.JsonValue:
        """The value of an Enum member; raises ``Unreadable`` or ``NotJson``."""

    def enum_member_by_name(self, fullname: str, member: str) -> ir.JsonValue:
        """The value of a member of the Enum class named ``fullname``; raises ``Unreadable`` or ``NotJson``."""


def default_outcome(
    evaluate: Callable[[], ir.JsonValue],
    node: ir.TypeNode,
    defs: Mapping[str, ir.TypeNode],
    *,
    tool: str | None = None,
    parameter: str | None = None,
    path: tuple[str | int, ...] = (),
) -> Defaulted:
    """Evaluate a default and apply the shared default rules to it, with ``toolcall-default`` findings."""
    try:
        value = evaluate()
    except NotJson as exc:
        return Defaulted(None, (Finding(DEFAULT, exc.finding, tool, parameter, path),))
    except (Inexact, Unbuildable) as exc:
        return Defaulted(None, (Finding(DEFAULT, str(exc), tool, parameter, path),))
    except Unreadable as exc:
        message = f"the default {exc} cannot be read statically, so the schema omits it; {UNREADABLE_FIX}"
        return Defaulted(None, (Finding(DEFAULT, message, tool, parameter, path),))
    return json_default(value, node, defs, tool=tool, parameter=parameter, path=path)


# -- mypy expressions (parameter initializers) --------------------------------------------------


def from_expression(expr: Expression, env: Env, depth: int = 0) -> ir.JsonValue:
    """The JSON value of an analyzed initializer; raises ``NotJson`` or ``Unreadable``."""
    if depth > MAX_DEPTH:
        raise Unreadable(shorten(text_of(expr)))
    if isinstance(expr, IntExpr):
        return expr.value
    if isinstance(expr, StrExpr):
        return _string(expr, env)
    if isinstance(expr, FloatExpr):
        return _finite(expr.value)
    if isinstance(expr, (BytesExpr, ComplexExpr, EllipsisExpr, LambdaExpr)):
        raise NotJson(f"{shorten(text_of(expr))} (a {_KIND_NAMES[type(expr)]})")
    if isinstance(expr, (ListExpr, TupleExpr)):
        return [from_expression(item, env, depth + 1) for item in expr.items]
    if isinstance(expr, SetExpr):
        raise NotJson(f"{shorten(text_of(expr))} (a set)")
    if isinstance(expr, DictExpr):
        return _dict_from_expression(expr, env, depth)
    if isinstance(expr, UnaryExpr):
        return _unary(expr.op, from_expression(expr.expr, env, depth + 1), text_of(expr))
    if isinstance(expr, OpExpr):
        left, right = from_expression(expr.left, env, depth + 1), from_expression(expr.right, env, depth + 1)
        return _binary(expr.op, left, right, text_of(expr))
    if isinstance(expr, CallExpr):
        if _callee(expr) not in _CONSTRUCTORS:
            raise _call_problem(expr)
        return json_of(_call(expr, env, depth))
    constant = _constant_name(expr)
    if constant is not None and constant in _CLASS_CONSTANTS:
        return json_of(_CLASS_CONSTANTS[constant])
    if _enum_member(expr):
        assert isinstance(expr, MemberExpr)
        assert isinstance(expr.expr, RefExpr)
        assert isinstance(expr.expr.node, TypeInfo)
        return env.enum_member(expr.expr.node, expr.name)
    if isinstance(expr, RefExpr):
        return _reference(expr, env)
    raise Unreadable(shorten(text_of(expr)))


def _string(expr: StrExpr, env: Env) -> str:
    """A string literal's value; one mypy's parser changed (a lone surrogate) is read from the tool module's source."""
    if not surrogates.replaced(expr.value, getattr(expr, "has_surrogates", None)):
        return expr.value
    where = env.sources.module(env.sources.home)
    written = strings_at(where, expr.line) if where is not None else []
    exact = {value for value in (surrogates.confirmed(expr.value, text) for _, text in written) if value is not None}
    if len(exact) > 1:  # several strings on the line read alike: the one at mypy's column (None: not comparable)
        exact = {text for column, text in written if column is not None and column == expr.column and text in exact}
    if len(exact) != 1:
        fix = (
            "write it as a string literal in the def, on a line of its own if another string there differs from it "
            "only in lone surrogates, or without lone surrogates"
        )
        raise Inexact(surrogates.lost(f"the default {shorten(text_of(expr))}", "the schema omits it", fix))
    return exact.pop()


def _enum_member(expr: Expression) -> bool:
    """Whether ``expr`` is ``SomeEnum.MEMBER`` (mypy leaves its full name empty; the owner is the TypeInfo)."""
    if not (isinstance(expr, MemberExpr) and isinstance(expr.expr, RefExpr)):
        return False
    owner = expr.expr.node
    return isinstance(owner, TypeInfo) and owner.is_enum


def _dict_from_expression(expr: DictExpr, env: Env, depth: int) -> ir.JsonValue:
    keys: list[ir.JsonValue] = []
    for key, _ in expr.items:
        if key is None:
            raise Unreadable(shorten(text_of(expr)))
        keys.append(from_expression(key, env, depth + 1))
    for read, (written, _) in zip(keys, expr.items, strict=True):
        if not _plain_str(read):
            assert written is not None
            raise non_str_key(_key_text(read, text_of(written)))
    return {str(key): from_expression(value, env, depth + 1) for key, (_, value) in zip(keys, expr.items, strict=True)}


def _key_text(key: ir.JsonValue, written: str) -> str:
    """A key as the runtime shows it (its ``repr``): a value read as JSON but for a written tuple or dict."""
    return written if isinstance(key, (list, dict)) else repr(key)


def _reference(expr: RefExpr, env: Env) -> ir.JsonValue:
    fullname = expr.fullname
    if fullname in ("builtins.True", "builtins.False"):
        return fullname == "builtins.True"
    if fullname in _CONSTANT_NAMES:
        constant = _CONSTANT_NAMES[fullname]
        if constant is None:
            return None
        raise NotJson(constant)
    node = expr.node
    if isinstance(node, Var) and node.is_final:
        if node.final_value is not None and not isinstance(node.final_value, complex):
            if surrogates.suspect(node.final_value):
                return _confirmed_constant(node, env)
            defined_in = env.sources.defining_module(node.fullname)
            if defined_in is not None:
                env.sources.record.note(defined_in)  # mypy read the value there (its source is read otherwise)
            value: ir.JsonValue = node.final_value
            return _finite(value) if isinstance(value, float) else value
        return _constant_from_source(node.fullname, env)
    if isinstance(node, Var):
        return _variable_from_source(node.fullname, text_of(expr), env)
    kind = "class" if isinstance(node, TypeInfo) else "module" if isinstance(node, MypyFile) else "name"
    raise NotJson(f"{shorten(text_of(expr))} (a {kind})") if kind != "name" else Unreadable(shorten(text_of(expr)))


def _confirmed_constant(node: Var, env: Env) -> ir.JsonValue:
    """A ``Final`` str whose value mypy may have changed (``_source.surrogates``), as its source writes it."""
    value = node.final_value
    assert isinstance(value, str)
    try:
        written: ir.JsonValue = _constant_from_source(node.fullname, env)
    except (NotJson, Unreadable):
        written = None
    exact = surrogates.confirmed(value, written)
    if exact is None:
        what = f"the default {node.name} ({shorten(repr(value))})"
        raise Inexact(surrogates.unconfirmed(what, "the schema omits it", _SURROGATE_FIX))
    return exact


def _constant_from_source(fullname: str, env: Env) -> ir.JsonValue:
    module, _, name = fullname.rpartition(".")
    where = env.sources.module(module)
    resolved = where.lookup(name) if where is not None else None
    if resolved is None or isinstance(resolved[1], ModuleSource):
        raise Unreadable(fullname.rpartition(".")[2])
    value = assigned_value(resolved[1])
    if value is None:
        raise Unreadable(name)
    return from_ast(Src(value, resolved[0]), env, calls=True)


def _variable_from_source(fullname: str, text: str, env: Env) -> ir.JsonValue:
    """A module-level variable that is not ``Final``, read when its module assigns it once (its value at ``def``)."""
    module, _, name = fullname.rpartition(".")
    where = env.sources.module(module)
    statement = where.single_binding(name) if where is not None else None
    if where is None or statement is None or statement.value is None:
        raise Unreadable(f"{shorten(text)} (a variable that is not Final)")
    return from_ast(Src(statement.value, where), env, calls=True)


def _callee(expr: CallExpr) -> str | None:
    """The full name of the called class or function (mypy resolved it: ``dt.timedelta`` is ``datetime.timedelta``)."""
    return expr.callee.fullname if isinstance(expr.callee, RefExpr) else None


def _constant_name(expr: Expression) -> str | None:
    """The full name ``expr`` reads: ``datetime.timezone.utc`` for ``timezone.utc`` (mypy leaves it empty there)."""
    if isinstance(expr, MemberExpr) and isinstance(expr.expr, RefExpr) and isinstance(expr.expr.node, TypeInfo):
        return f"{expr.expr.node.fullname}.{expr.name}"
    return expr.fullname if isinstance(expr, RefExpr) else None


def _call(expr: CallExpr, env: Env, depth: int) -> object:
    """The value of a call of one of ``_CONSTRUCTORS``, built from its arguments read as constants."""
    text = text_of(expr)
    positional: list[object] = []
    named: dict[str, object] = {}
    for argument, kind, name in zip(expr.args, expr.arg_kinds, expr.arg_names, strict=True):
        if kind not in (ARG_POS, ARG_NAMED):  # *args, **kwargs
            raise Unreadable(shorten(text))
        value = _argument(argument, env, depth + 1, text)
        if name is None:
            positional.append(value)
        else:
            named[name] = value
    return _construct(_CONSTRUCTORS[_callee(expr) or ""], positional, named, text)


def _argument(expr: Expression, env: Env, depth: int, call: str) -> object:
    if depth > MAX_DEPTH:
        raise Unreadable(shorten(call))
    if isinstance(expr, CallExpr) and _callee(expr) in _CONSTRUCTORS:
        return _call(expr, env, depth)
    constant = _constant_name(expr)
    if constant is not None and constant in _CLASS_CONSTANTS:
        return _CLASS_CONSTANTS[constant]
    try:
        value = from_expression(expr, env, depth)
    except NotJson:
        raise Unreadable(shorten(call)) from None
    return _scalar_argument(value, call)


def _scalar_argument(value: ir.JsonValue, call: str) -> object:
    """A constructor argument: a JSON scalar, or the value a wire string stands for (a ``Final`` timedelta)."""
    if isinstance(value, WireString):
        return value.value
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise Unreadable(shorten(call))  # a list or dict: no constructor here takes one


def _construct(
    constructor: Callable[..., object], positional: list[object], named: dict[str, object], text: str
) -> object:
    try:
        return constructor(*positional, **named)
    except (ValueError, TypeError, ArithmeticError) as exc:  # ArithmeticError: OverflowError, decimal's signals
        problem = shorten(f"{type(exc).__name__}: {exc}")
        raise Unbuildable(
            f"the default {shorten(text)} cannot be built ({problem}), so the schema omits it; fix its arguments"
        ) from None


def _plain_str(value: object) -> bool:
    """A str the source wrote, not the wire string of a constructed value."""
    return isinstance(value, str) and not isinstance(value, WireString)


def _call_problem(expr: CallExpr) -> Exception:
    text = shorten(text_of(expr))
    callee = expr.callee
    if isinstance(callee, RefExpr) and callee.fullname == "builtins.float" and len(expr.args) == 1:
        argument = expr.args[0]
        if isinstance(argument, StrExpr) and not math.isfinite(float(_float_text(argument.value))):
            return NotJson(repr(float(_float_text(argument.value))))
    if isinstance(callee, RefExpr) and isinstance(callee.node, TypeInfo) and callee.fullname not in _JSON_CLASSES:
        return NotJson(f"{text} (a {callee.node.name})")
    return Unreadable(text)


def _float_text(text: str) -> str:
    try:
        float(text)
    except ValueError:
        return "0"
    return text


_JSON_CLASSES: Final = frozenset(
    {
        "builtins.int",
        "builtins.float",
        "builtins.str",
        "builtins.bool",
        "builtins.list",
        "builtins.dict",
        "builtins.tuple",
    }
)
_STARS: Final = {ARG_STAR: "*", ARG_STAR2: "**"}
_KIND_NAMES: Final[dict[type[Expression], str]] = {
    BytesExpr: "bytes",
    ComplexExpr: "complex",
    EllipsisExpr: "ellipsis",
    LambdaExpr: "function",
}


def text_of(expr: Expression) -> str:
    """Source-like text of an analyzed expression, for messages."""
    if isinstance(expr, (IntExpr, FloatExpr, ComplexExpr)):  # as the value's repr shows it at run time
        return repr(expr.value)
    if isinstance(expr, (StrExpr, BytesExpr)):
        return repr(expr.value) if isinstance(expr, StrExpr) else f"b{expr.value!r}"
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, MemberExpr):
        return f"{text_of(expr.expr)}.{expr.name}"
    if isinstance(expr, CallExpr):
        parts = [
            f"{_STARS.get(kind, '')}{text_of(arg)}" if name is None else f"{name}={text_of(arg)}"
            for arg, kind, name in zip(expr.args, expr.arg_kinds, expr.arg_names, strict=True)
        ]
        return f"{text_of(expr.callee)}({', '.join(parts)})"
    if isinstance(expr, (ListExpr, TupleExpr, SetExpr)):
        inner = ", ".join(text_of(item) for item in expr.items)
        if isinstance(expr, TupleExpr):
            return f"({inner}{',' if len(expr.items) == 1 else ''})"
        return f"[{inner}]" if isinstance(expr, ListExpr) else f"{{{inner}}}"
    if isinstance(expr, DictExpr):
        items = (f"{'**' if k is None else text_of(k) + ': '}{text_of(v)}" for k, v in expr.items)
        return f"{{{', '.join(items)}}}"
    if isinstance(expr, UnaryExpr):
        return f"{expr.op}{'' if expr.op in '-+~' else ' '}{text_of(expr.expr)}"
    if isinstance(expr, OpExpr):
        return f"{text_of(expr.left)} {expr.op} {text_of(expr.right)}"
    if isinstance(expr, LambdaExpr):
        return "<lambda>"  # the function's name, as the runtime shows a function default
    if isinstance(expr, EllipsisExpr):
        return "..."
    return "this expression"


# -- ast expressions (class bodies, Final constants) ---------------------------------------------


def from_ast(src: Src, env: Env, depth: int = 0, *, calls: bool = False) -> ir.JsonValue:
    """The JSON value of an expression written in a module's source; raises ``NotJson`` or ``Unreadable``.

    ``calls``: whether constant constructor calls are read (as wire strings), as
    they are in defaults; an Enum value or a custom schema must be plain JSON.
    """
    expr = src.expr
    text = shorten(ast.unparse(expr))
    if depth > MAX_DEPTH:
        raise Unreadable(text)
    if isinstance(expr, ast.Constant):
        return _constant(expr.value, text)
    if isinstance(expr, (ast.List, ast.Tuple)):
        if any(isinstance(item, ast.Starred) for item in expr.elts):
            raise Unreadable(text)
        return [from_ast(src.at(item), env, depth + 1, calls=calls) for item in expr.elts]
    if isinstance(expr, ast.Set):
        raise NotJson(f"{text} (a set)")
    if isinstance(expr, ast.Dict):
        return _dict_from_ast(src, expr, env, depth, calls)
    if isinstance(expr, ast.UnaryOp):
        operand = from_ast(src.at(expr.operand), env, depth + 1, calls=calls)
        symbol = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}.get(type(expr.op))
        if symbol is None:
            raise Unreadable(text)
        return _unary(symbol, operand, text)
    if isinstance(expr, ast.BinOp) and type(expr.op) in _AST_BINARY:
        left = from_ast(src.at(expr.left), env, depth + 1, calls=calls)
        right = from_ast(src.at(expr.right), env, depth + 1, calls=calls)
        return _binary(_AST_BINARY[type(expr.op)], left, right, text)
    if isinstance(expr, ast.Call):
        if calls and src.module.dotted(expr.func) in _CONSTRUCTORS:
            return json_of(_ast_call(src, expr, env, depth))
        raise _ast_call_problem(src, expr, text)
    if isinstance(expr, (ast.Name, ast.Attribute)):
        constant = src.module.dotted(expr)
        if calls and constant is not None and constant in _CLASS_CONSTANTS:
            return json_of(_CLASS_CONSTANTS[constant])
        return _ast_reference(src, expr, env, depth, text, calls)
    raise Unreadable(text)


def _constant(value: object, text: str) -> ir.JsonValue:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return _finite(value)
    kind = "bytes" if isinstance(value, bytes) else "ellipsis" if value is Ellipsis else type(value).__name__
    raise NotJson(f"{text} (a {kind})")


def _dict_from_ast(src: Src, expr: ast.Dict, env: Env, depth: int, calls: bool) -> ir.JsonValue:
    if any(key is None for key in expr.keys):
        raise Unreadable(shorten(ast.unparse(expr)))
    keys = [from_ast(src.at(key), env, depth + 1, calls=calls) for key in expr.keys if key is not None]
    for key, written in zip(keys, expr.keys, strict=True):
        if not _plain_str(key):
            assert written is not None
            raise non_str_key(_key_text(key, ast.unparse(written)))
    return {str(k): from_ast(src.at(v), env, depth + 1, calls=calls) for k, v in zip(keys, expr.values, strict=True)}


def _ast_call(src: Src, expr: ast.Call, env: Env, depth: int) -> object:
    """The value of a written call of one of ``_CONSTRUCTORS`` (as ``_call`` reads a mypy one)."""
    text = ast.unparse(expr)
    if any(isinstance(item, ast.Starred) for item in expr.args) or any(k.arg is None for k in expr.keywords):
        raise Unreadable(shorten(text))
    positional = [_ast_argument(src.at(item), env, depth + 1, text) for item in expr.args]
    named = {k.arg: _ast_argument(src.at(k.value), env, depth + 1, text) for k in expr.keywords if k.arg is not None}
    return _construct(_CONSTRUCTORS[src.module.dotted(expr.func) or ""], positional, named, text)


def _ast_argument(src: Src, env: Env, depth: int, call: str) -> object:
    expr = src.expr
    if depth > MAX_DEPTH:
        raise Unreadable(shorten(call))
    if isinstance(expr, ast.Call) and src.module.dotted(expr.func) in _CONSTRUCTORS:
        return _ast_call(src, expr, env, depth)
    constant = src.module.dotted(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
    if constant is not None and constant in _CLASS_CONSTANTS:
        return _CLASS_CONSTANTS[constant]
    try:
        value = from_ast(src, env, depth, calls=True)
    except NotJson:
        raise Unreadable(shorten(call)) from None
    return _scalar_argument(value, call)


def _ast_reference(
    src: Src, expr: ast.Name | ast.Attribute, env: Env, depth: int, text: str, calls: bool
) -> ir.JsonValue:
    dotted = src.module.dotted(expr)
    if dotted in _CONSTANT_NAMES or dotted in ("True", "False", "None"):
        constant = _CONSTANT_NAMES.get(dotted or "")
        if constant is not None:
            raise NotJson(constant)
        return {"True": True, "False": False}.get(dotted or "")
    if isinstance(expr, ast.Attribute):
        owner = src.module.resolve(expr.value)
        if owner is not None and isinstance(owner[1], ast.ClassDef):
            return env.enum_member_by_name(_class_fullname(owner[0], owner[1]), expr.attr)
    resolved = src.module.resolve(expr)
    if resolved is None or isinstance(resolved[1], ModuleSource):
        raise Unreadable(text)
    where, statement = resolved
    if isinstance(statement, ast.AnnAssign) and statement.value is not None and _is_final(where, statement.annotation):
        return from_ast(Src(statement.value, where), env, depth + 1, calls=calls)
    if isinstance(statement, ast.ClassDef):
        raise NotJson(f"{text} (a class)")
    name = statement.target if isinstance(statement, ast.AnnAssign) else None
    single = where.single_binding(name.id) if isinstance(name, ast.Name) else None
    if single is None and isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
        single = where.single_binding(statement.targets[0].id)
    if single is not None and single.value is not None:
        return from_ast(Src(single.value, where), env, depth + 1, calls=calls)
    raise Unreadable(f"{text} (a variable that is not Final)")


def _class_fullname(where: ModuleSource, node: ast.ClassDef) -> str:
    return f"{where.module}.{node.name}"


def _is_final(where: ModuleSource, annotation: ast.expr) -> bool:
    target = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return where.dotted(target) in FINAL


def _ast_call_problem(src: Src, expr: ast.Call, text: str) -> Exception:
    callee = src.module.dotted(expr.func)
    if callee in ("float", "builtins.float") and len(expr.args) == 1 and isinstance(expr.args[0], ast.Constant):
        argument = expr.args[0].value
        if isinstance(argument, str) and not math.isfinite(float(_float_text(argument))):
            return NotJson(repr(float(argument)))
    builtin_class = {"set": "set", "frozenset": "frozenset", "object": "object", "bytes": "bytes"}.get(callee or "")
    if builtin_class is not None:
        return NotJson(f"{text} (a {builtin_class})")
    resolved = src.module.resolve(expr.func)
    if resolved is not None and isinstance(resolved[1], ast.ClassDef):
        return NotJson(f"{text} (a {resolved[1].name})")
    return Unreadable(text)


# -- shared arithmetic -------------------------------------------------------------------------


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise NotJson(repr(value))
    return value


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _unary(op: str, value: ir.JsonValue, text: str) -> ir.JsonValue:
    if not _number(value) or (op == "~" and not isinstance(value, int)):
        raise Unreadable(shorten(text))
    assert isinstance(value, (int, float))
    if op == "-":
        return -value
    if op == "+":
        return +value
    if op == "~":
        assert isinstance(value, int)
        return ~value
    raise Unreadable(shorten(text))


def _binary(op: str, left: ir.JsonValue, right: ir.JsonValue, text: str) -> ir.JsonValue:
    function = _BINARY.get(op)
    if function is None:
        raise Unreadable(shorten(text))
    if _plain_str(left) and _plain_str(right) and op == "+":
        assert isinstance(left, str)
        assert isinstance(right, str)
        return left + right
    if not (_number(left) and _number(right)):
        raise Unreadable(shorten(text))
    assert isinstance(left, (int, float))
    assert isinstance(right, (int, float))
    if op in ("**", "<<") and (abs(right) > _MAX_SHIFT or (op == "**" and abs(left) > 2**64)):
        raise Unreadable(shorten(text))
    try:
        result = function(left, right)
    except (ArithmeticError, ValueError, TypeError):
        raise Unreadable(shorten(text)) from None
    if isinstance(result, float):
        return _finite(result)
    if isinstance(result, int):
        return result
    raise Unreadable(shorten(text))
