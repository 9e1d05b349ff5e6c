"""mypy builds run inside the test process, for the tests that read the plugin's analysis directly.

A build leaves a large cyclic graph (ASTs, symbol tables, types) behind.
With millions of long-lived objects, Python's collector postpones its full
collections, so build after build piles up as garbage: several GB in one
test session, enough for the kernel's out-of-memory killer. Each build
therefore starts with a full collection of the builds before it.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence

from mypy import build
from mypy.build import BuildResult, BuildSource
from mypy.options import Options
from mypy.plugin import Plugin

from tests.mypy_settings import skip_sdks

__all__ = ["run_build"]


def run_build(sources: Sequence[BuildSource], options: Options, plugin: Plugin) -> BuildResult:
    """``mypy.build.build`` with ``plugin`` and the SDKs skipped, after collecting what earlier builds left."""
    gc.collect()
    return build.build(list(sources), skip_sdks(options), extra_plugins=[plugin])
