"""toolcall: plain typed Python functions as LLM tool definitions.

Mark functions with ``@toolcall.tool``; ``toolcall.emit(module, "openai")``
renders their definitions for a provider. See the README and ``docs/``.
"""

from __future__ import annotations

from toolcall.custom import TypeProvider, use_types
from toolcall.definition import ToolDecorator, tool
from toolcall.emit import describe, emit, tool_names
from toolcall.params import Injected, Param
from toolcall.toolset import Toolset
from toolcall.warning import ToolcallWarning

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from toolcall import errors
    from toolcall.dispatch import arun, run
    from toolcall.result import Err, Ok

# Dispatch loads on first use, so ``import toolcall`` stays light.
_LAZY = {"run": "toolcall.dispatch", "arun": "toolcall.dispatch", "Ok": "toolcall.result", "Err": "toolcall.result"}


def __getattr__(name: str) -> object:
    import importlib

    if name != "errors" and name not in _LAZY:
        raise AttributeError(f"module 'toolcall' has no attribute {name!r}")
    namespace = globals()
    for lazy, module in _LAZY.items():
        namespace[lazy] = getattr(importlib.import_module(module), lazy)
    namespace["errors"] = importlib.import_module("toolcall.errors")
    # With every lazy name loaded, this hook has no more work; a module without
    # ``__getattr__`` keeps CPython's fast attribute lookup for ``toolcall.run``.
    del namespace["__getattr__"]
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
