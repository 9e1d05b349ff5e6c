"""The full names of the callables whose calls the plugin hooks (see ``hooks``)."""

from __future__ import annotations

from typing import Final

__all__ = ["TOOL", "TOOL_CALL", "USE_TYPES"]

#: ``@tool`` (and the factory call ``tool(name=...)``)
TOOL: Final = "toolcall._declarations.tool.tool"
#: the application of ``tool(name=..., description=...)``
TOOL_CALL: Final = "toolcall._declarations.tool.ToolDecorator.__call__"
#: ``use_types(...)``, which names the module's TypeProvider classes
USE_TYPES: Final = "toolcall._declarations.custom.use_types"
