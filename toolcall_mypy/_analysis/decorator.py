"""What a ``@tool`` / ``@tool(...)`` decorator and a ``use_types(...)`` call say, read from mypy's nodes.

The plugin reads these statically, so it takes string literals, ``None``
and ``Final`` string constants; anything else is a problem the hook reports
as ``toolcall-name`` (for the name and the description) or ``toolcall-type``
(for providers), with the fix in the message. No reporting happens here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mypy.nodes import (
    ARG_NAMED,
    CallExpr,
    Decorator,
    Expression,
    Import,
    ImportAll,
    ImportFrom,
    MypyFile,
    NameExpr,
    RefExpr,
    StrExpr,
    TypeInfo,
    Var,
)

from toolcall._declarations.tool import NAME_PATTERN
from toolcall_mypy._source import surrogates
from toolcall_mypy._targets import TOOL

__all__ = [
    "TOOL",
    "Arguments",
    "bare_tool",
    "provider_refs",
    "tool_call",
    "unresolved_toolcall",
]


class _Unreadable:
    """What an argument is when the plugin cannot know its value."""


_UNREADABLE: Final = _Unreadable()


@dataclass(frozen=True)
class Arguments:
    """What one ``@tool`` says about the function it decorates.

    ``expression`` is the decorator expression (tool-level diagnostics go to
    its line); ``name`` the tool name (``None`` when it cannot be read or is
    not a valid name);
    ``problems`` the ``toolcall-name`` messages.
    """

    expression: Expression
    name: str | None
    description: str | None
    problems: tuple[str, ...]


def bare_tool(decorator: Decorator) -> Arguments:
    """``@tool`` without arguments: the function's name, its docstring's description."""
    expression = next(
        (d for d in decorator.decorators if isinstance(d, RefExpr) and d.fullname == TOOL), decorator.decorators[0]
    )
    return _checked(expression, decorator.func.name, None, [])


def tool_call(decorator: Decorator) -> Arguments:
    """``@tool(name=..., description=...)``: the literal arguments of the call."""
    call = next((d for d in decorator.decorators if _is_tool_call(d)), None)
    if not isinstance(call, CallExpr):  # e.g. ``dec = tool(name="x")`` ... ``@dec``
        message = (
            "the plugin cannot see this decorator's tool(...) call; "
            'write @tool(name="...", description="...") directly on the function'
        )
        return Arguments(decorator.decorators[0], None, None, (message,))
    name: str | _Unreadable | None = None
    description: str | _Unreadable | None = None
    problems: list[str] = []
    for kind, key, value in zip(call.arg_kinds, call.arg_names, call.args, strict=True):
        if kind == ARG_NAMED and key == "name":
            name = _literal(value)
        elif kind == ARG_NAMED and key == "description":
            description = _literal(value)
            changed = _changed(value, description)
            if changed is not None:
                problems.append(changed)
                description = None
        elif kind.is_star():  # tool(**options): nothing can be read
            name = _UNREADABLE
    if isinstance(description, _Unreadable):
        problems.append(
            "the plugin reads the description statically: pass description= a string literal or a Final str "
            "constant, or leave it out and write the description in the docstring"
        )
        description = None
    if isinstance(name, _Unreadable):
        problems.append(
            "the plugin reads the tool name statically: pass name= a string literal or a Final str constant, "
            'e.g. @tool(name="get_weather")'
        )
        return Arguments(call, None, None, tuple(problems))
    return _checked(call, decorator.func.name if name is None else name, description, problems)


def _is_tool_call(expression: Expression) -> bool:
    return (
        isinstance(expression, CallExpr)
        and isinstance(expression.callee, RefExpr)
        and (expression.callee.fullname == TOOL)
    )


def _checked(expression: Expression, name: str, description: str | None, problems: list[str]) -> Arguments:
    if NAME_PATTERN.fullmatch(name) is None:
        problems.append(
            f"tool name {name!r} must match ^[a-zA-Z0-9_-]{{1,64}}$ (letters, digits, '_' and '-', at most 64); "
            'pass @tool(name="...") with such a name'
        )
        return Arguments(expression, None, description, tuple(problems))
    return Arguments(expression, name, description, tuple(problems))


def _literal(expression: Expression) -> str | _Unreadable | None:
    """A ``str`` or ``None`` the expression is statically, else ``_UNREADABLE``."""
    if isinstance(expression, StrExpr):
        return expression.value
    if isinstance(expression, NameExpr) and expression.fullname == "builtins.None":
        return None
    if isinstance(expression, RefExpr) and isinstance(expression.node, Var):
        var = expression.node
        if var.is_final and isinstance(var.final_value, str):
            return var.final_value
    return _UNREADABLE


def _changed(expression: Expression, value: str | _Unreadable | None) -> str | None:
    """The problem with a string mypy's parser may have changed (``toolcall_mypy._source.surrogates``), else ``None``.

    The decorator's source is not at hand here: a literal mypy marks as
    changed, or a ``Final`` constant whose value holds U+FFFD, is reported.
    (A tool name needs no such check: neither a lone surrogate nor U+FFFD is valid in one.)
    """
    if not isinstance(value, str):
        return None
    outcome = "the plugin cannot describe the tool with it"
    fix = "leave lone surrogates out of the description"
    if isinstance(expression, StrExpr):
        if surrogates.replaced(value, getattr(expression, "has_surrogates", None)):
            return surrogates.lost("the description", outcome, fix)
    elif surrogates.suspect(value):
        return surrogates.unconfirmed("the description", outcome, f"pass it as a string literal, or {fix}")
    return None


def provider_refs(call: CallExpr) -> tuple[tuple[str, ...], bool]:
    """The class refs (``"module:qualname"``) a ``use_types(...)`` call names, and whether it named only classes."""
    refs: list[str] = []
    readable = True
    for kind, value in zip(call.arg_kinds, call.args, strict=True):
        node = value.node if isinstance(value, RefExpr) else None
        if kind.is_positional() and not kind.is_star() and isinstance(node, TypeInfo):
            refs.append(f"{node.module_name}:{node.fullname[len(node.module_name) + 1 :]}")
        else:
            readable = False
    return tuple(refs), readable


def unresolved_toolcall(tree: MypyFile) -> bool:
    """Whether ``tree`` imports from ``toolcall`` but mypy could not resolve that import.

    Then ``@tool`` is ``Any`` there and no hook runs: the module may well
    have tools, and its cache file must be kept.
    """
    for imported in tree.imports:
        if isinstance(imported, ImportAll) and _is_toolcall(imported.id):
            if not any((symbol.fullname or "").startswith("toolcall.") for symbol in tree.names.values()):
                return True
            continue
        if isinstance(imported, ImportFrom) and _is_toolcall(imported.id):
            bound = [alias or name for name, alias in imported.names]
        elif isinstance(imported, Import):
            bound = [alias or module.split(".")[0] for module, alias in imported.ids if _is_toolcall(module)]
        else:
            continue
        for name in bound:
            symbol = tree.names.get(name)
            if symbol is not None and isinstance(symbol.node, Var) and symbol.node.is_suppressed_import:
                return True
    return False


def _is_toolcall(module: str) -> bool:
    return module == "toolcall" or module.startswith("toolcall.")
