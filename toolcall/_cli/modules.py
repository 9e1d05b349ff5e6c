"""The modules a command works on: imported once each, by name or found in a package.

Both forms of the program see the same modules: the current directory is
put first on ``sys.path``, as ``python -m toolcall`` does and the console
script does not. A module that cannot be imported is an error naming it and
what it raised, never a traceback.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from collections.abc import Iterable
from types import ModuleType

from toolcall._cli import console

__all__ = ["import_module", "import_tool_modules"]


def import_tool_modules(names: Iterable[str], package: str | None) -> list[ModuleType] | None:
    """The named modules and every module of ``package`` that has tools, sorted; ``None`` after an error.

    A named module without tools is an error (it was named for its tools);
    a module of the package without tools is left out.
    """
    from toolcall._declarations.tool import module_tools

    _search_current_directory()
    tool_modules: dict[str, ModuleType] = {}
    failed = False
    for name in names:
        module = import_module(name)
        if module is not None and not module_tools(module.__name__):
            console.error(f"{name} has no tools (no function in it is marked with @toolcall.tool)")
            module = None
        failed |= module is None
        if module is not None:
            tool_modules[module.__name__] = module
    if package is not None:
        members = _package_modules(package)
        failed |= members is None
        for module in members or ():
            if module_tools(module.__name__):
                tool_modules[module.__name__] = module
    return None if failed else [tool_modules[name] for name in sorted(tool_modules)]


def import_module(name: str) -> ModuleType | None:
    """``name`` imported, or ``None`` after saying on stderr why it could not be."""
    try:
        return importlib.import_module(name)
    except (Exception, SystemExit) as problem:  # whatever the module's code raises, said in one line
        console.error(f"cannot import {name}: {type(problem).__name__}: {problem}")
        return None


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
