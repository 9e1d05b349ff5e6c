"""A module's tools share each annotation text's value and each type's walk, and each tool gets what it gets alone.

``toolcall._introspect.shared_annotations``: the first tool of a module
that has a text evaluates it and walks its type; the next take both while
the text's names keep their objects. Shown on the test corpus, a generated
corpus of realistic modules and a module written to need each exception:
a rebound name, a text that reads an attribute, a walk that warns, a
recursive type, threads on a module's first tools.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import sys
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import corpus
from tests.repeated_types import module_source
from tests.written_modules import imported_corpus, tool_declarations, written_module
from toolcall import _ir as ir
from toolcall._declarations.tool import ToolDeclaration, declaration_of
from toolcall._introspect import shared_annotations, structs
from toolcall._introspect import tool as introspect_tool
from toolcall._introspect.hints import function_hints
from toolcall._introspect.shared_annotations import SharedAnnotations, Walked
from toolcall._introspect.types import Walker


@pytest.fixture
def shared_module(tmp_path: Path) -> Iterator[Any]:
    with written_module(tmp_path, "shared_annotations_tools", module_source(30)) as module:
        yield module


def built(declaration: ToolDeclaration) -> str:
    """Everything introspection gives a tool, as ordered JSON text: the IR, its classes and findings."""
    parts = introspect_tool.build_tool(declaration)
    classes = [[ref, f"{obj.__module__}.{obj.__qualname__}"] for ref, obj in parts.classes.items()]
    findings = [dataclasses.astuple(finding) for finding in parts.findings]
    return json.dumps([ir.to_json(parts.tool), classes, findings], default=repr)


def alone(declaration: ToolDeclaration, monkeypatch: pytest.MonkeyPatch) -> str:
    """``built``, sharing nothing with the module's other tools, each type walked as any other."""
    with monkeypatch.context() as patch:
        patch.setattr(introspect_tool, "shared_annotations", lambda namespace, module: SharedAnnotations())
        patch.setattr(Walker, "walk_annotation", Walker.walk)
        patch.setattr(introspect_tool, "_fitted_key", lambda node, value: None)
        return built(declaration)


def assert_each_as_alone(declarations: list[ToolDeclaration], monkeypatch: pytest.MonkeyPatch) -> None:
    together = [built(d) for d in declarations]
    assert together == [alone(d, monkeypatch) for d in declarations]


def test_the_tools_of_a_module_get_what_each_gets_alone(shared_module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    declarations = tool_declarations([shared_module.__name__])
    assert len(declarations) == 30
    assert_each_as_alone(declarations, monkeypatch)
    assert_each_as_alone(declarations, monkeypatch)  # and again, every walk now kept


def test_every_corpus_tool_gets_what_it_gets_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    declarations = tool_declarations(list(corpus.MODULES))
    assert len(declarations) > 40
    assert_each_as_alone(declarations, monkeypatch)


def test_a_generated_corpus_gets_what_each_tool_gets_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with imported_corpus(tmp_path, modules=80, seed=11) as written:
        declarations = tool_declarations(list(written.modules))
        assert len(declarations) == written.tools
        assert_each_as_alone(declarations, monkeypatch)


def test_a_text_is_evaluated_once_per_module(shared_module: Any) -> None:
    first, later = function_hints(shared_module.tool_0), function_hints(shared_module.tool_3)
    assert first["items"] is later["items"]  # list[Item]: otherwise a new alias each time
    assert first["note"] is later["note"]
    assert first["items"] == list[shared_module.Item]


def test_a_rebound_name_is_evaluated_again(shared_module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    built(declaration_of(shared_module.tool_0))

    class Item(shared_module.Item):  # type: ignore[misc, valid-type]
        extra: float

    monkeypatch.setattr(shared_module, "Item", Item)
    later = declaration_of(shared_module.tool_3)
    assert function_hints(later.function)["items"] == list[Item]
    assert '"extra"' in built(later)
    assert built(later) == alone(later, monkeypatch)


def test_a_text_that_reads_an_attribute_is_evaluated_each_time(
    shared_module: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    built(declaration_of(shared_module.tool_2))
    monkeypatch.setattr(shared_module.ns, "Picked", shared_module.Unit)
    later = declaration_of(shared_module.tool_5)
    assert function_hints(later.function)["picked"] is shared_module.Unit
    assert built(later) == alone(later, monkeypatch)


@pytest.mark.parametrize(
    ("text", "naming_only"),
    [
        ("int", True),
        ("list[Item]", True),
        ("str | None", True),
        ("dict[str, list[int]]", True),
        ("Literal['a', 'b'] | None", True),
        ("Literal[-1, 2.5, True]", True),
        ("tuple[int, ...]", True),
        ("typing.Optional[int]", False),
        ("Annotated[int, Param(description='a count')]", False),
        ("ns.Picked", False),
        ("[x for x in y]", False),
        ("(lambda: int)()", False),
    ],
)
def test_only_a_text_that_names_things_is_kept(text: str, naming_only: bool) -> None:
    assert shared_annotations._naming_only(shared_annotations.compiled(text)) is naming_only


def test_a_repeated_type_is_walked_once(shared_module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    walked: dict[str, int] = {}
    real = structs.structured

    def spy(w: Any, cls: Any, args: Any) -> Any:
        walked[cls.__name__] = walked.get(cls.__name__, 0) + 1
        return real(w, cls, args)

    monkeypatch.setattr(structs, "structured", spy)
    for i in range(0, 30, 3):
        built(declaration_of(getattr(shared_module, f"tool_{i}")))
    assert walked == {"Item": 1}


DECLARED_SOURCE = '''"""Tools whose annotations declare things: a shared Param, Injected, a Param in each."""

from __future__ import annotations

from typing import Annotated

import toolcall
from toolcall import Injected, Param

CITY = Param(description="the city, as the module says")

{tools}
'''
DECLARED_TOOL = '''
@toolcall.tool
def tool_{i}(
    city: Annotated[str, CITY],
    db: Annotated[dict[str, int], Injected],
    note: Annotated[str, Param(description="note {i}")] = "",
) -> str:
    """A tool."""
    return city
'''


def test_what_an_annotation_declares_is_read_once_and_each_tool_gets_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = DECLARED_SOURCE.format(tools="\n".join(DECLARED_TOOL.format(i=i) for i in range(20)))
    read: list[str] = []
    real = introspect_tool.declared_description

    def spy(hint: Any, metadata_of: Any) -> str | None:
        found = real(hint, metadata_of)
        read.append(str(found))
        return found

    with written_module(tmp_path, "declared_annotations_tools", source) as module:
        declarations = tool_declarations([module.__name__])
        monkeypatch.setattr(introspect_tool, "declared_description", spy)
        tools = [introspect_tool.build_tool(d).tool for d in declarations]
        assert read.count("the city, as the module says") == 1  # a text that names things: read once
        assert read.count("note 7") == 1  # a text that calls Param: read for its own tool
        for i, tool in enumerate(tools):
            city, note = tool.parameters[0], tool.parameters[2]
            assert (city.description, note.description) == ("the city, as the module says", f"note {i}")
            assert tool.parameters[1].injected
        assert_each_as_alone(declarations, monkeypatch)


def test_a_walk_that_warns_is_not_kept(shared_module: Any) -> None:
    warned = [built(declaration_of(getattr(shared_module, f"tool_{i}"))) for i in (2, 5, 8)]
    for text in warned:
        assert "many" in text  # each tool has the finding of Loose's default


def test_a_recursive_type_is_walked_by_each_tool(shared_module: Any) -> None:
    trees = [introspect_tool.build_tool(declaration_of(getattr(shared_module, f"tool_{i}"))).tool for i in (1, 4)]
    for tool in trees:
        assert [d.name for d in tool.defs] == ["Tree"]


NAMED_BEFORE = '''
from __future__ import annotations

from typing import Union

from typing_extensions import TypedDict

import toolcall

Json = Union[dict[str, "Json"], list["Json"], str, int]


class Box(TypedDict):
    content: Json


@toolcall.tool
def named_first(json: Json, box: Box) -> None:
    """The recursive alias, then a class that holds it."""


@toolcall.tool
def box_alone(box: Box) -> None:
    """The class alone."""
'''


def test_a_walk_after_a_recursive_type_of_the_same_tool_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In the first tool, Box's walk only refers to the Json its first parameter defined: kept, it would
    # give the second tool a reference to a definition that tool does not have.
    with written_module(tmp_path, "shared_annotations_named_before", NAMED_BEFORE) as module:
        declarations = tool_declarations([module.__name__])
        assert_each_as_alone(declarations, monkeypatch)
        assert [d.name for d in introspect_tool.build_tool(declarations[1]).tool.defs] == ["Json"]


DEFAULTS = """
from __future__ import annotations

import enum

import toolcall


class Unit(enum.Enum):
    C = "celsius"
    F = "fahrenheit"


{tools}
"""

#: Defaults that are equal in Python but not in JSON (``-0.0 == 0.0``, ``True == 1``), another member,
#: and one that does not fit its type, so each tool is warned.
DEFAULT_SHAPE = '''
@toolcall.tool
def tool_{i}(ratio: float = {ratio}, either: int | bool = {either}, unit: Unit = Unit.{unit}, days: int = "x") -> None:
    """Tool {i}."""
'''


def test_each_tool_gets_its_own_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tools = "".join(
        DEFAULT_SHAPE.format(i=i, ratio=("0.0", "-0.0", "1.5")[i % 3], either=("1", "True")[i % 2], unit="CF"[i % 2])
        for i in range(12)
    )
    with written_module(tmp_path, "shared_annotations_defaults", DEFAULTS.format(tools=tools)) as module:
        declarations = tool_declarations([module.__name__])
        assert_each_as_alone(declarations, monkeypatch)
        texts = [built(d) for d in declarations]
        assert ['"-0.0"' in text for text in texts[:3]] == [False, True, False]
        assert ['"true"' in text for text in texts[:2]] == [False, True]
        assert all('"the default' in text for text in texts)  # days: warned in each tool


def test_a_walk_is_taken_only_with_the_providers_it_was_made_with() -> None:
    shared = SharedAnnotations()
    annotation = list[int]
    providers: tuple[Any, ...] = (type("A", (), {}),)
    shared.keep(Walked(annotation, providers, ir.ArrayType(ir.Primitive("int"), "list"), (), ()))
    assert shared.walked(annotation, providers) is not None
    assert shared.walked(annotation, (*providers, type("B", (), {}))) is None
    assert shared.walked(list[int], providers) is None  # an equal annotation, not the same object


def test_a_function_outside_a_module_namespace_shares_nothing() -> None:
    namespace: dict[str, Any] = {"__name__": "not_loaded"}
    exec("def f(x: list[int]) -> None: ...", namespace)
    one, two = (shared_annotations.shared_annotations(namespace, "not_loaded") for _ in range(2))
    assert one is not two
    assert shared_annotations.shared_annotations(vars(sys.modules[__name__]), __name__) is (
        shared_annotations.shared_annotations(vars(sys.modules[__name__]), __name__)
    )


def test_the_shared_annotations_go_with_their_module(tmp_path: Path) -> None:
    with written_module(tmp_path, "shared_annotations_gone", module_source(3)) as module:
        built(declaration_of(module.tool_0))
        gone = weakref.ref(module)
        assert module in shared_annotations._SHARED
    del module
    gc.collect()
    assert gone() is None


@pytest.mark.threads
def test_threads_on_a_module_s_first_tools_get_what_each_gets_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for round_ in range(4):
        name = f"shared_annotations_race_{round_}"
        with written_module(tmp_path, name, module_source(24)):
            declarations = tool_declarations([name])
            results = built_at_once(declarations)
            assert results == [alone(d, monkeypatch) for d in declarations]


def built_at_once(declarations: list[ToolDeclaration]) -> list[str]:
    """``built`` of each declaration, each in its own thread, all let go at once."""
    barrier = threading.Barrier(len(declarations))
    results: dict[int, str] = {}

    def build(index: int, declaration: ToolDeclaration) -> None:
        barrier.wait()
        results[index] = built(declaration)

    threads = [threading.Thread(target=build, args=item) for item in enumerate(declarations)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [results[i] for i in range(len(declarations))]
