"""Helpers for tests that start a server process over pipes."""

from __future__ import annotations

import subprocess
from typing import Any


def stop(process: subprocess.Popen[Any]) -> None:
    """Kill ``process`` if it still runs, wait for it, and close the pipes the test held."""
    if process.poll() is None:
        process.kill()
        process.wait()
    for stream in (process.stdin, process.stdout):
        if stream is not None and not stream.closed:
            stream.close()
