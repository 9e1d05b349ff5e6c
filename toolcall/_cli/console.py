"""What the commands say on stderr: one-line errors and warnings, and progress on a terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

__all__ = ["counter", "error", "is_terminal", "progress", "warning"]

_T = TypeVar("_T")


def error(message: str) -> None:
    """Print ``toolcall: error: message`` on stderr, on one line."""
    _line(f"toolcall: error: {message}")


def warning(message: str) -> None:
    """Print ``toolcall: warning: message`` on stderr, on one line."""
    _line(f"toolcall: warning: {message}")


def progress(items: Iterable[_T], total: int, what: str) -> Iterator[_T]:
    """``items``, with a counter on stderr while they are worked through, if stderr is a terminal.

    Silent otherwise (CI logs, pipes, files): the output of a command is
    the same whether or not anyone watches it.
    """
    shown = is_terminal()
    for done, item in enumerate(items, 1):
        if shown:
            counter(f"{what}: {done}/{total}")
        yield item
    if shown and total:
        counter("")


def counter(text: str) -> None:
    """Show ``text`` on stderr's current line, replacing what was there (``""``: leave no counter behind)."""
    sys.stderr.write(f"\r{text}" if text else "\r\033[K")
    sys.stderr.flush()


def is_terminal() -> bool:
    """Whether stderr is a terminal, where a counter helps and does not litter a log."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def _line(text: str) -> None:
    # One line each: a message that spans lines (a traceback's text) is joined.
    print(" ".join(text.split("\n")), file=sys.stderr, flush=True)
