"""A module that fails while it is imported."""

from __future__ import annotations

raise RuntimeError("the configuration file is missing")
