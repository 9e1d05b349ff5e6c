"""The plugin's cache writer.

Cache files written and removed (``writer``, ``files``), what a file lets a
run skip (``reuse``), each module's token for mypy's incremental runs
(``tokens``), and frozen runs (``frozen``).
"""
