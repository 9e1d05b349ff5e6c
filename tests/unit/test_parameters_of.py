"""``parameters_of``: a function's parameters as ``inspect.signature`` gives them, less their annotations.

A plain function's are read from its code object; everything else goes
through ``inspect``. Either way each parameter's name, kind and default
(the very object) must be the signature's, in order.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests import corpus
from tests.written_modules import imported_corpus, tool_declarations
from toolcall._annotations import parameters_of, signature


def facts(parameters: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in parameters.values()]


def assert_as_inspect_gives(fn: Callable[..., Any]) -> None:
    found = parameters_of(fn)
    expected = signature(fn).parameters
    assert list(found) == list(expected)
    for (name, kind, default), (e_name, e_kind, e_default) in zip(facts(found), facts(expected), strict=True):
        assert (name, kind) == (e_name, e_kind)
        assert default is e_default


def plain(a: int, b: str = "b", /, c: float = 1.5, *args: int, d: list[int], e: Any = None, **kw: str) -> None: ...


def positional_only(a: int, b: int = 2, /) -> None: ...


def keyword_only(*, a: int, b: int = 2) -> None: ...


def star_kwargs(a: int, **kw: int) -> None: ...


def star_args(*rest: int) -> None: ...


def nothing() -> None: ...


async def asynchronous(a: int, *, b: bool = False) -> None: ...


def generator(a: int = 1) -> Any:
    yield a


def with_locals(a: int, b: int = 0) -> int:
    c = a + b  # locals come after the parameters in co_varnames
    d = c * 2
    return d


def shared_default(items: list[int] = [], mapping: dict[str, int] = {}) -> None: ...  # noqa: B006


@functools.wraps(plain)
def wrapper(*args: Any, **kwargs: Any) -> None: ...


def resigned(*args: Any, **kwargs: Any) -> None: ...


resigned.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter("only", inspect.Parameter.KEYWORD_ONLY, default=7)]
)


class Callable_:
    def __call__(self, x: int, y: int = 3) -> None: ...

    def method(self, x: int) -> None: ...


FUNCTIONS: list[Callable[..., Any]] = [
    plain,
    positional_only,
    keyword_only,
    star_kwargs,
    star_args,
    nothing,
    asynchronous,
    generator,
    with_locals,
    shared_default,
    wrapper,
    resigned,
    functools.partial(plain, 1),
    Callable_(),
    Callable_().method,
    lambda x, y=2, *z, w, **v: None,
]


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: getattr(fn, "__name__", type(fn).__name__))
def test_each_shape_of_function(fn: Callable[..., Any]) -> None:
    assert_as_inspect_gives(fn)


def test_defaults_changed_after_definition() -> None:
    def later(a: int = 1, *, b: int = 2) -> None: ...

    later.__defaults__ = (10,)
    later.__kwdefaults__ = {"b": 20}
    assert_as_inspect_gives(later)
    assert [p.default for p in parameters_of(later).values()] == [10, 20]


def tools_of(modules: list[str]) -> list[Any]:
    return [declaration.function for declaration in tool_declarations(modules)]


def test_every_tool_of_the_test_corpus() -> None:
    functions = tools_of(corpus.MODULES)
    assert len(functions) > 40
    for fn in functions:
        assert_as_inspect_gives(fn)


def test_every_tool_of_a_generated_corpus(tmp_path: Path) -> None:
    with imported_corpus(tmp_path, modules=60, seed=11) as written:
        functions = tools_of(list(written.modules))
        assert len(functions) == written.tools
        for fn in functions:
            assert_as_inspect_gives(fn)
