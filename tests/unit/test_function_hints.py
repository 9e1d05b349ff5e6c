"""A function's resolved annotations are ``typing.get_type_hints``' on every kind of annotation, whichever way is taken.

``function_hints`` evaluates the common case itself (postponed texts that
evaluate to settled types) and leaves the rest to ``get_type_hints``; both
ways must give the same hints, in the same order, or the same error. Shown
on every tool of the test corpus and of a generated corpus of realistic
modules, and on annotations chosen to need ``get_type_hints``' own work.
"""

from __future__ import annotations

import sys
import textwrap
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import corpus
from tests.written_modules import imported_corpus, tool_declarations, written_module
from toolcall._exceptions import SchemaError
from toolcall._introspect import hints, shared_annotations
from toolcall._introspect.hints import function_hints
from toolcall._introspect.shared_annotations import SharedAnnotations


def outcome(resolve: Any, fn: Any) -> tuple[str, ...]:
    """What resolving ``fn``'s hints gives: each name and value's repr, in order, or the error's kind."""
    try:
        resolved = resolve(fn)
    except (NameError, SchemaError):
        return ("unresolved",)
    except Exception as exc:
        return (f"error {type(exc).__name__}",)
    return tuple(f"{name}: {value!r}" for name, value in resolved.items())


def reference(fn: Any) -> dict[str, Any]:
    """What ``function_hints`` asked ``get_type_hints`` for before: PEP 695 type parameters are local names."""
    params = {p.__name__: p for p in getattr(fn, "__type_params__", ())}
    return typing.get_type_hints(fn, localns=params or None, include_extras=True)


def tools_of(modules: list[str]) -> list[Any]:
    return [declaration.function for declaration in tool_declarations(modules)]


def assert_same(functions: list[Any]) -> int:
    """Both ways agree on each function; how many took the shorter way."""
    shorter = 0
    for fn in functions:
        expected = outcome(reference, fn)
        assert outcome(function_hints, fn) == expected, fn.__qualname__
        if hints._settled_hints(fn, SharedAnnotations()) is not None:
            shorter += 1
            assert hints._settled_hints(fn, SharedAnnotations()) == reference(fn)
    return shorter


def test_every_corpus_tool_gets_the_hints_get_type_hints_gives() -> None:
    functions = tools_of(list(corpus.MODULES))
    assert len(functions) > 40
    assert 0 < assert_same(functions) < len(functions)  # both ways are taken


def test_a_generated_corpus_of_realistic_modules_gets_the_same_hints(tmp_path: Path) -> None:
    with imported_corpus(tmp_path, modules=120, seed=7) as written:
        functions = tools_of(list(written.modules))
        assert len(functions) == written.tools
        assert assert_same(functions) > len(functions) // 4  # the modules under postponed annotations


#: Annotations that ``get_type_hints`` must resolve, refuse or keep in its own way; each is one parameter's.
UNUSUAL = [
    "int",
    "None",
    "'int'",  # a text inside the text: resolved again
    "list['Later']",
    "typing.List['Later']",
    "dict[str, 'Later']",
    "list[Later] | None",
    "Later",
    "Missing",
    "list[Missing]",
    "typing.Optional",
    "typing.Union",
    "typing.ClassVar[int]",
    "typing.Final[int]",
    "typing.Final",
    "typing.Generic",
    "typing.Protocol",
    "typing.Any",
    "typing.NoReturn",
    "typing.Literal['a', 'b']",
    "typing.Literal['Later']",
    "typing.Annotated[int, 'Later']",
    "typing.Annotated['Later', 3]",
    "typing.Callable[[int], str]",
    "tuple[int, ...]",
    "tuple[()]",
    "(int, str)",
    "3",
    "T",
    "list[T]",
    "dict[str, None]",
    "typing.Optional['Later']",
    "1 +",
    "1 / 0",
]


@pytest.fixture
def unusual_module(tmp_path: Path) -> Iterator[Any]:
    functions = "\n".join(f"def f{index}(x: {text}) -> None: ...\n" for index, text in enumerate(UNUSUAL))
    source = textwrap.dedent(
        """
        from __future__ import annotations

        import typing

        T = typing.TypeVar("T")


        class Later:
            pass


        """
    )
    with written_module(tmp_path, "unusual_hints", source + functions.replace("x: 1 +)", "x: '1 +')")) as module:
        yield module


def test_unusual_annotations_resolve_or_fail_as_get_type_hints_has_them(unusual_module: Any) -> None:
    functions = [getattr(unusual_module, f"f{index}") for index in range(len(UNUSUAL))]
    shorter = [fn.__annotations__["x"] for fn in functions if hints._settled_hints(fn, SharedAnnotations()) is not None]
    assert_same(functions)
    settled = {
        "int",
        "None",
        "list[Later] | None",
        "Later",
        "typing.Any",
        "typing.Literal['a', 'b']",
        "typing.Literal['Later']",
        "typing.Annotated[int, 'Later']",
        "tuple[int, ...]",
        "tuple[()]",
        "dict[str, None]",
    }
    if sys.version_info >= (3, 14):
        settled.add("typing.Union")  # a class there (types.UnionType), which get_type_hints keeps as it is
    assert shorter == [text for text in UNUSUAL if text in settled]


def test_a_wrapped_function_is_resolved_by_get_type_hints(unusual_module: Any) -> None:
    def wrapper(x: Any) -> None: ...

    wrapper.__wrapped__ = unusual_module.f0  # type: ignore[attr-defined]
    assert hints._settled_hints(wrapper, SharedAnnotations()) is None
    assert_same([wrapper])


@pytest.mark.parametrize("text", ["int", "list[Later]"])
def test_a_text_is_compiled_once_per_process(text: str) -> None:
    assert shared_annotations.compiled(text) is shared_annotations.compiled(text)
