"""Values computed on first use, exactly once, however many threads ask at once.

Every lazy table in toolcall (a tool loaded on first use, a provider
variant rendered once, a module's cache file read once) is one of these two
shapes. The fast path is a plain read with no lock, which stays safe
without the GIL: a value is published only once it is complete, and a
reader that misses it takes the lock and looks again before computing.
"""

from __future__ import annotations

import threading

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable
    from typing import Generic, TypeVar

    T = TypeVar("T")
    K = TypeVar("K", bound=Hashable)
    V = TypeVar("V")
else:
    # ``import toolcall`` loads this module, and importing typing would cost
    # it a third of its start-up: at run time the classes only need to
    # accept the subscripts they are written with.
    class Generic:
        def __class_getitem__(cls, _: object) -> type:
            return object

    T = K = V = None

__all__ = ["OnceCell", "OnceMap"]

_UNSET: object = object()


class OnceCell(Generic[T]):
    """One value, computed by the first ``get`` and shared by every later one."""

    __slots__ = ("_lock", "_value")

    def __init__(self) -> None:
        self._value: object = _UNSET
        self._lock = threading.Lock()

    def get(self, compute: Callable[[], T]) -> T:
        """The value, calling ``compute()`` to make it if no thread has yet."""
        value = self._value
        if value is _UNSET:
            with self._lock:
                value = self._value
                if value is _UNSET:
                    value = self._value = compute()
        return value  # type: ignore[return-value]

    def peek(self) -> T | None:
        """The value if it has been computed, else ``None``."""
        value = self._value
        return None if value is _UNSET else value  # type: ignore[return-value]


class OnceMap(Generic[K, V]):
    """One value per key, each computed once (keys are computed independently, in parallel)."""

    __slots__ = ("_guard", "_locks", "values")

    def __init__(self) -> None:
        #: The computed values; read it directly on a hot path (``values.get(key)``), never write it.
        self.values: dict[K, V] = {}
        self._locks: dict[K, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: K, compute: Callable[[K], V]) -> V:
        """The value for ``key``, calling ``compute(key)`` to make it if no thread has yet."""
        try:
            return self.values[key]
        except KeyError:
            pass
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            value = self.values.get(key, _UNSET)
            if value is _UNSET:
                value = self.values[key] = compute(key)
        with self._guard:
            self._locks.pop(key, None)
        return value  # type: ignore[return-value]

    def discard_where(self, stale: Callable[[K], bool]) -> None:
        """Forget every value whose key ``stale`` accepts (a later ``get`` computes it again)."""
        with self._guard:
            # A snapshot of the keys first: ``get`` adds values without the guard, so another thread may add
            # one while ``stale`` runs, and iterating the dict itself would then raise.
            for key in [key for key in list(self.values) if stale(key)]:
                self.values.pop(key, None)
