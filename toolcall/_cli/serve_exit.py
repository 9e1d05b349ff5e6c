"""How ``serve`` ends once stdin closes: promptly, even while a tool's worker thread still runs.

A tool marked ``@tool(thread=True)`` runs on the event loop's default
executor. Python waits for that executor's threads twice on the way out
(when the event loop closes, and when the interpreter exits), so one call
that never returns would keep the server alive for ever. While serving, the
default executor is ``Workers``, whose shutdown does not wait; after the
event loop has closed, ``leave`` gives the threads still alive a moment and
then ends the process with ``os._exit``, after flushing stdout and stderr
(every answer is already on the wire: each send waits until it is written).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

__all__ = ["Workers", "leave"]

#: Seconds the threads still alive after the event loop closed get to finish before the process ends without them.
_THREAD_GRACE = 0.5


class Workers(ThreadPoolExecutor):
    """The event loop's default executor while serving: shutting it down never waits for a running call."""

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking calls and drop the queued ones; the running ones are left to ``leave``."""
        super().shutdown(wait=False, cancel_futures=True)


def leave(status: int) -> int:
    """``status`` once the other threads have ended; ``os._exit(status)`` if one still runs after a moment."""
    import os
    import sys
    import threading
    import time

    from toolcall._cli.stdio import flush_stdout

    deadline = time.monotonic() + _THREAD_GRACE
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():  # the interpreter would wait for it at exit: leave without it
                flush_stdout()
                if sys.stderr is not None:
                    sys.stderr.flush()
                os._exit(status)
    return status
