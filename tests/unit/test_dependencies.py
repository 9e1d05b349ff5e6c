"""The runtime dependencies pyproject.toml declares are the ones the code imports, no more and no fewer.

A declared dependency that no module of ``toolcall/`` or ``toolcall_mypy/``
imports (outside ``if TYPE_CHECKING:``) is weight every user installs for
nothing. A third-party module that ``toolcall/`` imports at import time
(module level, outside ``if TYPE_CHECKING:`` and outside a ``try`` that
catches ``ImportError``) must be declared, or ``import toolcall`` fails in a
clean environment. Imports inside functions are lazy: the optional
accelerators (msgspec, orjson), the MCP server (mcp, anyio) and ``toolcall
check`` (mypy) load only when used. The only modules of ``toolcall/`` that
may import an extra's distribution at import time are that extra's own
(``EXTRA_MODULES``); ``toolcall_mypy`` is the mypy extra's package.

Import names map to distributions through ``importlib.metadata.packages_distributions()``,
with names compared per PEP 503.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any, Final

from packaging.requirements import Requirement

from tests.paths import ROOT

PACKAGES: Final = ("toolcall", "toolcall_mypy")
#: The modules of ``toolcall/`` that only an extra's feature loads: they may import that extra's
#: distributions at import time (today each imports them lazily, inside functions).
EXTRA_MODULES: Final = {"toolcall._cli.check": "mypy", "toolcall._cli.serve": "mcp", "toolcall._cli.stdio": "mcp"}


@dataclass(frozen=True)
class Imported:
    """One imported module, as a module's source names it."""

    module: str  # the importing module, e.g. "toolcall._wire.json_decode"
    name: str  # the imported module's top-level name, e.g. "msgspec"
    line: int
    at_import_time: bool  # runs when the importing module is imported, and must succeed then


def normalized(name: str) -> str:
    """A distribution's name per PEP 503: runs of ``-``, ``_`` and ``.`` are one ``-``, lower case."""
    return re.sub(r"[-_.]+", "-", name).lower()


@functools.cache
def providers() -> Mapping[str, list[str]]:
    """Top-level import name -> the installed distributions that provide it (read once: it takes a second)."""
    return packages_distributions()


def pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def requirement_names(requirements: Iterable[str]) -> list[str]:
    """The normalized names of the requirements whose markers hold on this Python."""
    parsed = [Requirement(text) for text in requirements]
    return [normalized(r.name) for r in parsed if r.marker is None or r.marker.evaluate({"extra": ""})]


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _catches_import_error(node: ast.Try) -> bool:
    names = {"ImportError", "ModuleNotFoundError"}
    for handler in node.handlers:
        caught = handler.type
        found = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught is not None else []
        if any(isinstance(kind, ast.Name) and kind.id in names for kind in found):
            return True
    return False


def imports_of(module: str, source: str) -> Iterator[Imported]:
    """Every absolute import in ``source`` that runs (not the ``if TYPE_CHECKING:`` ones), and when it runs."""

    def walk(nodes: Iterable[ast.AST], at_import_time: bool) -> Iterator[Imported]:
        for node in nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield Imported(module, alias.name.partition(".")[0], node.lineno, at_import_time)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0 and node.module is not None:
                    yield Imported(module, node.module.partition(".")[0], node.lineno, at_import_time)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield from walk(ast.iter_child_nodes(node), at_import_time=False)
            elif isinstance(node, ast.If) and _type_checking(node.test):
                yield from walk(node.orelse, at_import_time)  # the body never runs
            elif isinstance(node, ast.Try) and _catches_import_error(node):
                yield from walk(node.body, at_import_time=False)  # optional: a missing module is handled
                yield from walk([*node.handlers, *node.orelse, *node.finalbody], at_import_time)
            else:
                yield from walk(ast.iter_child_nodes(node), at_import_time)

    yield from walk(ast.parse(source).body, at_import_time=True)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def scanned(package: str) -> list[Imported]:
    """The imports of every module of ``package`` (a folder at the repository's root)."""
    found: list[Imported] = []
    for path in sorted((ROOT / package).rglob("*.py")):
        found.extend(imports_of(module_name(path), path.read_text(encoding="utf-8")))
    return found


def third_party(name: str) -> bool:
    return name not in sys.stdlib_module_names and name not in PACKAGES and name != "__future__"


def unimported(
    declared: Iterable[str], imported: Iterable[Imported], provided_by: Mapping[str, list[str]]
) -> list[str]:
    """The declared distributions (normalized names) that provide no module any of ``imported`` names."""
    names = {i.name for i in imported}
    used = {normalized(dist) for name in names for dist in provided_by.get(name, [])}
    return [dist for dist in declared if dist not in used]


def undeclared(
    imported: Iterable[Imported],
    declared: Iterable[str],
    extras: Mapping[str, Iterable[str]],
    provided_by: Mapping[str, list[str]],
) -> list[str]:
    """One line per import-time third-party import whose distribution is not declared where it must be."""
    runtime = set(declared)
    problems: list[str] = []
    for found in imported:
        if not found.at_import_time or not third_party(found.name):
            continue
        allowed = set(runtime)
        if found.module in EXTRA_MODULES:
            allowed |= set(extras[EXTRA_MODULES[found.module]])
        dists = {normalized(dist) for dist in provided_by.get(found.name, [])}
        if not dists:
            problems.append(
                f"{found.module}:{found.line} imports {found.name}, which no installed distribution provides"
            )
        elif not dists & allowed:
            problems.append(
                f"{found.module}:{found.line} imports {found.name} ({', '.join(sorted(dists))}) at import time, "
                "and [project] dependencies does not declare it"
            )
    return problems


DECLARED: Final = requirement_names(pyproject()["project"]["dependencies"])
EXTRAS: Final = {
    extra: requirement_names(reqs) for extra, reqs in pyproject()["project"]["optional-dependencies"].items()
}
RUNTIME_IMPORTS: Final = [i for package in PACKAGES for i in scanned(package)]
TOOLCALL_IMPORTS: Final = scanned("toolcall")


def test_every_declared_runtime_dependency_is_imported() -> None:
    missing = unimported(DECLARED, RUNTIME_IMPORTS, providers())
    assert not missing, f"declared in [project] dependencies but imported by no module of {PACKAGES}: {missing}"


def test_what_toolcall_imports_when_imported_is_declared() -> None:
    problems = undeclared(TOOLCALL_IMPORTS, DECLARED, EXTRAS, providers())
    assert not problems, "\n".join(problems)


# -- each check fails without what it checks --------------------------------------------------------

FAKE: Final = """
from typing import TYPE_CHECKING

import typing_extensions
from mcp import types

if TYPE_CHECKING:
    import openai
else:
    import msgspec

try:
    import orjson
except ImportError:
    orjson = None


def lazy() -> None:
    import anyio


class Holder:
    import docstring_parser
"""


def test_a_declared_dependency_that_nothing_imports_is_named() -> None:
    with_unused = list(dict.fromkeys([*DECLARED, "typing-inspect"]))  # the real list, and one nothing imports
    assert unimported(with_unused, RUNTIME_IMPORTS, providers()) == ["typing-inspect"]
    assert unimported(["no-such-distribution"], RUNTIME_IMPORTS, providers()) == ["no-such-distribution"]
    only_checked = list(imports_of("toolcall.fake", "if TYPE_CHECKING:\n    import docstring_parser\n"))
    assert unimported(["docstring-parser"], only_checked, providers()) == ["docstring-parser"]


def test_the_scan_sees_when_each_import_runs() -> None:
    found = {(i.name, i.at_import_time) for i in imports_of("toolcall.fake", FAKE)}
    assert found == {
        ("typing", True),
        ("typing_extensions", True),
        ("mcp", True),
        ("msgspec", True),  # the else of ``if TYPE_CHECKING`` runs
        ("orjson", False),  # optional: ImportError is caught
        ("anyio", False),  # lazy, inside a function
        ("docstring_parser", True),  # a class body runs on import
    }


def test_an_undeclared_import_at_import_time_is_named() -> None:
    def problems(module: str, source: str, declared: Iterable[str] = DECLARED) -> list[str]:
        return undeclared(imports_of(module, source), declared, EXTRAS, providers())

    undeclared_text = "at import time, and [project] dependencies does not declare it"
    assert problems("toolcall.fake", FAKE) == [
        f"toolcall.fake:5 imports mcp (mcp) {undeclared_text}",
        f"toolcall.fake:10 imports msgspec (msgspec) {undeclared_text}",
    ]
    assert problems("toolcall.fake", "import typing_extensions\n", declared=[]) == [
        f"toolcall.fake:1 imports typing_extensions (typing-extensions) {undeclared_text}"
    ]
    assert problems("toolcall.fake", "import no_such_module_anywhere\n") == [
        "toolcall.fake:1 imports no_such_module_anywhere, which no installed distribution provides"
    ]
    # An extra's own module may import what that extra declares, and only that.
    assert problems("toolcall._cli.serve", "import mcp\n") == []
    assert problems("toolcall._cli.serve", "import msgspec\n") == [
        f"toolcall._cli.serve:1 imports msgspec (msgspec) {undeclared_text}"
    ]
