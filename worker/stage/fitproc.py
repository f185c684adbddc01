"""A fit process: pages in over a socket, each one's output record out, until the socket closes.

The stage's pool (worker.stage.pool) starts several of these from a
forkserver and talks to each over its own Unix socket, in frames
(worker.stage.ipc). What the parent sends is the message body as the broker
delivered it (checked by worker.stage.intake already, its content coding
undone); this process decodes it into a FetchedPage, fits it, builds its
CleanPage and encodes that as the input was encoded. So the parent never
re-encodes a page for the pipe, never pickles, and never touches the output
record: it moves bytes.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pkgutil
import resource
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final, cast

from blockdensity import DEFAULT_CONF, Comments, Conf, Profile, fit_text
from worker.schemas import CleanPage, Encoding, FetchedPage, decode_page, encode_message
from worker.stage.clean_record import clean_page
from worker.stage.ipc import (
    FRAME_ENCODINGS,
    HEADER,
    FitReply,
    Fitted,
    Frame,
    OutOfMemory,
    Pong,
    Raised,
    Ready,
    encode_reply,
    unsent,
)

__all__ = [
    "FitFunction",
    "MarkdownOutput",
    "answer",
    "die_with_parent",
    "fit_page",
    "resolve_fit_function",
    "serve",
]

# What a fit process runs on each page; fit_page unless configured.
FitFunction = Callable[[FetchedPage[bytes] | FetchedPage[str]], CleanPage]


@dataclass(frozen=True, slots=True)
class MarkdownOutput:
    """What a record's Markdown holds besides the kept blocks (BLOCKDENSITY_FORMAT=markdown):
    their links as [text](url), their images as ![alt](src) (Conf.markdown_links and
    Conf.markdown_images; each makes the fit walk the page once more)."""

    links: bool = False
    images: bool = False


# The fit's configuration in this process, set once by `serve`.
_conf: Conf = DEFAULT_CONF
_blocks = False
_markdown = False


def fit_page(page: FetchedPage[bytes] | FetchedPage[str]) -> CleanPage:
    """Run the fit on one page and build its output record."""
    start = time.perf_counter()
    fit = fit_text(page.body, _conf, charset=page.charset, url=page.url)
    return clean_page(page, fit, time.perf_counter() - start, blocks=_blocks, markdown=_markdown)


def resolve_fit_function(path: str) -> FitFunction:
    """The function a `module:function` path names; `fit_page` for an empty path.

    A seam for tests and experiments (BLOCKDENSITY_FIT_FUNCTION, checked by
    worker.config): the test suite puts in a fit that crashes or hangs on
    marked pages. Inert unless set.
    """
    return cast("FitFunction", pkgutil.resolve_name(path)) if path else fit_page


_PR_SET_PDEATHSIG: Final = 1

# /proc/<pid>/oom_score_adj of a fit process, and of the forkserver: when a
# pod's memory runs out, the kernel's OOM killer takes a fit process first
# (its page alone fails), then the forkserver (replaced, with its fit
# processes), never the worker, which holds every page in flight (0, the
# default: only a privileged process may go lower).
_FIT_OOM_SCORE: Final = 1000
FORKSERVER_OOM_SCORE: Final = 900

# The buffer pages are read into: its first size, and the largest kept.
_FIRST_BUFFER: Final = 256 * 1024
_KEPT_BUFFER: Final = 1024 * 1024

# This process's data limit beyond its size at start, in bytes (0: none).
_memory_limit = 0


def be_killed_first(score: int) -> None:
    """Ask the kernel's OOM killer to choose this process before others (Linux)."""
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as adj:
        adj.write(str(score))


def limit_data(extra: int) -> int:
    """Limit this process's data (heap and anonymous mappings, RLIMIT_DATA) to its size now
    plus `extra` bytes; 0: no limit. Returns the limit set, in bytes (0 if none)."""
    if extra <= 0:
        return 0
    try:
        with open("/proc/self/status", "rb") as status:
            data = next(line for line in status if line.startswith(b"VmData:"))
        now = int(data.split()[1]) * 1024
        limit = now + extra
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (OSError, ValueError, StopIteration):
        return 0  # no such limit here: the pod's, and the OOM killer's order, remain
    return limit


def die_with_parent() -> None:
    """Ask the kernel (Linux) for SIGKILL when this process's parent goes."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def serve(  # noqa: PLR0913, PLR0917 - a fit process's settings, handed over by position (Process args)
    channel: socket.socket,
    profile: Profile,
    comments: Comments,
    blocks: bool,
    function: FitFunction,
    memory_limit: int = 0,
    markdown: MarkdownOutput | None = None,
) -> None:
    """A fit process's whole life: say ready, then answer frames until the parent closes.

    `memory_limit`: how many bytes the process's data may grow by beyond its
    size at start (0: no limit); a page that needs more fails alone
    (OutOfMemory) instead of the kernel's OOM killer choosing a process.
    `markdown`: each record holds the text as Markdown too (BLOCKDENSITY_FORMAT), with
    its links and images as asked; None: text alone.
    """
    global _conf, _blocks, _markdown, _memory_limit  # noqa: PLW0603 - one per process, set once
    die_with_parent()  # no fit process outlives the forkserver
    be_killed_first(_FIT_OOM_SCORE)
    _memory_limit = limit_data(memory_limit)
    # Ctrl-C in a terminal signals the whole process group: the worker decides
    # when its fit processes stop (by closing their sockets), not the keyboard.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _conf = replace(DEFAULT_CONF, profile=profile, comments=comments)
    if markdown is not None:
        _conf = replace(_conf, markdown_links=markdown.links, markdown_images=markdown.images)
    _blocks = blocks
    _markdown = markdown is not None
    channel.setblocking(True)
    # A reset socket is the parent closing it with a ping's answer unread (at
    # shutdown): the same as a clean close, the end of this process's work.
    with contextlib.suppress(ConnectionError), channel:
        _send(channel, Ready(pid=os.getpid()))
        header = bytearray(HEADER.size)
        header_view = memoryview(header)
        # Pages are read into one buffer, kept from page to page; a page
        # larger than _KEPT_BUFFER is read into a buffer of its own, freed
        # once the page is decoded.
        kept = bytearray(_FIRST_BUFFER)
        while _read_exactly(channel, header_view):
            size, kind = HEADER.unpack(header)
            if size > len(kept) and size <= _KEPT_BUFFER:
                kept = bytearray(max(size, 2 * len(kept)))
            buffer = kept if size <= len(kept) else bytearray(size)
            with memoryview(buffer)[:size] as payload:
                if not _read_exactly(channel, payload):
                    break
                if kind == Frame.PING:
                    reply: FitReply = Pong()
                else:
                    reply = answer(payload, FRAME_ENCODINGS[Frame(kind)], function)
            del buffer  # a large page's memory back before the answer is encoded
            _send(channel, reply)


def answer(
    body: bytes | bytearray | memoryview, encoding: Encoding, function: FitFunction
) -> FitReply:
    """What a fit process answers to one message body: its encoded output record, or the error."""
    try:
        page = decode_page(body, encoding)  # admitted by the parent: this cannot refuse it
        clean = function(page)
        return Fitted(
            output=encode_message(clean, encoding),
            fallback_reason=clean.fallback_reason,
            blocks_total=clean.blocks_total,
            blocks_kept=clean.blocks_kept,
            fit_seconds=clean.fit_seconds,
            confidence=clean.confidence,
            page_type=clean.page_type,
        )
    except MemoryError as error:
        # Past the process's limit (or the machine's): the page's memory is
        # free again once this frame is gone; the parent recycles the process.
        return OutOfMemory(error=f"{type(error).__name__}: {error}", limit=_memory_limit)
    except Exception as error:  # noqa: BLE001 - reported to the parent, which requeues the page
        return Raised(error=f"{type(error).__name__}: {error}")


def _send(channel: socket.socket, reply: FitReply) -> None:
    payload = encode_reply(reply)
    header = HEADER.pack(len(payload), Frame.REPLY)
    # One call, no concatenation; a reply the socket does not take whole
    # (larger than its buffer) is finished by sendall.
    for rest in unsent(header, payload, channel.sendmsg((header, payload))):
        channel.sendall(rest)


def _read_exactly(channel: socket.socket, into: memoryview) -> bool:
    """Fill `into` from the socket; False if it closed first (the parent is done with us)."""
    while into:
        count = channel.recv_into(into)
        if count == 0:
            return False
        into = into[count:]
    return True
