"""``ToolcallWarning``, kept in a module of its own so ``import toolcall`` stays light."""

from __future__ import annotations

__all__ = ["ToolcallWarning"]


class ToolcallWarning(UserWarning):
    """A schema problem toolcall worked around (the mypy plugin reports it as an error)."""
