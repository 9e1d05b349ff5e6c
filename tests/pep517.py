"""Real builds through PEP 517 (``python -m build``), with the dev environment's backends (no isolation)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

__all__ = ["build_distribution"]


def build_distribution(source: Path, outdir: Path, *options: str) -> None:
    """``python -m build --no-isolation --outdir OUTDIR OPTIONS SOURCE``; an error fails the test with its output."""
    command = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(outdir), *options, str(source)]
    done = subprocess.run(command, cwd=source, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
