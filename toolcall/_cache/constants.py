"""What the cache's writer and reader both need: the format's version, the directory's name, limits, the error.

A leaf module: the mypy plugin's warm runs read it on every run without
importing the cache format (``toolcall_mypy._cache.tokens``).
"""

from __future__ import annotations

from typing import Final

from toolcall._cache.freshness import DIGEST_HEX  # defined there: that module runs standalone too

__all__ = ["CACHE_DIR", "CACHE_FORMAT", "DIGEST_HEX", "IR_VERSION", "MAX_DEPTH", "MalformedCacheError"]

#: Bumped whenever the cache file's layout changes.
CACHE_FORMAT: Final = 7

#: Bumped whenever the meaning or shape of the IR (``toolcall._ir``) changes; caches written with another
#: version are stale. Here rather than beside the IR: the plugin's warm runs name it without importing the IR.
IR_VERSION: Final = 5

#: The directory beside a tool module that holds its cache file.
CACHE_DIR: Final = "__toolcall__"

#: How deep a cache file's JSON may nest; deeper content is malformed (the reader's walks stay bounded).
MAX_DEPTH: Final = 200
#: The longest reason a ``MalformedCacheError`` keeps (longer ones end with "...").
_REASON_LIMIT: Final = 400


class MalformedCacheError(ValueError):
    """Why a cache file's content cannot be served: a one-line reason of bounded length."""

    def __init__(self, reason: str) -> None:
        # What is not printable (a line break, a tab, a lone surrogate) is spelled as its escape.
        text = "".join(
            c if c.isprintable() else c.encode("unicode_escape").decode() for c in reason[: _REASON_LIMIT + 1]
        )
        super().__init__(text if len(text) <= _REASON_LIMIT else text[: _REASON_LIMIT - 3] + "...")
