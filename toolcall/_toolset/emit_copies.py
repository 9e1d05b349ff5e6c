"""Generated functions that build a fresh copy of one shared ``emit`` result.

``emit`` hands every caller its own plain lists and dicts, built
from the shared, read-only form a toolset keeps (``shared_definitions``). A recursive
copy of 20 tools walks about 200 containers in Python; instead, ``copier``
generates, once per shared result, a function whose body is one nested
list/dict display of that result, so a call runs only the interpreter's
container-building opcodes (dict keys and scalars are code constants).

Values enter the generated source only as ``CodeBuilder.literal`` spellings of
plain JSON scalars; any other leaf (a float NaN, a ``str`` subclass) is a
namespace constant, shared like the shared form shares it, since it is not
a container. CPython's parser refuses more than 200 nested brackets, and
compiling costs a few microseconds per node (once, but on the first use),
so a container nested deeper than ``MAX_LITERAL_DEPTH``, or a tool beyond
the ``MAX_LITERAL_NODES`` budget, is built by ``plain_copy`` of its shared
form instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from toolcall._dispatch.codegen import CodeBuilder

__all__ = ["MAX_LITERAL_DEPTH", "MAX_LITERAL_NODES", "copier", "node_count", "plain_copy"]

#: Containers nested deeper than this (counted from a tool's own dict) are copied, not spelled.
MAX_LITERAL_DEPTH: Final = 64
#: JSON nodes one generated function may spell; the tools past the budget are copied.
MAX_LITERAL_NODES: Final = 50_000


def plain_copy(value: Any) -> Any:
    """A deep copy of JSON data as plain ``dict``s and ``list``s (a read-only container's copy is mutable)."""
    if isinstance(value, dict):
        return {key: plain_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_copy(item) for item in value]
    return value


def copier(shared: list[Any]) -> Callable[[], list[Any]]:
    """A function returning a fresh, independent plain copy of ``shared`` (JSON data) on every call."""
    from toolcall._dispatch.codegen import CodeBuilder  # a process that copies once, with plain_copy, never needs it

    source = CodeBuilder("<toolcall emit>", {"_copy": plain_copy})
    budget = MAX_LITERAL_NODES
    spelled = []
    for tool in shared:
        size = node_count(tool, budget)
        if size > budget:
            spelled.append(_copied(tool, source))
        else:
            budget -= size
            spelled.append(_spell(tool, 0, source))
    source.begin()
    source.add(0, "def _emit():", "    return [")
    source.add(2, *(f"{text}," for text in spelled))
    source.add(1, "]")
    source.end()
    made: Callable[[], list[Any]] = source.compile()["_emit"]
    return made


def node_count(value: Any, limit: int) -> int:
    """How many JSON nodes ``value`` has, counting no further than just past ``limit`` (no recursion)."""
    count = 0
    stack = [value]
    while stack and count <= limit:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


def _spell(value: Any, depth: int, source: CodeBuilder) -> str:
    """Python source for an expression that builds a fresh copy of ``value``."""
    if isinstance(value, dict):
        if depth >= MAX_LITERAL_DEPTH:
            return _copied(value, source)
        items = (f"{_scalar(key, source)}: {_spell(item, depth + 1, source)}" for key, item in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        if depth >= MAX_LITERAL_DEPTH:
            return _copied(value, source)
        return "[" + ", ".join(_spell(item, depth + 1, source) for item in value) + "]"
    return _scalar(value, source)


def _scalar(value: Any, source: CodeBuilder) -> str:
    """A literal for a plain JSON scalar; the name of a namespace constant for anything else."""
    try:
        return source.literal(value)
    except (TypeError, ValueError):  # not a plain scalar; an int too long for ``repr``
        return source.constant(value)


def _copied(value: Any, source: CodeBuilder) -> str:
    """An expression that copies ``value`` at call time (kept in the namespace as it is: read-only)."""
    return f"_copy({source.constant(value)})"
