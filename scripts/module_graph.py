"""The import graph of ``toolcall`` and ``toolcall_mypy``, checked against their layers.

Run: python scripts/module_graph.py
It prints each module's imports of project modules, grouped by layer, then
the import cycles and the layer violations (with the import lines), and
exits 1 when there is any, or a module that no layer places.

What counts as an import: every ``import`` and ``from ... import`` that
runs, also those inside functions (they run on first call); not those
under ``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:``.
``from pkg import name`` imports the module ``pkg.name`` when there is one,
else ``pkg``. Importing ``pkg.mod`` runs ``pkg/__init__.py`` too; that
implicit import is not an edge (``pkg/__init__.py``'s own imports are).
Imports by ``importlib.import_module`` are not seen (``toolcall.__getattr__``'s
lazy names, the command table of ``toolcall._cli``).

The rule (docs/internal/architecture.md): a module imports only from its own
package (or itself, for a top-level module) and from lower layers. The
packages and top-level modules of one layer do not import each other.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final, NamedTuple

ROOT: Final = Path(__file__).resolve().parent.parent

#: The packages the graph covers (directories under the repository root).
ROOTS: Final = ("toolcall", "toolcall_mypy")

#: The layers, lowest first: a name, and the packages and top-level modules in it.
#: A new package or top-level module gets a place here (the tests fail until it has one).
LAYERS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    (
        "what every layer uses",
        (
            "toolcall._warning",
            "toolcall._exceptions",
            "toolcall._long_integer",
            "toolcall._records",
            "toolcall._ast_parse",
        ),
    ),
    (
        "leaves",
        (
            "toolcall.errors",
            "toolcall._readonly",
            "toolcall._once",
            "toolcall._ir",
            "toolcall._providers",
            "toolcall._annotations",
        ),
    ),
    ("findings", ("toolcall._findings",)),
    ("wire values", ("toolcall._wire",)),
    ("declarations", ("toolcall._declarations",)),
    ("shared rules", ("toolcall._rules",)),
    ("runtime front end, renderers, dispatcher", ("toolcall._introspect", "toolcall._render", "toolcall._dispatch")),
    ("schema cache", ("toolcall._cache",)),
    ("toolsets", ("toolcall._toolset",)),
    ("tool calls", ("toolcall._tool_calls",)),
    (
        "public API, adapters",
        (
            "toolcall",
            "toolcall.openai",
            "toolcall.anthropic",
            "toolcall.gemini",
            "toolcall.langchain",
            "toolcall.openai_agents",
            "toolcall.pydantic_ai",
        ),
    ),
    ("plugin: targets, settings, codes", ("toolcall_mypy._targets", "toolcall_mypy._config", "toolcall_mypy._codes")),
    ("plugin: source readers", ("toolcall_mypy._source",)),
    ("plugin: static front end", ("toolcall_mypy._analysis",)),
    ("plugin: reporting", ("toolcall_mypy._report",)),
    ("plugin: cache writer", ("toolcall_mypy._cache",)),
    ("plugin: hooks", ("toolcall_mypy._hooks",)),
    ("plugin: entry point", ("toolcall_mypy",)),
    ("command line", ("toolcall._cli",)),
    ("python -m toolcall", ("toolcall.__main__",)),
)


class Import(NamedTuple):
    """One import of a project module, where it is written."""

    importer: str
    imported: str
    path: Path
    line: int
    text: str


def package_of(module: str) -> str:
    """The package or top-level module (as ``LAYERS`` names them) that ``module`` belongs to."""
    return ".".join(module.split(".")[:2])


def layer_of(module: str, layers: Sequence[tuple[str, tuple[str, ...]]] = LAYERS) -> int | None:
    """The index of ``module``'s layer in ``layers``, or ``None`` when no layer places it."""
    package = package_of(module)
    for index, (_, members) in enumerate(layers):
        if package in members:
            return index
    return None


def source_files(root: Path) -> dict[str, Path]:
    """Every module of the covered packages under ``root`` → its file."""
    found: dict[str, Path] = {}
    for top in ROOTS:
        for path in sorted((root / top).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def packages(root: Path) -> dict[str, str]:
    """The packages and top-level modules under ``root`` → their paths, as the architecture map lists them.

    ``toolcall`` → ``toolcall/__init__.py``, ``toolcall._cache`` → ``toolcall/_cache/``,
    ``toolcall._ir`` → ``toolcall/_ir.py``.
    """
    found: dict[str, str] = {}
    for module, path in source_files(root).items():
        package = package_of(module)
        if package in ROOTS:
            found[package] = f"{package}/__init__.py"
        elif module != package or path.name == "__init__.py":
            found[package] = package.replace(".", "/") + "/"
        else:
            found[package] = package.replace(".", "/") + ".py"
    return dict(sorted(found.items()))


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _run_time_imports(nodes: Iterable[ast.AST]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements in ``nodes`` that run: all but those under ``if TYPE_CHECKING:``."""
    for node in nodes:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _run_time_imports(node.orelse)
        else:
            yield from _run_time_imports(ast.iter_child_nodes(node))


def _known(name: str, modules: Mapping[str, Path]) -> str | None:
    """``name`` if it is a project module, else its longest prefix that is one (``None``: not ours)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _imported(node: ast.Import | ast.ImportFrom, module: str, modules: Mapping[str, Path]) -> set[str]:
    """The project modules one import statement in ``module`` imports (not the implicit parent packages)."""
    if isinstance(node, ast.Import):
        named = (_known(alias.name, modules) for alias in node.names)
        return {name for name in named if name is not None}
    base = node.module or ""
    if node.level:
        is_package = modules[module].name == "__init__.py"
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    found: set[str] = set()
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        target = submodule if submodule in modules else _known(base, modules)
        if target is not None:
            found.add(target)
    return found


def imports(root: Path) -> list[Import]:
    """Every run-time import of a project module by a project module under ``root``, in file order."""
    modules = source_files(root)
    found: list[Import] = []
    for module, path in modules.items():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        statements = sorted(_run_time_imports([tree]), key=lambda node: (node.lineno, node.col_offset))
        for node in statements:
            written = " ".join((ast.get_source_segment(text, node) or "").split())
            for target in sorted(_imported(node, module, modules)):
                found.append(Import(module, target, path, node.lineno, written))
    return found


def module_graph(root: Path) -> dict[str, set[str]]:
    """Each module under ``root`` → the project modules it imports at run time."""
    graph: dict[str, set[str]] = {module: set() for module in source_files(root)}
    for edge in imports(root):
        graph[edge.importer].add(edge.imported)
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles: strongly connected components of more than one module, and modules importing themselves."""
    # Tarjan's algorithm; the graph has about a hundred modules, so recursion is fine.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1 or module in graph.get(module, ()):
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def layer_violations(
    graph: Mapping[str, set[str]], layers: Sequence[tuple[str, tuple[str, ...]]] = LAYERS
) -> list[tuple[str, str]]:
    """The imports ``(importer, imported)`` that go up a layer, or across to another package of the same layer.

    Imports inside one package are never violations (its cycles are); modules
    no layer places are left to ``unplaced``.
    """
    found: list[tuple[str, str]] = []
    for module, targets in sorted(graph.items()):
        own = layer_of(module, layers)
        for target in sorted(targets):
            theirs = layer_of(target, layers)
            if own is None or theirs is None or package_of(module) == package_of(target):
                continue
            if theirs >= own:
                found.append((module, target))
    return found


def unplaced(graph: Mapping[str, set[str]], layers: Sequence[tuple[str, tuple[str, ...]]] = LAYERS) -> list[str]:
    """The modules whose package or top-level module no layer names."""
    return sorted(module for module in graph if layer_of(module, layers) is None)


def main(argv: Sequence[str] = ()) -> int:
    """Print the graph by layer, the cycles and the violations; 1 when there is any, else 0."""
    root = Path(argv[0]) if argv else ROOT
    edges = imports(root)
    graph = module_graph(root)
    for number, (name, _) in enumerate(LAYERS):
        print(f"layer {number}: {name}")
        for module in sorted((m for m in graph if layer_of(m) == number), key=lambda m: (package_of(m), m)):
            print(f"  {module} -> {', '.join(sorted(graph[module])) or '(nothing)'}")
    lost = unplaced(graph)
    if lost:
        print(f"\nnot placed in a layer (add their package to LAYERS in {Path(__file__).name}):")
        for module in lost:
            print(f"  {module}")

    def where(module: str, target: str, indent: str) -> None:
        for edge in edges:
            if (edge.importer, edge.imported) == (module, target):
                print(f"{indent}{edge.path.relative_to(root).as_posix()}:{edge.line}: {edge.text}")

    found = cycles(graph)
    print(f"\ncycles: {len(found) or 'none'}")
    for cycle in found:
        print(f"  {' <-> '.join(cycle)}")
        for module in cycle:
            for target in sorted(graph[module] & set(cycle)):
                print(f"    {module} -> {target}")
                where(module, target, "      ")

    violations = layer_violations(graph)
    print(f"\nlayer violations: {len(violations) or 'none'}")
    for module, target in violations:
        print(f"  {module} (layer {layer_of(module)}) -> {target} (layer {layer_of(target)})")
        where(module, target, "    ")
    return 1 if found or violations or lost else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
