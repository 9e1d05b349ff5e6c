"""The mypy plugin's analysis layer (toolcall_mypy._analysis.tool/types/source/defaults).

The main check is differential: mypy checks every corpus module (and
examples/weather.py and tests/analysis_cases) with a tiny test-only plugin
that calls ``collect_tool`` for each ``@toolcall.tool``, and each tool's
static IR must equal what runtime introspection builds for the live function,
and its findings the runtime's, except where this file lists a difference
that is there by design (docs/static-vs-runtime.md lists the same).

The runtime side is ``toolcall._introspect.introspect`` itself, never a
loaded schema cache: a cache beside a corpus module would have been written
by the plugin, and the comparison would then compare the plugin with itself.

The unit cases check each finding's code, parameter and the line mypy
would report it at.
"""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import sys
import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

pytest.importorskip("mypy")

from mypy.build import BuildSource
from mypy.nodes import CallExpr, Decorator, RefExpr, StrExpr, TypeInfo
from mypy.options import Options
from mypy.plugin import FunctionContext, MethodContext, Plugin
from mypy.types import Type

from examples import weather
from tests import analysis_cases, corpus
from tests.inprocess_mypy import run_build
from tests.paths import ROOT
from toolcall import _ir as ir
from toolcall._declarations.tool import module_tools
from toolcall._dispatch.examples import check_examples
from toolcall._introspect import Introspected, introspect
from toolcall_mypy._analysis.tool import Collected, collect_tool
from toolcall_mypy._analysis.types import info_ref
from toolcall_mypy._source.files import PARSED, ParseCache
from toolcall_mypy._source.names import Sources
from toolcall_mypy._targets import TOOL, TOOL_CALL, USE_TYPES

#: Tools whose static and runtime IR cannot agree by design: (module, tool) -> why.
#: Keep docs/static-vs-runtime.md in step. None in the corpus today.
IR_DIFFERENCES: Final[dict[tuple[str, str], str]] = {}

#: Findings only the plugin reports, by design: (module, tool, code, parameter) -> why.
STATIC_ONLY_FINDINGS: Final[dict[tuple[str, str, str, str | None], str]] = {
    ("tests.corpus.containers", "tag_photos", "toolcall-type", "loose"): (
        "a bare `list` is list[Any] with an implicit Any, which mypy can tell from list[Any] and the runtime cannot"
    ),
}

#: Findings both report whose wording differs, by design: (module, tool, parameter) -> why.
MESSAGE_DIFFERENCES: Final[dict[tuple[str, str, str | None], str]] = {
    ("tests.analysis_cases.refused", "callable_param", "fn"): (
        "types are named as each side spells them: collections.abc.Callable[[int], int] at run time, "
        "def (int) -> int in mypy"
    ),
}


# -- the test-only plugin ------------------------------------------------------------------------


class AnalysisPlugin(Plugin):
    """Calls ``collect_tool`` for every ``@toolcall.tool`` mypy checks; results keyed by (module, tool name)."""

    def __init__(self, options: Options, *, shared_sources: bool = True) -> None:
        super().__init__(options)
        options.include_docstrings = True
        self.collected: dict[tuple[str, str], Collected] = {}
        self.providers: dict[str, tuple[str, ...]] = {}
        # One Sources per module, as the plugin's hooks keep it: a module's tools share its parsed
        # files and the class nodes built for earlier tools. Off: a fresh one per tool.
        self.shared_sources = shared_sources
        self.sources: dict[str, Sources] = {}

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return {TOOL: self._tool, USE_TYPES: self._use_types}.get(fullname)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return self._tool if fullname == TOOL_CALL else None

    def _tool(self, ctx: FunctionContext | MethodContext) -> Type:
        decorator = ctx.context
        if isinstance(decorator, Decorator):
            module = ctx.api.tree.fullname  # type: ignore[attr-defined]
            name, description = decorator.func.name, None
            for expr in decorator.decorators:
                if isinstance(expr, CallExpr):
                    for arg_name, arg in zip(expr.arg_names, expr.args, strict=True):
                        if arg_name == "name" and isinstance(arg, StrExpr):
                            name = arg.value
                        if arg_name == "description" and isinstance(arg, StrExpr):
                            description = arg.value
            self.collected[(module, name)] = collect_tool(
                decorator.func,
                name=name,
                description=description,
                module=module,
                path=ctx.api.path,
                providers=self.providers.get(module, ()),
                context=decorator.decorators[0],  # tool-level findings go to the @tool line, as the hooks do
                sources=self._sources(module, ctx.api.path),
            )
        return ctx.default_return_type

    def _sources(self, module: str, path: str) -> Sources | None:
        if not self.shared_sources:
            return None
        return self.sources.setdefault(module, Sources(module, path))

    def _use_types(self, ctx: FunctionContext) -> Type:
        module = ctx.api.tree.fullname  # type: ignore[attr-defined]
        refs = tuple(
            info_ref(arg.node)
            for group in ctx.args
            for arg in group
            if isinstance(arg, RefExpr) and isinstance(arg.node, TypeInfo)
        )
        self.providers[module] = self.providers.get(module, ()) + refs
        return ctx.default_return_type


def analyze(
    sources: list[tuple[str, str]],
    *,
    cache_dir: str = os.devnull,
    python_version: tuple[int, int] | None = None,
    shared_sources: bool = True,
) -> tuple[dict[tuple[str, str], Collected], list[str]]:
    """Run mypy over ``(path, module)`` pairs with the test plugin: the collected tools and mypy's messages."""
    options = Options()
    options.incremental = cache_dir != os.devnull
    options.cache_dir = cache_dir
    options.python_version = python_version or sys.version_info[:2]
    options.show_traceback = True
    plugin = AnalysisPlugin(options, shared_sources=shared_sources)
    result = run_build([BuildSource(path, module) for path, module in sources], options, plugin)
    return plugin.collected, result.errors


def module_path(module: str, root: Path = ROOT) -> str:
    return str(root.joinpath(*module.split(".")).with_suffix(".py"))


DIFFERENTIAL_MODULES: Final = [*corpus.MODULES, weather.__name__, *analysis_cases.MODULES]


def _runtime_tools() -> list[tuple[str, str]]:
    tools: list[tuple[str, str]] = []
    for module in DIFFERENTIAL_MODULES:
        importlib.import_module(module)
        tools.extend((module, definition.name) for definition in module_tools(module))
    return tools


RUNTIME_TOOLS: Final = _runtime_tools()


@pytest.fixture(scope="module")
def static() -> dict[tuple[str, str], Collected]:
    shared = f"{analysis_cases.__name__}.shared"
    modules = [*DIFFERENTIAL_MODULES, shared]
    collected, errors = analyze([(module_path(m), m) for m in modules])
    assert not [e for e in errors if "error:" in e and "toolcall" in e], errors
    return collected


def test_tools_sharing_a_module_s_sources_get_what_each_gets_alone(static: dict[tuple[str, str], Collected]) -> None:
    """What a tool's analysis reuses from the module's earlier tools changes nothing: IR, findings, their nodes."""
    modules = [*DIFFERENTIAL_MODULES, f"{analysis_cases.__name__}.shared"]
    alone, _ = analyze([(module_path(m), m) for m in modules], shared_sources=False)
    assert sorted(alone) == sorted(static)
    for key, collected in alone.items():
        shared = static[key]
        as_json = [None if c.tool is None else ir.to_json(c.tool) for c in (collected, shared)]
        assert as_json[0] == as_json[1], key
        assert [(f.finding, f.context.line) for f in collected.findings] == [
            (f.finding, f.context.line) for f in shared.findings
        ], key


def runtime(module: str, name: str) -> Any:
    """Introspection with the check of the docstring's examples, as a toolset loads a tool."""
    (definition,) = [d for d in module_tools(module) if d.name == name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        introspected = introspect(definition)
    tool, rejected = check_examples(introspected.tool)
    return Introspected(tool, introspected.findings + rejected, introspected.classes)


def _findings(found: Any, module: str, tool: str, static_side: bool) -> list[tuple[str, str | None, str, str]]:
    rows = []
    for finding in found:
        if static_side and (module, tool, finding.code, finding.parameter) in STATIC_ONLY_FINDINGS:
            continue
        differs = (module, tool, finding.parameter) in MESSAGE_DIFFERENCES
        rows.append(
            (finding.code, finding.parameter, ".".join(map(str, finding.path)), "" if differs else finding.message)
        )
    return sorted(rows, key=repr)


# -- the differential check ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "tool"), RUNTIME_TOOLS, ids=[f"{m.rpartition('.')[2]}-{t}" for m, t in RUNTIME_TOOLS]
)
def test_static_ir_equals_runtime_ir(static: dict[tuple[str, str], Collected], module: str, tool: str) -> None:
    collected = static.get((module, tool))
    assert collected is not None, f"the plugin saw no tool {tool!r} in {module}"
    if (module, tool) in IR_DIFFERENCES:
        pytest.skip(IR_DIFFERENCES[(module, tool)])
    try:
        expected = runtime(module, tool)
    except TypeError as exc:  # refused at run time: the plugin refuses the same parameter, saying the same
        parameter, _, reason = str(exc).partition("parameter ")[2].partition(": ")
        refusals = [f.finding for f in collected.findings if f.finding.code == "toolcall-type"]
        assert collected.tool is None
        assert [repr(f.parameter) for f in refusals] == [parameter]
        if (module, tool, refusals[0].parameter) not in MESSAGE_DIFFERENCES:
            assert refusals[0].message == reason
        return
    assert collected.tool is not None, [str(f.finding) for f in collected.findings]
    assert ir.to_json(collected.tool) == ir.to_json(expected.tool)
    static_findings = _findings((f.finding for f in collected.findings), module, tool, static_side=True)
    assert static_findings == _findings(expected.findings, module, tool, static_side=False)


def test_every_static_tool_is_a_runtime_tool(static: dict[tuple[str, str], Collected]) -> None:
    seen = {key for key in static if key[0] in DIFFERENTIAL_MODULES}
    assert seen == set(RUNTIME_TOOLS)


def test_listed_differences_are_real(static: dict[tuple[str, str], Collected]) -> None:
    """A listed by-design difference that disappeared should be taken off the lists (and the doc)."""
    for module, tool, code, parameter in STATIC_ONLY_FINDINGS:
        found = [f.finding for f in static[(module, tool)].findings]
        assert any(f.code == code and f.parameter == parameter for f in found)
    for module, tool, parameter in MESSAGE_DIFFERENCES:
        ours = {f.finding.message for f in static[(module, tool)].findings if f.finding.parameter == parameter}
        try:
            theirs = {f.message for f in runtime(module, tool).findings if f.parameter == parameter}
        except TypeError as exc:
            theirs = {str(exc).partition(f"parameter {parameter!r}: ")[2]}
        assert ours
        assert theirs
        assert ours != theirs


def test_listed_differences_are_documented() -> None:
    doc = (ROOT / "docs" / "static-vs-runtime.md").read_text()
    for module, tool, *_ in (*IR_DIFFERENCES, *STATIC_ONLY_FINDINGS, *MESSAGE_DIFFERENCES):
        assert f"{module}.{tool}" in doc or f"`{tool}`" in doc, (module, tool)


def test_warm_cache_run_agrees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Modules loaded from mypy's cache lose class bodies, docstrings and the order of names; sources stand in."""
    package = tmp_path / "tests" / "analysis_cases"
    shutil.copytree(ROOT / "tests" / "analysis_cases", package, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "tests" / "__init__.py").write_text("")
    monkeypatch.chdir(tmp_path)
    modules = [f"{analysis_cases.__name__}.shared", *analysis_cases.MODULES]
    sources = [(module_path(m, tmp_path), m) for m in modules]
    cache = str(tmp_path / ".mypy_cache")
    analyze(sources, cache_dir=cache)
    for path, _ in sources[1:]:  # the tool modules change; shared.py comes from the cache
        with open(path, "a") as handle:
            handle.write("\n# touched\n")
    collected, _ = analyze(sources, cache_dir=cache)
    expected = [key for key in RUNTIME_TOOLS if key[0] in analysis_cases.MODULES]
    assert sorted(collected) == sorted(expected)
    for module, tool in expected:
        if module.endswith(".refused"):
            assert collected[(module, tool)].tool is None
            continue
        static_tool = collected[(module, tool)].tool
        assert static_tool is not None
        assert ir.to_json(static_tool) == ir.to_json(runtime(module, tool).tool), (module, tool)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="only a Python without PEP 695 syntax lacks the source")
@pytest.mark.skipif(
    not getattr(Options(), "native_parser", False),
    reason="this mypy parses with the running Python's ast, which has no PEP 695 syntax before 3.12",
)
def test_pep695_without_source_agrees_with_the_recorded_runtime_ir() -> None:
    """On 3.11, ast cannot parse pep695.py; mypy alone still gives the IR the 3.12+ runtime builds."""
    path = module_path("tests.corpus.pep695")
    assert PARSED.parse(path) is None
    collected, errors = analyze([(path, "tests.corpus.pep695")], python_version=(3, 12))
    assert not errors
    tree = collected[("tests.corpus.pep695", "total")].tool
    assert tree is not None
    assert tree.parameters[0].type == ir.RefType("Tree")
    assert tree.defs[0] == ir.NamedType("Tree", ir.UnionType((ir.Primitive("int"), ir.ArrayType(ir.RefType("Tree")))))
    first = collected[("tests.corpus.pep695", "first")].tool
    assert first is not None
    assert first.parameters[0].type == ir.ArrayType(ir.Primitive("str"))
    assert first.description == "The first item."


# -- findings at their lines ---------------------------------------------------------------------


@pytest.fixture
def check(tmp_path: Path) -> Callable[[str], dict[str, Collected]]:
    """Analyze one module written from source text; results keyed by tool name."""

    def run(text: str, module: str = "case") -> dict[str, Collected]:
        path = tmp_path / f"{module}.py"
        path.write_text(textwrap.dedent(text))
        collected, _ = analyze([(str(path), module)])
        return {name: found for (mod, name), found in collected.items() if mod == module}

    return run


def rows(collected: Collected) -> list[tuple[str, str | None, int]]:
    """(code, parameter, line) of each finding, in report order."""
    return [(f.finding.code, f.finding.parameter, f.context.line) for f in collected.findings]


def message(collected: Collected, parameter: str | None) -> str:
    (found,) = [f.finding.message for f in collected.findings if f.finding.parameter == parameter]
    return found


def test_parameter_findings_at_their_lines(check: Callable[[str], dict[str, Collected]]) -> None:
    found = check(
        '''
        import toolcall


        @toolcall.tool
        def star(a: int, *rest: int) -> None:
            """Star args."""


        @toolcall.tool
        def loose(
            a,
            b: int = 1,
        ) -> None:
            """Loose.

            Args:
                a: documented
                c: no such parameter
            """
        '''
    )
    assert found["star"].tool is None
    assert rows(found["star"]) == [("toolcall-param", "rest", 6)]
    assert message(found["star"], "rest").startswith("*rest cannot be sent by a model")
    collected = found["loose"]
    assert rows(collected) == [("toolcall-param", "a", 12), ("toolcall-param", None, 10)]
    assert message(collected, "a") == "has no annotation, so its schema is {} (any JSON value); annotate it"
    assert "documents 'c', which is not a parameter" in message(collected, None)
    assert collected.tool is not None
    assert collected.tool.parameters[0] == ir.Parameter(
        "a", "positional_or_keyword", ir.AnyType("unannotated"), description="documented"
    )


def test_type_findings_at_their_lines(check: Callable[[str], dict[str, Collected]]) -> None:
    found = check(
        """
        import socket
        from typing import Any, TypeVar

        import toolcall

        T = TypeVar("T")


        @toolcall.tool
        def no_schema(ok: int, sock: socket.socket, fn: type[int]) -> None: ...


        @toolcall.tool
        def anything(value: T, items: list, mapping: dict[str, Any]) -> T:  # type: ignore[type-arg]
            return value


        @toolcall.tool
        def bad_key(counts: dict[int, str]) -> None: ...
        """
    )
    refused = found["no_schema"]
    assert refused.tool is None
    assert rows(refused) == [("toolcall-type", "sock", 11), ("toolcall-type", "fn", 11)]
    assert message(refused, "sock").startswith("socket.socket has no JSON schema; mark it Injected")
    assert message(refused, "fn").startswith("type[int] is a class object")
    anything = found["anything"]
    assert anything.tool is not None
    assert rows(anything) == [("toolcall-type", "value", 15), ("toolcall-type", "items", 15)]
    assert message(anything, "value") == (
        "TypeVar T has no bound, so any JSON value is accepted; give it a bound or constraints"
    )
    assert "without type arguments" in message(anything, "items")
    assert anything.tool.returns == ir.AnyType("typevar")
    assert message(found["bad_key"], "counts").startswith("mapping keys must be str")


def test_default_findings_at_the_initializer(check: Callable[[str], dict[str, Collected]]) -> None:
    found = check(
        """
        import datetime
        from typing import Annotated, Literal

        import toolcall
        from toolcall import Param

        LIMIT = 3
        LIMIT += 1
        ONCE = 7


        @toolcall.tool
        def defaults(
            since: datetime.datetime = datetime.datetime(2024, 1, 1),
            seen: set[int] = {1, 2},
            threshold: float = float("nan"),
            level: Literal[1, 2, 3] = 4,  # type: ignore[assignment]
            count: Annotated[int, Param(ge=1)] = 0,
            seed: int = 2**60,
            limit: int = LIMIT,
            ok: int = ONCE,
        ) -> None:
            \"\"\"Defaults.\"\"\"
        """
    )
    collected = found["defaults"]
    assert [(code, parameter) for code, parameter, _ in rows(collected)] == [
        ("toolcall-default", name) for name in ("since", "seen", "threshold", "level", "count", "seed", "limit")
    ]
    lines = {parameter: line for _, parameter, line in rows(collected)}
    assert lines == {"since": 15, "seen": 16, "threshold": 17, "level": 18, "count": 19, "seed": 20, "limit": 21}
    assert message(collected, "since").startswith("the default datetime.datetime(2024, 1, 1, 0, 0) has no UTC offset")
    assert message(collected, "seen").startswith("the default {1, 2} (a set) is not JSON")
    assert message(collected, "threshold").startswith("the default nan is not JSON")
    assert message(collected, "level").startswith("the default 4 is not one of 1, 2, 3")
    assert message(collected, "count").startswith("the default 0 breaks the constraint: must be at least 1")
    assert "beyond ±(2**53 - 1)" in message(collected, "seed")
    assert message(collected, "limit").startswith("the default LIMIT (a variable that is not Final) cannot be read")
    assert collected.tool is not None
    defaults = {p.name: p.default for p in collected.tool.parameters}
    assert defaults["seed"] == ir.Default.of(2**60)  # kept, with a warning
    assert defaults["ok"] == ir.Default.of(7)  # a module variable assigned once
    assert all(defaults[name] is None for name in ("since", "seen", "threshold", "level", "count", "limit"))


def test_metadata_problems(check: Callable[[str], dict[str, Collected]]) -> None:
    found = check(
        """
        from typing import Annotated

        import toolcall
        from toolcall import Injected, Param

        BOUND = 3


        @toolcall.tool
        def metadata(
            a: Annotated[int, Param(ge=BOUND)],
            b: Annotated[str, Param(pattern="(")],
            c: Annotated[str, Param(ge=1)],
            d: list[Annotated[int, Injected]],
            e: Annotated[object, Injected],
        ) -> None: ...
        """
    )
    collected = found["metadata"]
    assert collected.tool is None
    assert rows(collected) == [("toolcall-type", p, line) for p, line in (("a", 12), ("b", 13), ("c", 14), ("d", 15))]
    assert "only when they are literals: ge=BOUND" in message(collected, "a")
    assert "is not a valid regular expression" in message(collected, "b")
    assert "ge=1 cannot apply to this type" in message(collected, "c")
    assert message(collected, "d") == "Injected marks a tool parameter; it cannot appear inside a type"


def test_provider_that_cannot_be_imported(tmp_path: Path) -> None:
    path = tmp_path / "providers_case.py"
    path.write_text(
        textwrap.dedent(
            """
            from fractions import Fraction

            import toolcall


            @toolcall.tool
            def share(part: Fraction) -> None: ...
            """
        )
    )
    options = Options()
    options.incremental, options.cache_dir = False, os.devnull
    plugin = AnalysisPlugin(options)
    plugin.providers["providers_case"] = ("no_such_module_anywhere:Types",)
    run_build([BuildSource(str(path), "providers_case")], options, plugin)
    collected = plugin.collected[("providers_case", "share")]
    assert collected.tool is None
    assert "the TypeProvider no_such_module_anywhere:Types cannot be imported where mypy runs" in message(
        collected, "part"
    )


# -- source reading ------------------------------------------------------------------------------


def test_unparsable_source_gives_none(tmp_path: Path) -> None:
    path = tmp_path / "newer.py"
    path.write_text("def f(:\n")
    assert PARSED.parse(str(path)) is None
    assert PARSED.parse(str(tmp_path / "missing.py")) is None


def test_source_cache_follows_edits(tmp_path: Path) -> None:
    path = tmp_path / "edited.py"
    path.write_text("x = 1\n")
    first = PARSED.parse(str(path))
    assert first is PARSED.parse(str(path))  # parsed once
    path.write_text("x = 22\ny = 3\n")
    second = PARSED.parse(str(path))
    assert second is not None
    assert second is not first
    assert len(second.body) == 2


def test_source_cache_drops_the_least_recently_used_file(tmp_path: Path) -> None:
    cache = ParseCache(size=2)
    paths = []
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.py").write_text(f"{name} = 1\n")
        paths.append(str(tmp_path / f"{name}.py"))
    first, second = cache.parse(paths[0]), cache.parse(paths[1])
    assert cache.parse(paths[0]) is first  # now the most recently used
    cache.parse(paths[2])  # drops the second
    assert cache.parse(paths[0]) is first
    assert cache.parse(paths[1]) is not second


def test_relative_imports_and_reexports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .types import Count as Count\n")
    (package / "types.py").write_text("from typing import Annotated\nCount = Annotated[int, 1]\n")
    (package / "tools.py").write_text("from . import types\nfrom pkg import Count\n")
    sources = Sources("pkg.tools", str(package / "tools.py"))
    tools = sources.module("pkg.tools")
    assert tools is not None
    for name in ("types", "Count"):
        found = tools.lookup(name)
        assert found is not None
    direct = tools.lookup("Count")
    assert direct is not None
    assert isinstance(direct[1], ast.Assign)
    assert direct[0].module == "pkg.types"
