"""``Param`` and ``Injected``: metadata a parameter carries in ``Annotated``."""

from __future__ import annotations

import math
import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Final, Literal

__all__ = ["PARAM_FIELDS", "WIRE_FORMATS", "Injected", "InjectedMarker", "Param"]

WIRE_FORMATS: Final = ("string_integer",)


#: The arguments of ``Param``, in its positional order (both front ends read them).
PARAM_FIELDS: Final = (
    "description",
    "ge",
    "le",
    "gt",
    "lt",
    "multiple_of",
    "min_length",
    "max_length",
    "pattern",
    "wire",
)


class Param:
    """Describes and constrains a parameter or a nested value.

    Use it in ``Annotated[T, Param(...)]``. ``description=""`` means "no
    description" and stops the docstring fallback. The bounds are enforced by
    the dispatcher and rendered where the provider can carry them.
    ``wire="string_integer"`` sends an ``int`` as a decimal string.
    Instances are immutable and compare by value.
    """

    # A plain class rather than a dataclass: ``import toolcall`` must not pay
    # for importing ``dataclasses`` (and ``inspect``) at start-up.
    __slots__ = PARAM_FIELDS

    description: str | None
    ge: int | float | None
    le: int | float | None
    gt: int | float | None
    lt: int | float | None
    multiple_of: int | float | None
    min_length: int | None
    max_length: int | None
    pattern: str | None
    wire: Literal["string_integer"] | None

    def __init__(
        self,
        description: str | None = None,
        *,
        ge: int | float | None = None,
        le: int | float | None = None,
        gt: int | float | None = None,
        lt: int | float | None = None,
        multiple_of: int | float | None = None,
        min_length: int | None = None,
        max_length: int | None = None,
        pattern: str | None = None,
        wire: Literal["string_integer"] | None = None,
    ) -> None:
        values = (description, ge, le, gt, lt, multiple_of, min_length, max_length, pattern, wire)
        for name, value in zip(PARAM_FIELDS, values, strict=True):
            object.__setattr__(self, name, value)
        self._validate()

    def _validate(self) -> None:
        for name in ("ge", "le", "gt", "lt", "multiple_of"):
            _check_bound(name, getattr(self, name))
        if self.multiple_of is not None and self.multiple_of <= 0:
            raise ValueError(f"Param(multiple_of={self.multiple_of!r}): use a number greater than 0")
        for name in ("min_length", "max_length"):
            _check_length(name, getattr(self, name))
        if self.pattern is not None:
            _check_pattern(self.pattern)
        if self.wire is not None and self.wire not in WIRE_FORMATS:
            raise ValueError(f"Param(wire={self.wire!r}): the known wire formats are {', '.join(WIRE_FORMATS)}")
        if self.description is not None and not isinstance(self.description, str):
            raise TypeError(f"Param(description=...) takes a str, got {type(self.description).__name__}")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Param is immutable; build a new Param instead of setting {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Param is immutable")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in PARAM_FIELDS)

    def __eq__(self, other: object) -> bool:
        return self._values() == other._values() if isinstance(other, Param) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = [f"{n}={getattr(self, n)!r}" for n in PARAM_FIELDS if getattr(self, n) is not None]
        return f"Param({', '.join(shown)})"

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_param, (dict(zip(PARAM_FIELDS, self._values(), strict=True)),))


def _rebuild_param(fields: dict[str, object]) -> Param:
    return Param(**fields)  # type: ignore[arg-type]


def _check_bound(name: str, value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"Param({name}={value!r}): use an int or a float")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"Param({name}={value!r}): use a finite number")


def _check_length(name: str, value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Param({name}={value!r}): use an int")
    if value < 0:
        raise ValueError(f"Param({name}={value!r}): use 0 or more")


def _check_pattern(pattern: object) -> None:
    if not isinstance(pattern, str):
        raise TypeError(f"Param(pattern={pattern!r}): use a str")
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"Param(pattern={pattern!r}) is not a valid regular expression: {exc}") from None


class InjectedMarker:
    """The type of ``Injected``; use the ``Injected`` instance, not this class."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "toolcall.Injected"

    def __reduce__(self) -> str:
        return "Injected"


#: ``Annotated[T, Injected]`` keeps a parameter out of every schema; the value
#: comes from ``run(..., context={name: value})``.
Injected: Final = InjectedMarker()
