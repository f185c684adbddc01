"""The parent's end of one fit process's socket: frames out, replies in."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Final

from worker.stage.ipc import HEADER, FitReply, Frame, decode_reply, unsent

__all__ = ["SEND_BUFFER", "Channel"]

# A channel's read buffer: replies (an output record, 5-8 KB typically) are
# read into it; one larger grows it, and it is put back to this size after.
_READ_BUFFER: Final = 64 * 1024
_READ_BUFFER_KEPT: Final = 1024 * 1024

# The parent's send buffer on a child's socket (the kernel's default is about
# 200 KB): a page of up to this size (a little less) goes out in one call.
SEND_BUFFER: Final = 1024 * 1024


class Channel(asyncio.BufferedProtocol):
    """The parent's end of one child's socket: frames out, replies in.

    Out: a frame's header and body go to the kernel in one sendmsg, from the
    bytes they are (no concatenation, no second write); what the socket does
    not take at once goes through the transport's buffer. In: the transport
    reads into this channel's own buffer (recv_into), where replies are
    decoded in place: no bytes object a read, no concatenation.
    """

    def __init__(self, sock: socket.socket | None = None) -> None:
        self.on_reply: Callable[[FitReply], None] = lambda _reply: None
        self.on_lost: Callable[[], None] = lambda: None
        self.transport: asyncio.Transport | None = None
        # The socket the transport drives (the parent's end): written to
        # directly while the transport has nothing buffered.
        self._socket = sock
        self._buffer = bytearray(_READ_BUFFER)
        self._view = memoryview(self._buffer)
        self._start = 0  # the first byte of the frame not yet decoded
        self._end = 0  # the end of the bytes read

    def connection_lost(self, exc: Exception | None) -> None:
        # The child's end closed: it exited or died (or the parent closed ours).
        self.transport = None
        self.on_lost()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # noqa: S101 - a stream socket's
        self.transport = transport

    def send(self, frame: Frame, body: bytes = b"") -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        header = HEADER.pack(len(body), frame)
        sock = self._socket
        if sock is None or transport.get_write_buffer_size():
            # Behind what is buffered already: in order, through the transport.
            transport.write(header)
            if body:
                transport.write(body)
            return
        try:
            sent = sock.sendmsg((header, body) if body else (header,))
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            sent = 0  # the transport's own write meets the error and reports it
        # What the socket did not take waits in the transport's buffer, which
        # writes it when the socket can take more.
        for rest in unsent(header, body, sent):
            transport.write(rest)

    def get_buffer(self, sizehint: int) -> memoryview:
        view, start, end = self._view, self._start, self._end
        if end - start >= HEADER.size:
            wanted = HEADER.size + HEADER.unpack_from(view, start)[0]  # the frame being read
        else:
            wanted = HEADER.size
        if start + wanted > len(view):
            if wanted > len(view):
                # A reply larger than the buffer: a larger one, this frame's bytes moved over.
                grown = bytearray(max(wanted, 2 * len(view)))
                grown[: end - start] = view[start:end]
                self._buffer, self._view = grown, memoryview(grown)
            else:
                view[: end - start] = view[start:end]  # the frame's start to the front
            self._start, self._end = 0, end - start
        return self._view[self._end :]

    def buffer_updated(self, nbytes: int) -> None:
        view = self._view
        start, end = self._start, self._end + nbytes
        self._end = end
        while end - start >= HEADER.size:
            size, _kind = HEADER.unpack_from(view, start)
            frame_end = start + HEADER.size + size
            if frame_end > end:
                break
            self._start = frame_end
            self.on_reply(decode_reply(view[start + HEADER.size : frame_end]))
            start = frame_end
        if start == end:
            self._start = self._end = 0  # all decoded: the next read starts at the front
            if len(view) > _READ_BUFFER_KEPT:
                # A rare large reply grew it: not kept for the child's whole life.
                self._buffer = bytearray(_READ_BUFFER)
                self._view = memoryview(self._buffer)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
