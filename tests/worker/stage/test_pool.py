"""The fit's process pool: the same results as in-process, and crashes blamed on their page only."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import socket
from collections.abc import Awaitable, Callable

import msgspec
import pytest

from blockdensity import Comments, fit_text
from devkit.faults import HANG_SIGNAL, SLOW_MARKER, dies_on_arrival, fit_page_with_markers
from devkit.messages import sample_pages
from devkit.procs import children
from worker.clean_page import FallbackReason
from worker.schemas import CleanPage, Encoding, FetchedPage, encode_message
from worker.stage.channel import Channel
from worker.stage.fitproc import FitFunction, MarkdownOutput, fit_page, resolve_fit_function
from worker.stage.ipc import HEADER, FitReply, Fitted, Frame, Pong, Raised, encode_reply
from worker.stage.outcome import Outcome, RestartReason
from worker.stage.pool import (
    FitCrashedError,
    FitPool,
    FitPoolStartError,
    FitTimeoutError,
)

# Fit timeouts of 0.5-5 s and restarts counted within 1.5 s.
pytestmark = pytest.mark.serial


def _page(body: bytes, charset: str | None = None) -> FetchedPage[bytes]:
    return FetchedPage(url="https://example.org/p", body=body, charset=charset, fetch_id="f1")


async def _fit(pool: FitPool, page: FetchedPage[bytes]) -> CleanPage:
    """A page through the pool as the handler sends it (a MessagePack body), decoded back."""
    fitted = await pool.fit(encode_message(page, Encoding.MSGPACK), Encoding.MSGPACK)
    clean = msgspec.msgpack.decode(fitted.output, type=CleanPage)
    # The figures for the parent's metrics are the record's own.
    assert (fitted.fallback_reason, fitted.blocks_total, fitted.blocks_kept) == (
        clean.fallback_reason,
        clean.blocks_total,
        clean.blocks_kept,
    )
    assert fitted.fit_seconds == clean.fit_seconds
    return clean


async def _with_pool(
    test: Callable[[FitPool], Awaitable[None]],
    *,
    timeout: float = 30.0,  # the fit timeout: generous, a loaded machine is no timeout
    max_tasks: int = 0,
    function: FitFunction = fit_page,
    comments: Comments = Comments.SEPARATE,
    markdown: MarkdownOutput | None = None,
    recycle_memory: int = 0,
    on_restart: Callable[[RestartReason], None] = lambda _reason: None,
) -> int:
    """Run `test` with a pool of 2; return how many children were replaced."""
    restarts: list[int] = []

    def restarted(reason: RestartReason) -> None:
        restarts.append(1)
        on_restart(reason)

    pool = FitPool(
        size=2,
        timeout=timeout,
        max_tasks=max_tasks,
        function=function,
        comments=comments,
        markdown=markdown,
        on_restart=restarted,
        recycle_memory=recycle_memory,
    )
    pool.start()
    try:
        await pool.warm_up()
        await test(pool)
    finally:
        await pool.close()
    return len(restarts)


def test_fit_page_builds_the_output_record() -> None:
    page = sample_pages()[0].raw
    result = fit_page(_page(page))
    fit = fit_text(page, url="https://example.org/p")  # as _page gives it
    assert (result.text, result.title, result.lang) == (fit.text, fit.title, fit.lang)
    assert (result.blocks_total, result.blocks_kept, result.words_kept) == (
        fit.blocks_total,
        fit.blocks_kept,
        fit.words_kept,
    )
    assert result.fit_seconds > 0
    assert (result.url, result.fetch_id) == ("https://example.org/p", "f1")


async def test_results_equal_the_in_process_fit() -> None:
    pages = sample_pages()

    async def run(pool: FitPool) -> None:
        assert (pool.ready_processes, pool.live_processes) == (2, 2)
        results = await asyncio.gather(*(_fit(pool, _page(page.raw)) for page in pages))
        for page, result in zip(pages, results, strict=True):
            fit = fit_text(page.raw, url="https://example.org/p")  # as _page gives it
            assert result.text == fit.text
            assert result.title == fit.title
            assert result.fallback_reason is None

    assert await _with_pool(run) == 0


def _words(prefix: str, count: int) -> str:
    """`count` distinct words: a00 a01 ..."""
    return " ".join(f"{prefix}{n:02d}" for n in range(count))


COMMENTED = (
    f"<html><body><article><h1>Head line</h1><p>{_words('a', 40)}</p></article>"
    f'<div class="comments"><p>{_words("c", 30)}</p></div></body></html>'
).encode()


@pytest.mark.parametrize("comments", list(Comments))
async def test_the_comments_setting_reaches_the_fit(comments: Comments) -> None:
    async def run(pool: FitPool) -> None:
        result = await _fit(pool, _page(COMMENTED))
        assert ("c01" in result.text) is (comments is Comments.INCLUDE)
        assert (result.comments is None) is (comments is Comments.DROP)
        assert result.text.startswith("Head line\na00")

    await _with_pool(run, comments=comments)


LINKED = (
    f"<html><body><article><h1>Head line</h1><p>{_words('a', 40)}"
    f' <a href="/more">read more of it</a> {_words("b", 40)}</p>'
    f'<p><img src="pic.png" alt="A picture"> {_words("d", 40)}</p></article></body></html>'
).encode()


@pytest.mark.parametrize(
    "markdown",
    [None, MarkdownOutput(), MarkdownOutput(links=True), MarkdownOutput(images=True)],
)
async def test_the_markdown_settings_reach_the_fit(markdown: MarkdownOutput | None) -> None:
    async def run(pool: FitPool) -> None:
        result = await _fit(pool, _page(LINKED))
        if markdown is None:
            assert result.markdown is None
            return
        assert result.markdown is not None
        assert result.markdown.startswith("# Head line\n")
        link = "[read more of it](https://example.org/more)"
        image = "![A picture](https://example.org/pic.png)"
        assert (link in result.markdown) is markdown.links
        assert ("read more of it" in result.markdown) is True
        assert (image in result.markdown) is markdown.images

    await _with_pool(run, markdown=markdown)


async def test_charset_reaches_the_fit() -> None:
    body = "<html><body><p>Grüße aus Köln, eine Stadt am Rhein.</p></body></html>"

    async def run(pool: FitPool) -> None:
        result = await _fit(pool, _page(body.encode("latin-1"), "iso-8859-1"))
        assert "Grüße aus Köln" in result.text

    await _with_pool(run)


async def test_fallback_reason_comes_back_as_the_enum() -> None:
    async def run(pool: FitPool) -> None:
        result = await _fit(pool, _page(b"<html><body></body></html>"))
        assert result.fallback_reason is FallbackReason.NO_TEXT
        assert result.fallback

    await _with_pool(run)


@pytest.mark.parametrize(
    ("marker", "complaint"),
    [
        (b"BLOCKDENSITY-TEST-SIGKILL", "killed by SIGKILL"),
        (b"BLOCKDENSITY-TEST-SEGFAULT", "killed by SIGSEGV"),
        (b"BLOCKDENSITY-TEST-EXIT", "exit status 70"),
    ],
)
async def test_a_crash_fails_only_its_page(marker: bytes, complaint: str) -> None:
    good = [page.raw for page in sample_pages()]

    async def run(pool: FitPool) -> None:
        bad = _fit(pool, _page(b"<p>" + marker + b"</p>"))
        results = await asyncio.gather(
            *(_fit(pool, _page(page)) for page in good), bad, return_exceptions=True
        )
        *fine, crashed = results
        assert isinstance(crashed, FitCrashedError)
        assert complaint in str(crashed)
        assert crashed.reason is Outcome.CRASHED
        assert all(not isinstance(result, BaseException) for result in fine)
        # The pool has its children back.
        assert (await _fit(pool, _page(good[0]))).title

    assert await _with_pool(run, function=fit_page_with_markers) == 1


async def test_a_hang_is_killed_at_the_timeout_and_replaced() -> None:
    async def run(pool: FitPool) -> None:
        hung = _fit(pool, _page(b"BLOCKDENSITY-TEST-HANG"))
        fine = _fit(pool, _page(sample_pages()[0].raw))
        results = await asyncio.gather(hung, fine, return_exceptions=True)
        assert isinstance(results[0], FitTimeoutError)
        assert results[0].reason is Outcome.TIMEOUT
        assert "0.5 s timeout" in str(results[0])
        assert not isinstance(results[1], BaseException)
        assert (await _fit(pool, _page(b"<title>after</title>"))).title == "after"

    assert await _with_pool(run, function=fit_page_with_markers, timeout=0.5) == 1


async def test_markers_are_inert_in_the_real_fit() -> None:
    async def run(pool: FitPool) -> None:
        result = await _fit(pool, _page(b"<p>BLOCKDENSITY-TEST-SIGKILL</p>"))
        assert "BLOCKDENSITY-TEST-SIGKILL" in result.text

    assert await _with_pool(run) == 0


async def test_children_are_recycled() -> None:
    pages = [page.raw for page in sample_pages()] * 2

    async def run(pool: FitPool) -> None:
        first = _fit_processes()
        results = await asyncio.gather(*(_fit(pool, _page(page)) for page in pages))
        assert all(result.title for result in results)
        await _until(lambda: len(_fit_processes()) == 2)
        assert not set(first) & set(_fit_processes())

    # Each child exits after one page; recycling is not a restart.
    assert await _with_pool(run, max_tasks=1) == 0


@pytest.mark.parametrize(("bound", "recycled"), [(1, True), (1 << 40, False)])
async def test_a_fit_process_past_the_resident_bound_is_recycled(
    bound: int, recycled: bool
) -> None:
    """The resident size (read after every page) past BLOCKDENSITY_FIT_RECYCLE_MEMORY
    replaces the process (counted as a memory restart); under it, the process stays."""
    pages = [page.raw for page in sample_pages()][:4]
    reasons: list[RestartReason] = []

    async def run(pool: FitPool) -> None:
        first = _fit_processes()
        for page in pages:  # one at a time: each page's reply is read before the next
            assert (await _fit(pool, _page(page))).title
        await _until(lambda: len(_fit_processes()) == 2)
        assert bool(set(first) - set(_fit_processes())) is recycled

    await _with_pool(run, recycle_memory=bound, on_restart=reasons.append)
    assert reasons == ([RestartReason.MEMORY] * len(pages) if recycled else [])


def _fit_processes() -> list[int]:
    """The pool's children: the processes the forkserver (a child of ours) forked."""
    return [pid for child in children(os.getpid()) for pid in children(child)]


async def _watched(
    test: Callable[[FitPool, list[RestartReason]], Awaitable[None]],
) -> list[RestartReason]:
    restarts: list[RestartReason] = []
    pool = FitPool(
        size=2, timeout=2, max_tasks=0, function=fit_page_with_markers, on_restart=restarts.append
    )
    pool.start()
    watchdog = None
    try:
        await pool.warm_up()
        watchdog = asyncio.create_task(pool.watch(0.2))
        await test(pool, restarts)
    finally:
        if watchdog is not None:
            watchdog.cancel()
        await pool.close()
    return restarts


async def _until(condition: Callable[[], bool], timeout: float = 10) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)


async def test_a_fit_process_stopped_while_idle_is_replaced() -> None:
    async def run(pool: FitPool, restarts: list[RestartReason]) -> None:
        before = _fit_processes()
        assert len(before) == 2
        os.kill(before[0], signal.SIGSTOP)
        await _until(lambda: RestartReason.STOPPED in restarts)
        # Only the stopped child is replaced; its sibling stays.
        await _until(lambda: before[0] not in _fit_processes() and len(_fit_processes()) == 2)
        assert before[1] in _fit_processes()
        results = await asyncio.gather(*(_fit(pool, _page(page.raw)) for page in sample_pages()))
        assert all(result.title for result in results)
        await _until(lambda: len(_fit_processes()) == 2)

    assert await _watched(run) == [RestartReason.STOPPED]


async def test_a_fit_process_stuck_while_idle_is_replaced_after_three_pings() -> None:
    async def run(pool: FitPool, restarts: list[RestartReason]) -> None:
        # Both children fit a page each (so both have the hang armed)...
        await asyncio.gather(*(_fit(pool, _page(b"<p>" + SLOW_MARKER.encode())) for _ in range(2)))
        before = _fit_processes()
        # ...then one hangs between pages: sleeping, not stopped.
        os.kill(before[1], HANG_SIGNAL)
        await _until(lambda: RestartReason.UNRESPONSIVE in restarts)
        await _until(lambda: before[1] not in _fit_processes())
        assert before[0] in _fit_processes()
        assert (await _fit(pool, _page(b"<title>after</title>"))).title == "after"

    assert await _watched(run) == [RestartReason.UNRESPONSIVE]


async def test_busy_fit_processes_are_not_pinged_away() -> None:
    async def run(pool: FitPool, restarts: list[RestartReason]) -> None:
        # Pages of 0.2 s each, back to back for ~3 s: busy, never unresponsive.
        page = _page(b"<p>" + SLOW_MARKER.encode())
        for _ in range(8):
            await asyncio.gather(_fit(pool, page), _fit(pool, page))
        assert restarts == []

    assert await _watched(run) == []


def test_the_fit_function_seam_is_inert_unless_set() -> None:
    assert resolve_fit_function("") is fit_page
    assert resolve_fit_function("devkit.faults:fit_page_with_markers") is fit_page_with_markers


async def test_a_json_message_is_answered_in_json() -> None:
    page = FetchedPage(
        url="https://example.org/j", body="<title>Grüße</title><p>Köln am Rhein.</p>"
    )

    async def run(pool: FitPool) -> None:
        fitted = await pool.fit(encode_message(page, Encoding.JSON), Encoding.JSON)
        clean = msgspec.json.decode(fitted.output, type=CleanPage)
        assert (clean.url, clean.title) == ("https://example.org/j", "Grüße")
        assert "Köln am Rhein." in clean.text

    assert await _with_pool(run) == 0


async def test_a_fit_that_raises_fails_its_page_and_keeps_its_process() -> None:
    async def run(pool: FitPool) -> None:
        before = _fit_processes()
        # A body the child cannot decode as a FetchedPage: the parent admits
        # every page before it gets here, so this stands for a bug in the fit.
        with pytest.raises(FitCrashedError, match="fit raised"):
            await pool.fit(b"\xc1", Encoding.MSGPACK)
        assert (await _fit(pool, _page(b"<title>after</title>"))).title == "after"
        assert _fit_processes() == before

    assert await _with_pool(run) == 0


async def test_a_fit_process_dying_while_idle_is_replaced() -> None:
    async def run(pool: FitPool, restarts: list[RestartReason]) -> None:
        before = _fit_processes()
        os.kill(before[0], signal.SIGKILL)  # as the OOM killer does, between pages
        await _until(lambda: restarts == [RestartReason.CRASHED])
        await _until(lambda: len(_fit_processes()) == 2)
        results = await asyncio.gather(*(_fit(pool, _page(page.raw)) for page in sample_pages()))
        assert all(result.title for result in results)

    assert await _watched(run) == [RestartReason.CRASHED]


async def test_a_caller_cancelled_while_waiting_costs_no_process() -> None:
    async def run(pool: FitPool) -> None:
        slow = _page(b"<p>" + SLOW_MARKER.encode())
        busy = [asyncio.ensure_future(_fit(pool, slow)) for _ in range(2)]
        await asyncio.sleep(0.05)
        waiting = asyncio.ensure_future(_fit(pool, _page(b"<title>never</title>")))
        await asyncio.sleep(0.05)
        waiting.cancel()
        await asyncio.gather(*busy)
        assert waiting.cancelled()
        assert (await _fit(pool, _page(b"<title>after</title>"))).title == "after"

    assert await _with_pool(run, function=fit_page_with_markers) == 0


async def test_close_waits_for_running_fits_then_stops_every_process() -> None:
    pool = FitPool(size=2, timeout=5, max_tasks=0, function=fit_page_with_markers)
    pool.start()
    await pool.warm_up()
    assert len(_fit_processes()) == 2
    running = asyncio.ensure_future(
        _fit(pool, _page(b"<title>slow</title><p>" + SLOW_MARKER.encode()))
    )
    await asyncio.sleep(0.05)
    await pool.close()
    assert (await running).title == "slow"
    assert _fit_processes() == []
    with pytest.raises(RuntimeError, match="after close"):
        await pool.fit(b"", Encoding.MSGPACK)


async def test_a_fit_process_that_dies_before_it_is_ready_is_retried_slowly() -> None:
    restarts: list[RestartReason] = []
    pool = FitPool(
        size=1, timeout=5, max_tasks=0, function=dies_on_arrival, on_restart=restarts.append
    )
    pool.start()
    try:
        await asyncio.sleep(1.5)
        # A pause between the attempts, not a loop as fast as fork allows.
        assert 1 <= len(restarts) <= 3
        assert set(restarts) == {RestartReason.BROKEN}
        assert pool.ready_processes == 0
        with pytest.raises(FitPoolStartError, match=r"no fit process was ready after 0.5 s"):
            await pool.warm_up(0.5)
    finally:
        await pool.close()
    assert _fit_processes() == []


async def test_no_page_goes_to_a_fit_process_once_it_is_killed() -> None:
    restarts: list[RestartReason] = []
    pool = FitPool(size=1, timeout=5, max_tasks=0, on_restart=restarts.append)
    pool.start()
    try:
        await pool.warm_up()
        (child,) = pool._children  # the watchdog's kill, without its timing
        pool._kill(child, RestartReason.STOPPED)
        # Asked at once, before the kill's exit is seen: the page waits for the
        # replacement instead of failing with the killed process.
        assert (await _fit(pool, _page(b"<title>after</title>"))).title == "after"
        assert restarts == [RestartReason.STOPPED]
    finally:
        await pool.close()


# ------------------------------------------------------------------- the channel's frames


async def test_a_page_dispatched_later_on_the_same_child_gets_its_whole_timeout() -> None:
    # One timer a child: set for the first page's deadline, it must be set
    # again for a later page's own when it fires, not kill that page early.
    timeout = 1.5
    pool = FitPool(size=1, timeout=timeout, max_tasks=0, function=fit_page_with_markers)
    pool.start()
    try:
        await pool.warm_up()
        for _ in range(2):  # 0.4 s into the first page's timeout
            await _fit(pool, _page(f"<p>{SLOW_MARKER}</p>".encode()))
        loop = asyncio.get_running_loop()
        dispatched = loop.time()
        with pytest.raises(FitTimeoutError):
            await _fit(pool, _page(b"BLOCKDENSITY-TEST-HANG"))
        assert loop.time() - dispatched >= timeout * 0.99  # a lower bound: never early
    finally:
        await pool.close()


async def _channel_pair() -> tuple[Channel, socket.socket, list[object]]:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    channel = Channel(ours)
    replies: list[object] = []
    channel.on_reply = replies.append
    await asyncio.get_running_loop().connect_accepted_socket(lambda: channel, ours)
    return channel, theirs, replies


async def test_replies_are_decoded_whatever_the_reads_cut_them_into() -> None:
    channel, theirs, replies = await _channel_pair()
    sent: list[FitReply] = [
        Pong(),
        Fitted(b"x" * 100, None, 1, 1, 0.5),
        Fitted(bytes(range(256)) * 1200, next(iter(FallbackReason)), 2, 0, 0.25),  # > the buffer
        Raised("ValueError: no"),
        Fitted(os.urandom(1_500_000), None, 3, 3, 1.0),  # grows it past what is kept
        Pong(),
    ]
    stream = b"".join(
        HEADER.pack(len(payload), Frame.REPLY) + payload for payload in map(encode_reply, sent)
    )
    with theirs:
        theirs.setblocking(False)
        for start, size in zip(range(0, len(stream), 7919), itertools.cycle((1, 3, 7919))):
            await asyncio.get_running_loop().sock_sendall(theirs, stream[start : start + size])
            await asyncio.get_running_loop().sock_sendall(
                theirs, stream[start + size : start + 7919]
            )
            await asyncio.sleep(0)
        await _until(lambda: len(replies) == len(sent))
    assert replies == sent
    channel.close()


async def test_frames_out_arrive_whole_and_in_order_past_the_socket_buffer() -> None:
    channel, theirs, _ = await _channel_pair()
    large = os.urandom(6 << 20)  # more than the socket takes at once: the rest is buffered
    channel.send(Frame.FIT_MSGPACK, large)
    channel.send(Frame.PING)
    channel.send(Frame.FIT_JSON, b"{}")
    expected = (
        HEADER.pack(len(large), Frame.FIT_MSGPACK)
        + large
        + HEADER.pack(0, Frame.PING)
        + HEADER.pack(2, Frame.FIT_JSON)
        + b"{}"
    )
    received = bytearray()
    loop = asyncio.get_running_loop()
    with theirs:
        theirs.setblocking(False)
        while len(received) < len(expected):
            received += await loop.sock_recv(theirs, 1 << 20)
    assert bytes(received) == expected
    channel.close()
