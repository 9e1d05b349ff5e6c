"""``python -m toolcall``: the same program as the ``toolcall`` console script."""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    """The console script's entry point: run the command line and exit with its status."""
    from toolcall._cli import main as run

    sys.exit(run())


if __name__ == "__main__":
    main()
