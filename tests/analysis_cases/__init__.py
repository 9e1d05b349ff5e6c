"""Tool modules that exercise the plugin's analysis beyond the shared corpus (tests/plugin/test_plugin_analysis.py).

Each module type-checks and imports; the test compares what the plugin
derives statically with what the runtime introspects, tool by tool. The
tools of ``refused`` are refused by both (a ``TypeError`` on first use at
run time, ``toolcall-type`` and no IR in the plugin).
"""

from __future__ import annotations

import sys

_MODULES = ["shared", "tricky", "structs", "enums_more", "recursion", "edges", "refused", "examples"]
if sys.version_info >= (3, 12):
    _MODULES.append("generics695")

#: Importable names of the modules with tools (``shared`` only holds types).
MODULES: list[str] = [f"{__name__}.{name}" for name in _MODULES if name != "shared"]
