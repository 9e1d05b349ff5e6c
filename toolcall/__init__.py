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

    if name == "errors":
        return importlib.import_module("toolcall.errors")  # importing sets the attribute
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'toolcall' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


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
