"""A logging handler for the ``toolcall`` logger: keeps what ``run`` logs for ``Raised`` instead of printing it.

The fuzz and property tests make thousands of tools raise; the records are
kept (their tracebacks show where an exception came from) and not printed.
"""

from __future__ import annotations

import logging


class ToolErrors(logging.Handler):
    """Keeps the ERROR records it is given, in ``records``."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
