"""toolcall's mypy plugin, the static front end.

Enable it with ``plugins = ["toolcall_mypy"]`` under ``[tool.mypy]`` (or
``plugins = toolcall_mypy`` in mypy.ini). It reports schema problems of
every ``@tool`` function as mypy errors with ``toolcall-*`` codes and writes
each tool module's schema cache (``__toolcall__/<module>.json``);
``docs/mypy-plugin.md`` has the details.

This module is only the entry point and the version gate. mypy hashes this
file to notice plugin changes, and the package has no submodule named
``plugin`` (it would replace this function once imported, which breaks
dmypy's second load).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from mypy.plugin import Plugin

__all__ = ["SUPPORTED", "plugin"]

#: The mypy versions the plugin supports: ``>=1.15,<3``.
SUPPORTED: Final = ((1, 15), (3, 0))
#: Set to 1 to run on an unsupported mypy anyway (at your own risk).
ANY_VERSION_VARIABLE: Final = "TOOLCALL_MYPY_ANY_VERSION"


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: the plugin class, after checking mypy's ``version``."""
    match = re.match(r"(\d+)\.(\d+)", version)
    release = (int(match[1]), int(match[2])) if match else (0, 0)
    low, high = SUPPORTED
    if not low <= release < high and os.environ.get(ANY_VERSION_VARIABLE) != "1":
        raise RuntimeError(
            f"toolcall_mypy supports mypy >=1.15,<3, not {version}: install a supported mypy "
            f"(pip install 'toolcall[mypy]'), or set {ANY_VERSION_VARIABLE}=1 to try this one anyway"
        )
    from toolcall_mypy._hooks import ToolcallPlugin

    return ToolcallPlugin
