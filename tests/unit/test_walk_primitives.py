"""A plain primitive class is walked without the handler chain, to the node the chain gives it.

``Walker.walk`` answers a class in the primitive table at once; each handler
before ``_class`` must pass it over, so the answer is the chain's.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolcall import _ir as ir
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
    with pytest.raises(AssertionError, match="list"):
        Walker("example", (), {}).walk(list[str])
