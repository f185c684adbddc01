"""The fit's process pool: the same results as in-process, and crashes blamed on their page only."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from blockdensity import fit_text
from worker.pool import FitCrashedError, FitPool, FitTimeoutError, fit_page

from .conftest import sample_pages


async def _with_pool(
    test: Callable[[FitPool], Awaitable[None]],
    *,
    timeout: float = 5.0,
    max_tasks: int = 0,
    hook: str = "",
) -> int:
    """Run `test` with a pool of 2; return how many children were replaced."""
    restarts: list[int] = []
    pool = FitPool(
        size=2,
        timeout=timeout,
        max_tasks=max_tasks,
        hook=hook,
        on_restart=lambda: restarts.append(1),
    )
    pool.start()
    try:
        await test(pool)
    finally:
        await pool.close()
    return len(restarts)


def test_fit_page_is_plain_picklable_data() -> None:
    import pickle  # noqa: PLC0415 - only here

    page = sample_pages()[0].raw
    result = fit_page(page, None)
    fit = fit_text(page)
    assert pickle.loads(pickle.dumps(result)) == result  # noqa: S301 - our own bytes
    assert (result.text, result.title, result.lang) == (fit.text, fit.title, fit.lang)
    assert (result.blocks_total, result.blocks_kept, result.words_kept) == (
        fit.blocks_total,
        fit.blocks_kept,
        fit.words_kept,
    )
    assert result.fit_seconds > 0


async def test_results_equal_the_in_process_fit() -> None:
    pages = sample_pages()

    async def run(pool: FitPool) -> None:
        results = await asyncio.gather(*(pool.fit(page.raw, None) for page in pages))
        for page, result in zip(pages, results, strict=True):
            fit = fit_text(page.raw)
            assert result.text == fit.text
            assert result.title == fit.title
            assert result.fallback_reason is None

    assert await _with_pool(run) == 0


async def test_charset_reaches_the_fit() -> None:
    body = "<html><body><p>Grüße aus Köln, eine Stadt am Rhein.</p></body></html>"

    async def run(pool: FitPool) -> None:
        result = await pool.fit(body.encode("latin-1"), "iso-8859-1")
        assert "Grüße aus Köln" in result.text

    await _with_pool(run)


async def test_fallback_reason_comes_back_as_its_label() -> None:
    async def run(pool: FitPool) -> None:
        result = await pool.fit(b"<html><body></body></html>", None)
        assert result.fallback_reason == "no_text"

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
        bad = pool.fit(b"<p>" + marker + b"</p>", None)
        results = await asyncio.gather(
            *(pool.fit(page, None) for page in good), bad, return_exceptions=True
        )
        *fine, crashed = results
        assert isinstance(crashed, FitCrashedError)
        assert complaint in str(crashed)
        assert crashed.reason == "crashed"
        assert all(not isinstance(result, BaseException) for result in fine)
        # The pool has its children back.
        assert (await pool.fit(good[0], None)).title

    assert await _with_pool(run, hook="markers") == 1


async def test_a_hang_is_killed_at_the_timeout_and_replaced() -> None:
    async def run(pool: FitPool) -> None:
        hung = pool.fit(b"BLOCKDENSITY-TEST-HANG", None)
        fine = pool.fit(sample_pages()[0].raw, None)
        results = await asyncio.gather(hung, fine, return_exceptions=True)
        assert isinstance(results[0], FitTimeoutError)
        assert results[0].reason == "timeout"
        assert "0.5 s timeout" in str(results[0])
        assert not isinstance(results[1], BaseException)
        assert (await pool.fit(b"<title>after</title>", None)).title == "after"

    assert await _with_pool(run, hook="markers", timeout=0.5) == 1


async def test_markers_are_inert_without_the_hook() -> None:
    async def run(pool: FitPool) -> None:
        result = await pool.fit(b"<p>BLOCKDENSITY-TEST-SIGKILL</p>", None)
        assert "BLOCKDENSITY-TEST-SIGKILL" in result.text

    assert await _with_pool(run) == 0


async def test_children_are_recycled() -> None:
    pages = [page.raw for page in sample_pages()] * 2

    async def run(pool: FitPool) -> None:
        results = await asyncio.gather(*(pool.fit(page, None) for page in pages))
        assert len(results) == len(pages)

    # Each child exits after one page; recycling is not a restart.
    assert await _with_pool(run, max_tasks=1) == 0


def test_unknown_hook_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown fit hook"):
        FitPool(size=1, timeout=1, max_tasks=0, hook="explode")
