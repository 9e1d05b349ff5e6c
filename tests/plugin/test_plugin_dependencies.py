"""The modules each tool's schema comes from (``Collected.dependencies``), from real mypy builds.

Each case writes a small package ``app`` into a temporary directory, runs
mypy over it with a test-only plugin that calls ``collect_tool`` for every
``@toolcall.tool`` (one ``Sources`` per module, shared by its tools as the
plugin's hooks share it), and compares each tool's dependencies with the
exact tuple expected. The modules of the typing machinery are left out.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest

pytest.importorskip("mypy")

from mypy.build import BuildSource
from mypy.nodes import Decorator
from mypy.options import Options
from mypy.plugin import FunctionContext, MethodContext, Plugin
from mypy.types import Type

from tests.inprocess_mypy import run_build
from toolcall_mypy._analysis.tool import Collected, collect_tool
from toolcall_mypy._source.names import Sources
from toolcall_mypy._targets import TOOL, TOOL_CALL


class DependenciesPlugin(Plugin):
    """Calls ``collect_tool`` for every ``@toolcall.tool``; results keyed by the function's full name."""

    def __init__(self, options: Options, providers: dict[str, tuple[str, ...]]) -> None:
        super().__init__(options)
        options.include_docstrings = True
        self.providers = providers
        self.collected: dict[str, Collected] = {}
        self.sources: dict[str, Sources] = {}

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._tool if fullname == TOOL else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return self._tool if fullname == TOOL_CALL else None

    def _tool(self, ctx: FunctionContext | MethodContext) -> Type:
        decorator = ctx.context
        if isinstance(decorator, Decorator):
            module = ctx.api.tree.fullname  # type: ignore[attr-defined]
            path = ctx.api.path  # type: ignore[attr-defined]
            self.collected[decorator.func.fullname] = collect_tool(
                decorator.func,
                name=decorator.func.name,
                description=None,
                module=module,
                path=path,
                providers=self.providers.get(module, ()),
                sources=self.sources.setdefault(module, Sources(module, path)),
            )
        return ctx.default_return_type


Analyze = Callable[..., dict[str, Collected]]


@pytest.fixture
def analyze(tmp_path: Path) -> Analyze:
    """Write ``files`` (path under the package ``app`` -> text) and collect every tool mypy checks."""

    def run(
        files: dict[str, str],
        providers: dict[str, tuple[str, ...]] | None = None,
        python_version: tuple[int, int] = sys.version_info[:2],
    ) -> dict[str, Collected]:
        package = tmp_path / "app"
        package.mkdir()
        (package / "__init__.py").write_text("")
        for name, text in files.items():
            (package / name).write_text(textwrap.dedent(text))
        options = Options()
        options.incremental, options.cache_dir = False, os.devnull
        options.python_version = python_version
        options.show_traceback = True
        plugin = DependenciesPlugin(options, providers or {})
        modules = [(str(package / name), f"app.{name.rpartition('.')[0]}") for name in files]
        result = run_build([BuildSource(path, module) for path, module in modules], options, plugin)
        assert not [error for error in result.errors if ": error:" in error], result.errors
        return plugin.collected

    return run


def dependencies(collected: dict[str, Collected]) -> dict[str, tuple[str, ...]]:
    return {name: found.dependencies for name, found in collected.items()}


ITEM: Final = {
    "enums.py": """
        from enum import Enum

        class Color(Enum):
            RED = "red"
            GREEN = "green"
        """,
    "types_.py": """
        from typing import TypedDict

        from app.enums import Color

        class Item(TypedDict):
            name: str
            color: Color
        """,
    "unrelated.py": """
        from typing import TypedDict

        class Unused(TypedDict):
            x: int

        LIMIT = 3
        """,
}


def test_typeddict_and_its_field_types_but_not_an_unused_import(analyze: Analyze) -> None:
    found = analyze(
        {
            **ITEM,
            "tools.py": """
                import toolcall
                from app import unrelated
                from app.types_ import Item

                @toolcall.tool
                def add(item: Item, count: int = 1) -> None:
                    ...

                @toolcall.tool
                def plain(name: str, tags: list[str]) -> None:
                    ...
                """,
        }
    )
    assert dependencies(found) == {
        "app.tools.add": ("app.enums", "app.tools", "app.types_"),
        "app.tools.plain": ("app.tools",),
    }


def test_a_module_imported_only_for_type_checking(analyze: Analyze) -> None:
    found = analyze(
        {
            **ITEM,
            "tools.py": """
                from __future__ import annotations

                from typing import TYPE_CHECKING

                import toolcall

                if TYPE_CHECKING:
                    from app.types_ import Item

                @toolcall.tool
                def add(item: Item) -> None:
                    ...
                """,
        }
    )
    assert found["app.tools.add"].dependencies == ("app.enums", "app.tools", "app.types_")


def test_bases_in_other_modules(analyze: Analyze) -> None:
    """Inherited fields and their docstrings come from the base's module."""
    found = analyze(
        {
            "base.py": """
                from dataclasses import dataclass
                from typing import TypedDict

                @dataclass
                class Base:
                    id: int
                    \"\"\"The record's id.\"\"\"

                class BaseItem(TypedDict):
                    sku: str
                """,
            "models.py": """
                from dataclasses import dataclass

                from app.base import Base, BaseItem

                @dataclass
                class Order(Base):
                    quantity: int

                class Item(BaseItem):
                    price: float
                """,
            "tools.py": """
                import toolcall
                from app.models import Item, Order

                @toolcall.tool
                def place(order: Order) -> None:
                    ...

                @toolcall.tool
                def stock(item: Item) -> None:
                    ...
                """,
        }
    )
    assert found["app.tools.stock"].dependencies == ("app.base", "app.models", "app.tools")
    assert found["app.tools.place"].dependencies == ("app.base", "app.models", "app.tools")


def test_aliases_newtypes_and_typevars(analyze: Analyze) -> None:
    found = analyze(
        {
            "aliases.py": """
                from typing import Literal, Union
                from typing_extensions import TypeAliasType

                Color = Literal["r", "g"]
                Pair = TypeAliasType("Pair", tuple[int, int])
                Json = Union[str, list["Json"]]
                """,
            "ids.py": """
                from typing import NewType

                UserId = NewType("UserId", int)
                """,
            "bounds.py": """
                from typing import TypeVar

                from app.ids import UserId

                T = TypeVar("T", bound=UserId)
                """,
            "tools.py": """
                import toolcall
                from app.aliases import Color, Json, Pair
                from app.bounds import T
                from app.ids import UserId

                @toolcall.tool
                def paint(color: Color) -> None:
                    ...

                @toolcall.tool
                def place(at: Pair) -> None:
                    ...

                @toolcall.tool
                def store(value: Json) -> None:
                    ...

                @toolcall.tool
                def find(user: UserId) -> None:
                    ...

                @toolcall.tool
                def echo(value: T) -> T:
                    return value
                """,
        }
    )
    assert dependencies(found) == {
        "app.tools.paint": ("app.aliases", "app.tools"),
        "app.tools.place": ("app.aliases", "app.tools"),
        "app.tools.store": ("app.aliases", "app.tools"),
        "app.tools.find": ("app.ids", "app.tools"),
        "app.tools.echo": ("app.bounds", "app.ids", "app.tools"),
    }


def test_modules_with_only_a_stub(analyze: Analyze) -> None:
    """The plugin reads no stub, so only mypy's nodes say where a class, alias, NewType, TypeVar or constant is."""
    found = analyze(
        {
            "declared.pyi": """
                from typing import Final, Literal, NewType, TypedDict, TypeVar
                from typing_extensions import TypeAliasType

                Color = Literal["r", "g"]
                Pair = TypeAliasType("Pair", tuple[int, int])
                UserId = NewType("UserId", int)
                T = TypeVar("T", int, str)
                DEFAULT_CITY: Final = "Paris"

                class Point(TypedDict):
                    x: int
                """,
            "tools.py": """
                import toolcall
                from app.declared import DEFAULT_CITY, Color, Pair, Point, T, UserId

                @toolcall.tool
                def paint(color: Color, at: Pair) -> None:
                    ...

                @toolcall.tool
                def find(user: UserId) -> None:
                    ...

                @toolcall.tool
                def echo(value: T) -> None:
                    ...

                @toolcall.tool
                def weather(city: str = DEFAULT_CITY) -> None:
                    ...

                @toolcall.tool
                def move(to: Point) -> None:
                    ...
                """,
        }
    )
    assert set(found) == {f"app.tools.{name}" for name in ("paint", "find", "echo", "weather", "move")}
    for collected in found.values():
        assert collected.dependencies == ("app.declared", "app.tools")


def test_star_imports(analyze: Analyze) -> None:
    """A name the module does not bind may come from any module it star-imports: each counts (app.api here)."""
    found = analyze(
        {
            "aliases.py": """
                from typing import Literal

                Color = Literal["r", "g"]
                """,
            "api.py": """
                from app.aliases import *
                """,
            "tools.py": """
                import toolcall
                from app.api import *

                @toolcall.tool
                def paint(color: Color) -> None:
                    ...
                """,
        }
    )
    assert found["app.tools.paint"].dependencies == ("app.aliases", "app.api", "app.tools")


@pytest.mark.skipif(
    sys.version_info < (3, 12) and not getattr(Options(), "native_parser", False),
    reason="this mypy parses with the running Python's ast, which has no PEP 695 syntax before 3.12",
)
def test_classes_whose_source_this_python_cannot_parse(analyze: Analyze) -> None:
    """Before 3.12, ast cannot read models.py (a type statement); its classes still count, from mypy's nodes."""
    found = analyze(
        {
            "models.py": """
                from dataclasses import dataclass
                from enum import Enum

                type Count = int

                class Unit(Enum):
                    C = "celsius"

                @dataclass
                class Reading:
                    value: float
                """,
            "tools.py": """
                import toolcall
                from app.models import Reading, Unit

                @toolcall.tool
                def convert(unit: Unit, reading: Reading) -> None:
                    ...
                """,
        },
        python_version=(3, 12),
    )
    assert found["app.tools.convert"].dependencies == ("app.models", "app.tools")


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the source of a type statement needs Python 3.12 to parse")
def test_type_statement_alias(analyze: Analyze) -> None:
    found = analyze(
        {
            "aliases.py": """
                type Tree = int | list[Tree]
                """,
            "tools.py": """
                import toolcall
                from app.aliases import Tree

                @toolcall.tool
                def total(tree: Tree) -> int:
                    return 0
                """,
        },
        python_version=(3, 12),
    )
    assert found["app.tools.total"].dependencies == ("app.aliases", "app.tools")


def test_defaults_and_metadata_from_other_modules(analyze: Analyze) -> None:
    found = analyze(
        {
            "settings.py": """
                from typing import Final

                DEFAULT_CITY: Final = "Paris"
                LIMIT: Final = 10
                """,
            "units.py": """
                from enum import Enum

                class Unit(Enum):
                    C = "celsius"
                    F = "fahrenheit"
                """,
            "params.py": """
                from toolcall import Param

                POSITIVE = Param(ge=1)
                """,
            "tools.py": """
                from typing import Annotated

                import toolcall
                from app import settings
                from app.params import POSITIVE
                from app.settings import DEFAULT_CITY, LIMIT
                from app.units import Unit

                @toolcall.tool
                def weather(city: str = DEFAULT_CITY) -> None:
                    ...

                @toolcall.tool
                def forecast(city: str = settings.DEFAULT_CITY, unit: str = "c") -> None:
                    ...

                @toolcall.tool
                def convert(value: float, unit: Unit = Unit.C) -> None:
                    ...

                @toolcall.tool
                def top(count: Annotated[int, POSITIVE]) -> None:
                    ...

                @toolcall.tool
                def capped(count: Annotated[int, toolcall.Param(ge=LIMIT)]) -> None:
                    ...
                """,
        }
    )
    assert dependencies(found) == {
        "app.tools.weather": ("app.settings", "app.tools"),
        "app.tools.forecast": ("app.settings", "app.tools"),
        "app.tools.convert": ("app.tools", "app.units"),
        "app.tools.top": ("app.params", "app.tools"),
        # The plugin reads Param(...) arguments only as literals: LIMIT is never read (the tool is refused).
        "app.tools.capped": ("app.tools",),
    }
    assert found["app.tools.capped"].tool is None


def test_return_types(analyze: Analyze) -> None:
    found = analyze(
        {
            "reports.py": """
                from typing import TypedDict

                class Report(TypedDict):
                    total: int

                class Opaque:
                    pass
                """,
            "tools.py": """
                import toolcall
                from app.reports import Opaque, Report

                @toolcall.tool
                def summarize(days: int) -> Report:
                    return {"total": days}

                @toolcall.tool
                def handle(days: int) -> Opaque:
                    return Opaque()
                """,
        }
    )
    assert found["app.tools.summarize"].dependencies == ("app.reports", "app.tools")
    # No output schema describes Opaque today; an edit of its module could give it one.
    handle = found["app.tools.handle"]
    assert handle.tool is not None
    assert handle.tool.returns is None
    assert handle.dependencies == ("app.reports", "app.tools")


NESTED: Final = {
    "inner.py": """
        from typing import TypedDict

        class Inner(TypedDict):
            size: int
        """,
    "params.py": """
        from toolcall import Param

        POSITIVE = Param(ge=1)
        """,
}


def test_tools_sharing_a_class_node_both_list_its_modules(analyze: Analyze) -> None:
    """The second tool reuses the node the first built, without walking Inner again."""
    found = analyze(
        {
            **NESTED,
            "outer.py": """
                from typing import TypedDict

                from app.inner import Inner

                class Outer(TypedDict):
                    inner: Inner
                """,
            "tools.py": """
                import toolcall
                from app.outer import Outer

                @toolcall.tool
                def first(value: Outer) -> None:
                    ...

                @toolcall.tool
                def second(value: Outer) -> None:
                    ...
                """,
        }
    )
    assert not [located for collected in found.values() for located in collected.findings]  # so Outer is shared
    expected = ("app.inner", "app.outer", "app.tools")
    assert dependencies(found) == {"app.tools.first": expected, "app.tools.second": expected}


def test_tools_walking_a_class_again_both_list_what_its_fields_read(analyze: Analyze) -> None:
    """A class with a finding is walked again for each tool, but its field's metadata is read once."""
    found = analyze(
        {
            **NESTED,
            "outer.py": """
                from typing import Annotated, TypedDict

                from app.params import POSITIVE

                class Outer(TypedDict):
                    count: Annotated[int, POSITIVE]
                    loose: list  # a finding: the node is not shared
                """,
            "tools.py": """
                import toolcall
                from app.outer import Outer

                @toolcall.tool
                def first(value: Outer) -> None:
                    ...

                @toolcall.tool
                def second(value: Outer) -> None:
                    ...
                """,
        }
    )
    assert all(collected.findings for collected in found.values())  # so Outer is not shared
    expected = ("app.outer", "app.params", "app.tools")
    assert dependencies(found) == {"app.tools.first": expected, "app.tools.second": expected}


def test_provider_modules(analyze: Analyze) -> None:
    found = analyze(
        {
            "tools.py": """
                from fractions import Fraction

                import toolcall

                @toolcall.tool
                def share(part: Fraction) -> None:
                    ...
                """,
        },
        providers={"app.tools": ("tests.corpus.custom:FractionTypes",)},
    )
    collected = found["app.tools.share"]
    assert collected.tool is not None
    assert collected.dependencies == ("app.tools", "fractions", "numbers", "tests.corpus.custom")
