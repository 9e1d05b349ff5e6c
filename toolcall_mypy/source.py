"""The source files behind mypy's nodes, read with ``ast``: what mypy's analyzed types drop.

mypy strips ``Annotated`` metadata from analyzed types, frees class bodies
once a module is checked, and keeps docstrings only when asked. The static
front end reads those from the module files instead:

* docstrings of functions and classes, attribute docstrings of class fields;
* ``Annotated`` metadata: ``Param(...)``, ``toolcall.Injected`` and
  ``annotated_types`` calls, whose arguments are evaluated only when they are
  literals;
* the annotation written for a parameter or a class field, and the value of
  a type alias, so the analyzed type can be walked with its syntax beside it.

Each file is parsed once, cached by ``(path, mtime, size)``; a file the
running interpreter cannot parse (mypy accepts newer syntax) or cannot read
gives no source, and callers do without. Names are resolved syntactically:
module-level statements (also under ``if``/``try``), imports (relative ones
too) and, for other modules, their files found beside the tool module's
package root or on ``sys.path``. Each module read, memoized reads included,
counts for the tool being analyzed (``Sources.reading``).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import itertools
import math
import os
import sys
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final, TypeVar, Union

from toolcall import ir
from toolcall.docstrings import clean_entry
from toolcall.params import Param

__all__ = [
    "NO_CONSTRAINTS",
    "ClassBody",
    "Metadata",
    "ModuleSource",
    "Sources",
    "Src",
    "class_docstring",
    "declared_description",
    "is_injected",
    "literal_items",
    "literal_values",
    "parse",
    "peel",
    "plain_alias",
    "read_metadata",
    "strings_at",
    "subscript_args",
    "union_options",
]

ANNOTATED: Final = frozenset({"typing.Annotated", "typing_extensions.Annotated"})
LITERAL: Final = frozenset({"typing.Literal", "typing_extensions.Literal"})
UNION: Final = frozenset({"typing.Union", "typing_extensions.Union"})
OPTIONAL: Final = frozenset({"typing.Optional", "typing_extensions.Optional"})
QUALIFIERS: Final = frozenset(
    f"{module}.{name}" for module in ("typing", "typing_extensions") for name in ("Required", "NotRequired", "ReadOnly")
)
TYPE_ALIAS: Final = frozenset({"typing.TypeAlias", "typing_extensions.TypeAlias"})
TYPE_ALIAS_TYPE: Final = frozenset({"typing.TypeAliasType", "typing_extensions.TypeAliasType"})
FINAL: Final = frozenset({"typing.Final", "typing_extensions.Final"})
PARAM: Final = frozenset({"toolcall.Param", "toolcall.params.Param"})
INJECTED: Final = frozenset({"toolcall.Injected", "toolcall.params.Injected"})
# annotated_types class -> the Constraints fields its positional arguments set, in order.
_ANNOTATED_TYPES: Final[dict[str, tuple[str, ...]]] = {
    "Gt": ("gt",),
    "Ge": ("ge",),
    "Lt": ("lt",),
    "Le": ("le",),
    "MultipleOf": ("multiple_of",),
    "MinLen": ("min_length",),
    "MaxLen": ("max_length",),
    "Len": ("min_length", "max_length"),
    "Interval": ("gt", "ge", "lt", "le"),
}
_LENGTHS: Final = frozenset({"min_length", "max_length"})
_PARAM_ARGUMENTS: Final = (
    "description",
    "ge",
    "le",
    "gt",
    "lt",
    "multiple_of",
    "min_length",
    "max_length",
    "pattern",
    "wire",
)
_MAX_HOPS: Final = 16  # alias chains and re-exports followed at most this far
_STATEMENT_FIELDS: Final = ("body", "orelse", "finalbody")  # the fields of a statement that hold statements

Definition = Union[ast.stmt, "ModuleSource"]  # a statement, or a whole module (``import x``)
_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")
Remembered = tuple[_V, tuple[str, ...]]  # a memoized value and the modules computing it read (``Sources.remembered``)
Bindings = tuple[tuple[str, Union["Src", None]], ...]  # type parameter names -> their written arguments


# -- files -------------------------------------------------------------------------------------


def parse(path: str) -> ast.Module | None:
    """The parsed file at ``path``, or ``None`` when it cannot be read or parsed here."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _parse(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=512)
def _parse(path: str, mtime: int, size: int) -> ast.Module | None:
    try:
        with open(path, "rb") as handle:
            return ast.parse(handle.read(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return None  # mypy may accept syntax this interpreter does not (PEP 695 on 3.11)


class Sources:
    """Finds and parses the modules one tool module refers to.

    ``files`` maps a module name to its file (the hook layer knows mypy's);
    without it, or when it does not know a module, the file is looked for
    under the tool module's package root, then on ``sys.path``.
    """

    def __init__(self, module: str, path: str, files: Callable[[str], str | None] | None = None) -> None:
        self._files = files
        self._known = {module: path}
        self.home = module  # the module whose tools these sources serve
        self._roots = [root for root in (_package_root(module, path),) if root is not None]
        self._loaded: dict[str, ModuleSource | None] = {}
        self._has_file: dict[str, bool] = {}  # module -> whether it has a file (``module`` notes only those)
        self._defining: dict[str, str | None] = {}  # ``defining_module`` by full name
        self._readers: list[Callable[[str], None]] = []  # see ``reading``
        # ``read_metadata`` by the items it reads; the trees are fixed while this object lives.
        self.metadata: dict[tuple[tuple[ast.expr, ModuleSource], ...], Remembered[Metadata]] = {}
        # What one tool's walk found that the module's other tools reuse: class nodes and Enum values
        # (``toolcall_mypy.types``, ``toolcall_mypy.enums``), keyed by kind and class name.
        self.shared: dict[Hashable, object] = {}
        self._asked: set[Hashable] = set()

    def first(self, key: Hashable) -> bool:
        """Whether ``key`` is asked about for the first time (for work done once while these sources live)."""
        if key in self._asked:
            return False
        self._asked.add(key)
        return True

    def module(self, name: str) -> ModuleSource | None:
        """The source of module ``name``, or ``None``; a module that has a file counts as read (``reading``)."""
        if name not in self._loaded:
            path = self._path(name)
            tree = parse(path) if path is not None else None
            self._loaded[name] = None if path is None or tree is None else ModuleSource(name, path, tree, self)
            self._has_file[name] = path is not None  # even one unparsable here: mypy read it
        if self._readers and self._has_file[name]:
            self.note(name)
        return self._loaded[name]

    def note_file(self, name: str) -> None:
        """Count module ``name`` as read when it has a file, without reading it."""
        if self._readers:
            if name not in self._has_file:
                self._has_file[name] = self._path(name) is not None
            if self._has_file[name]:
                self.note(name)

    @contextmanager
    def reading(self, reader: Callable[[str], None]) -> Iterator[None]:
        """Call ``reader`` with the name of each module read inside the block (``module``, ``note``).

        Blocks nest: a module read inside an inner block counts for the outer
        ones too. A tool's analysis runs in one, so its cache entry can name
        every file its schema comes from.
        """
        self._readers.append(reader)
        try:
            yield
        finally:
            self._readers.pop()

    def note(self, name: str) -> None:
        """Count module ``name`` as read (a value mypy took from it, or a source read again from a memo)."""
        for reader in self._readers:
            reader(name)

    def remembered(self, memo: dict[_K, Remembered[_V]], key: _K, compute: Callable[[], _V]) -> _V:
        """``compute()``, once per ``key`` in ``memo``; each later use counts the modules it read as read again."""
        found = memo.get(key)
        if found is None:
            read: list[str] = []
            self._readers.append(read.append)  # as ``reading`` does, without a context manager's cost
            try:
                value = compute()
            finally:
                self._readers.pop()
            found = memo[key] = (value, tuple(dict.fromkeys(read)))
        elif found[1] and self._readers:
            for name in found[1]:
                self.note(name)
        return found[0]

    def defining_module(self, fullname: str) -> str | None:
        """The module a dotted name is defined in: its longest prefix that is a module with a file or a stub."""
        if fullname not in self._defining:
            name, self._defining[fullname] = fullname, None
            while "." in name:
                name = name.rpartition(".")[0]
                if self._path(name) is not None or self._path(name, ".pyi") is not None:
                    self._defining[fullname] = name
                    break
        return self._defining[fullname]

    def _path(self, name: str, suffix: str = ".py") -> str | None:
        known = self._known.get(name) or (self._files(name) if self._files is not None else None)
        if known is not None:
            return known
        parts = name.split(".")
        for root in (*self._roots, *sys.path):
            base = os.path.join(root or os.curdir, *parts)
            for candidate in (base + suffix, os.path.join(base, "__init__" + suffix)):
                if os.path.isfile(candidate):
                    return candidate
        return None


def _package_root(module: str, path: str) -> str | None:
    parts = module.split(".")
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.basename(path) != "__init__.py":
        parts = parts[:-1]
    for _ in parts:
        directory = os.path.dirname(directory)
    return directory


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
        # These two memos also keep which modules each value was read from (``Sources.remembered``):
        self._aliases: dict[ast.expr, Remembered[Src | None]] = {}  # a name -> the plain alias value it names
        self._descriptions: dict[tuple[ast.expr, Bindings], Remembered[str | None]] = {}  # annotation -> description
        self._peeled: dict[ast.expr, tuple[Src | None, Levels]] = {}  # an annotation -> what ``peel`` gives

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
            found = self._dotted[expr] = self._find_dotted(expr)
            return found

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

    def alias_value(self, expr: ast.Name | ast.Attribute) -> Src | None:
        """The value of the plain alias a name of this module refers to (see ``plain_alias``), or ``None``."""
        return self.sources.remembered(self._aliases, expr, lambda: self._find_alias_value(expr))

    def _find_alias_value(self, expr: ast.Name | ast.Attribute) -> Src | None:
        found = self.resolve(expr)
        if found is None or isinstance(found[1], ModuleSource):
            return None
        where, statement = found
        if isinstance(statement, ast.AnnAssign) and where.dotted(statement.annotation) not in TYPE_ALIAS:
            return None
        value = assigned_value(statement) if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        if value is None or not isinstance(value, (ast.Name, ast.Attribute, ast.Subscript, ast.BinOp, ast.Constant)):
            return None
        return Src(value, where)

    def lookup(self, name: str, hops: int = 0) -> tuple[ModuleSource, Definition] | None:
        """Where module-level ``name`` is defined: following imports into other modules' files."""
        statement = self._top.get(name)
        if statement is None and self._stars:
            self._read_stars()
        if statement is None or hops > _MAX_HOPS:
            return None
        if isinstance(statement, ast.Import):
            target = self.sources.module(self._imports[name])
            return None if target is None else (target, target)
        if isinstance(statement, ast.ImportFrom):
            origin, _, attribute = self._imports[name].rpartition(".")
            source = self.sources.module(origin)
            found = source.lookup(attribute, hops + 1) if source is not None else None
            if found is None:  # ``from package import submodule``
                submodule = self.sources.module(f"{origin}.{attribute}")
                return None if submodule is None else (submodule, submodule)
            return found
        return self, statement

    def _read_stars(self) -> None:
        """Count the modules this one star-imports as read: a name it does not bind may be theirs.

        Star imports are not followed (nor the star imports of those modules):
        parsing what a package star-imports can cost more than the rest of
        the analysis.
        """
        for origin in self._stars:
            self.sources.note_file(origin)

    def resolve(self, expr: ast.expr) -> tuple[ModuleSource, Definition] | None:
        """The definition a ``Name`` or dotted ``Attribute`` refers to (modules, classes, class members)."""
        if isinstance(expr, ast.Name):
            return self.lookup(expr.id)
        if not isinstance(expr, ast.Attribute):
            return None
        owner = self.resolve(expr.value)
        if owner is None:
            return None
        where, definition = owner
        if isinstance(definition, ModuleSource):
            return definition.lookup(expr.attr)
        if isinstance(definition, ast.ClassDef):
            member = next((s for s in definition.body if expr.attr in _bound_names(s)), None)
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
        found: ast.ClassDef | None = None
        for part in qualname.split("."):
            found = next((s for s in _top_level(body) if isinstance(s, ast.ClassDef) and s.name == part), None)
            if found is None:
                return None
            body = found.body
        return found

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


# -- annotations -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Src:
    """An annotation expression, the module it is written in, and its alias/class type parameters."""

    expr: ast.expr
    module: ModuleSource
    bindings: tuple[tuple[str, Src | None], ...] = ()

    def at(self, expr: ast.expr) -> Src:
        """Another expression of the same module and scope."""
        return Src(expr, self.module, self.bindings)

    def dotted(self) -> str | None:
        """The dotted name this expression (or its subscripted base) stands for."""
        target = self.expr.value if isinstance(self.expr, ast.Subscript) else self.expr
        return self.module.dotted(target)

    def is_subscript_of(self, names: frozenset[str]) -> bool:
        """Whether this is ``X[...]`` for one of ``names``."""
        return isinstance(self.expr, ast.Subscript) and self.dotted() in names

    def elements(self) -> list[Src]:
        """The subscript's arguments (``X[a, b]`` → ``a``, ``b``)."""
        assert isinstance(self.expr, ast.Subscript)
        inner = self.expr.slice
        items = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        return [self.at(item) for item in items]


def _bound(src: Src) -> Src | bool | None:
    """The binding of a type parameter name, or ``False`` when ``src`` is not one."""
    if isinstance(src.expr, ast.Name):
        for name, value in src.bindings:
            if name == src.expr.id:
                return value
    return False


def _is_none(src: Src) -> bool:
    return isinstance(src.expr, ast.Constant) and src.expr.value is None


def _parsed_string(src: Src) -> Src | None:
    assert isinstance(src.expr, ast.Constant)
    assert isinstance(src.expr.value, str)
    try:
        return src.at(ast.parse(src.expr.value.strip(), mode="eval").body)
    except SyntaxError:
        return None


Levels = tuple[tuple["Src", ...], ...]  # the metadata of each ``Annotated`` layer, outermost first


def peel(src: Src | None) -> tuple[Src | None, Levels]:
    """Strip ``Annotated``, string quotes, TypedDict qualifiers and bound type parameters.

    Returns the inner expression and the metadata of each ``Annotated``
    layer, outermost first.
    """
    if src is None or src.bindings:
        return _peel(src)
    memo = src.module._peeled  # each annotation is peeled for its schema, its description and Injected
    found = memo.get(src.expr)
    if found is None:
        found = memo[src.expr] = _peel(src)
    return found


def _peel(src: Src | None) -> tuple[Src | None, Levels]:
    levels: list[tuple[Src, ...]] = []
    for _ in range(_MAX_HOPS):
        if src is None:
            break
        expr = src.expr
        if isinstance(expr, ast.Name):
            bound = _bound(src) if src.bindings else False
            if bound is False:
                break
            src = bound if isinstance(bound, Src) else None
        elif isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            src = _parsed_string(src)
        elif isinstance(expr, ast.Subscript):
            subscripted = src.dotted()
            if subscripted in ANNOTATED:
                base, *items = src.elements()
                levels.append(tuple(items))
                src = base
            elif subscripted in QUALIFIERS:
                src = src.elements()[0]
            else:
                break
        else:
            break
    return src, tuple(levels)


def plain_alias(src: Src | None) -> Src | None:
    """The value of the plain alias (``X = int | None``, ``X: TypeAlias = ...``) that ``src`` names, or ``None``.

    A ``TypeAliasType(...)`` or ``type X = ...`` alias is no plain alias: at
    run time it stays an object of its own.
    """
    if src is None or not isinstance(src.expr, (ast.Name, ast.Attribute)):
        return None
    if src.bindings and _bound(src) is not False:
        return None
    return src.module.alias_value(src.expr)


def alias_value(where: ModuleSource, name: str, line: int, params: list[str], use: Src | None) -> Src | None:
    """The value of alias ``name`` (on ``line`` of ``where``), its type parameters bound to ``use``'s arguments."""
    statement = where.statement(name, line)
    value = assigned_value(statement)
    if isinstance(value, ast.Call) and where.dotted(value.func) in TYPE_ALIAS_TYPE:
        keyword = next((k.value for k in value.keywords if k.arg == "value"), None)
        value = value.args[1] if len(value.args) > 1 else keyword
    if value is None:
        return None
    args: list[Src | None] = list(subscript_args(use) or [])
    if len(args) != len(params):
        args = [None] * len(params)
    return Src(value, where, tuple(zip(params, args, strict=True)))


def subscript_args(src: Src | None) -> list[Src] | None:
    """The arguments of a subscripted annotation (``list[int]`` → ``int``), or ``None``."""
    if src is None or not isinstance(src.expr, ast.Subscript):
        return None
    return src.elements()


def union_options(src: Src) -> list[Src] | None:
    """The options of a union written ``A | B``, ``Union[A, B]`` or ``Optional[A]``, flattened; else ``None``."""
    expr = src.expr
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        return _options(src.at(expr.left)) + _options(src.at(expr.right))
    if src.is_subscript_of(UNION):
        return [option for element in src.elements() for option in _options(element)]
    if src.is_subscript_of(OPTIONAL):
        inner = _options(src.elements()[0])
        has_none = any(_is_none(o) or (o.is_subscript_of(LITERAL) and None in _literal_values(o)) for o in inner)
        return inner if has_none else [*inner, src.at(ast.Constant(None))]
    return None


def _options(src: Src) -> list[Src]:
    found = union_options(src)
    return [src] if found is None else found


def literal_items(src: Src) -> int | None:
    """How many values ``Literal[...]`` lists (nested literal aliases flattened), or ``None`` if it is none."""
    if not src.is_subscript_of(LITERAL):
        return None
    return len(_literal_values(src))


def literal_values(src: Src | None) -> list[object] | None:
    """The values ``Literal[...]`` lists, nested literal aliases flattened (a ``Src`` for one that is no constant).

    ``None`` when ``src`` is no ``Literal[...]``.
    """
    if src is None or not src.is_subscript_of(LITERAL):
        return None
    return _literal_values(src)


def _literal_values(src: Src, hops: int = 0) -> list[object]:
    values: list[object] = []
    for element in src.elements():
        target = plain_alias(element) if hops < _MAX_HOPS else None
        if target is not None and target.is_subscript_of(LITERAL):
            values.extend(_literal_values(target, hops + 1))
        else:
            values.append(element.expr.value if isinstance(element.expr, ast.Constant) else element)
    return values


# -- metadata ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Metadata:
    """What the ``Annotated`` layers of one annotation add (later items winning, as at run time).

    ``problems`` are metadata the plugin cannot read or the runtime would
    refuse; each makes the type unusable, with the message saying why.
    """

    constraints: ir.Constraints = dataclasses.field(default_factory=ir.Constraints)
    description: str | None = None
    string_integer: bool = False
    injected: bool = False
    problems: tuple[str, ...] = ()


NO_CONSTRAINTS: Final = ir.Constraints()
_NO_METADATA: Final = Metadata(NO_CONSTRAINTS)


def read_metadata(levels: Sequence[Sequence[Src]]) -> Metadata:
    """Merge metadata layers given outermost first (``Annotated`` nesting flattens inner items first)."""
    items = [item for level in reversed(levels) for item in level] if levels else []
    if not items:
        return _NO_METADATA
    # Read once per tool module: a parameter's annotation is read for its schema, its description and
    # whether it is injected, a class field's for each tool that uses the class.
    sources = items[0].module.sources
    key = tuple([(item.expr, item.module) for item in items])
    return sources.remembered(sources.metadata, key, lambda: _merged_metadata(items))


def _merged_metadata(items: list[Src]) -> Metadata:
    constraints = NO_CONSTRAINTS
    description: str | None = None
    string_integer = injected = False
    problems: list[str] = []
    for item in items:
        kind, target = _metadata_kind(item)
        if kind == "injected":
            injected = True
        elif kind == "param" and isinstance(target, ast.Call):
            param = _param(item.at(target), problems)
            if param is not None:
                constraints = _merged(constraints, _param_constraints(param))
                description = param.description if param.description is not None else description
                string_integer = string_integer or param.wire == "string_integer"
        elif kind is not None and isinstance(target, ast.Call):
            constraints = _merged(constraints, _annotated_types(item.at(target), kind, problems))
    return Metadata(constraints, description, string_integer, injected, tuple(problems))


def _merged(base: ir.Constraints, later: ir.Constraints) -> ir.Constraints:
    empty = base is NO_CONSTRAINTS or base == NO_CONSTRAINTS
    return later if empty else base.merged(later)  # merging onto nothing gives ``later``


def _metadata_kind(item: Src, hops: int = 0) -> tuple[str | None, ast.expr]:
    """What a metadata item is: ``"injected"``, ``"param"``, an annotated_types class name, or ``None``."""
    expr = item.expr
    name = item.module.dotted(expr.func if isinstance(expr, ast.Call) else expr)
    if name in INJECTED and not isinstance(expr, ast.Call):
        return "injected", expr
    if isinstance(expr, ast.Call) and name in PARAM:
        return "param", expr
    if isinstance(expr, ast.Call) and name is not None and name.startswith("annotated_types."):
        short = name.rpartition(".")[2]
        return (short if short in _ANNOTATED_TYPES else None), expr
    constant = plain_constant(item) if hops < _MAX_HOPS else None  # POSITIVE = Param(ge=1)
    return (None, expr) if constant is None else _metadata_kind(constant, hops + 1)


def plain_constant(src: Src) -> Src | None:
    """The value of the module-level variable a ``Name``/``Attribute`` refers to."""
    if not isinstance(src.expr, (ast.Name, ast.Attribute)):
        return None
    found = src.module.resolve(src.expr)
    if found is None or isinstance(found[1], ModuleSource):
        return None
    value = assigned_value(found[1]) if isinstance(found[1], (ast.Assign, ast.AnnAssign)) else None
    return None if value is None else Src(value, found[0])


def _param(call: Src, problems: list[str]) -> Param | None:
    assert isinstance(call.expr, ast.Call)
    arguments: dict[str, object] = {}
    pairs = [*zip(_PARAM_ARGUMENTS, call.expr.args, strict=False), *((k.arg, k.value) for k in call.expr.keywords)]
    for name, node in pairs:
        if name is None:
            problems.append(f"the plugin cannot read **-arguments of Param(...) in {_text(call.expr)}; spell them out")
            return None
        try:
            arguments[name] = ast.literal_eval(node)
        except ValueError:
            problems.append(
                f"the plugin reads Param(...) arguments only when they are literals: {name}={_text(node)} "
                f"in {_text(call.expr)}; write the value itself"
            )
            return None
    try:
        return Param(**arguments)  # type: ignore[arg-type]  # checked by Param itself
    except (TypeError, ValueError) as exc:
        problems.append(f"{_text(call.expr)} is refused at run time: {exc}")
        return None


def _param_constraints(param: Param) -> ir.Constraints:
    return ir.Constraints(
        ge=param.ge,
        le=param.le,
        gt=param.gt,
        lt=param.lt,
        multiple_of=param.multiple_of,
        min_length=param.min_length,
        max_length=param.max_length,
        pattern=param.pattern,
    )


def _annotated_types(call: Src, kind: str, problems: list[str]) -> ir.Constraints:
    assert isinstance(call.expr, ast.Call)
    values: dict[str, int | float] = {}
    nodes = [
        *zip(_ANNOTATED_TYPES[kind], call.expr.args, strict=False),
        *((k.arg, k.value) for k in call.expr.keywords),
    ]
    for field_name, node in nodes:
        try:
            value = ast.literal_eval(node)
        except ValueError:
            problems.append(f"the plugin reads annotated_types.{kind}(...) only with literal arguments: {_text(node)}")
            continue
        if field_name not in _ANNOTATED_TYPES[kind] or value is None or (field_name == "min_length" and value == 0):
            continue  # unset (Len's min_length defaults to 0, which bounds nothing)
        checked = _checked_bound(kind, field_name, value)
        if isinstance(checked, str):
            problems.append(checked)
        else:
            values[field_name] = checked
    return ir.Constraints(**values)  # type: ignore[arg-type]  # keys are Constraints fields


def _checked_bound(owner: str, name: str, value: object) -> int | float | str:
    """The bound, or the runtime's message refusing it (toolcall/introspect/metadata.py)."""
    ok_types = (int,) if name in _LENGTHS else (int, float)
    if isinstance(value, bool) or not isinstance(value, ok_types):
        return f"annotated_types.{owner}({value!r}): toolcall supports only numeric bounds here"
    if isinstance(value, float) and not math.isfinite(value):
        return f"annotated_types.{owner}({value!r}): use a finite bound"
    assert isinstance(value, (int, float))
    return value


def _text(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def declared_description(src: Src | None) -> str | None:
    """The ``Param(description=...)`` on an annotation's outer layers (runtime ``declared_description``).

    Looked for on the annotation, through ``Annotated``, TypedDict qualifiers,
    plain aliases and a union with one non-``None`` option; ``""`` means none.
    """
    if src is None:
        return None
    # A class field's annotation is read again for each tool using the class.
    memo, key = src.module._descriptions, (src.expr, src.bindings)
    return src.module.sources.remembered(memo, key, lambda: _declared_description(src))


def _declared_description(src: Src | None) -> str | None:
    for _ in range(_MAX_HOPS):
        if src is None:
            return None
        src, levels = peel(src)
        if levels:
            found = read_metadata(levels).description
            if found is not None:
                return found
        if src is None:
            return None
        options = union_options(src)
        if options is not None:
            rest = [o for o in options if not _is_none(o)]
            src = rest[0] if len(rest) == 1 else None
        else:
            src = plain_alias(src)
    return None


def is_injected(src: Src | None) -> bool:
    """Whether the outermost ``Annotated`` of a parameter's annotation holds ``toolcall.Injected``."""
    levels: list[tuple[Src, ...]] = []
    for _ in range(_MAX_HOPS):
        src, found = peel(src)
        levels.extend(found)
        follow = plain_alias(src)
        if follow is None:
            break
        src = follow
    return bool(levels) and read_metadata(levels).injected


# -- classes -----------------------------------------------------------------------------------


def class_docstring(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef | None) -> str | None:
    """The docstring written in a class or function body, raw (as ``__doc__`` holds it)."""
    return None if node is None else ast.get_docstring(node, clean=False)


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
        found = annotated[-1] if annotated else (statements[-1] if statements else None)
        return found if isinstance(found, (ast.AnnAssign, ast.Assign)) else None

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
            self._field_docs = _field_docs_in_body(self.node)
        return self._field_docs


def _field_docs_in_body(node: ast.ClassDef) -> dict[str, str]:
    docs: dict[str, str] = {}
    for statement, following in itertools.pairwise(node.body):
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
            text = clean_entry(following.value.value) if isinstance(following.value.value, str) else None
            if text is not None:
                docs[statement.target.id] = text
    return docs


def bindings_of(names: list[str], args: list[Src | None] | None) -> tuple[tuple[str, Src | None], ...]:
    """Type parameter names bound to the arguments written at the use site (unknown when they differ in number)."""
    values: list[Src | None] = list(args or [])
    if len(values) != len(names):
        values = [None] * len(names)
    return tuple(zip(names, values, strict=True))


def strings_at(where: ModuleSource, line: int) -> list[tuple[int | None, str]]:
    """The string constants that start on ``line`` of a module, in order: (column, value).

    ``ast`` keeps a string exactly as written, lone surrogates included
    (``toolcall_mypy.surrogates``). The column is ``None`` unless the line is
    ASCII: only then do all of mypy's parsers give the same columns.
    """
    nodes: list[tuple[int, str]] = []
    for node in ast.walk(where.tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.lineno == line:
            nodes.append((node.col_offset, node.value))
    if not nodes:
        return []
    try:
        with open(where.path, "rb") as handle:
            lines = handle.read().splitlines()
    except OSError:
        lines = []
    ascii_line = line <= len(lines) and lines[line - 1].isascii()
    return [(column if ascii_line else None, value) for column, value in sorted(nodes)]
