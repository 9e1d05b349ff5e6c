"""A class many tools use has its annotations resolved and its source read once per process.

The facts (``structs._facts``) are kept by weak reference to the class, and
only once they resolve: a class whose annotation names something not yet
defined is read again by the next tool that uses it.
"""

from __future__ import annotations

import gc
import json
import typing
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.written_modules import written_module
from toolcall import _ir as ir
from toolcall._declarations.tool import declaration_of
from toolcall._exceptions import SchemaError
from toolcall._introspect import docs, structs
from toolcall._introspect import introspect as introspect_declaration

SHARED = '''
from __future__ import annotations

import dataclasses
from typing import NamedTuple

from typing_extensions import NotRequired, TypedDict

import toolcall


class Line(TypedDict):
    """An order line.

    Attributes:
        qty: how many, from the class docstring
    """

    name: str
    """The product, from its attribute docstring."""
    qty: int
    note: NotRequired[str]


@dataclasses.dataclass
class Address:
    street: str
    """Street and number."""
    city: str = "Oslo"


class Point(NamedTuple):
    x: float
    """Across."""
    y: float = 0.0


{tools}
'''

TOOL = '''
@toolcall.tool
def tool_{index}(lines: list[Line], to: Address, at: Point | None = None) -> str:
    """Tool {index}.

    Args:
        lines: the order
    """
    return ""
'''


@pytest.fixture
def shared_module(tmp_path: Path) -> Iterator[Any]:
    source = SHARED.format(tools="".join(TOOL.format(index=i) for i in range(30)))
    with written_module(tmp_path, "class_facts_tools", source) as module:
        yield module


def introspected(module: Any, count: int = 30) -> list[str]:
    tools = [introspect_declaration(declaration_of(getattr(module, f"tool_{i}"))).tool for i in range(count)]
    return [json.dumps(ir.to_json(tool)) for tool in tools]


def counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> dict[str, int]:
    """Calls of ``owner.name`` by the class they were for."""
    calls: dict[str, int] = {}
    real = getattr(owner, name)

    def spy(cls: Any, *args: Any, **kwargs: Any) -> Any:
        name = getattr(cls, "__qualname__", repr(cls))
        calls[name] = calls.get(name, 0) + 1
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return calls


def test_each_class_is_read_once_for_thirty_tools(shared_module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    hints = counted(monkeypatch, typing, "get_type_hints")
    sources = counted(monkeypatch, docs, "_source_docs")
    introspected(shared_module)
    assert {name: hints[name] for name in ("Line", "Address", "Point")} == {"Line": 1, "Address": 1, "Point": 1}
    assert {name: sources[name] for name in ("Line", "Address", "Point")} == {"Line": 1, "Address": 1, "Point": 1}


def test_the_tools_are_the_ones_a_fresh_read_gives(shared_module: Any) -> None:
    remembered = introspected(shared_module)
    for cls in (shared_module.Line, shared_module.Address, shared_module.Point):
        del structs._FACTS[cls]
    fresh = introspected(shared_module, 1)
    assert remembered[0] == fresh[0]
    for described in ("The product, from its attribute docstring.", "from the class docstring", "Across."):
        assert described in remembered[0]
    assert [text.replace("tool_29", "tool_0").replace("Tool 29", "Tool 0") for text in remembered[-1:]] == fresh


UNRESOLVED = """
from __future__ import annotations

from typing_extensions import TypedDict

import toolcall


class Order(TypedDict):
    line: Later


@toolcall.tool
def first(order: Order) -> str:
    return ""


@toolcall.tool
def second(order: Order) -> str:
    return ""
"""


def test_a_class_that_does_not_resolve_yet_is_read_again(tmp_path: Path) -> None:
    with written_module(tmp_path, "class_facts_later", UNRESOLVED) as module:
        with pytest.raises(SchemaError, match="Later"):
            introspect_declaration(declaration_of(module.first))
        assert module.Order not in structs._FACTS
        module.Later = int  # defined after the first attempt, as a module may do further down
        order = introspect_declaration(declaration_of(module.second)).tool.parameters[0].type
        assert isinstance(order, ir.ObjectType)
        assert order.fields[0].type == ir.Primitive("int")
        assert structs._FACTS[module.Order][0] == {"line": int}


def test_the_facts_do_not_keep_a_class_alive() -> None:
    def make() -> Any:
        class Local(typing.TypedDict):
            name: str

        def tool(item: Local) -> str:
            return ""

        tool.__annotations__ = {"item": Local, "return": str}  # objects, not this module's postponed texts
        return tool

    import toolcall

    fn = toolcall.tool(make())
    introspect_declaration(declaration_of(fn))
    cls = fn.__annotations__["item"]
    assert cls in structs._FACTS
    gone = weakref.ref(cls)
    del fn, cls
    gc.collect()
    assert gone() is None
