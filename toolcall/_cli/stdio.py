"""The MCP server's stdio transport: stdin and stdout read and written by the event loop.

The SDK's ``stdio_server`` reads and writes the standard streams through
worker threads (``anyio.wrap_file``): each request and each answer costs
three thread hops, most of a round trip. When stdin and stdout are pipes or
sockets, as an MCP client starts a server, they are read and written by the
event loop itself instead; anything else (a terminal, a file, Windows) goes
through the SDK's transport. While serving, fd 0 is on the null device and
fd 1 on stderr, so a tool can neither read nor break a message.
"""

from __future__ import annotations

from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio
    from collections.abc import AsyncIterator, Iterator

    from mcp.shared._stream_protocols import ReadStream, WriteStream
    from mcp.shared.message import SessionMessage

__all__ = ["flush_stdout", "stdio"]

#: The longest request line read from a pipe (64 MiB); a longer one is dropped like any line that is not JSON-RPC.
_LINE_LIMIT = 64 << 20


@asynccontextmanager
async def stdio() -> AsyncIterator[tuple[ReadStream[SessionMessage | Exception], WriteStream[SessionMessage]]]:
    """The server's streams over stdin and stdout, with fds 0 and 1 kept from anything else."""
    if not _on_pipes():
        from mcp.server.stdio import stdio_server

        async with stdio_server() as streams:
            yield streams
        return
    import asyncio

    loop = asyncio.get_running_loop()
    with (
        _claimed() as (wire_in, wire_out),
        open(wire_in, "rb", buffering=0, closefd=False) as pipe_in,
        open(wire_out, "wb", buffering=0, closefd=False) as pipe_out,
    ):
        reader = asyncio.StreamReader(limit=_LINE_LIMIT)
        incoming, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe_in)
        outgoing, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, pipe_out)
        # Each answer is on the wire before its send returns, as the SDK's transport flushes each one.
        outgoing.set_write_buffer_limits(0)
        try:
            yield _Lines(reader), _Replies(asyncio.StreamWriter(outgoing, protocol, None, loop))
        finally:
            incoming.close()
            outgoing.close()


class _Lines:
    """stdin as the SDK's read stream: one JSON-RPC message per line, or the ``Exception`` a bad line raised."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        import anyio
        from mcp.shared.message import SessionMessage
        from mcp.types import jsonrpc_message_adapter

        self._reader = reader
        # Looked up once: receive runs for every message.
        self._parse = jsonrpc_message_adapter.validate_json
        self._message = SessionMessage
        self._end = anyio.EndOfStream

    async def receive(self) -> SessionMessage | Exception:
        """The next message; ``anyio.EndOfStream`` once stdin is closed."""
        try:
            line = await self._reader.readline()
        except ValueError as exc:  # longer than _LINE_LIMIT: dropped, as any line that is not a message
            return exc
        if not line:
            raise self._end
        try:  # decoded as the SDK's transport does (U+FFFD for bytes that are not UTF-8)
            return self._message(self._parse(line.decode("utf-8", "replace"), by_name=False))
        except Exception as exc:  # the SDK's dispatcher logs it at debug level and reads on
            return exc

    async def aclose(self) -> None:
        """Nothing to do: ``stdio`` closes the pipe."""

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except self._end:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _Lines:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


class _Replies:
    """stdout as the SDK's write stream: one JSON-RPC message per line."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        import asyncio

        import anyio

        self._writer = writer
        # Concurrent answers take turns: before Python 3.12 only one task may wait in drain().
        self._turn = asyncio.Lock()
        self._broken = anyio.BrokenResourceError

    async def send(self, item: SessionMessage, /) -> None:
        """Write ``item`` and wait until it is on the wire; ``anyio.BrokenResourceError`` once stdout is gone."""
        data = item.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
        async with self._turn:
            if self._writer.transport.is_closing():  # writing would only log asyncio's own warnings
                raise self._broken
            self._writer.write(data)
            try:
                await self._writer.drain()
            except ConnectionError as exc:  # the client closed its end
                raise self._broken from exc

    async def aclose(self) -> None:
        """Nothing to do: ``stdio`` closes the pipe."""

    async def __aenter__(self) -> _Replies:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def _on_pipes() -> bool:
    """Whether fds 0 and 1 are both pipes or sockets, on a system where the event loop can read them."""
    import os
    import stat
    import sys

    if sys.platform == "win32":
        return False
    try:
        modes = [os.fstat(fd).st_mode for fd in (0, 1)]
    except OSError:
        return False
    return all(stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) for mode in modes)


@contextmanager
def _claimed() -> Iterator[tuple[int, int]]:
    """Private copies of fds 0 and 1 for the wire, with 0 on the null device and 1 on stderr meanwhile.

    A tool that reads stdin then sees an end of file, and what it prints goes
    to stderr: neither can take or break a message. Both are put back after.
    """
    import fcntl
    import os

    flush_stdout()
    wire_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    wire_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
        yield wire_in, wire_out
    finally:
        os.close(null)
        flush_stdout()  # what tools printed goes to stderr, not onto the wire once fd 1 is back
        for fd, wire in ((0, wire_in), (1, wire_out)):
            os.set_blocking(wire, True)  # the event loop made the pipe non-blocking
            os.dup2(wire, fd)
            os.close(wire)


def flush_stdout() -> None:
    """Flush ``sys.stdout``, if there is one that can be flushed."""
    import sys
    from contextlib import suppress

    with suppress(AttributeError, OSError, ValueError):  # no stdout, or a closed one
        sys.stdout.flush()
