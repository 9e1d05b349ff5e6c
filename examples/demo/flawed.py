"""A deliberately flawed tool: ``scripts/demo.sh`` shows what mypy with the toolcall plugin says about it.

Each flaw would hand the model a wrong or useless definition, and the plugin
reports each one as a mypy error at its line, with its ``toolcall-*`` code:

- ``conn``: no JSON Schema describes a socket (``toolcall-type``);
- ``since``: a call as a default, which no JSON value can carry (``toolcall-default``);
- ``fmt`` in the docstring: no parameter has that name (``toolcall-param``).

``recent_reports`` has no flaw: Anthropic's strict mode cannot carry the
bounds of ``limit``, so they move into its description while the dispatcher
still enforces them. The plugin says so in a note, which does not fail a run.

It has a mypy configuration of its own (``mypy.ini`` here), which writes no
schema cache: the module exists to be wrong.
"""

from __future__ import annotations

import socket
from datetime import datetime
from typing import Annotated

import toolcall
from toolcall import Param


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


@toolcall.tool
def recent_reports(limit: Annotated[int, Param(ge=1, le=20)] = 5) -> list[str]:
    """The titles of the latest reports, newest first.

    Args:
        limit: how many to list
    """
    return [f"report {n}" for n in range(limit)]
