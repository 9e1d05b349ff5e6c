"""Where the tests find the checkout and their fixtures, whichever layer's folder a test module sits in."""

from __future__ import annotations

from pathlib import Path
from typing import Final

#: The ``tests`` package: the shared test tools and the fixture folders (``corpus``, ``golden``, ...).
TESTS: Final = Path(__file__).resolve().parent
#: The repository's root.
ROOT: Final = TESTS.parent
