"""``toolcall clean``: remove the schema cache files no module needs any more.

A cache file ``pkg/__toolcall__/tools.json`` is an orphan when ``pkg/tools.py``
is gone, or when it no longer marks any function with ``@tool``. A PATH is a
directory to walk, or a module's file (``pkg/tools.py``, which may be gone
already) whose cache file alone is looked at. Nothing is
imported: the module's source is parsed, and a module that cannot be read
or parsed keeps its file (clean removes only what it is sure of). The walk
does not follow symbolic links, and skips hidden directories,
``__pycache__``, ``node_modules`` and installed packages. Every file removed
(or, with ``--dry-run``, that would be) is one line on stdout, and a run
that finds none says so.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
from collections.abc import Iterator
from typing import Any, Final

from toolcall._cache.constants import CACHE_DIR
from toolcall._cli import console

__all__ = ["add_parser", "cache_file", "orphans", "run"]

_SKIPPED: Final = frozenset({"__pycache__", "node_modules", "site-packages", "dist-packages"})


def add_parser(commands: Any) -> None:
    """Add ``clean`` to the command line's sub-parsers."""
    parser = commands.add_parser(
        "clean",
        help="remove cache files whose module is gone or has no tools",
        description=(
            "Remove each __toolcall__/<module>.json under the given paths (default: the current "
            "directory) whose module file is gone or no longer has a @tool, and say which. "
            "A path to a module's .py file (even one already deleted) looks at that module's cache file only. "
            "Exit 1 if a file could not be removed, 2 if a path is neither a directory nor a module's file."
        ),
    )
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", default=["."], help="directories to look in, or modules' .py files"
    )
    parser.add_argument("--dry-run", action="store_true", help="list what would be removed, remove nothing")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Clean; the exit status."""
    found: list[tuple[str, str]] = []
    for path in arguments.paths:
        if os.path.isdir(path):
            found.extend(orphans(path))
        elif path.endswith(".py") and (os.path.isfile(path) or os.path.isfile(cache_file(path))):
            found.extend(_module_orphan(path))
        else:
            console.error(f"{path}: no such directory or Python file")
            return 2
    status = 0
    for orphan, why in dict.fromkeys(found):  # a path named twice, or inside another: once
        status |= _remove(orphan, why, dry_run=arguments.dry_run)
    if not found:
        print("no orphaned cache files" + (" to remove" if arguments.dry_run else "; nothing removed"))
    return status


def cache_file(source: str) -> str:
    """Where the cache file of the module file ``source`` is (``pkg/tools.py`` → ``pkg/__toolcall__/tools.json``)."""
    directory, name = os.path.split(source)
    return os.path.join(directory, CACHE_DIR, f"{name[:-3]}.json")


def _module_orphan(source: str) -> Iterator[tuple[str, str]]:
    """The cache file of ``source`` when it is an orphan."""
    cached = cache_file(source)
    if os.path.isfile(cached) and not os.path.islink(os.path.dirname(cached)):
        why = _why_orphaned(source)
        if why is not None:
            yield cached, why


def orphans(root: str) -> Iterator[tuple[str, str]]:
    """Each orphaned cache file under ``root``, sorted, with why it is one."""
    for directory in _cache_directories(root):
        parent = os.path.dirname(directory)
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".json") or name.startswith("."):
                continue  # another tool's file, or a write in progress
            source = os.path.join(parent, f"{name[:-5]}.py")
            why = _why_orphaned(source)
            if why is not None:
                yield os.path.join(directory, name), why


def _cache_directories(root: str) -> Iterator[str]:
    """The cache directories under ``root``, in sorted order, never through a symbolic link."""
    for directory, subdirectories, _ in os.walk(root):
        subdirectories[:] = sorted(name for name in subdirectories if not name.startswith(".") and name not in _SKIPPED)
        if CACHE_DIR in subdirectories:
            subdirectories.remove(CACHE_DIR)
            cache_directory = os.path.join(directory, CACHE_DIR)
            if not os.path.islink(cache_directory):
                yield cache_directory


def _why_orphaned(source: str) -> str | None:
    """Why the cache file of ``source`` is an orphan, or ``None``: keep it."""
    try:
        with open(source, "rb") as handle:
            text = handle.read()
    except FileNotFoundError:
        return f"{source} no longer exists"
    except OSError:
        return None  # unreadable now: not proof of anything
    try:
        tree = ast.parse(text, source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return None if _marks_tools(tree) else f"{source} has no @tool"


def _marks_tools(tree: ast.AST) -> bool:
    """Whether a function in ``tree`` has ``@tool``: ``tool``, ``x.tool``, an alias from toolcall, or a call."""
    names = {"tool"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] == "toolcall":
            names.update(alias.asname or alias.name for alias in node.names if alias.name == "tool")
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if (isinstance(target, ast.Name) and target.id in names) or getattr(target, "attr", None) == "tool":
                    return True
    return False


def _remove(path: str, why: str, *, dry_run: bool) -> int:
    """Remove one orphan (and its directory when left empty) and say so; the exit status."""
    if dry_run:
        print(f"would remove {path} ({why})")
        return 0
    try:
        os.unlink(path)
    except FileNotFoundError:
        return 0  # removed meanwhile
    except OSError as problem:
        console.error(f"cannot remove {path}: {problem.strerror or problem}")
        return 1
    with contextlib.suppress(OSError):  # other modules' files are still there
        os.rmdir(os.path.dirname(path))
    print(f"removed {path} ({why})")
    return 0
