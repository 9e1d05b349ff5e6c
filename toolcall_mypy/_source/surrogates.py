"""Strings mypy may have changed: its native parser turns each lone surrogate into U+FFFD.

A string literal may hold a lone surrogate written as an escape
(``"\\udcff"``); Python keeps it, and so does ``ast``. mypy's native parser
(the default in mypy 2.4) cannot represent one and gives U+FFFD for each
in every string it parses: ``Literal`` values, Enum member values, ``Final``
values, string expressions and docstrings; it marks the string expressions
it changed (``StrExpr.has_surrogates``). mypy's ``ast``-based parser keeps
them (``--no-native-parser``; the only parser before the native one).

So a string from mypy that may have been changed is served only as the
source writes it: the string written there that mypy reads alike
(``confirmed``). A genuine U+FFFD in the source confirms itself. Where no
source settles it, the caller reports the value (``unconfirmed``, ``lost``)
instead of serving what may be another string. docs/decisions.md lists
each place the plugin reads such strings.
"""

from __future__ import annotations

import ast
from typing import Final

from mypy.nodes import TypeInfo
from mypy.options import Options

from toolcall_mypy._source.names import Sources, assigned_value

__all__ = ["MAY_REPLACE", "as_mypy_reads", "confirmed", "lost", "replaced", "suspect", "typeddict_keys", "unconfirmed"]

REPLACEMENT: Final = "\ufffd"
#: Whether this mypy has a parser that replaces lone surrogates (mypy without the native parser has none).
MAY_REPLACE: Final = hasattr(Options(), "native_parser")
_TYPED_DICT: Final = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})


def suspect(value: object) -> bool:
    """Whether mypy may have given ``value`` for another string: it holds U+FFFD and this mypy may replace."""
    return MAY_REPLACE and isinstance(value, str) and REPLACEMENT in value


def replaced(value: object, flag: object = None) -> bool:
    """Whether a string expression's ``value`` may differ from the one written.

    ``flag`` is the expression's ``has_surrogates`` where this mypy records it
    (exact: set only when the parser replaced something); else the value decides.
    """
    return bool(flag) if isinstance(flag, bool) else suspect(value)


def as_mypy_reads(text: str) -> str:
    """``text`` as mypy's native parser gives it: each lone surrogate replaced with U+FFFD."""
    return "".join(REPLACEMENT if "\ud800" <= char <= "\udfff" else char for char in text)


def confirmed(value: str, written: object) -> str | None:
    """The string ``written`` in the source, if mypy gave ``value`` for it (kept, or replaced); else ``None``."""
    if isinstance(written, str) and (written == value or as_mypy_reads(written) == value):
        return written
    return None


def unconfirmed(what: str, outcome: str, fix: str) -> str:
    """The message for a string holding U+FFFD that the plugin cannot find in the source (it may be a replacement)."""
    return (
        f"{what} holds U+FFFD, which mypy's parser also gives for a lone surrogate such as \\udcff, and the "
        f"plugin cannot find it in the source to tell which was written, so {outcome}; {fix}"
    )


def lost(what: str, outcome: str, fix: str) -> str:
    """The message for a string mypy says it changed (``has_surrogates``) that the plugin cannot find in the source."""
    return (
        f"{what} holds a lone surrogate such as \\udcff, which mypy's parser replaced with U+FFFD, and the "
        f"plugin cannot pick it out in the source, so {outcome}; {fix}"
    )


def typeddict_keys(sources: Sources, info: TypeInfo, keys: list[str]) -> dict[str, str] | str:
    """mypy's keys of a TypedDict that may have been changed → the keys written; or the problem, a message.

    Only the functional form can have such keys (a class's are identifiers):
    ``TD = TypedDict("TD", {...})`` with literal keys, which must read as
    mypy's, one for one (two keys mypy reads alike became one key there).
    """
    changed = [key for key in keys if suspect(key)]
    if not changed:
        return {}
    written = _functional_keys(sources, info)
    if written is not None and len(written) == len(keys):
        exact = [confirmed(key, text) for key, text in zip(keys, written, strict=True)]
        if None not in exact:
            return {key: str(text) for key, text in zip(keys, exact, strict=True)}
    return unconfirmed(
        f"the key {changed[0]!r} of TypedDict {info.fullname}",
        "it has no schema",
        "write the keys as string literals in the TypedDict(...) call, no two differing only in lone surrogates",
    )


def _functional_keys(sources: Sources, info: TypeInfo) -> list[str] | None:
    """The keys of ``TD = TypedDict("TD", {...})`` at module level, when all are string literals."""
    where = sources.module(info.module_name)
    if where is None or info.fullname != f"{info.module_name}.{info.name}":
        return None
    resolved = where.lookup(info.name)
    call = assigned_value(resolved[1]) if resolved is not None and isinstance(resolved[1], ast.stmt) else None
    if resolved is None or not isinstance(call, ast.Call) or resolved[0].dotted(call.func) not in _TYPED_DICT:
        return None
    fields = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "fields"), None)
    if not isinstance(fields, ast.Dict):
        return None
    written = [key.value for key in fields.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)]
    return written if len(written) == len(fields.keys) else None
