"""What a module's tools share: each annotation text evaluated, and each type walked, once.

A module's tools repeat a few annotations (``str``, ``list[Item]``,
``str | None``). Under postponed annotations each is a text. The first tool
that has a text evaluates it; the next ones take the same value while every
name the text uses is still bound to the same object. A text that reads an
attribute or calls anything (``typing.Optional[int]``, ``Annotated[int,
Param(...)]``) is evaluated each time, and so is one whose name was rebound.

Taking the same value makes equal annotations one object, so the walk of a
parameter's or return's type is kept by that object's identity, for the
providers it was walked with: its node, and the classes and providers it
named, which the next walker takes as if it had walked the type itself. A
walk is kept only when it is the same whatever the walker collected before:
one that found something to warn about or met a recursive type is not.
What such an annotation alone decides (whether it is ``Injected``, the
``Param`` description it declares) is kept by its identity too.

The shared values live as long as their module (weakly keyed by it); a
function whose globals are not a loaded module's namespace shares nothing.
"""

from __future__ import annotations

import functools
import opcode
import sys
import threading
import types
import weakref
from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

from toolcall import _ir as ir

__all__ = ["NOT_SETTLED", "SharedAnnotations", "Walked", "compiled", "shared_annotations"]

_MISSING: Final = object()
_T = TypeVar("_T")
#: What ``SharedAnnotations.evaluate`` returns for a value that is not settled.
NOT_SETTLED: Final = object()

#: The instructions of a text that only names things, subscripts, ``|`` and constants: its value
#: depends on nothing but the objects its names are bound to.
_NAMING_ONLY: Final = frozenset(
    {
        "RESUME",
        "NOP",
        "CACHE",
        "EXTENDED_ARG",
        "LOAD_NAME",
        "LOAD_CONST",
        "LOAD_SMALL_INT",
        "BINARY_SUBSCR",
        "BINARY_OP",
        "BUILD_TUPLE",
        "RETURN_VALUE",
        "RETURN_CONST",
    }
)


@functools.lru_cache(maxsize=4096)
def compiled(text: str) -> types.CodeType:
    """An annotation's text compiled as an expression (as ``typing.ForwardRef`` compiles it)."""
    return compile(text, "<annotation>", "eval")


#: Their numbers in this Python's bytecode (the names a version lacks left out).
_NAMING_ONLY_CODES: Final = frozenset(opcode.opmap[name] for name in _NAMING_ONLY if name in opcode.opmap)


@functools.lru_cache(maxsize=4096)
def _naming_only(code: types.CodeType) -> bool:
    # Read from the raw instructions, two bytes each (``dis`` takes as long as the evaluation saves).
    raw = code.co_code
    return all(raw[index] in _NAMING_ONLY_CODES for index in range(0, len(raw), 2))


class Walked:
    """A kept walk: the node, and the classes and providers the walker recorded on the way, in order."""

    __slots__ = ("annotation", "classes", "node", "providers", "providers_used")

    def __init__(
        self,
        annotation: object,
        providers: tuple[Any, ...],
        node: ir.TypeNode,
        classes: tuple[tuple[str, Any], ...],
        providers_used: tuple[str, ...],
    ) -> None:
        self.annotation = annotation  # held, so that its id names it while kept
        self.providers = providers
        self.node = node
        self.classes = classes
        self.providers_used = providers_used


class _Evaluated:
    __slots__ = ("bindings", "value")

    def __init__(self, bindings: tuple[tuple[str, object], ...], value: object) -> None:
        self.bindings = bindings
        self.value = value


class SharedAnnotations:
    """One module's evaluated texts and kept walks."""

    __slots__ = ("_facts", "_texts", "_values", "_walks")

    def __init__(self) -> None:
        self._texts: dict[str, _Evaluated] = {}
        self._values: dict[int, object] = {}  # id → every value a text gave, so only those walks are kept
        self._walks: dict[int, Walked] = {}
        self._facts: dict[tuple[int, str], Any] = {}

    def evaluate(self, text: str, namespace: dict[str, Any], settled: Callable[[Any], bool]) -> Any:
        """``eval(text, namespace)``, with ``None`` read as ``NoneType``; ``NOT_SETTLED`` when not ``settled``.

        Raises what ``eval`` raises.
        """
        kept = self._texts.get(text)
        if kept is not None and _still_bound(namespace, kept.bindings):
            return kept.value
        code = compiled(text)
        value = eval(code, namespace)
        if value is None:
            value = types.NoneType
        if not settled(value):
            return NOT_SETTLED
        if _naming_only(code):
            self._texts[text] = _Evaluated(tuple((name, _bound(namespace, name)) for name in code.co_names), value)
            self._values[id(value)] = value
        return value

    def walked(self, annotation: object, providers: tuple[Any, ...]) -> Walked | None:
        """The kept walk of ``annotation`` with ``providers``, or ``None``."""
        kept = self._walks.get(id(annotation))
        return kept if kept is not None and kept.providers == providers else None

    def keeps(self, annotation: object) -> bool:
        """Whether a walk of ``annotation`` is worth keeping: it is a value a text gave."""
        return self._values.get(id(annotation)) is annotation

    def keep(self, walked: Walked) -> None:
        """Keep ``walked`` for the next walks of its annotation."""
        self._walks[id(walked.annotation)] = walked

    def fact(self, annotation: object, kind: str, compute: Callable[[], _T]) -> _T:
        """``compute()``, a fact of ``annotation`` alone (``kind`` names it), kept when ``keeps(annotation)``.

        A fact that raised is not kept: the next tool meets the error again.
        """
        if not self.keeps(annotation):
            return compute()
        key = (id(annotation), kind)
        kept = self._facts.get(key, _MISSING)
        if kept is _MISSING:
            kept = self._facts[key] = compute()
        return cast(_T, kept)


def _still_bound(namespace: dict[str, Any], bindings: tuple[tuple[str, object], ...]) -> bool:
    """Whether each name of ``bindings`` is bound to its object in ``namespace`` (a global, else a builtin)."""
    for name, value in bindings:  # a loop, not all(): this runs for every annotation of every tool
        found = namespace.get(name, _MISSING)
        if found is _MISSING:
            found = _bound(namespace, name)  # a builtin, or missing
        if found is not value:
            return False
    return True


def _bound(namespace: dict[str, Any], name: str) -> object:
    """What ``name`` is bound to when a text is evaluated in ``namespace``: its global, else its builtin."""
    value = namespace.get(name, _MISSING)
    if value is not _MISSING:
        return value
    builtins = namespace.get("__builtins__", _MISSING)
    if isinstance(builtins, types.ModuleType):
        builtins = vars(builtins)
    return builtins.get(name, _MISSING) if isinstance(builtins, dict) else _MISSING


_SHARED: weakref.WeakKeyDictionary[types.ModuleType, SharedAnnotations] = weakref.WeakKeyDictionary()
_SHARED_LOCK: Final = threading.Lock()


def shared_annotations(namespace: dict[str, Any], module: str) -> SharedAnnotations:
    """The shared annotations of ``module`` if ``namespace`` is its loaded namespace, else new ones for one tool."""
    loaded = sys.modules.get(module)
    if loaded is None or vars(loaded) is not namespace:
        return SharedAnnotations()
    shared = _SHARED.get(loaded)
    if shared is None:
        with _SHARED_LOCK:  # two threads on a module's first tools get one
            shared = _SHARED.setdefault(loaded, SharedAnnotations())
    return shared
