"""Read-only JSON containers for results that are shared between callers.

A toolset keeps each rendered variant (``shared_definitions``) and its
``describe`` result in this form, precomputed once: ``describe``,
``tool_names`` and toolcall's own readers hand out or read the same objects
on every call, so a caller that mutates one must not change what the next
caller gets. (``emit`` returns fresh plain copies instead.) These subclasses
of ``dict`` and ``list`` refuse mutation, still pass ``isinstance(x, dict)``
and still serialize with ``json.dumps``. ``copy.copy`` and ``copy.deepcopy``
give plain, mutable containers.
"""

from __future__ import annotations

import copy

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = ["ReadOnlyDict", "ReadOnlyList", "read_only"]


if TYPE_CHECKING:
    # Type checkers see plain dict and list subclasses: mutation is refused at
    # run time, and the read-only API is exactly the base classes' reading API.

    class ReadOnlyDict(dict[str, Any]):
        """A ``dict`` that refuses mutation."""

    class ReadOnlyList(list[Any]):
        """A ``list`` that refuses mutation."""

else:

    def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(
            f"{type(self).__name__} is read-only: toolcall shares it between callers; "
            "use copy.deepcopy(result) for a mutable copy"
        )

    class ReadOnlyDict(dict):
        """A ``dict`` that refuses mutation."""

        __slots__ = ()
        __setitem__ = __delitem__ = _refuse
        clear = pop = popitem = setdefault = update = _refuse
        __ior__ = _refuse

        def __copy__(self) -> dict[str, Any]:
            return dict(self)

        def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
            return {key: copy.deepcopy(value, memo) for key, value in self.items()}

        def __reduce__(self) -> tuple[Any, ...]:
            return (ReadOnlyDict, (dict(self),))

        def __hash__(self) -> int:
            raise TypeError("unhashable type: 'ReadOnlyDict'")

    class ReadOnlyList(list):
        """A ``list`` that refuses mutation."""

        __slots__ = ()
        __setitem__ = __delitem__ = _refuse
        append = extend = insert = pop = remove = reverse = sort = clear = _refuse
        __iadd__ = __imul__ = _refuse

        def __copy__(self) -> list[Any]:
            return list(self)

        def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
            return [copy.deepcopy(value, memo) for value in self]

        def __reduce__(self) -> tuple[Any, ...]:
            return (ReadOnlyList, (list(self),))

        def __hash__(self) -> int:
            raise TypeError("unhashable type: 'ReadOnlyList'")


def read_only(value: Any) -> Any:
    """A read-only deep copy of JSON data (dicts, lists and tuples become frozen)."""
    if isinstance(value, dict):
        return ReadOnlyDict({key: read_only(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return ReadOnlyList(read_only(item) for item in value)
    return value
