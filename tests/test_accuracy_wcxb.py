"""bench.accuracy's part for the page-type set (wcxb-dev) and for peers run elsewhere.

What a slip would silently get wrong in the tables: which pages a group
holds (a type, a set, "overall"), how the passages' shares are pooled, when
a cached output may stand (it must have been made from the URL passed now),
and how the rs-trafilatura runner's answers are read back, including a page
on which the library takes the process down (a fake library stands in for
rs-trafilatura: the runner script is the real one, run in another process).
"""

from __future__ import annotations

import json
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from bench.accuracy import (
    OVERALL,
    Output,
    Run,
    RunnerError,
    Typed,
    in_group,
    rs_trafilatura_version,
    run_cached,
    run_rs_trafilatura,
    summarize,
    type_group,
)
from devkit.corpus import Counts, Page, Score


def _page(set_name: str, page_id: str, page_type: str | None = None, html: str = "") -> Page:
    return Page(set_name, page_id, html.encode(), html, "", page_type=page_type)


PAGES = [
    _page("scrapinghub", "s1"),
    _page("trafilatura-eval", "t1"),
    _page("wcxb-dev", "0001", "forum"),
    _page("wcxb-dev", "0002", "article"),
    _page("wcxb-dev", "0003", "forum"),
]


def test_the_groups() -> None:
    assert [in_group(page, OVERALL) for page in PAGES] == [True, False, False, False, False]
    assert [in_group(page, "wcxb-dev") for page in PAGES] == [False, False, True, True, True]
    forum = type_group("wcxb-dev", "forum")
    assert [in_group(page, forum) for page in PAGES] == [False, False, True, False, True]


def test_a_type_summary_averages_its_pages_and_pools_its_passages() -> None:
    run = Run(
        "x",
        [
            Score(1.0, 1.0, 1.0),
            Counts(1, 0, 0, 1),
            Typed(Score(0.5, 1.0, 0.6), Counts(1, 3, 0, 2)),  # 1 of 4 with, 0 of 2 without
            Typed(Score(1.0, 1.0, 1.0), Counts(9, 0, 9, 0)),
            Typed(Score(0.25, 0.5, 0.2), Counts(1, 0, 1, 0)),  # 1 of 1 with, 1 of 1 without
        ],
        [0.1] * 5,
        None,
        [],
    )
    forum = summarize(run, PAGES, type_group("wcxb-dev", "forum"))
    assert forum.pages == 2
    assert forum.f1 == pytest.approx(0.4)
    assert forum.precision == pytest.approx(0.375)
    assert forum.recall == pytest.approx(0.75)
    # Pooled over the passages (2 of 5, 1 of 3), not the mean of the pages' rates.
    assert forum.with_share == pytest.approx(2 / 5)
    assert forum.without_share == pytest.approx(1 / 3)
    assert forum.accuracy is None
    whole = summarize(run, PAGES, "wcxb-dev")
    assert whole.pages == 3
    assert whole.f1 == pytest.approx(0.6)
    assert whole.with_share == pytest.approx(11 / 14)
    # The ROUGE sets' summary has no shares and ignores the other sets.
    overall = summarize(run, PAGES, OVERALL)
    assert (overall.pages, overall.f1, overall.with_share) == (1, 1.0, None)


def _with_url(page: Page, url: str | None) -> Page:
    return Page(page.set_name, page.page_id, page.raw, page.html, page.truth, url=url)


class _Counting:
    """A batch that records which pages it was asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, pages: Sequence[Page]) -> list[Output]:
        self.asked += [page.page_id for page in pages]
        return [Output(f"text of {page.page_id}", 0.5, None, page.url) for page in pages]


def test_a_cached_output_stands_only_for_the_url_it_was_made_from(tmp_path: Path) -> None:
    cache = tmp_path / "peer-1.0.json"
    pages = [_with_url(PAGES[2], "https://a.example/1"), _with_url(PAGES[3], None)]
    first = _Counting()
    run = run_cached("peer", first, pages, cache, takes_url=True)
    assert first.asked == ["0001", "0002"]
    assert not run.cached
    again = _Counting()
    assert run_cached("peer", again, pages, cache, takes_url=True).cached
    assert again.asked == []
    moved = [_with_url(PAGES[2], "https://b.example/1"), pages[1]]
    third = _Counting()
    run_cached("peer", third, moved, cache, takes_url=True)
    assert third.asked == ["0001"]


def test_entries_from_before_urls_were_passed(tmp_path: Path) -> None:
    cache = tmp_path / "peer-1.0.json"
    cache.write_text(json.dumps({"0001": ["old text", 0.25, None]}), encoding="utf-8")
    page = _with_url(PAGES[2], "https://a.example/1")
    # A peer that takes no URL keeps the old output ...
    kept = _Counting()
    run = run_cached("peer", kept, [page], cache, takes_url=False)
    assert kept.asked == []
    assert run.seconds == [0.25]
    # ... one that takes it makes it again from the URL.
    remade = _Counting()
    run_cached("peer", remade, [page], cache, takes_url=True)
    assert remade.asked == ["0001"]


_FAKE_LIBRARY = """
import os


class _Result:
    def __init__(self, text, page_type):
        self.main_content = text
        self.page_type = page_type
        self.classification_confidence = 0.75


def extract(html, *, url=None):
    if "CRASH" in html:
        os.abort()
    if "RAISE" in html:
        raise ValueError("cannot read this page")
    return _Result(f"{html} at {url}", "forum")
"""


def _fake_python(folder: Path, *, module: bool = True, metadata: bool = True) -> Path:
    """An interpreter (this one) that finds a fake rs_trafilatura 0.0.1: its module,
    its distribution's metadata (what --version reads), or either alone."""
    path = folder / "site"
    path.mkdir(parents=True)
    if module:
        (path / "rs_trafilatura").mkdir()
        (path / "rs_trafilatura" / "__init__.py").write_text(_FAKE_LIBRARY, encoding="utf-8")
    if metadata:
        (path / "rs_trafilatura-0.0.1.dist-info").mkdir()
        (path / "rs_trafilatura-0.0.1.dist-info" / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: rs-trafilatura\nVersion: 0.0.1\n", encoding="utf-8"
        )
    python = folder / "python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH={path} exec {sys.executable} "$@"\n')
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    return python


def test_the_runner_reads_back_outputs_failures_and_page_types(tmp_path: Path) -> None:
    python = _fake_python(tmp_path)
    assert rs_trafilatura_version(python) == "0.0.1"
    pages = [
        Page("wcxb-dev", "0001", b"", "first", "", url="https://a.example/1", page_type="forum"),
        Page("wcxb-dev", "0002", b"", "RAISE", "", page_type="article"),
        Page("wcxb-dev", "0003", b"", "CRASH", "", page_type="article"),
        Page("wcxb-dev", "0004", b"", "last", "", page_type="service"),
    ]
    run = run_rs_trafilatura(python, "0.0.1", pages, cache=False)
    # The page after the one that took the process down is still run.
    assert run.page_types == ["forum", None, None, "forum"]
    assert [(f.page.page_id, f.error.split(":")[0]) for f in run.failures] == [
        ("0002", "ValueError"),
        ("0003", "runner died (exit -6)"),
    ]
    assert len(run.outcomes) == 4
    assert not run.cached


def test_the_runner_passes_the_url(tmp_path: Path) -> None:
    python = _fake_python(tmp_path)
    truth = "first at https://a.example/1"
    pages = [
        Page("wcxb-dev", "0001", b"", "first", truth, url="https://a.example/1"),
        Page("wcxb-dev", "0002", b"", "first", truth, url="https://b.example/1"),
    ]
    run = run_rs_trafilatura(python, "0.0.1", pages, cache=False)
    # The fake's text is the HTML and the URL it was given.
    assert [outcome.score.f1 for outcome in run.outcomes if isinstance(outcome, Typed)] == [
        1.0,
        pytest.approx(5 / 6),
    ]


def test_an_interpreter_without_the_library_is_a_runner_error(tmp_path: Path) -> None:
    without_metadata = _fake_python(tmp_path / "a", metadata=False)
    with pytest.raises(RunnerError, match=r"--version failed: .*PackageNotFoundError"):
        rs_trafilatura_version(without_metadata)
    without_module = _fake_python(tmp_path / "b", module=False)
    page = Page("wcxb-dev", "0001", b"", "first", "", page_type="forum")
    with pytest.raises(RunnerError, match=r"runner failed \(exit 1\): ModuleNotFoundError"):
        run_rs_trafilatura(without_module, "0.0.1", [page], cache=False)
