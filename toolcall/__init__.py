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

__all__ = [
    "Injected",
    "Param",
    "ToolDecorator",
    "ToolcallWarning",
    "Toolset",
    "TypeProvider",
    "describe",
    "emit",
    "tool",
    "tool_names",
    "use_types",
]

__version__ = "0.1.0"
