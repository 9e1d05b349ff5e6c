"""The mypy settings every plugin test shares: mypy does not follow imports into the provider SDKs.

``toolcall._toolset.emit``'s overloads import the openai and anthropic SDKs' tool
types for type checkers (``tools=`` without a cast). With both SDKs
installed, as in the dev environment, a cold mypy run therefore checks about
5,400 of their modules: 9 s for a two-tool project that takes 0.6 s without
them (docs/mypy-plugin.md, "The provider SDKs"). These tests are about the
plugin, which reads nothing from the SDKs, so mypy skips them here;
``tests/plugin/test_sdk_typing.py`` checks ``emit`` against the SDKs with them
followed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy.options import Options

__all__ = ["INI", "PYPROJECT_OVERRIDES", "skip_sdks"]

SDK_PATTERNS = ("openai.*", "anthropic.*")

# Appended after a pyproject.toml's [tool.mypy] table (an array of tables: keys after it land in it).
PYPROJECT_OVERRIDES = (
    "\n[[tool.mypy.overrides]]\nmodule = [" + ", ".join(f'"{p}"' for p in SDK_PATTERNS) + ']\nfollow_imports = "skip"\n'
)
# Appended to a mypy.ini (or setup.cfg) after its [mypy] section.
INI = "\n[mypy-" + ",".join(SDK_PATTERNS) + "]\nfollow_imports = skip\n"


def skip_sdks(options: Options) -> Options:
    """The in-process form: ``options`` (not yet used by a build) with the SDKs skipped."""
    for pattern in SDK_PATTERNS:
        options.per_module_options[pattern] = {"follow_imports": "skip"}
    return options
