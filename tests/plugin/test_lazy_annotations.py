"""Python 3.14's lazy annotations through both front ends and the served cache; mypy targeting Python 3.14.

``tests/lazy/tools.py`` names its classes below its tools, unquoted and
without ``from __future__ import annotations``; only Python 3.14 can import
it. Three sides must agree on it: runtime introspection, the plugin's
static analysis (the IR and findings, as ``test_plugin_analysis.py``
compares them), and the cache mypy writes, served in a fresh interpreter
(``json.dumps`` of every provider variant and ``describe``, as
``test_cache_differential.py`` compares them). Dispatch gives the same
results from the cache and from introspection.

``tests/lazy/checking_only.py`` names ``Decimal``, imported for type checkers
only: the cache serves and dispatches it, while introspection reports the
name it cannot resolve.

The last test runs mypy with ``python_version = "3.14"`` in the project's
configuration, on corpus modules (and on 3.14 the lazy module), on any
Python: every supported mypy takes that target.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Final

import pytest

pytest.importorskip("mypy")

from tests.mypy_settings import PYPROJECT_OVERRIDES
from tests.paths import ROOT
from tests.plugin.test_cache_differential import Results, both_sides, compare, report, run_mypy
from tests.plugin.test_plugin_analysis import analyze, module_path
from tests.plugin_project import environment
from toolcall import _ir as ir
from toolcall._cache import file_format
from toolcall._declarations.tool import module_tools
from toolcall._introspect import introspect

LAZY: Final = pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="lazy annotations (PEP 649/749) are Python 3.14's: before it, tests/lazy fails at import",
)
TOOLS: Final = "tests.lazy.tools"
CHECKING_ONLY: Final = "tests.lazy.checking_only"
TOOL_NAMES: Final = ["plan_route", "file_crate", "first_page"]
#: Corpus modules checked with ``python_version = "3.14"``: forward references, and dataclasses.
CORPUS: Final = ["tests.corpus.future_annotations", "tests.corpus.dataclasses_"]

# Runs in the project with TOOLCALL_CACHE set: dispatch each call, print each result's repr, or what it raised.
DISPATCH: Final = r"""
import json, sys
import toolcall
from tests.lazy import checking_only, tools

calls = [
    (tools, "plan_route", {
        "route": {"origin": "Oslo", "destination": "Bergen", "via": [{"place": "Voss", "nights": 1}]},
        "stops": [{"place": "Flam", "nights": 2}],
        "mode": "train",
        "start": {"x": 1},
        "budget": {"amount": 300, "currency": "EUR"},
    }),
    (tools, "plan_route", {"route": {"origin": "Oslo"}, "stops": [], "mode": "bus"}),
    (tools, "file_crate", {"crate": {"label": "tools", "contents": [{"name": "saw"}], "parent": {
        "label": "shed", "contents": [{"name": "rake", "weight": 2}]}}}),
    (tools, "file_crate", {"crate": {"label": "tools", "contents": []}, "tags": ["old", "heavy"]}),
    (tools, "first_page", {"page": {"items": [{"x": 1.5, "y": 2}]}}),
    (checking_only, "pay", {"amount": "1.50", "note": "rent"}),
]
out = []
for module, name, args in calls:
    try:
        out.append(repr(toolcall.run(module, name, args)))
    except Exception as exc:
        out.append(f"raised {type(exc).__name__}: {exc}")
print(json.dumps(out))
"""


def lazy_project(root: Path, modules: list[str], python_version: str | None = None) -> Path:
    """A project holding ``modules`` (with their packages), checked once by mypy with the plugin."""
    target = f'python_version = "{python_version}"\n' if python_version else ""
    (root / "pyproject.toml").write_text(
        '[tool.mypy]\nplugins = ["toolcall_mypy"]\nexplicit_package_bases = true\n' + target + PYPROJECT_OVERRIDES
    )
    for module in modules:
        source = Path(module_path(module))
        for package in [*reversed(source.relative_to(ROOT).parents)][1:]:
            (root / package).mkdir(exist_ok=True)
            shutil.copy(ROOT / package / "__init__.py", root / package / "__init__.py")
        shutil.copy(source, root / source.relative_to(ROOT))
    return root


def served_and_introspected(project: Path, modules: list[str]) -> Results:
    """What the cache serves for ``modules``, after checking that introspection renders the same."""
    for module in modules:
        path = project.joinpath(*module.split(".")).with_suffix(".py")
        assert file_format.cache_path(path).is_file(), f"mypy wrote no cache file for {module}"
    served, introspected = both_sides(project, modules)
    mismatches = compare(served, introspected)
    assert not mismatches, report(mismatches)
    return served


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = lazy_project(tmp_path_factory.mktemp("lazy"), [TOOLS, CHECKING_ONLY])
    result = run_mypy(root, "tests")
    errors = [line for line in result.stdout.splitlines() if ": error: " in line]
    # The one error: Anthropic's strict mode cannot express the recursive Crate. Every name resolves.
    assert [line.rpartition("  ")[2] for line in errors] == ["[toolcall-strict]"], result.stdout
    return root


def dispatched(project: Path, mode: str) -> list[str]:
    """The results of ``DISPATCH``'s calls, in a fresh interpreter with ``TOOLCALL_CACHE=mode``."""
    result = subprocess.run(
        [sys.executable, "-c", DISPATCH],
        cwd=project,
        env=environment() | {"TOOLCALL_CACHE": mode},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    found: list[str] = json.loads(result.stdout)
    return found


@LAZY
def test_static_ir_and_findings_equal_the_runtime_s() -> None:
    importlib.import_module(TOOLS)
    assert [d.name for d in module_tools(TOOLS)] == TOOL_NAMES
    collected, errors = analyze([(module_path(TOOLS), TOOLS)])
    assert not [e for e in errors if "error:" in e and "toolcall" not in e], errors
    for name in TOOL_NAMES:
        static = collected[(TOOLS, name)]
        (declaration,) = [d for d in module_tools(TOOLS) if d.name == name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runtime = introspect(declaration)
        assert static.tool is not None, [str(f.finding) for f in static.findings]
        assert ir.to_json(static.tool) == ir.to_json(runtime.tool), name
        assert _findings(f.finding for f in static.findings) == _findings(runtime.findings), name


def _findings(found: Any) -> list[tuple[str, str | None, str, str]]:
    return sorted((f.code, f.parameter, ".".join(map(str, f.path)), f.message) for f in found)


@LAZY
def test_the_cache_serves_what_introspection_renders(project: Path) -> None:
    served = served_and_introspected(project, [TOOLS])
    assert served[TOOLS]["tools"] == TOOL_NAMES
    describe = json.loads(served[TOOLS]["module"]["describe"])
    plan_route, file_crate, first_page = (tool["parameters"] for tool in describe)
    route = plan_route["properties"]["route"]
    assert route["properties"]["origin"] == {"type": "string", "description": "Where the route starts."}
    assert route["properties"]["via"]["items"]["required"] == ["place", "nights"]
    assert plan_route["properties"]["budget"]["description"] == "what the trip may cost"
    # @dataclass wrote Crate's docstring while Item was not yet defined: still not a description.
    assert "description" not in file_crate["$defs"]["Crate"]
    assert file_crate["properties"]["tags"] == {"type": "array", "items": {"type": "string"}, "default": ["new"]}
    assert first_page["properties"]["page"]["properties"]["items"]["items"]["required"] == ["x"]


@LAZY
def test_dispatch_from_the_cache_and_from_introspection(project: Path) -> None:
    served, introspected = dispatched(project, "require"), dispatched(project, "off")
    assert served[:-1] == introspected[:-1]
    assert served[0] == (
        "Ok({'days': 1, 'legs': [Leg(origin='Oslo', destination='Bergen')], "
        "'note': \"<Mode.TRAIN: 'train'> Point(x=1.0, y=0.0) Money(amount=300.0, currency=<Currency.EUR: 'EUR'>)\"})"
    )
    assert served[1].startswith("Err(ArgumentErrors("), served[1]
    assert "code='missing_field'" in served[1]
    assert "code='not_in_enum'" in served[1]
    assert served[2] == (
        "Ok(\"Crate(label='tools', contents=[Item(name='saw', weight=1.0)], parent=Crate(label='shed', "
        "contents=[Item(name='rake', weight=2.0)], parent=None)) ('new',)\")"
    )
    assert served[3] == "Ok(\"Crate(label='tools', contents=[], parent=None) ('old', 'heavy')\")"
    assert served[4] == "Ok(Point(x=1.5, y=2.0))"
    # Decimal is imported for type checkers only: the cache serves the tool, introspection cannot resolve it.
    assert served[5] == "Ok(\"Decimal('1.50') rent\")"
    assert introspected[5].startswith("raised SchemaError: tool 'pay' (tests.lazy.checking_only.pay), "), introspected
    assert "parameter 'amount': cannot resolve the annotation: name 'Decimal' is not defined" in introspected[5]


def test_mypy_targeting_python_3_14_writes_the_cache_introspection_agrees_with(tmp_path: Path) -> None:
    """Every supported mypy takes the target (1.15 too, though its typeshed has no 3.14 standard library)."""
    modules = CORPUS + ([TOOLS] if sys.version_info >= (3, 14) else [])
    root = lazy_project(tmp_path, modules, python_version="3.14")
    # mypy analyzes only the branch of a version check that holds for its target.
    (root / "tests" / "probe.py").write_text(
        "import sys\n\nif sys.version_info >= (3, 14):\n    TARGET = 314\nelse:\n    TARGET = 'older'\n"
        "reveal_type(TARGET)\n"
    )
    result = run_mypy(root, "tests")
    assert re.search(r'probe\.py:7: note: Revealed type is "(builtins\.)?int"', result.stdout), result.stdout
    served = served_and_introspected(root, modules)
    assert all(served[module]["tools"] for module in modules)
