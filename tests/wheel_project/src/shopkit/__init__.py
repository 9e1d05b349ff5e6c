"""shopkit: the example package the wheel tests build, install and load under ``python -OO``."""

from __future__ import annotations

import toolcall


@toolcall.tool
def ping(message: str = "ping") -> str:
    """Check that the shop service answers.

    Args:
        message: the text the service echoes back
    """
    return message
