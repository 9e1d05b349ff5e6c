"""Tool modules for Python 3.14's lazy annotations (PEP 649/749): classes named before they are defined.

Their tools name classes defined below them, unquoted and without
``from __future__ import annotations``. Before 3.14 they fail at import
(``NameError``, or a ``SyntaxError`` for ``type`` statements before 3.12),
so only tests that run on 3.14 import them.
"""
