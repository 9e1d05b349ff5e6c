"""The modules a command works on: imported once each, by name, by file path, or found in a package.

Both forms of the program see the same modules: the current directory is
put first on ``sys.path``, as ``python -m toolcall`` does and the console
script does not. A module that cannot be imported is an error naming it and
what it raised, never a traceback.

An argument with a path separator or ending in ``.py`` is a file path
(``support/tools.py``; a package directory too). It is imported under its
dotted name: the directories above it that hold an ``__init__.py`` are its
packages (``support/tools.py`` in package ``support`` is ``support.tools``),
and the first directory above them goes on ``sys.path``. A stand-alone file
is a top-level module named after it. A path that does not exist is a usage
error (``UsageError``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from collections.abc import Iterable
from types import ModuleType

from toolcall._cli import console

__all__ = [
    "UsageError",
    "import_module",
    "import_module_quietly",
    "import_named_modules",
    "import_tool_modules",
    "is_path",
    "module_name",
]


class UsageError(ValueError):
    """An argument that names nothing (a file path that does not exist): the command's usage error, exit 2."""


def import_tool_modules(names: Iterable[str], package: str | None) -> list[ModuleType] | None:
    """The named modules and every module of ``package`` that has tools, sorted; ``None`` after an error.

    A named module without tools is an error (it was named for its tools);
    a module of the package without tools is left out. Raises ``UsageError``,
    before importing anything, for a file path that does not exist.
    """
    from toolcall._declarations.tool import module_tools

    _search_current_directory()  # first: a file path's root goes before it
    package = None if package is None else module_name(package)
    named = import_named_modules(names)
    failed = named is None
    tool_modules = {module.__name__: module for module in named or ()}
    if package is not None:
        members = _package_modules(package)
        failed |= members is None
        for module in members or ():
            if module_tools(module.__name__):
                tool_modules[module.__name__] = module
    return None if failed else [tool_modules[name] for name in sorted(tool_modules)]


def import_named_modules(names: Iterable[str]) -> list[ModuleType] | None:
    """The named modules (names or file paths), each once, in the order named; ``None`` after an error.

    A module without tools is an error (it was named for its tools). Raises
    ``UsageError``, before importing anything, for a file path that does not exist.
    """
    from toolcall._declarations.tool import module_tools

    _search_current_directory()
    named = [(argument, module_name(argument)) for argument in names]
    tool_modules: dict[str, ModuleType] = {}
    failed = False
    for argument, name in named:
        module = import_module(name)
        if module is not None and not _imported_from(module, argument):
            module = None
        if module is not None and not module_tools(module.__name__):
            console.error(f"{argument} has no tools (no function in it is marked with @toolcall.tool)")
            module = None
        failed |= module is None
        if module is not None:
            tool_modules.setdefault(module.__name__, module)
    return None if failed else list(tool_modules.values())


def import_module(name: str) -> ModuleType | None:
    """``name`` imported, or ``None`` after saying on stderr why it could not be."""
    module, problem = import_module_quietly(name)
    if module is None:
        console.error(f"cannot import {name}: {problem}")
    return module


def import_module_quietly(name: str) -> tuple[ModuleType | None, str]:
    """``name`` imported and ``""``, or ``None`` and what importing it raised, in one line."""
    _search_current_directory()
    try:
        return importlib.import_module(name), ""
    except (Exception, SystemExit) as problem:  # whatever the module's code raises, said in one line
        return None, f"{type(problem).__name__}: {problem}"


def module_name(argument: str) -> str:
    """The dotted module name ``argument`` stands for: itself, or a file path's (its root put on ``sys.path``).

    Raises ``UsageError`` for a file path that does not exist.
    """
    if not is_path(argument):
        return argument
    _search_current_directory()  # first, so the file's own root goes before it
    path = os.path.abspath(argument)
    if os.path.isdir(path) and os.path.isfile(os.path.join(path, "__init__.py")):
        path = os.path.join(path, "__init__.py")  # a package directory: the package itself
    if not os.path.isfile(path) or not path.endswith(".py"):
        raise UsageError(f"{argument}: no such Python file")
    directory, file_name = os.path.split(path)
    parts = [] if file_name == "__init__.py" else [file_name[:-3]]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        parts.insert(0, package)
    if not parts or not all(part.isidentifier() for part in parts):
        raise UsageError(f"{argument}: {'.'.join(parts) or path!r} is not an importable module name")
    if directory not in sys.path:
        sys.path.insert(0, directory)
    return ".".join(parts)


def is_path(argument: str) -> bool:
    """Whether a command-line argument is a file path rather than a dotted module name."""
    return argument.endswith(".py") or "/" in argument or os.sep in argument


def _imported_from(module: ModuleType, argument: str) -> bool:
    """Whether a file path's module is that file (not a module of the same name found first); else say so."""
    if not is_path(argument):
        return True
    wanted = os.path.abspath(argument)
    if os.path.isdir(wanted):
        wanted = os.path.join(wanted, "__init__.py")
    found = getattr(module, "__file__", None)
    if found is not None and os.path.realpath(found) == os.path.realpath(wanted):
        return True
    console.error(f"{argument} imports as {module.__name__}, which is {found or 'a module without a file'}")
    return False


def _package_modules(package: str) -> list[ModuleType] | None:
    """The package and every module under it (not ``__main__``), each imported once; ``None`` after an error."""
    root = import_module(package)
    if root is None:
        return None
    paths = getattr(root, "__path__", None)
    if paths is None:
        return [root]  # a plain module: itself
    failed: list[str] = []
    names = [info.name for info in pkgutil.walk_packages(paths, f"{package}.", onerror=failed.append)]
    for name in failed:
        console.error(f"cannot import {name} (a subpackage of {package})")
    modules = [root]
    for name in console.progress(names, len(names), "import"):
        if name.rpartition(".")[2] == "__main__":
            continue  # running a package's command line is not importing it
        module = import_module(name)
        if module is None:
            failed.append(name)
        else:
            modules.append(module)
    return None if failed else modules


def _search_current_directory() -> None:
    here = os.getcwd()
    if "" not in sys.path and here not in sys.path:
        sys.path.insert(0, here)
