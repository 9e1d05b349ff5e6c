"""A deliberately flawed tool: ``scripts/demo.sh`` shows what mypy with the toolcall plugin says about it.

Each flaw would hand the model a wrong or useless definition, and the plugin
reports each one as a mypy error at its line, with its ``toolcall-*`` code:

- ``conn``: no JSON Schema describes a socket (``toolcall-type``);
- ``since``: a call as a default, which no JSON value can carry (``toolcall-default``);
- ``fmt`` in the docstring: no parameter has that name (``toolcall-param``).

It has a mypy configuration of its own (``mypy.ini`` here), which writes no
schema cache: the module exists to be wrong.
"""

from __future__ import annotations

import socket
from datetime import datetime

import toolcall


@toolcall.tool
def send_report(
    conn: socket.socket,
    since: datetime = datetime.now(),  # noqa: B008  (the flaw the demo shows)
) -> str:
    """Send the daily report.

    Args:
        conn: where to send it
        since: the first moment the report covers
        fmt: the report's format
    """
    return f"sent since {since:%Y-%m-%d}"
