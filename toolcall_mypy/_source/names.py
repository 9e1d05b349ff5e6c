"""Names resolved syntactically in the module files: imports, module-level statements, class bodies.

A name is looked up among a module's statements, also those under
``if``/``try``/``with``, and followed through imports (relative ones too) into
other modules' files (``toolcall_mypy._source.files`` finds and parses them),
re-exports included. Star imports are not followed. ``Sources`` holds the
modules one tool module refers to; ``ModuleSource`` is one of them, with its
names, imports, functions and classes; ``ClassBody`` indexes what one class
statement declares.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Final, Union

from toolcall_mypy._source.docs import field_docstrings
from toolcall_mypy._source.files import PARSED, ModuleFiles, ReadRecord

if TYPE_CHECKING:
    from toolcall_mypy._source.syntax import Levels, Src

__all__ = ["MAX_HOPS", "Binding", "ClassBody", "ModuleSource", "RunShared", "Sources", "assigned_value"]

MAX_HOPS: Final = 16  # alias chains and re-exports followed at most this far
_STATEMENT_FIELDS: Final = ("body", "orelse", "finalbody")  # the fields of a statement that hold statements

Binding = Union[ast.stmt, "ModuleSource"]  # a statement, or a whole module (``import x``)


class RunShared:
    """What one tool module's walks shared (``Sources.share``) that the later tool modules of a mypy run reuse.

    Most tool modules use the same few classes: their nodes are built once
    per run, not once per module. A value is kept only when every module
    it comes from is ``settled``: mypy will not analyze it again in this run
    (it was checked, or loaded from mypy's cache), so the value cannot go
    stale while the run lasts. The hook layer makes one per run, and none
    for dmypy's daemon, whose runs re-analyze modules in place.
    """

    def __init__(self, settled: Callable[[str], bool]) -> None:
        self._settled = settled
        self._values: dict[Hashable, object] = {}

    def get(self, key: Hashable) -> object | None:
        """The value kept for ``key``, or ``None``."""
        return self._values.get(key)

    def offer(self, key: Hashable, value: object, modules: Iterable[str]) -> None:
        """Keep ``value`` for ``key`` if every module it comes from is settled."""
        if all(self._settled(module) for module in modules):
            self._values[key] = value

    def clear(self) -> None:
        """Forget every value (mypy parsed a file again: what it declares may change)."""
        self._values.clear()


class Sources:
    """Finds and parses the modules one tool module refers to, and records which are read (``record``).

    Their files are found by ``ModuleFiles``: ``files`` maps a module name to
    its file (the hook layer knows mypy's). ``run``, when given, holds what
    the run's earlier tool modules shared (``reused``, ``share``).
    """

    def __init__(
        self,
        module: str,
        path: str,
        files: Callable[[str], str | None] | None = None,
        run: RunShared | None = None,
    ) -> None:
        self.home = module  # the module whose tools these sources serve
        self.files = ModuleFiles(module, path, files)
        self.record = ReadRecord()  # each module read counts for the tool being analyzed
        self._loaded: dict[str, ModuleSource | None] = {}
        self._has_file: dict[str, bool] = {}  # module -> whether it has a file (``module`` notes only those)
        self._defining: dict[str, str | None] = {}  # ``defining_module`` by full name
        # What one tool's walk found that the module's other tools reuse: class nodes and Enum values
        # (``toolcall_mypy._analysis.types``, ``toolcall_mypy._analysis.enums``), keyed by kind and class name.
        self.shared: dict[Hashable, object] = {}
        self._run = run
        self._asked: set[Hashable] = set()

    def reused(self, key: Hashable) -> object | None:
        """What this module's walks shared for ``key``, else the run's earlier modules (``share``), else ``None``."""
        value = self.shared.get(key)
        if value is None and self._run is not None:
            # Another module with other roots could find other files for the same names.
            value = self._run.get((self.files.roots, key))
            if value is not None:
                self.shared[key] = value
        return value

    def share(self, key: Hashable, value: object, modules: Iterable[str]) -> None:
        """Keep ``value`` for this module's later walks, and the run's later modules when ``modules`` are settled."""
        self.shared[key] = value
        if self._run is not None:
            self._run.offer((self.files.roots, key), value, modules)

    def first(self, key: Hashable) -> bool:
        """Whether ``key`` is asked about for the first time (for work done once while these sources live)."""
        if key in self._asked:
            return False
        self._asked.add(key)
        return True

    def module(self, name: str) -> ModuleSource | None:
        """The source of module ``name``, or ``None``; a module that has a file counts as read (``record``)."""
        if name not in self._loaded:
            path = self.files.path(name)
            tree = PARSED.parse(path) if path is not None else None
            self._loaded[name] = None if path is None or tree is None else ModuleSource(name, path, tree, self)
            self._has_file[name] = path is not None  # even one unparsable here: mypy read it
        if self.record.readers and self._has_file[name]:
            self.record.note(name)
        return self._loaded[name]

    def note_file(self, name: str) -> None:
        """Count module ``name`` as read when it has a file, without reading it."""
        if self.record.readers:
            if name not in self._has_file:
                self._has_file[name] = self.files.path(name) is not None
            if self._has_file[name]:
                self.record.note(name)

    def defining_module(self, fullname: str) -> str | None:
        """The module a dotted name is defined in: its longest prefix that is a module with a file or a stub."""
        if fullname not in self._defining:
            name, self._defining[fullname] = fullname, None
            while "." in name:
                name = name.rpartition(".")[0]
                if self.files.path(name) is not None or self.files.path(name, ".pyi") is not None:
                    self._defining[fullname] = name
                    break
        return self._defining[fullname]


class ModuleSource:
    """One parsed module: its top-level names, imports, functions and classes."""

    def __init__(self, module: str, path: str, tree: ast.Module, sources: Sources) -> None:
        self.module = module
        self.path = path
        self.tree = tree
        self.sources = sources
        package = module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]
        self._package = package
        self._top: dict[str, ast.stmt] = {}
        self._imports: dict[str, str] = {}  # local name -> dotted name it stands for
        self._stars: list[str] = []  # the modules of ``from m import *``
        for statement in _top_level(tree.body):
            self._bind(statement)
        self._functions: dict[tuple[int, str], ast.FunctionDef | ast.AsyncFunctionDef] | None = None
        self._bindings: dict[str, list[ast.stmt]] | None = None  # name -> the top-level statements binding it
        self._classes: dict[str, ast.ClassDef | None] = {}  # qualname -> class statement
        self._bodies: dict[ast.ClassDef, ClassBody] = {}  # a class statement (by identity) -> its index
        self._single: dict[str, ast.Assign | ast.AnnAssign | None] = {}  # name -> its single binding
        self._rebound: frozenset[str] | None = None
        # By expression node (each stays in its tree, unchanged, while this object lives):
        self._dotted: dict[ast.expr, str | None] = {}
        self.peeled: dict[ast.expr, tuple[Src | None, Levels]] = {}  # ``peel``'s memo

    def _bind(self, statement: ast.stmt) -> None:
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                local = alias.asname or alias.name.partition(".")[0]
                self._imports.setdefault(local, alias.name if alias.asname else local)
                self._top.setdefault(local, statement)
        elif isinstance(statement, ast.ImportFrom):
            origin = self._absolute(statement.module, statement.level)
            for alias in statement.names:
                if alias.name == "*":
                    self._stars.append(origin)
                else:
                    self._imports.setdefault(alias.asname or alias.name, f"{origin}.{alias.name}")
                    self._top.setdefault(alias.asname or alias.name, statement)
        else:
            for name in _bound_names(statement):
                self._top.setdefault(name, statement)

    def _absolute(self, module: str | None, level: int) -> str:
        if level == 0:
            return module or ""
        package = self._package.split(".") if self._package else []
        base = package[: len(package) - (level - 1)] if level > 1 else package
        return ".".join([*base, *([module] if module else [])])

    # -- names -------------------------------------------------------------

    def dotted(self, expr: ast.expr) -> str | None:
        """The dotted name ``expr`` stands for (``"typing.Annotated"``), from imports and module names."""
        try:
            return self._dotted[expr]  # asked for the same annotation by each reading of it
        except KeyError:
            name = self._dotted[expr] = self._find_dotted(expr)
            return name

    def _find_dotted(self, expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Name):
            imported = self._imports.get(expr.id)
            if imported is not None:
                return imported
            return f"{self.module}.{expr.id}" if expr.id in self._top else expr.id
        if isinstance(expr, ast.Attribute):
            base = self.dotted(expr.value)
            return None if base is None else f"{base}.{expr.attr}"
        return None

    def lookup(self, name: str, hops: int = 0) -> tuple[ModuleSource, Binding] | None:
        """Where module-level ``name`` is defined: following imports into other modules' files."""
        statement = self._top.get(name)
        if statement is None and self._stars:
            self._read_stars()
        if statement is None or hops > MAX_HOPS:
            return None
        if isinstance(statement, ast.Import):
            target = self.sources.module(self._imports[name])
            return None if target is None else (target, target)
        if isinstance(statement, ast.ImportFrom):
            origin, _, attribute = self._imports[name].rpartition(".")
            source = self.sources.module(origin)
            resolved = source.lookup(attribute, hops + 1) if source is not None else None
            if resolved is None:  # ``from package import submodule``
                submodule = self.sources.module(f"{origin}.{attribute}")
                return None if submodule is None else (submodule, submodule)
            return resolved
        return self, statement

    def _read_stars(self) -> None:
        """Count the modules this one star-imports as read: a name it does not bind may be theirs.

        Star imports are not followed (nor the star imports of those modules):
        parsing what a package star-imports can cost more than the rest of
        the analysis.
        """
        for origin in self._stars:
            self.sources.note_file(origin)

    def resolve(self, expr: ast.expr) -> tuple[ModuleSource, Binding] | None:
        """The binding a ``Name`` or dotted ``Attribute`` refers to (modules, classes, class members)."""
        if isinstance(expr, ast.Name):
            return self.lookup(expr.id)
        if not isinstance(expr, ast.Attribute):
            return None
        owner = self.resolve(expr.value)
        if owner is None:
            return None
        where, binding = owner
        if isinstance(binding, ModuleSource):
            return binding.lookup(expr.attr)
        if isinstance(binding, ast.ClassDef):
            member = next((s for s in binding.body if expr.attr in _bound_names(s)), None)
            return None if member is None else (where, member)
        return None

    # -- statements --------------------------------------------------------

    def function(self, line: int, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The ``def`` named ``name`` whose ``def`` keyword is on ``line``."""
        return self._function_index().get((line, name))

    def functions(self) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        """Every ``def`` of the module, nested ones too, in source order."""
        return list(self._function_index().values())

    def _function_index(self) -> dict[tuple[int, str], ast.FunctionDef | ast.AsyncFunctionDef]:
        if self._functions is None:
            self._functions = {
                (node.lineno, node.name): node
                for node in _statements(self.tree.body)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
        return self._functions

    def class_def(self, qualname: str) -> ast.ClassDef | None:
        """The class statement of ``qualname`` (``"Outer.Inner"``), at module level or nested in classes."""
        if qualname not in self._classes:
            self._classes[qualname] = self._find_class(qualname)
        return self._classes[qualname]

    def _find_class(self, qualname: str) -> ast.ClassDef | None:
        body: list[ast.stmt] = self.tree.body
        node: ast.ClassDef | None = None
        for part in qualname.split("."):
            node = next((s for s in _top_level(body) if isinstance(s, ast.ClassDef) and s.name == part), None)
            if node is None:
                return None
            body = node.body
        return node

    def class_body(self, node: ast.ClassDef) -> ClassBody:
        """The index of a class statement of this module's tree."""
        body = self._bodies.get(node)
        if body is None:
            body = self._bodies[node] = ClassBody(node)
        return body

    def single_binding(self, name: str) -> ast.Assign | ast.AnnAssign | None:
        """The one module-level assignment of ``name``, when nothing else in the module rebinds it."""
        if name not in self._single:
            self._single[name] = self._find_single_binding(name)
        return self._single[name]

    def _find_single_binding(self, name: str) -> ast.Assign | ast.AnnAssign | None:
        statements = [s for s in _top_level(self.tree.body) if name in _bound_names(s) or _rebinds(s, name)]
        if name in self._rebound_anywhere() or len(statements) != 1:
            return None
        return statements[0] if isinstance(statements[0], (ast.Assign, ast.AnnAssign)) else None

    def _rebound_anywhere(self) -> frozenset[str]:
        """The names a ``global`` statement or an augmented assignment rebinds, anywhere in the module."""
        if self._rebound is None:
            names: set[str] = set()
            for node in ast.walk(self.tree):
                if isinstance(node, ast.Global):
                    names.update(node.names)
                elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                    names.add(node.target.id)
            self._rebound = frozenset(names)
        return self._rebound

    def statement(self, name: str, line: int) -> ast.stmt | None:
        """The module-level statement binding ``name``, preferably the one on ``line``."""
        if self._bindings is None:
            self._bindings = {}
            for statement in _top_level(self.tree.body):
                for bound in _bound_names(statement):
                    self._bindings.setdefault(bound, []).append(statement)
        candidates = self._bindings.get(name, [])
        return next((s for s in candidates if s.lineno == line), candidates[0] if candidates else None)


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a module or class body, also those under ``if``, ``try`` and ``with``."""
    for statement in body:
        if isinstance(statement, ast.If):
            yield from _top_level(statement.body)
            yield from _top_level(statement.orelse)
        elif isinstance(statement, ast.Try):
            yield from _top_level(statement.body)
            for handler in statement.handlers:
                yield from _top_level(handler.body)
            yield from _top_level(statement.orelse)
            yield from _top_level(statement.finalbody)
        elif isinstance(statement, ast.With):
            yield from _top_level(statement.body)
        else:
            yield statement


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a body, nested ones too; expressions are skipped (a ``def`` is never inside one)."""
    for statement in body:
        yield statement
        for field in _STATEMENT_FIELDS:
            nested = getattr(statement, field, None)
            if nested:
                yield from _statements(nested)
        for handler in getattr(statement, "handlers", ()):
            yield from _statements(handler.body)
        for case in getattr(statement, "cases", ()):  # ``match``
            yield from _statements(case.body)


def _bound_names(statement: ast.stmt) -> tuple[str, ...]:
    if isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return (statement.name,)
    if isinstance(statement, ast.Assign):
        return tuple(t.id for t in statement.targets if isinstance(t, ast.Name))
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return (statement.target.id,)
    type_alias = getattr(ast, "TypeAlias", None)  # Python 3.12+
    if type_alias is not None and isinstance(statement, type_alias):
        name = statement.name
        return (name.id,) if isinstance(name, ast.Name) else ()
    return ()


def _rebinds(statement: ast.stmt, name: str) -> bool:
    """Whether a statement binds ``name`` otherwise than by assignment (imports, loops, ``with``, ``del``)."""
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return any((alias.asname or alias.name.partition(".")[0]) == name for alias in statement.names)
    targets: list[ast.expr] = []
    if isinstance(statement, (ast.For, ast.AsyncFor)):
        targets = [statement.target]
    elif isinstance(statement, ast.Delete):
        targets = list(statement.targets)
    return any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t))


def assigned_value(statement: ast.stmt | None) -> ast.expr | None:
    """The value an assignment statement binds (``None`` for a bare annotation)."""
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        return statement.value
    type_alias = getattr(ast, "TypeAlias", None)
    if type_alias is not None and isinstance(statement, type_alias):
        value: ast.expr = statement.value
        return value
    return None


class ClassBody:
    """What one class statement's body declares, indexed once (``ModuleSource.class_body``).

    Statements under ``if``/``try``/``with`` count as the body's own.
    """

    def __init__(self, node: ast.ClassDef) -> None:
        self.node = node
        self._statements = list(_top_level(node.body))
        self._by_name: dict[str, list[ast.stmt]] = {}
        for statement in self._statements:
            for name in _bound_names(statement):
                self._by_name.setdefault(name, []).append(statement)
        self._names: dict[bool, list[str]] = {}
        self._field_docs: dict[str, str] | None = None

    def field(self, name: str) -> ast.AnnAssign | ast.Assign | None:
        """The statement that annotates or assigns ``name`` (the annotation preferred)."""
        statements = self._by_name.get(name, [])
        annotated = [s for s in statements if isinstance(s, ast.AnnAssign)]
        statement = annotated[-1] if annotated else (statements[-1] if statements else None)
        return statement if isinstance(statement, (ast.AnnAssign, ast.Assign)) else None

    def declared_names(self, annotated: bool = True) -> list[str]:
        """The names the body binds, in order: annotated fields only, or every assignment."""
        if annotated not in self._names:
            kinds = (ast.AnnAssign,) if annotated else (ast.AnnAssign, ast.Assign)
            self._names[annotated] = [
                name for s in self._statements if isinstance(s, kinds) for name in _bound_names(s)
            ]
        return self._names[annotated]

    def has_annotations(self) -> bool:
        """Whether the body annotates anything (so the class has ``__annotations__`` of its own)."""
        return any(isinstance(s, ast.AnnAssign) for s in self._statements)

    def field_docs(self) -> Mapping[str, str]:
        """Attribute docstrings: a string literal right after an annotated field (PEP 257)."""
        if self._field_docs is None:
            self._field_docs = field_docstrings(self.node)
        return self._field_docs
