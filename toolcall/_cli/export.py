"""``toolcall export``: the tool definitions of modules, as one JSON list for a provider.

The definitions are ``toolcall._toolset.emit``'s, so each module is served from its
schema cache where the cache is current and introspected where it is not;
no mypy is needed. The output is byte-stable: modules sorted by name, each
module's tools in declaration order, every schema in its own order, 2-space
indent, ASCII (``\\u`` escapes), one final newline.
"""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType
from typing import Any

from toolcall._cli import console
from toolcall._providers import PROVIDERS

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add ``export`` to the command line's sub-parsers."""
    parser = commands.add_parser(
        "export",
        help="write the tool definitions of modules as JSON",
        description=(
            "Write the tool definitions of the named modules (or of every module of --package that has "
            "tools) as one JSON list for a provider: from their schema caches where current, else by "
            "introspection. Modules sorted, declaration order within each. Exit 1 on a module that "
            "cannot be imported, a tool that cannot be rendered, or a tool name used twice."
        ),
    )
    parser.add_argument(
        "modules", nargs="*", metavar="MODULE", help="a module with tools, e.g. myapp.tools or myapp/tools.py"
    )
    parser.add_argument(
        "--package", metavar="PKG", help="also every module of this package (a name or a directory) that has tools"
    )
    parser.add_argument("--format", choices=tuple(PROVIDERS), default="openai", help="the provider (default: openai)")
    parser.add_argument("--strict", action="store_true", help="the provider's strict mode")
    parser.add_argument(
        "--out", metavar="FILE", help="write here instead of stdout (replaced atomically), and say so on stdout"
    )
    parser.set_defaults(run=run, parser=parser)


def run(arguments: argparse.Namespace) -> int:
    """Export; the exit status."""
    if not arguments.modules and arguments.package is None:
        arguments.parser.error("name at least one MODULE, or --package PKG")
    if arguments.strict and not PROVIDERS[arguments.format].strict:
        arguments.parser.error(f"{arguments.format} has no strict mode")
    from toolcall._cli import modules

    try:
        tool_modules = modules.import_tool_modules(arguments.modules, arguments.package)
    except modules.UsageError as problem:
        console.error(str(problem))
        return 2
    if tool_modules is None:
        return 1
    definitions = _definitions(tool_modules, arguments.format, arguments.strict)
    if definitions is None:
        return 1
    text = export_text(definitions)
    if arguments.out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    status = _write(arguments.out, text)
    if status == 0:  # stdout carries no definitions here, so it says what was done, as clean does
        count = len(definitions)
        print(f"wrote {count} tool{'' if count == 1 else 's'} to {arguments.out}")
    return status


def export_text(definitions: list[Any]) -> str:
    """The exported file's text: 2-space indent, dict order kept, ASCII, a final newline."""
    import json

    return json.dumps(definitions, indent=2, ensure_ascii=True) + "\n"


def _definitions(tool_modules: list[ModuleType], provider: str, strict: bool) -> list[Any] | None:
    """Every module's definitions in order, or ``None`` after naming each refused tool and duplicate name."""
    import toolcall
    from toolcall._providers import variant_key
    from toolcall._toolset.toolset import as_toolset, refused_tools, shared_definitions

    definitions: list[Any] = []
    owners: dict[str, list[str]] = {}
    refused = False
    for module in console.progress(tool_modules, len(tool_modules), "export"):
        try:
            toolset = as_toolset(module)
            emitted = shared_definitions(toolset, provider, strict)  # the shared form: export only reads it
        except (ValueError, RuntimeError) as problem:  # a variant that does not exist; TOOLCALL_CACHE=require
            console.error(f"{module.__name__}: {problem}")
            refused = True
            continue
        left_out = [finding.tool for finding in refused_tools(toolset, provider, strict)]
        if left_out:  # each with its reason, warned already: the file would lack them
            console.error(
                f"{module.__name__}: {variant_key(provider, strict)} cannot take {', '.join(map(str, left_out))}"
            )
            refused = True
        for name in toolcall.tool_names(module):
            owners.setdefault(name, []).append(module.__name__)
        definitions.extend(emitted)
    for name, where in owners.items():
        if len(where) > 1:
            console.error(f"tool name {name!r} is used by {', '.join(where)}; a model cannot tell them apart")
            refused = True
    return None if refused else definitions


def _write(path: str, text: str) -> int:
    """Write ``text`` to ``path`` through a temporary file in the same directory; the exit status."""
    directory = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(directory, f".{os.path.basename(path)}.{os.urandom(8).hex()}.tmp")
    try:
        with open(temporary, "x", encoding="ascii", newline="\n") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except OSError as problem:
        if os.path.exists(temporary):
            os.unlink(temporary)
        console.error(f"cannot write {path}: {problem.strerror or problem}")
        return 1
    return 0
