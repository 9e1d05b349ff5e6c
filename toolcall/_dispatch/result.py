"""``Ok`` and ``Err``: what ``run`` and ``arun`` return.

Both are immutable one-item tuple subclasses: ``run`` builds one per call,
and ``tuple.__new__`` is the cheapest way CPython has to make an object.
Use ``.ok``, ``.value`` and ``.error``; an ``Ok`` never equals an ``Err`` or
a plain tuple.
"""

from __future__ import annotations

from operator import itemgetter

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Generic, Literal, TypeVar

    from toolcall.errors import ToolError

    _T = TypeVar("_T")

    class Ok(tuple[_T], Generic[_T]):
        """The tool ran and returned ``value``."""

        ok: Literal[True]
        value: _T

        def __new__(cls, value: _T) -> Ok[_T]: ...

    class Err(tuple["ToolError"]):
        """The call failed; ``error`` (from ``toolcall.errors``) says why, for the model."""

        ok: Literal[False]
        error: ToolError

        def __new__(cls, error: ToolError) -> Err: ...

        def to_json(self) -> dict[str, Any]:
            """The error as a JSON-safe dict (``{"error": "missing_argument", ...}``)."""

else:
    _new = tuple.__new__
    _first = itemgetter(0)

    class _Outcome(tuple):
        __slots__ = ()

        def __new__(cls, item):
            return _new(cls, (item,))

        def __eq__(self, other):
            return type(other) is type(self) and tuple.__eq__(self, other)

        def __ne__(self, other):
            return not self.__eq__(other)

        def __hash__(self):
            return hash((type(self).__name__, tuple.__getitem__(self, 0)))

    class Ok(_Outcome):
        """The tool ran and returned ``value``."""

        __slots__ = ()
        __match_args__ = ("value",)
        ok = True
        value = property(_first, doc="What the tool returned.")

        def __repr__(self):
            return f"Ok({self.value!r})"

    class Err(_Outcome):
        """The call failed; ``error`` (from ``toolcall.errors``) says why, for the model."""

        __slots__ = ()
        __match_args__ = ("error",)
        ok = False
        error = property(_first, doc="The error, one of ``toolcall.errors``.")

        def __repr__(self):
            return f"Err({self.error!r})"

        def __str__(self):
            return str(self.error)

        def to_json(self):
            """The error as a JSON-safe dict (``{"error": "missing_argument", ...}``)."""
            return self.error.to_json()


__all__ = ["Err", "Ok"]
