"""Lone surrogates in the strings the plugin reads (``toolcall_mypy._source.surrogates``).

Python keeps a lone surrogate written as an escape (``"\\udcff"``); mypy's
native parser (the default from mypy 2.4) gives U+FFFD for it in every
string it parses. The plugin must serve the value written or report the
tool, never another value: each case runs mypy with a test plugin that
reads the decorator as the hooks do (``toolcall_mypy._analysis.decorator``) and calls
``collect_tool``, and compares the IR with runtime introspection of the
same module, or checks the report. A genuine U+FFFD written in the source
must stay accepted, so each case mixes one in.
"""

from __future__ import annotations

import importlib
import os
import sys
import textwrap
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest

pytest.importorskip("mypy")

from mypy.build import BuildSource
from mypy.nodes import Decorator
from mypy.options import Options
from mypy.plugin import FunctionContext, MethodContext, Plugin
from mypy.types import Type

from tests.inprocess_mypy import run_build
from toolcall import _ir as ir
from toolcall._declarations.tool import module_tools
from toolcall._introspect import introspect
from toolcall_mypy._analysis.decorator import TOOL, Arguments, bare_tool, tool_call
from toolcall_mypy._analysis.tool import Collected, collect_tool
from toolcall_mypy._targets import TOOL_CALL

#: mypy's parsers: its native one (mypy 2.x), which replaces lone surrogates, and the one on Python's ast.
PARSERS: Final = ["native", "python"] if hasattr(Options(), "native_parser") else ["python"]
REPORTED: Final = "which mypy's parser also gives for a lone surrogate such as \\udcff"
LOST: Final = "which mypy's parser replaced with U+FFFD"


@dataclass(frozen=True)
class Found:
    """What the plugin's analysis gives for one tool: the decorator's reading and ``collect_tool``'s result."""

    arguments: Arguments
    collected: Collected

    def codes(self) -> list[tuple[str, str | None]]:
        return [(f.finding.code, f.finding.parameter) for f in self.collected.findings]

    def message(self, parameter: str | None) -> str:
        (found,) = [f.finding.message for f in self.collected.findings if f.finding.parameter == parameter]
        return found


class SurrogatePlugin(Plugin):
    """Reads each ``@toolcall.tool`` as ``toolcall_mypy._hooks`` does; results by (module, function name)."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        options.include_docstrings = True  # as the plugin does
        self.found: dict[tuple[str, str], Found] = {}

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._bare if fullname == TOOL else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return self._call if fullname == TOOL_CALL else None

    def _bare(self, ctx: FunctionContext) -> Type:
        if isinstance(ctx.context, Decorator):
            self._tool(ctx, ctx.context, bare_tool(ctx.context))
        return ctx.default_return_type

    def _call(self, ctx: MethodContext) -> Type:
        if isinstance(ctx.context, Decorator):
            self._tool(ctx, ctx.context, tool_call(ctx.context))
        return ctx.default_return_type

    def _tool(self, ctx: FunctionContext | MethodContext, decorator: Decorator, arguments: Arguments) -> None:
        module = ctx.api.tree.fullname  # type: ignore[attr-defined]
        func = decorator.func
        collected = collect_tool(
            func,
            name=func.name if arguments.name is None else arguments.name,
            description=arguments.description,
            module=module,
            path=ctx.api.path,
            context=arguments.expression,
        )
        self.found[(module, func.name)] = Found(arguments, collected)


@pytest.fixture(params=PARSERS)
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[Project]:
    package = f"surrogates_{request.node.originalname}_{request.param}"
    monkeypatch.syspath_prepend(str(tmp_path))
    yield Project(tmp_path, package, native=request.param == "native")
    for name in [name for name in sys.modules if name == package or name.startswith(package + ".")]:
        del sys.modules[name]


class Project:
    """A package of modules written from source text, analyzed by mypy and imported for the runtime side."""

    def __init__(self, root: Path, package: str, *, native: bool) -> None:
        self.root = root
        self.package = package
        self.native = native  # mypy parses with its native parser (and replaces lone surrogates)
        (root / package).mkdir()
        (root / package / "__init__.py").write_text("")

    def write(self, name: str, text: str) -> str:
        """Write module ``name`` (``.pyi`` for a stub) and give its full module name."""
        (self.root / self.package / name).write_text(textwrap.dedent(text), encoding="utf-8")
        return f"{self.package}.{name.rpartition('.')[0]}"

    def analyze(self, *modules: str) -> dict[str, Found]:
        """mypy over the package; the tools of ``modules`` by function name. mypy must report nothing."""
        options = Options()
        options.incremental = False
        options.cache_dir = os.devnull
        options.python_version = sys.version_info[:2]
        options.show_traceback = True
        options.mypy_path = [str(self.root)]  # the package's other modules (and stubs)
        if hasattr(options, "native_parser"):
            options.native_parser = self.native
        plugin = SurrogatePlugin(options)
        sources = [BuildSource(str(self.root / self.package / "__init__.py"), self.package)]
        sources += [BuildSource(str(self.root / Path(*m.split("."))) + ".py", m) for m in modules]
        result = run_build(sources, options, plugin)
        assert result.errors == []
        return {name: found for (module, name), found in plugin.found.items() if module in modules}

    def runtime(self, module: str, name: str) -> Any:
        """What runtime introspection builds for tool ``name`` of ``module``."""
        importlib.import_module(module)
        (definition,) = [d for d in module_tools(module) if d.name == name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return introspect(definition)


def assert_as_at_run_time(project: Project, module: str, found: dict[str, Found]) -> None:
    """Each tool's static IR is the runtime's, and neither side reports anything."""
    assert found
    for name, static in found.items():
        assert static.arguments.problems == (), name
        assert static.codes() == [], [f.finding.message for f in static.collected.findings]
        assert static.collected.tool is not None
        runtime = project.runtime(module, name)
        assert runtime.findings == ()
        assert ir.to_json(static.collected.tool) == ir.to_json(runtime.tool), name


def test_literal_values_are_read_as_written(project: Project) -> None:
    project.write(
        "modes.py",
        r"""
        from typing import Literal

        Mode = Literal["\udcff", "ok"]
        """,
    )
    module = project.write(
        "tools.py",
        r"""
        from typing import Literal, Optional

        import toolcall

        from .modes import Mode


        @toolcall.tool
        def pick(
            mode: Literal["\udcff", "ok"],
            aliased: Mode,
            mixed: Literal["\ufffd", "\udcfe", "\udcfd", "\ufffd\udcfc"],
            real: Literal["\ufffd", "�", "x\ufffd"] = "\ufffd",
            optional: Optional[Literal["\udcfc"]] = None,
        ) -> None:
            pass
        """,
    )
    found = project.analyze(module)
    assert_as_at_run_time(project, module, found)
    tool = found["pick"].collected.tool
    assert tool is not None
    assert tool.parameters[0].type == ir.LiteralType(("\udcff", "ok"))
    assert tool.parameters[2].type == ir.LiteralType(("\ufffd", "\udcfe", "\udcfd", "\ufffd\udcfc"))
    assert tool.parameters[3].type == ir.LiteralType(("\ufffd", "x\ufffd"))


def test_literal_without_its_source_is_reported(project: Project) -> None:
    """A TypeVar's constraints are walked without their written form: U+FFFD there cannot be confirmed."""
    module = project.write(
        "tools.py",
        r"""
        from typing import Literal, TypeVar

        import toolcall

        T = TypeVar("T", Literal["\udcff"], int)


        @toolcall.tool
        def constrained(value: T) -> None:
            pass
        """,
    )
    found = project.analyze(module)["constrained"]
    if not project.native:  # mypy's parser kept every string: its value is the one written
        assert_as_at_run_time(project, module, {"constrained": found})
        return
    assert found.collected.tool is None
    assert found.codes() == [("toolcall-type", "value")]
    assert found.message("value").startswith(f"Literal value '\ufffd' holds U+FFFD, {REPORTED}")


def test_str_enum_values_are_read_as_written(project: Project) -> None:
    module = project.write(
        "tools.py",
        r"""
        import enum
        from typing import Literal

        import toolcall


        class Color(str, enum.Enum):
            ODD = "\udcff"
            OTHER = "\udcfe"
            REAL = "\ufffd"
            OK = "ok"


        @toolcall.tool
        def paint(color: Color, odd: Literal[Color.ODD, Color.REAL], default: Color = Color.OTHER) -> None:
            pass
        """,
    )
    found = project.analyze(module)
    assert_as_at_run_time(project, module, found)
    tool = found["paint"].collected.tool
    assert tool is not None
    assert values(tool.parameters[0].type) == ("\udcff", "\udcfe", "\ufffd", "ok")
    assert values(tool.parameters[1].type) == ("\udcff", "\ufffd")
    assert tool.parameters[2].default == ir.Default.of("\udcfe")


def test_string_defaults_are_read_as_written(project: Project) -> None:
    project.write(
        "consts.py",
        r"""
        from typing import Final

        ELSEWHERE: Final = "\udcfb"
        """,
    )
    module = project.write(
        "tools.py",
        r"""
        from typing import Final

        import toolcall

        from .consts import ELSEWHERE

        ODD: Final = "\udcff"
        REAL: Final = "\ufffd"


        @toolcall.tool
        def defaults(
            plain: str = "\udcff",
            final: str = ODD,
            imported: str = ELSEWHERE,
            items: list[str] = ["\udcfe", "ok"],
            mapping: dict[str, str] = {"\udcfd": "v"},
            real: str = "\ufffd",
            real_final: str = REAL,
            character: str = "�",
        ) -> None:
            pass


        @toolcall.tool
        def one_line(a: str = "\udcff", b: str = "\udcfe", c: str = "\ufffd") -> None:
            pass


        @toolcall.tool
        def accented(e: str = "é", a: str = "\udcff", b: str = "\udcfe", c: str = "\ufffd") -> None:
            pass
        """,
    )
    found = project.analyze(module)
    accented = found.pop("accented")
    assert_as_at_run_time(project, module, found)
    tool = found["one_line"].collected.tool
    assert tool is not None
    assert [p.default for p in tool.parameters] == [ir.Default.of(v) for v in ("\udcff", "\udcfe", "\ufffd")]
    # Two strings mypy reads alike on a line that is not ASCII: mypy's columns there differ between its
    # parsers, so the plugin cannot tell which is which, and says so.
    if not project.native:
        assert_as_at_run_time(project, module, {"accented": accented})
        return
    assert accented.codes() == [("toolcall-default", "a"), ("toolcall-default", "b")]
    assert accented.message("a").startswith(f"the default '\ufffd' holds a lone surrogate such as \\udcff, {LOST}")
    assert accented.collected.tool is not None
    defaults = [p.default for p in accented.collected.tool.parameters]
    assert defaults == [ir.Default.of("é"), None, None, ir.Default.of("\ufffd")]


def test_defaults_and_enums_without_their_source_are_reported(project: Project) -> None:
    """A stub-only module gives mypy's values alone: U+FFFD in them cannot be confirmed, so it is reported."""
    project.write(
        "stubbed.pyi",
        r"""
        import enum
        from typing import Final

        ODD: Final = "\udcff"
        REAL: Final = "\ufffd"

        class Color(str, enum.Enum):
            ODD = "\udcff"
            OK = "ok"
        """,
    )
    module = project.write(
        "tools.py",
        r"""
        import toolcall

        from .stubbed import ODD, Color


        @toolcall.tool
        def stubbed_default(text: str = ODD) -> None:
            pass


        @toolcall.tool
        def stubbed_enum(color: Color) -> None:
            pass
        """,
    )
    found = project.analyze(module)
    default, enum = found["stubbed_default"].collected, found["stubbed_enum"].collected
    if not project.native:  # mypy's parser kept every string: its values are the ones written
        assert default.tool is not None
        assert default.tool.parameters[0].default == ir.Default.of("\udcff")
        assert enum.tool is not None
        assert values(enum.tool.parameters[0].type) == ("\udcff", "ok")
        return
    assert default.tool is not None
    assert default.tool.parameters[0].default is None  # dropped, and said so
    assert found["stubbed_default"].codes() == [("toolcall-default", "text")]
    assert found["stubbed_default"].message("text").startswith(f"the default ODD ('\ufffd') holds U+FFFD, {REPORTED}")
    assert enum.tool is None
    assert found["stubbed_enum"].codes() == [("toolcall-type", "color")]
    assert (
        found["stubbed_enum"]
        .message("color")
        .startswith(f"the value '\ufffd' of {project.package}.stubbed.Color.ODD holds U+FFFD, {REPORTED}")
    )


def test_descriptions_are_read_as_written_or_reported(project: Project) -> None:
    """``Param`` metadata comes from the source; ``@tool(description=...)`` from mypy, so a changed one is reported."""
    module = project.write(
        "tools.py",
        r"""
        from typing import Annotated

        import toolcall
        from toolcall import Param


        @toolcall.tool(description="Described \ufffd here.")
        def metadata(
            text: Annotated[str, Param(description="a \udcff b", pattern="^[\udcff\ufffd]+$")],
            real: Annotated[str, Param(description="real \ufffd")] = "",
        ) -> None:
            pass


        @toolcall.tool(description="Described \udcff here.")
        def described() -> None:
            pass
        """,
    )
    found = project.analyze(module)
    assert_as_at_run_time(project, module, {"metadata": found["metadata"]})
    described = found["described"]
    if not project.native:  # mypy's parser kept the description
        assert_as_at_run_time(project, module, found)
        return
    (problem,) = described.arguments.problems  # the hooks report it as toolcall-name at the decorator
    assert problem.startswith(f"the description holds a lone surrogate such as \\udcff, {LOST}")
    assert described.arguments.description is None


def test_docstrings_are_read_as_written(project: Project) -> None:
    module = project.write(
        "tools.py",
        r'''
        import toolcall


        @toolcall.tool
        def documented(mode: str) -> None:
            """Pick \udcff a mode, or \ufffd.

            Args:
                mode: the \udcfe mode
            """
        ''',
    )
    found = project.analyze(module)["documented"]
    tool = found.collected.tool
    assert tool is not None
    if sys.version_info >= (3, 13):  # CPython 3.13 cannot compile such a docstring: nothing to import
        assert tool.description == "Pick \udcff a mode, or \ufffd."
        assert tool.parameters[0].description == "the \udcfe mode"
        return
    assert_as_at_run_time(project, module, {"documented": found})


def test_typeddict_keys_are_read_as_written_or_reported(project: Project) -> None:
    module = project.write(
        "tools.py",
        r"""
        from typing import TypedDict

        import toolcall

        Keys = TypedDict("Keys", {"\udcff": int, "\ufffd\udcfe": str, "ok": int})


        @toolcall.tool
        def keyed(value: Keys) -> None:
            pass
        """,
    )
    found = project.analyze(module)
    assert_as_at_run_time(project, module, found)
    tool = found["keyed"].collected.tool
    assert tool is not None
    keyed = tool.parameters[0].type
    assert isinstance(keyed, ir.ObjectType)
    assert [f.name for f in keyed.fields] == ["\udcff", "\ufffd\udcfe", "ok"]


def test_typeddict_keys_mypy_merged_are_reported(project: Project) -> None:
    """Two keys that differ only in a lone surrogate become one key in mypy's type: no schema can come from it."""
    module = project.write(
        "tools.py",
        r"""
        from typing import TypedDict

        import toolcall

        Keys = TypedDict("Keys", {"\udcff": int, "\ufffd": str})  # type: ignore[misc]


        @toolcall.tool
        def merged(value: Keys) -> None:
            pass
        """,
    )
    found = project.analyze(module)["merged"]
    if not project.native:
        assert_as_at_run_time(project, module, {"merged": found})
        return
    assert found.collected.tool is None
    assert found.codes() == [("toolcall-type", "value")]
    assert found.message("value").startswith(f"the key '\ufffd' of TypedDict {project.package}.tools.Keys holds U+FFFD")


def values(node: ir.TypeNode) -> tuple[object, ...]:
    """The values of a ``Literal`` or an Enum node."""
    assert isinstance(node, (ir.LiteralType, ir.EnumType)), node
    return node.values
