"""``OnceCell`` and ``OnceMap``: each value computed once, however many threads ask at once."""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest

from toolcall._once import OnceCell, OnceMap

pytestmark = pytest.mark.threads

THREADS = 32


def _race(target: object, threads: int = THREADS) -> list[object]:
    """Run ``target()`` in many threads released together; the results in thread order."""
    barrier = threading.Barrier(threads)
    results: list[object] = [None] * threads

    def worker(index: int) -> None:
        barrier.wait()
        results[index] = target()  # type: ignore[operator]

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    return results


def test_a_cell_computes_once_for_racing_threads() -> None:
    cell: OnceCell[object] = OnceCell()
    calls = Counter[str]()

    def compute() -> object:
        calls["compute"] += 1
        time.sleep(0.01)  # widen the window in which a second thread could compute again
        return object()

    results = _race(lambda: cell.get(compute))
    assert calls["compute"] == 1
    assert all(result is results[0] for result in results)
    assert cell.peek() is results[0]


def test_a_cell_that_failed_computes_again() -> None:
    cell: OnceCell[int] = OnceCell()
    assert cell.peek() is None

    def fail() -> int:
        raise RuntimeError("not yet")

    with pytest.raises(RuntimeError):
        cell.get(fail)
    assert cell.peek() is None
    assert cell.get(lambda: 7) == 7
    assert cell.get(fail) == 7  # computed: never called again


def test_a_map_computes_each_key_once_for_racing_threads() -> None:
    table: OnceMap[int, object] = OnceMap()
    calls = Counter[int]()

    def compute(key: int) -> object:
        calls[key] += 1
        time.sleep(0.005)
        return (key, object())

    index = iter(range(THREADS))
    lock = threading.Lock()

    def ask() -> object:
        with lock:
            key = next(index) % 4
        return table.get(key, compute)

    results = _race(ask)
    assert calls == {0: 1, 1: 1, 2: 1, 3: 1}
    for result in results:
        assert result is table.values[result[0]]  # type: ignore[index]


def test_a_map_computes_different_keys_in_parallel() -> None:
    """One key's slow computation does not hold up another key's (no lock shared by all keys)."""
    table: OnceMap[str, str] = OnceMap()
    b_done = threading.Event()

    def compute(key: str) -> str:
        if key == "a":
            assert b_done.wait(5), "key 'b' was held up by key 'a'"
        return key.upper()

    first = threading.Thread(target=lambda: table.get("a", compute))
    first.start()
    assert table.get("b", compute) == "B"
    b_done.set()
    first.join()
    assert table.values == {"b": "B", "a": "A"}


def test_a_map_forgets_what_it_is_told_to() -> None:
    table: OnceMap[tuple[str, int], int] = OnceMap()
    for generation in range(3):
        table.get(("m", generation), lambda key: key[1])
    table.get(("other", 0), lambda key: 9)
    table.discard_where(lambda key: key[0] == "m" and key[1] < 2)
    assert table.values == {("m", 2): 2, ("other", 0): 9}
    assert table.get(("m", 0), lambda key: 10) == 10  # computed afresh


def test_a_value_added_while_stale_keys_are_sought_is_kept() -> None:
    # Another thread's ``get`` publishes its value holding only its key's lock, not the guard: here ``stale``
    # publishes one the same way, at the moment that thread could.
    table: OnceMap[tuple[str, int], str] = OnceMap()
    table.get(("m", 1), lambda key: "old")

    def stale(key: tuple[str, int]) -> bool:
        table.values[("m", 3)] = "added meanwhile"
        return key[1] < 2

    table.discard_where(stale)
    assert table.values == {("m", 3): "added meanwhile"}
