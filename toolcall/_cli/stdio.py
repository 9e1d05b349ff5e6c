"""The MCP server's stdio transport: stdin and stdout read and written by the event loop.

The SDK's ``stdio_server`` reads and writes the standard streams through
worker threads (``anyio.wrap_file``): each request and each answer costs
three thread hops, most of a round trip. When stdin and stdout are pipes or
sockets, as an MCP client starts a server, they are read and written by the
event loop itself instead; anything else (a terminal, a file, Windows) goes
through the SDK's transport. While serving, fd 0 is on the null device and
fd 1 on stderr, so a tool can neither read nor break a message.

On pipes every request line gets an answer: a line the SDK's parser refuses
is read again by ``toolcall._cli.refused_lines``. Once stdin closes, the
requests already read get ``_EOF_GRACE`` seconds to be answered.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio
    from collections.abc import AsyncIterator, Iterator

    from mcp.shared._stream_protocols import ReadStream, WriteStream
    from mcp.shared.message import SessionMessage

__all__ = ["flush_stdout", "stdio"]

#: The longest request line read from a pipe (64 MiB); a longer one is answered with a parse error.
_LINE_LIMIT = 64 << 20
#: Seconds the requests still running when stdin closes get to be answered before they are cancelled.
_EOF_GRACE = 2.0


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
        replies = _Replies(asyncio.StreamWriter(outgoing, protocol, None, loop))
        try:
            yield _Lines(reader, replies), replies
        finally:
            incoming.close()
            outgoing.close()


class _Lines:
    """stdin as the SDK's read stream: one JSON-RPC message per line.

    A line the SDK's parser refuses is read again by ``refused_lines``: it is
    dispatched after all, answered with a JSON-RPC error at once, or (a
    notification, a response) dropped. Once stdin is closed, the requests
    still running get ``_EOF_GRACE`` seconds to be answered before the end of
    the stream is reported (which cancels the rest).
    """

    def __init__(self, reader: asyncio.StreamReader, replies: _Replies) -> None:
        import anyio
        from mcp.shared.message import ServerMessageMetadata, SessionMessage
        from mcp.types import JSONRPCNotification, jsonrpc_message_adapter

        self._reader = reader
        self._replies = replies
        # Looked up once: receive runs for every message.
        self._parse = jsonrpc_message_adapter.validate_json
        self._build = jsonrpc_message_adapter.validate_python
        self._message = SessionMessage
        self._metadata = ServerMessageMetadata
        self._notification = JSONRPCNotification
        self._end = anyio.EndOfStream

    async def receive(self) -> SessionMessage | Exception:
        """The next message; ``anyio.EndOfStream`` once stdin is closed and the requests read are answered."""
        while True:
            line = await self._next_line()
            if line is None:
                await self._replies.unanswered.settle(_EOF_GRACE)
                raise self._end
            try:  # bytes, so that pydantic refuses a line that is not UTF-8 instead of replacing its bytes
                message: SessionMessage | None = self._message(self._parse(line, by_name=False))
            except Exception:
                message = await self._refused(line)
            else:  # the SDK reads a request whose id is not a string or an integer (1.5, null) as a notification
                if type(message.message) is self._notification and b'"id"' in line:  # type: ignore[union-attr]
                    message = await self._refused(line)
            if message is not None:
                self._replies.unanswered.read(message.message)
                return message

    async def _next_line(self) -> bytes | None:
        """The next line; ``None`` at the end of stdin. A line over ``_LINE_LIMIT`` is answered and skipped."""
        import asyncio

        while True:
            try:
                return await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as exc:  # the end of stdin, maybe after a last line without "\n"
                return exc.partial or None
            except asyncio.LimitOverrunError as exc:
                head = await self._reader.read(exc.consumed)
                await self._skip_line()
                from toolcall._cli.refused_lines import read_overlong

                await self._replies.send_data(read_overlong(head, _LINE_LIMIT).message)

    async def _skip_line(self) -> None:
        """Read on to the end of the current line (or of stdin), keeping nothing."""
        import asyncio

        while True:
            try:
                await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError:
                return
            except asyncio.LimitOverrunError as exc:
                await self._reader.read(exc.consumed)
            else:
                return

    async def _refused(self, line: bytes) -> SessionMessage | None:
        """The message of a line the SDK's parser refused, or ``None`` after answering it or dropping it."""
        from toolcall._cli.refused_lines import Answer, read_refused

        verdict = read_refused(line)
        if verdict is None:
            return None
        if isinstance(verdict, Answer):
            await self._replies.send_data(verdict.message)
            return None
        data = verdict.message
        try:  # python mode: the values stay as decoded, stand-ins and lone surrogates included
            message = self._build(data, by_name=False)
        except Exception:
            if "id" not in data:
                return None
            await self._replies.send_data(_invalid_request(data["id"]))
            return None
        # The tools/call handler finds the stand-ins by this mark; every other request has none.
        metadata = self._metadata(request_context=verdict) if verdict.stand_ins else None
        return self._message(message, metadata)

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


def _invalid_request(identifier: object) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": identifier, "error": {"code": -32600, "message": "Invalid Request"}}


class _Unanswered:
    """The requests read and not answered yet, by id: what stdin closing waits for."""

    def __init__(self) -> None:
        import asyncio
        from collections import Counter

        from mcp.shared.dispatcher import coerce_request_id
        from mcp.types import JSONRPCRequest

        self._ids: Counter[object] = Counter()
        self._none_left = asyncio.Event()
        self._none_left.set()
        self._key = coerce_request_id  # "7" and 7 are one request, as the SDK matches a cancellation
        self._request = JSONRPCRequest

    def read(self, message: object) -> None:
        """Count a request read; a ``notifications/cancelled`` lets its request go unanswered."""
        if isinstance(message, self._request):
            self._ids[self._key(message.id)] += 1
            self._none_left.clear()
        elif getattr(message, "method", None) == "notifications/cancelled":
            params = getattr(message, "params", None) or {}
            self._forget(params.get("requestId"), everyone=True)

    def answered(self, identifier: object) -> None:
        """Count an answer written for request ``identifier``."""
        self._forget(identifier, everyone=False)

    def _forget(self, identifier: object, *, everyone: bool) -> None:
        if type(identifier) not in (int, str):
            return
        key = self._key(identifier)  # type: ignore[arg-type]  # an int or a str: a request id
        if key in self._ids:
            self._ids[key] = 0 if everyone else self._ids[key] - 1
            if self._ids[key] <= 0:
                del self._ids[key]
        if not self._ids:
            self._none_left.set()

    async def settle(self, seconds: float) -> None:
        """Wait until every request read is answered, for at most ``seconds``."""
        import anyio

        with anyio.move_on_after(seconds):
            await self._none_left.wait()


class _Replies:
    """stdout as the SDK's write stream: one JSON-RPC message per line."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        import asyncio

        import anyio

        self._writer = writer
        # Concurrent answers take turns: before Python 3.12 only one task may wait in drain().
        self._turn = asyncio.Lock()
        self._broken = anyio.BrokenResourceError
        #: The requests read and not answered yet.
        self.unanswered = _Unanswered()

    async def send(self, item: SessionMessage, /) -> None:
        """Write ``item`` and wait until it is on the wire; ``anyio.BrokenResourceError`` once stdout is gone."""
        message = item.message
        try:
            data = message.model_dump_json(by_alias=True, exclude_unset=True).encode()
        except Exception:  # pydantic refuses a lone surrogate, which a request's id may hold: JSON escapes it
            data = json.dumps(message.model_dump(by_alias=True, exclude_unset=True), allow_nan=False).encode()
        await self._write(data + b"\n")
        identifier = getattr(message, "id", None)
        if identifier is not None and not hasattr(message, "method"):  # an answer, not a request of the server's
            self.unanswered.answered(identifier)

    async def send_data(self, message: dict[str, object]) -> None:
        """Write a JSON-RPC message given as JSON data (an error answering a line the SDK cannot read)."""
        await self._write(json.dumps(message).encode() + b"\n")

    async def _write(self, data: bytes) -> None:
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
