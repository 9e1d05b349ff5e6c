"""Field docstrings read from a module's source: a class from its own lines, else the module parsed once.

``inspect.getsource(cls)`` parses the whole module again for every class
before Python 3.13, which made introspecting a module of many classes
quadratic in its size; and parsing a module of many tools whole, even once,
costs milliseconds that a top-level class's own few lines do not.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.written_modules import written_module
from toolcall._declarations.tool import module_tools
from toolcall._introspect import docs, introspect

CLASSES = 40

CLASS = '''
class Record{index}(TypedDict):
    """Record {index}."""

    name: str
    """The name of record {index}."""

    class_note: str
'''

REDEFINED = '''
if FLAG:
    class Twice(TypedDict):
        first: str
        """The first definition."""
else:
    class Twice(TypedDict):
        second: str
        """The second definition."""
'''


@pytest.fixture
def module(tmp_path: Path) -> Iterator[object]:
    classes = "".join(CLASS.format(index=index) for index in range(CLASSES))
    parameters = ", ".join(f"r{index}: Record{index}" for index in range(CLASSES))
    source = textwrap.dedent(
        f"""
        from typing import TypedDict

        import toolcall

        FLAG = False
        {{classes}}
        {{redefined}}

        @toolcall.tool
        def everything({parameters}, twice: Twice) -> None:
            '''Take every record.'''
        """
    ).format(classes=classes, redefined=REDEFINED)
    with written_module(tmp_path, "many_classes", source) as written:
        yield written


def test_top_level_classes_are_parsed_from_their_own_lines(module: object, monkeypatch: pytest.MonkeyPatch) -> None:
    parses: list[int] = []
    parse = ast.parse

    def counted(source: str, *args: object, **kwargs: object) -> ast.AST:
        parses.append(len(source))
        return parse(source, *args, **kwargs)  # type: ignore[arg-type]

    (declaration,) = module_tools("many_classes")
    monkeypatch.setattr(ast, "parse", counted)
    tool = introspect(declaration).tool
    # Each of the 40 classes from its own lines; then the class made twice (indented, under an ``if``): one
    # parse of the module, and inspect finds it as it always did (before 3.13 it parses the module again,
    # then the class's own lines). Parsed whole for each class, the module would cost 40 parses of itself.
    module_bytes = len(module.__loader__.get_data(module.__file__))  # type: ignore[attr-defined]
    assert all(size <= len(CLASS.format(index=index)) + 1 for index, size in enumerate(parses[:CLASSES])), parses
    assert parses.count(module_bytes) <= 2, parses
    assert len(parses) <= CLASSES + 3, parses
    descriptions = [f.description for p in tool.parameters[:CLASSES] for f in p.type.fields]  # type: ignore[union-attr]
    assert descriptions == [d for index in range(CLASSES) for d in (f"The name of record {index}.", None)]
    twice = tool.parameters[-1].type
    assert [f.name for f in twice.fields] == ["second"]  # type: ignore[union-attr]


@pytest.mark.threads
def test_a_module_s_classes_are_shared_only_once_all_are_read(module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread that looks while another reads the module's class statements finds all of them, never a part.

    Finding only the first of ``Twice``'s two statements, it would take that one for the class and
    describe fields the class does not have.
    """
    collect = docs._collect_classes
    looked: list[dict[str, int]] = []

    def collecting(body: list[ast.stmt], prefix: str, classes: dict[str, list[ast.ClassDef]]) -> None:
        collect(body, prefix, classes)
        if not looked and "Record0" in classes:  # some read, the rest not yet: here another thread looks
            looked.append({})
            source = docs._source(module.Twice)
            assert source is not None
            looked[0] = {name: len(nodes) for name, nodes in docs._module_classes(*source).items()}

    monkeypatch.setattr(docs, "_collect_classes", collecting)
    docs.field_docs(module.Twice, (module.Twice,))  # indented, so read from the module's whole parse
    assert looked == [{**{f"Record{index}": 1 for index in range(CLASSES)}, "Twice": 2}]


class Named:
    """Stands in for a class: ``_own_lines_class`` reads only its qualname."""

    def __init__(self, qualname: str) -> None:
        self.__qualname__ = qualname


def own_lines(qualname: str, source: str) -> ast.ClassDef | None:
    lines = textwrap.dedent(source).lstrip("\n").splitlines(keepends=True)
    return docs._own_lines_class(Named(qualname), f"<test {id(lines)}>", lines)  # type: ignore[arg-type]


def test_a_comment_at_column_0_does_not_end_the_class() -> None:
    node = own_lines(
        "A",
        """
        class A(TypedDict):
            x: int
        # a comment at column 0, still inside the class
            y: int
            \"\"\"Why y.\"\"\"

        def after() -> None: ...
        """,
    )
    assert node is not None
    assert [s.target.id for s in node.body if isinstance(s, ast.AnnAssign)] == ["x", "y"]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('class A:\n    x: int\n    """One line,\nand one at column 0."""\n', id="a string at column 0"),
        pytest.param("class A:\n    x: list[\nint]\n", id="brackets at column 0"),
        pytest.param("class A:\n    x: int = \\\n5\n", id="a backslash continuation"),
    ],
)
def test_a_cut_inside_the_class_is_not_trusted(source: str) -> None:
    assert own_lines("A", source) is None


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('X = """\nclass A:\n    x: int\n"""\n', id="inside a string left open before it"),
        pytest.param("if True:\n    class A:\n        x: int\n", id="indented"),
        pytest.param("class A:\n    x: int\nclass A:\n    y: int\n", id="two of them"),
        pytest.param("class B:\n    class A:\n        x: int\n", id="another class's"),
    ],
)
def test_a_class_line_that_may_be_another_is_left_to_the_whole_parse(source: str) -> None:
    assert own_lines("A", source) is None


def test_a_nested_class_is_left_to_the_whole_parse() -> None:
    assert own_lines("B.A", "class B:\n    class A:\n        x: int\n") is None
