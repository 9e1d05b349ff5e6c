"""The ``toolcall`` command line: ``export``, ``check``, ``clean`` and ``serve``.

``toolcall`` (the console script) and ``python -m toolcall`` both run
``main``. Each command is one module of this package with two functions:
``add_parser`` adds its sub-parser (its options and ``--help``), and ``run``
does the work and returns the exit status. A command imports what it needs
inside ``run``, so ``--help`` stays fast and ``import toolcall`` never loads
any of this. Exit status: 0 success, 1 findings or refused output, 2 usage
errors (``argparse``'s own). Errors go to stderr, one line each
(``toolcall._cli.console``).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from typing import Final

__all__ = ["COMMANDS", "main"]

#: Each command's name and the module that holds it, in ``--help`` order.
COMMANDS: Final = {
    "export": "toolcall._cli.export",
    "check": "toolcall._cli.check",
    "clean": "toolcall._cli.clean",
    "serve": "toolcall._cli.serve",
}


def parser() -> argparse.ArgumentParser:
    """The whole command line: one sub-parser per command."""
    from toolcall import __version__

    main_parser = argparse.ArgumentParser(
        prog="toolcall",
        description="Typed Python functions as LLM tools: export their definitions, check them, serve them.",
    )
    main_parser.add_argument("--version", action="version", version=f"toolcall {__version__}")
    commands = main_parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS.values():
        importlib.import_module(module).add_parser(commands)
    return main_parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    arguments = parser().parse_args(argv)
    _one_line_warnings()
    status: int = arguments.run(arguments)
    return status


def _one_line_warnings() -> None:
    """Show each warning (a stale cache, what strict mode moves) as one ``toolcall: warning:`` line."""
    import warnings

    from toolcall._cli import console

    def show(message: Warning | str, *_: object, **__: object) -> None:
        console.warning(str(message))

    warnings.showwarning = show
