"""Why a schema cache entry is not served, and the one warning per process that says so.

The loader (``toolcall._cache.loader``) finds a ``Problem`` per tool. In
``auto`` mode the first one warns, naming every tool module loaded so far
whose cache cannot be served and the command that refreshes them; a module
named once is not named again, so a process warns once, and again only for
modules first used later. Under ``python -OO`` the warning says that the
descriptions are lost, since introspection finds no docstrings.
"""

from __future__ import annotations

import sys
import threading
import warnings
from collections.abc import Callable, Mapping
from typing import Final

from toolcall._cache.problem import Problem
from toolcall._findings import outside_stacklevel
from toolcall._warning import ToolcallWarning

__all__ = ["REFRESH", "WRITE_COMMAND", "Problem", "required_text", "warn_once", "warning_text"]

#: The command that writes a module's schema cache file.
WRITE_COMMAND: Final = "run mypy with the toolcall plugin (or `toolcall check`)"
#: What refreshes a stale or corrupt cache.
REFRESH: Final = f"{WRITE_COMMAND} to refresh them"
#: What a tool the plugin could not describe needs, in the warning.
_FIX_FINDING: Final = "a tool the plugin could not describe needs its finding fixed, not silenced"

_WARNED: set[str] = set()
_LOCK = threading.Lock()


def warn_once(module: str, problem: Problem, others: Callable[[], Mapping[str, Problem]]) -> None:
    """Warn about ``module`` (and ``others()``, every other module's problem) unless each was named already."""
    if module in _WARNED:
        return
    problems = {module: problem}
    # Outside the lock: reading other modules' caches may wait on an import lock another thread holds.
    for name, other in others().items():
        problems.setdefault(name, other)
    with _LOCK:
        new = {name: problems[name] for name in sorted(problems) if name not in _WARNED}
        _WARNED.update(new)
    if not new:
        return  # another thread named them all meanwhile
    warnings.warn(warning_text(new, sys.flags.optimize >= 2), ToolcallWarning, stacklevel=outside_stacklevel(2))


def warning_text(problems: Mapping[str, Problem], stripped: bool) -> str:
    """The warning for these modules' problems; ``stripped``: docstrings are gone (``python -OO``)."""
    count = len(problems)
    named = "; ".join(f"{name} ({problem.text})" for name, problem in problems.items())
    plural = count != 1
    parts = [
        f"the schema cache of {count} module{'s' if plural else ''} is not served, "
        f"so {'their' if plural else 'its'} tools are introspected instead: {named}"
    ]
    if any(problem.kind != "refused" for problem in problems.values()):
        parts.append(REFRESH)
    if any(problem.kind == "refused" for problem in problems.values()):
        parts.append(_FIX_FINDING)
    if stripped:
        parts.append("this process runs under python -OO, so the docstrings are stripped and their descriptions lost")
    return "; ".join(parts)


def required_text(module: str, name: str, problem: Problem) -> str:
    """The ``TOOLCALL_CACHE=require`` error for one tool: why it is not served, and what fixes that."""
    if problem.kind == "refused":
        fix = "fix the finding mypy reports for it: a silenced one leaves the tool out of the cache"
    else:
        fix = f"{WRITE_COMMAND} to write it, and ship the module's __toolcall__ directory with the module"
    return f"TOOLCALL_CACHE=require: tool {name!r} of {module!r}: {problem.text}; {fix}"
