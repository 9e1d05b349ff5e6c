"""TypeVars: bound, constrained and unbounded."""

from __future__ import annotations

from typing import TypeVar

import toolcall

Number = TypeVar("Number", int, float)
Text = TypeVar("Text", bound=str)
T = TypeVar("T")


@toolcall.tool
def scale(value: Number, factor: Number) -> Number:
    """Multiply a number."""
    return value * factor


@toolcall.tool
def shout(text: Text) -> Text:
    """Upper-case a text."""
    return text


@toolcall.tool
def echo(value: T) -> T:
    """Return the value unchanged."""
    return value
