"""toolcall: plain typed Python functions as LLM tool definitions.

Mark functions with ``@toolcall.tool``; ``toolcall.emit(module, "openai")``
renders their definitions for a provider. See the README and ``docs/``.
"""

from __future__ import annotations

from toolcall._declarations.custom import TypeProvider, use_types
from toolcall._declarations.params import Injected, Param
from toolcall._declarations.tool import ToolDecorator, tool
from toolcall._toolset.emit import describe, emit, tool_names
from toolcall._toolset.toolset import Toolset
from toolcall._warning import ToolcallWarning

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from toolcall import errors
    from toolcall._dispatch.result import Err, Ok
    from toolcall._toolset.run import arun, run

# Dispatch loads on first use, so ``import toolcall`` stays light. Each lazy
# name → the module that holds it (``errors`` is that module itself).
_LAZY = {
    "run": "toolcall._toolset.run",
    "arun": "toolcall._toolset.run",
    "Ok": "toolcall._dispatch.result",
    "Err": "toolcall._dispatch.result",
    "errors": "toolcall.errors",
}


def __getattr__(name: str) -> object:
    # Many threads can be here at once, on their first use of a lazy name,
    # and a thread can come back here from inside one of these
    # imports (``from toolcall import errors``): every step only adds what is
    # already true, and nothing fails when another thread got there first.
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'toolcall' has no attribute {name!r}")
    import importlib
    import sys

    # ``toolcall._toolset.run`` imports the other two, so loading it binds every name.
    homes = (home, "toolcall._dispatch.result", "toolcall.errors") if home == "toolcall._toolset.run" else (home,)
    namespace = globals()
    for module_name in homes:
        module = importlib.import_module(module_name)
        for lazy, where in _LAZY.items():
            if where == module_name:
                namespace[lazy] = module if lazy == "errors" else getattr(module, lazy)
    # With every lazy name bound, this hook has no more work: a module without
    # ``__getattr__`` keeps CPython's fast attribute lookup for ``toolcall.run``.
    # Without the GIL, a thread could miss ``run`` in the namespace and then
    # find no hook either, so there the hook stays.
    gil = getattr(sys, "_is_gil_enabled", None)
    if (gil is None or gil()) and all(lazy in namespace for lazy in _LAZY):
        namespace.pop("__getattr__", None)
    return namespace[name]


__all__ = [
    "Err",
    "Injected",
    "Ok",
    "Param",
    "ToolDecorator",
    "ToolcallWarning",
    "Toolset",
    "TypeProvider",
    "arun",
    "describe",
    "emit",
    "errors",
    "run",
    "tool",
    "tool_names",
    "use_types",
]

__version__ = "0.1.0"
