"""The version numbers of what toolcall stores, and the cache directory's name.

A leaf module: the mypy plugin's warm runs read these on every run without
importing the IR or the cache format (``toolcall_mypy._cache.tokens``).
"""

from __future__ import annotations

from typing import Final

__all__ = ["CACHE_DIR", "CACHE_FORMAT", "SCHEMA_VERSION"]

#: Bumped whenever the meaning or shape of the IR changes; caches written
#: with another version are stale.
SCHEMA_VERSION: Final = 1

#: Bumped whenever the cache file's layout changes.
CACHE_FORMAT: Final = 4

#: The directory beside a tool module that holds its cache file.
CACHE_DIR: Final = "__toolcall__"
