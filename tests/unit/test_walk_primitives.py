"""The walk's shortcuts give the node the handler chain gives, without asking the handlers that would pass.

``Walker.walk`` answers a class in the primitive table at once; each handler
before ``_class`` must pass it over, so the answer is the chain's. ``X | Y``
and a builtin container subscripted start at the handler that answers them.
"""

from __future__ import annotations

import collections.abc
import typing
from typing import Any

import pytest

from toolcall import _ir as ir
from toolcall._exceptions import SchemaError
from toolcall._introspect import types
from toolcall._introspect.types import Walker


def by_the_handlers(walker: Walker, tp: Any) -> ir.TypeNode:
    return next(node for handler in types._HANDLERS if (node := handler(walker, tp)) is not None)


@pytest.mark.parametrize("cls", list(types._PRIMITIVES), ids=lambda cls: cls.__name__)
def test_a_primitive_class_gets_the_node_the_handlers_give(cls: type[Any]) -> None:
    walker = Walker("example", (), {})
    assert walker.walk(cls) == by_the_handlers(walker, cls) == ir.Primitive(types._PRIMITIVES[cls])
    assert (walker.findings, walker.classes, walker.defs) == ([], {}, {})


def test_the_handlers_are_not_asked_for_a_primitive(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(walker: Walker, tp: Any) -> ir.TypeNode | None:
        raise AssertionError(f"asked for {tp!r}")

    monkeypatch.setattr(types, "_HANDLERS", (refuse,))
    assert Walker("example", (), {}).walk(str) == ir.Primitive("str")
    with pytest.raises(AssertionError, match="Literal"):
        Walker("example", (), {}).walk(typing.Literal["a"])


#: ``X | Y`` and builtin containers subscripted: walked from the handler that answers them.
SHORTCUT = [
    list[int],
    dict[str, int],
    set[str],
    frozenset[int],
    tuple[int, ...],
    tuple[int, str],
    tuple[()],
    collections.abc.Sequence[int],
    collections.abc.Mapping[str, float],
    dict[str, list[int]],
    int | None,
    str | int | None,
    list[int] | None,
    dict[str, list[int] | None] | None,
    type[int],  # refused, by the same handler
    dict[int, str],  # refused: the key is no str
]


def outcome(walk: Any, tp: Any) -> Any:
    try:
        return walk(tp)
    except SchemaError as exc:
        return ("refused", str(exc))


@pytest.mark.parametrize("tp", SHORTCUT, ids=repr)
def test_a_union_or_a_builtin_container_gets_what_the_whole_chain_gives(tp: Any) -> None:
    assert outcome(Walker("example", (), {}).walk, tp) == outcome(
        lambda t: by_the_handlers(Walker("example", (), {}), t), tp
    )


@pytest.mark.parametrize("tp", SHORTCUT, ids=repr)
def test_every_handler_before_the_shortcut_passes_it_over(tp: Any) -> None:
    start = types._handlers_for(tp)
    assert start in (types._FROM_UNION, types._FROM_CONTAINER)
    skipped = types._HANDLERS[: len(types._HANDLERS) - len(start)]
    assert [handler(Walker("example", (), {}), tp) for handler in skipped] == [None] * len(skipped)


def test_the_skipped_handlers_are_not_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(walker: Walker, tp: Any) -> ir.TypeNode | None:
        raise AssertionError(f"asked for {tp!r}")

    annotation = dict[str, list[int] | str]  # no None: as an annotation it is no class, and asks every handler
    expected = Walker("example", (), {}).walk(annotation)
    monkeypatch.setattr(types, "_HANDLERS", (refuse, *types._HANDLERS))
    assert Walker("example", (), {}).walk(annotation) == expected
    with pytest.raises(AssertionError, match="Literal"):
        Walker("example", (), {}).walk(typing.Literal["a"])
