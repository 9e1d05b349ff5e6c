"""``Ok`` and ``Err``: what ``run`` and ``arun`` return."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Generic, Literal, TypeVar

    from toolcall.errors import ToolError

    _T = TypeVar("_T")
else:  # at run time the classes need no generic machinery
    Generic = {object: object}
    _T = object

__all__ = ["Err", "Ok"]


class Ok(Generic[_T]):
    """The tool ran and returned ``value``."""

    __slots__ = ("value",)
    __match_args__ = ("value",)
    ok: Literal[True] = True
    value: _T

    def __init__(self, value: _T) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Ok({self.value!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ok) and bool(self.value == other.value)

    def __hash__(self) -> int:
        return hash((Ok, self.value))


class Err:
    """The call failed; ``error`` (from ``toolcall.errors``) says why, for the model."""

    __slots__ = ("error",)
    __match_args__ = ("error",)
    ok: Literal[False] = False
    error: ToolError

    def __init__(self, error: ToolError) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"Err({self.error!r})"

    def __str__(self) -> str:
        return str(self.error)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Err) and bool(self.error == other.error)

    def __hash__(self) -> int:
        return hash((Err, self.error))

    def to_json(self) -> dict[str, Any]:
        """The error as a JSON-safe dict (``{"error": "missing_argument", ...}``)."""
        return self.error.to_json()
