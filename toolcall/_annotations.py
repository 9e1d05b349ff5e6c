"""Signatures and annotations read without evaluating them, on every supported Python.

Python 3.14 evaluates annotations lazily (PEP 649/749): ``inspect.signature``
evaluates them when asked (``Format.VALUE``) and raises ``NameError`` for a
name the module has not defined yet, or never defines. ``signature`` is for
what needs only names, kinds and defaults: on 3.14 it asks for
``Format.FORWARDREF``, which leaves such a name a ``ForwardRef``; before
3.14 ``inspect.signature`` evaluates nothing. ``holders_of`` tells,
after a ``NameError``, which annotations name the missing name. Loading
this module imports only ``sys``: ``@tool`` imports it for ``*args``.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    import inspect
    from typing import Any

__all__ = ["DeclaredParameter", "holders_of", "parameters_of", "signature"]


def signature(fn: Any) -> inspect.Signature:
    """``inspect.signature(fn)`` with no annotation evaluated (a name not defined yet is no error)."""
    import inspect

    if sys.version_info >= (3, 14):  # annotationlib and Format.FORWARDREF are new in 3.14
        import annotationlib

        return inspect.signature(fn, annotation_format=annotationlib.Format.FORWARDREF)
    return inspect.signature(fn)


class DeclaredParameter:
    """A parameter as ``inspect.signature`` gives it, less its annotation: its name, kind and default.

    ``kind`` is an ``inspect.Parameter`` kind; ``default`` is the default
    object itself, or ``inspect.Parameter.empty`` when there is none.
    """

    __slots__ = ("default", "kind", "name")

    def __init__(self, name: str, kind: inspect._ParameterKind, default: Any) -> None:
        self.name = name
        self.kind = kind
        self.default = default


def parameters_of(fn: Any) -> dict[str, DeclaredParameter]:
    """``signature(fn).parameters`` without their annotations: names, kinds and defaults, in order.

    A plain function (no ``__wrapped__``, no ``__signature__``) has them read
    from its code object, as ``inspect`` would, without the rest of its
    work: a third to half of its time, for each tool introspected.
    """
    import inspect

    if type(fn) is not _FUNCTION or "__wrapped__" in fn.__dict__ or "__signature__" in fn.__dict__:
        found = signature(fn).parameters
        return {name: DeclaredParameter(name, p.kind, p.default) for name, p in found.items()}
    code = fn.__code__
    positional, keyword_only = code.co_argcount, code.co_kwonlyargcount
    names, empty, kinds = code.co_varnames, inspect.Parameter.empty, inspect.Parameter
    defaults = fn.__defaults__ or ()
    keyword_defaults = fn.__kwdefaults__ or {}
    first_default = positional - len(defaults)
    made = []
    for index in range(positional):
        kind = kinds.POSITIONAL_ONLY if index < code.co_posonlyargcount else kinds.POSITIONAL_OR_KEYWORD
        default = defaults[index - first_default] if index >= first_default else empty
        made.append(DeclaredParameter(names[index], kind, default))
    star = positional + keyword_only  # *args and **kwargs come after the keyword-only names
    if code.co_flags & inspect.CO_VARARGS:
        made.append(DeclaredParameter(names[star], kinds.VAR_POSITIONAL, empty))
        star += 1
    for name in names[positional : positional + keyword_only]:
        made.append(DeclaredParameter(name, kinds.KEYWORD_ONLY, keyword_defaults.get(name, empty)))
    if code.co_flags & inspect.CO_VARKEYWORDS:
        made.append(DeclaredParameter(names[star], kinds.VAR_KEYWORD, empty))
    return {p.name: p for p in made}


def _function() -> None: ...


_FUNCTION = type(_function)


def holders_of(obj: Any, missing: str) -> list[str]:
    """The keys of ``obj``'s own annotations (parameters, ``"return"``, fields) whose unresolved part names ``missing``.

    An annotation is read as written, unevaluated: a string, a ``ForwardRef``
    (3.14's ``Format.FORWARDREF`` makes one of a name not defined), or a
    type holding either inside, such as ``list["Later"]``.
    """
    return [key for key, value in _raw_annotations(obj).items() if missing in _unresolved_names(value)]


def _raw_annotations(obj: Any) -> dict[str, Any]:
    """``obj``'s own annotations, unevaluated where a name is not defined."""
    try:
        if sys.version_info >= (3, 14):  # annotationlib and Format.FORWARDREF are new in 3.14
            import annotationlib

            return annotationlib.get_annotations(obj, format=annotationlib.Format.FORWARDREF)
        import inspect

        found: dict[str, Any] = inspect.get_annotations(obj)  # before 3.14 only strings are unevaluated
        return found
    except Exception:  # only a diagnosis: the caller reports the error it met either way
        return {}


def _unresolved_names(value: Any) -> set[str]:
    """The names in the unevaluated parts (strings and ``ForwardRef``) of an annotation."""
    import typing

    if isinstance(value, str):
        return _names_in(value)
    if isinstance(value, typing.ForwardRef):
        return _names_in(value.__forward_arg__)
    if typing.get_origin(value) is typing.Literal:  # a Literal's strings are values, not names
        return set()
    names: set[str] = set()
    for arg in getattr(value, "__args__", None) or ():
        names |= _unresolved_names(arg)
    return names


def _names_in(text: str) -> set[str]:
    import ast

    from toolcall._ast_parse import parse_expression

    try:
        tree = parse_expression(text)
    except SyntaxError:
        return set()
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
