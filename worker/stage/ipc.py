"""Between the stage and its fit processes (worker.stage.pool, worker.stage.fitproc): frames.

Each side writes frames on a fit process's own Unix socket: a header (payload
length, little-endian u32, then the frame's kind) and the payload. The parent
sends a page (the admitted message body, as the broker delivered it, its
content coding undone) or a ping; the child answers each with a FitReply in
MessagePack: the page's output record already encoded (the parent moves its
bytes to the broker, never decodes or re-encodes it) with the few figures
the parent's metrics record, or what the fit raised, or that it is ready,
or a pong. Nothing crosses the boundary by pickle.
"""

from __future__ import annotations

import struct
from enum import IntEnum
from typing import Final

import msgspec

from worker.clean_page import WHOLE_PAGE, FallbackReason
from worker.schemas import Encoding

__all__ = [
    "ENCODING_FRAMES",
    "FRAME_ENCODINGS",
    "HEADER",
    "FitReply",
    "Fitted",
    "Frame",
    "OutOfMemory",
    "Pong",
    "Raised",
    "Ready",
    "decode_reply",
    "encode_reply",
    "unsent",
]

# A frame's header: payload length (little-endian u32), then its kind.
HEADER: Final = struct.Struct("<IB")


def unsent(header: bytes, payload: bytes, sent: int) -> list[bytes | memoryview]:
    """What a sendmsg of (header, payload) that took `sent` bytes left to send, in order
    (each side sends a frame's two parts in one call, from the bytes they are)."""
    if sent < len(header):
        return [header[sent:], payload] if payload else [header[sent:]]
    sent -= len(header)
    return [memoryview(payload)[sent:]] if sent < len(payload) else []


class Frame(IntEnum):
    """What a frame carries. Parent to child: a page (by its encoding) or a ping."""

    FIT_MSGPACK = 1
    FIT_JSON = 2
    PING = 3
    REPLY = 4  # child to parent: a FitReply


ENCODING_FRAMES: Final = {Encoding.MSGPACK: Frame.FIT_MSGPACK, Encoding.JSON: Frame.FIT_JSON}
FRAME_ENCODINGS: Final = {frame: encoding for encoding, frame in ENCODING_FRAMES.items()}


class Fitted(msgspec.Struct, tag="fitted", array_like=True, frozen=True):
    """A page fitted: its CleanPage, encoded as the input was, and the figures for metrics."""

    output: bytes
    fallback_reason: FallbackReason | None
    blocks_total: int
    blocks_kept: int
    fit_seconds: float
    confidence: float | None = None  # CleanPage.confidence (null when the record has none)
    page_type: str | None = None  # CleanPage.page_type (null when the record has none)

    @property
    def fallback(self) -> bool:
        return self.fallback_reason in WHOLE_PAGE


class Raised(msgspec.Struct, tag="raised", array_like=True, frozen=True):
    """The fit function raised (blockdensity promises it never does): what it raised."""

    error: str


class OutOfMemory(msgspec.Struct, tag="memory", array_like=True, frozen=True):
    """The fit needed more memory than a fit process may take (its limit, in bytes): the
    page fails, the process is recycled."""

    error: str
    limit: int


class Ready(msgspec.Struct, tag="ready", array_like=True, frozen=True):
    """A fit process has started and takes pages."""

    pid: int


class Pong(msgspec.Struct, tag="pong", array_like=True, frozen=True):
    """A fit process's answer to the watchdog's ping."""


FitReply = Fitted | Raised | OutOfMemory | Ready | Pong
_REPLY_ENCODER: Final = msgspec.msgpack.Encoder()
_REPLY_DECODER: Final = msgspec.msgpack.Decoder(FitReply)


def encode_reply(reply: FitReply) -> bytes:
    return _REPLY_ENCODER.encode(reply)


def decode_reply(data: bytes | bytearray | memoryview) -> FitReply:
    """A fit process's reply (our own bytes, from our own process: msgspec raises on a bug)."""
    return _REPLY_DECODER.decode(data)
