"""A tool naming a class imported for type checkers only (Python 3.14 only: no ``__future__`` import).

mypy sees ``Decimal``; at run time the name is never defined, so
introspection cannot resolve it, while the cache the plugin wrote serves the
tool, and dispatch reads the signature without evaluating its annotations.
"""

from typing import TYPE_CHECKING

import toolcall

if TYPE_CHECKING:
    from decimal import Decimal


@toolcall.tool
def pay(amount: Decimal, note: str = "") -> str:
    """Pay an amount."""
    return f"{amount!r} {note}"
