"""Constraint checks (``Param`` bounds), shared by the dispatcher and the default rules.

They follow JSON Schema's semantics, so the dispatcher refuses exactly what
a schema validator refuses: numeric bounds on the Python value, lengths on
the wire value (characters of a string, items of an array, keys of an
object), ``pattern`` as a search (not a full match) in ECMA 262's dialect
(``ecma_regex``), and ``multipleOf`` as the ``jsonschema`` package computes
it (a float step divides exactly or not at all; ``0.3`` is not a multiple of
``0.1`` in binary floating point).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from toolcall._ir import Constraints
from toolcall._wire.patterns import ecma_regex

if TYPE_CHECKING:
    from toolcall._declarations.params import Param

__all__ = ["is_multiple", "param_constraints", "violation"]


def is_multiple(value: Any, step: int | float) -> bool:
    """Whether ``value`` is a multiple of ``step``, as the ``jsonschema`` package decides.

    A float step divides in floating point, falling back to exact fractions
    when the quotient overflows (``1e308`` is a multiple of ``0.5``); an
    integer step is a remainder (exact for integers and floats alike). A
    ``Decimal`` (whose bounds only the dispatcher checks) is divided exactly.
    """
    if _is_decimal(value):
        return _decimal_multiple(value, step)
    if isinstance(step, float):
        try:
            quotient = value / step
            return bool(int(quotient) == quotient)
        except OverflowError:  # an infinite quotient, or an int too large to divide as a float
            return _exact_multiple(value, step)
        except ValueError:  # a nan quotient
            return False
    return bool(value % step == 0)


def _exact_multiple(value: Any, step: int | float) -> bool:
    from fractions import Fraction

    try:
        return (Fraction(value) / Fraction(step)).denominator == 1
    except (OverflowError, ValueError):  # an infinite or nan value
        return False


def _decimal_multiple(value: Any, step: int | float) -> bool:
    # Exact decimal arithmetic, without building 10**exponent for a wire value such as "1e999999999"
    # (nor str() of a many-digit int, which Python limits to 4300 digits).
    import decimal
    from fractions import Fraction

    _, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int):  # NaN or Infinity (the wire pattern admits neither)
        return False
    coefficient = int(decimal.Decimal((0, digits, 0)))
    if coefficient == 0:
        return True
    ratio = Fraction(str(step))  # the step as written: 0.1 is 1/10 here, as a Decimal user means it
    p, q = ratio.numerator, ratio.denominator
    if exponent >= 0:
        # More factors of 10 than p has factors of 2 or 5 change nothing.
        scale: int = 10 ** min(exponent, p.bit_length())
        return coefficient * scale * q % p == 0
    if -exponent >= len(digits) + len(str(q)):  # divided by more than coefficient * q holds
        return False
    divisor: int = p * 10**-exponent
    return coefficient * q % divisor == 0


def violation(value: Any, wire: Any, c: Constraints) -> tuple[str, str] | None:
    """The first broken constraint as ``(reason code, detail)``, or ``None``.

    ``value`` is the coerced value (numbers are compared), ``wire`` the value
    as sent (its length and pattern are checked).
    """
    if (isinstance(value, (int, float)) and not isinstance(value, bool)) or _is_decimal(value):
        broken = _broken_bound(value, c)
        if broken is not None:
            return broken
    if isinstance(wire, (str, list, dict)):
        return _broken_length(wire, c)
    return None


def _is_decimal(value: Any) -> bool:
    return type(value).__name__ == "Decimal"


def _broken_bound(value: Any, c: Constraints) -> tuple[str, str] | None:
    if c.ge is not None and not value >= c.ge:
        return "out_of_range", f"must be at least {c.ge}"
    if c.gt is not None and not value > c.gt:
        return "out_of_range", f"must be greater than {c.gt}"
    if c.le is not None and not value <= c.le:
        return "out_of_range", f"must be at most {c.le}"
    if c.lt is not None and not value < c.lt:
        return "out_of_range", f"must be less than {c.lt}"
    if c.multiple_of is not None and not is_multiple(value, c.multiple_of):
        return "out_of_range", f"must be a multiple of {c.multiple_of}"
    return None


def _broken_length(wire: str | list[Any] | dict[Any, Any], c: Constraints) -> tuple[str, str] | None:
    unit = "characters" if isinstance(wire, str) else "items" if isinstance(wire, list) else "keys"
    if c.min_length is not None and len(wire) < c.min_length:
        return "too_short", f"at least {c.min_length} {unit}"
    if c.max_length is not None and len(wire) > c.max_length:
        return "too_long", f"at most {c.max_length} {unit}"
    if c.pattern is not None and isinstance(wire, str) and _compiled(c.pattern).search(wire) is None:
        return "pattern_mismatch", f"pattern {c.pattern}"
    return None


def param_constraints(param: Param) -> Constraints:
    """The constraints a ``Param`` states, as the IR holds them (both front ends build them here)."""
    return Constraints(
        ge=param.ge,
        le=param.le,
        gt=param.gt,
        lt=param.lt,
        multiple_of=param.multiple_of,
        min_length=param.min_length,
        max_length=param.max_length,
        pattern=param.pattern,
    )


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return ecma_regex(pattern)
