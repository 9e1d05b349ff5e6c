"""A module whose tools repeat a few types: written for the tests of what a module's tools share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

#: The module's types, then ``{tools}``: an Enum, a TypedDict, a recursive TypedDict, a dataclass whose
#: default does not fit (each tool that uses it is warned), and a namespace that holds a class.
SOURCE: Final = '''
from __future__ import annotations

import dataclasses
import enum
import types
from typing import Literal

from typing_extensions import NotRequired, TypedDict

import toolcall


class Unit(enum.Enum):
    """A temperature unit."""

    C = "celsius"
    F = "fahrenheit"


class Item(TypedDict):
    """An order line."""

    name: str
    qty: int
    note: NotRequired[str]


class Tree(TypedDict):
    """A tree: it names itself."""

    label: str
    children: list[Tree]


@dataclasses.dataclass
class Loose:
    """Its default is not an int: each tool that uses it is warned."""

    count: int = "many"  # type: ignore[assignment]


ns = types.SimpleNamespace(Picked=Item)

{tools}
'''

#: The default tools' signatures, cycled.
SHAPES: Final = (
    '''def tool_{i}(items: list[Item], unit: Unit = Unit.C, note: str | None = None) -> list[str]:
    """Tool {i}.

    Args:
        items: the order
    """
    return []
''',
    '''def tool_{i}(tree: Tree, mode: Literal["fast", "exact"] = "fast", items: list[Item] | None = None) -> Tree:
    """Tool {i}."""
    return tree
''',
    '''def tool_{i}(loose: list[Loose], picked: ns.Picked, unit: Unit = Unit.F) -> dict[str, int]:
    """Tool {i}."""
    return {{}}
''',
)


def module_source(count: int, shapes: Sequence[str] = SHAPES) -> str:
    """The module's source with ``count`` tools ``tool_0``, ``tool_1``, ..., of ``shapes`` in turn."""
    tools = "\n\n".join("@toolcall.tool\n" + shapes[i % len(shapes)].format(i=i) for i in range(count))
    return SOURCE.format(tools=tools)
