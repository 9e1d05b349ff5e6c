"""Field docstrings read from a module's source: the module is parsed once, whatever its number of classes.

``inspect.getsource(cls)`` parses the whole module again for every class
before Python 3.13, which made introspecting a module of many classes
quadratic in its size.
"""

from __future__ import annotations

import ast
import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
    (tmp_path / "many_classes.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("many_classes")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("many_classes", None)


def test_a_module_of_many_classes_is_parsed_once(module: object, monkeypatch: pytest.MonkeyPatch) -> None:
    parses: list[int] = []
    parse = ast.parse

    def counted(source: str, *args: object, **kwargs: object) -> ast.AST:
        parses.append(len(source))
        return parse(source, *args, **kwargs)  # type: ignore[arg-type]

    (declaration,) = module_tools("many_classes")
    monkeypatch.setattr(ast, "parse", counted)
    tool = introspect(declaration).tool
    # One parse of the module for its 40 classes; then the class made twice, which inspect finds as it
    # always did (before 3.13 it parses the module again, then the class's own lines). Without the one
    # parse, each of the 40 classes costs a parse of the module and one of its lines.
    module_bytes = len(module.__loader__.get_data(module.__file__))  # type: ignore[attr-defined]
    assert parses[0] == module_bytes, parses
    assert parses.count(module_bytes) <= 2, parses
    assert len(parses) <= 3, parses
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
            looked[0] = {name: len(nodes) for name, nodes in docs._module_classes(module.Twice).items()}

    monkeypatch.setattr(docs, "_collect_classes", collecting)
    docs.field_docs(module.Twice, (module.Twice,))
    assert looked == [{**{f"Record{index}": 1 for index in range(CLASSES)}, "Twice": 2}]
