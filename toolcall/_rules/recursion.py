"""Recursion bookkeeping shared by both front ends, so ``$defs`` names agree.

A walker that mixes this in keeps ``defs`` (name → node), ``path`` (the
steps walked, for messages), ``_names`` (type key → named type's name) and
``_active`` (the keys being built). A type met again while it is being built
recurs: it becomes a ``RefType`` and its node goes to ``defs`` under a name
made of ``[A-Za-z0-9_]`` from the type's own name, ``_2``, ``_3`` ... on a clash.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Final

from toolcall import _ir as ir

__all__ = ["RecursionTracker"]

_UNSAFE: Final = re.compile(r"[^A-Za-z0-9_]")


class RecursionTracker:
    """``at`` and ``keyed`` for a type walker (see the module docstring for the state it needs)."""

    defs: dict[str, ir.TypeNode]
    path: list[str | int]
    _names: dict[Hashable, str]
    _active: set[Hashable]

    @contextmanager
    def at(self, step: str | int) -> Iterator[None]:
        """Walk one step deeper (a field), for messages and findings."""
        self.path.append(step)
        try:
            yield
        finally:
            self.path.pop()

    def keyed(self, key: Hashable, name: str, build: Callable[[], ir.TypeNode]) -> ir.TypeNode:
        """Build the node of a type that may recur; a recurring one goes to ``defs``."""
        if key in self._active:
            return ir.RefType(self._def_name(key, name))
        self._active.add(key)
        try:
            node = build()
        finally:
            self._active.discard(key)
        def_name = self._names.get(key)
        if def_name is None:
            return node
        self.defs.setdefault(def_name, node)
        return ir.RefType(def_name)

    def _def_name(self, key: Hashable, name: str) -> str:
        def_name = self._names.get(key)
        if def_name is None:
            base = _UNSAFE.sub("_", name) or "Type"
            taken = set(self._names.values())
            def_name, n = base, 1
            while def_name in taken:
                n += 1
                def_name = f"{base}_{n}"
            self._names[key] = def_name
        return def_name
