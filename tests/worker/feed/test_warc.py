"""WARC in: real crawl records (tests/corpus/warc), records warcio writes, broken records."""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from blockdensity import fit_text
from devkit.broker import free_port
from devkit.corpus import SAMPLE_DATA
from devkit.messages import corpus_pages
from devkit.paths import ROOT
from devkit.warcs import WarcPageSpec, write_warc
from worker.feed.checkpoint import Checkpoint, CheckpointError
from worker.feed.progress import Progress
from worker.feed.sources import find_sources
from worker.feed.warc import read_warc, seekable_offset
from worker.schemas import Encoding, decode_page

WARCS = SAMPLE_DATA / "warc"  # the full corpus's WARC files, all of them
CC = WARCS / "cc-main-2024-22-one-page.warc.gz"
CC_WET = WARCS / "cc-main-2024-22-one-page.warc.wet.gz"
EXAMPLE = WARCS / "warcio-example.warc.gz"
LIMIT = 8 << 20


def _feed(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m worker.feed args...`, run to its end, its output captured."""
    return subprocess.run(  # noqa: S603 - our own interpreter and modules
        [sys.executable, "-m", "worker.feed", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
        env=env,
    )


def test_the_common_crawl_record_is_one_page_with_its_headers() -> None:
    entries = list(read_warc(CC, max_body=LIMIT))
    assert [entry.kind for entry in entries] == ["warcinfo", "request", "page", "metadata"]
    page = entries[2].page
    assert page is not None
    assert page.url == "https://an.wikipedia.org/wiki/Escopete"
    assert page.record_id == "<urn:uuid:2aabeff2-67f5-4608-8466-e87c6296e2b6>"
    assert (page.status, page.charset) == (200, "utf-8")
    assert page.fetched_at.isoformat() == "2024-05-18T01:58:10+00:00"
    assert len(page.body) == 72848
    assert page.body.startswith(b"<!DOCTYPE html>")


def test_our_text_of_the_common_crawl_page_is_within_common_crawls_own_text() -> None:
    page = next(entry.page for entry in read_warc(CC, max_body=LIMIT) if entry.page)
    fit = fit_text(page.body, charset=page.charset)
    wet = gzip.decompress(CC_WET.read_bytes()).decode()
    theirs = set(wet.split())
    ours = fit.text.split()
    assert len(ours) > 30  # a stub article: 48 words
    # Common Crawl's WET is the whole page's text: the main text is within it.
    assert sum(token in theirs for token in ours) / len(ours) > 0.97
    assert len(ours) < 0.9 * len(wet.split())  # and the boilerplate is not


def test_the_warcio_example_page_is_gunzipped_and_its_revisit_is_not_a_page() -> None:
    entries = list(read_warc(EXAMPLE, max_body=LIMIT))
    pages = [entry.page for entry in entries if entry.page]
    assert len(pages) == 1
    assert pages[0].body.startswith(b"<!doctype html>")  # Content-Encoding: gzip, undone
    assert b"Example Domain" in pages[0].body
    assert "revisit" in [entry.kind for entry in entries]


@pytest.mark.parametrize("gzipped", [True, False])
def test_pages_written_by_warcio_come_back_byte_for_byte(tmp_path: Path, gzipped: bool) -> None:
    samples = corpus_pages(6)
    codings: list[dict[str, Any]] = [
        {},
        {"content_encoding": "gzip"},
        {"chunked": True},
        {"charset": "windows-1252"},
        {"content_encoding": "gzip", "chunked": True},
        {"status": 404},
    ]
    specs = [
        WarcPageSpec(f"https://c.example/{i}", sample.raw, **coding)
        for i, (sample, coding) in enumerate(zip(samples, codings, strict=True))
    ]
    path = tmp_path / ("c.warc.gz" if gzipped else "c.warc")
    ids = write_warc(path, specs, gzipped=gzipped)
    pages = [entry.page for entry in read_warc(path, max_body=LIMIT) if entry.page]
    assert [page.body for page in pages] == [spec.body for spec in specs]
    assert [page.record_id for page in pages] == ids
    assert pages[3].charset == "windows-1252"
    assert pages[5].status == 404
    # A resume starts at a record's offset; from there, the rest.
    offsets = [entry.offset for entry in read_warc(path, max_body=LIMIT) if entry.page]
    assert all(seekable_offset(path, offset) for offset in offsets)
    again = [entry.page for entry in read_warc(path, offsets[3], max_body=LIMIT) if entry.page]
    assert [page.url for page in again] == [spec.url for spec in specs[3:]]


def test_message_ids_follow_the_record_and_stay_the_same_on_a_re_feed(tmp_path: Path) -> None:
    path = tmp_path / "c.warc.gz"
    write_warc(path, [WarcPageSpec(f"https://c.example/{i}", b"<p>x</p>") for i in range(3)])
    (source,) = find_sources([path])
    first = [item.message.message_id for item in source.items(0, LIMIT) if item.message]
    second = [item.message.message_id for item in source.items(0, LIMIT) if item.message]
    assert first == second
    assert len(set(first)) == 3
    message = next(item.message for item in source.items(0, LIMIT) if item.message)
    page = decode_page(message.body, Encoding.MSGPACK)
    assert page.url == "https://c.example/0"
    assert page.fetch_id is not None
    assert page.fetch_id.startswith("<urn:uuid:")
    assert page.fetched_at is not None


def _record(uri: str, payload: bytes, *, length: int | None = None, ctype: bytes = b"") -> bytes:
    ctype = ctype or b"application/http; msgtype=response"
    size = len(payload) if length is None else length
    head = (
        b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%s>\r\n"
        b"WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: https://b.example/%s\r\n"
        b"Content-Type: %s\r\nContent-Length: %d\r\n\r\n"
    ) % (uri.encode(), uri.encode(), ctype, size)
    return head + payload + b"\r\n\r\n"


HTTP = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hello</p>"


def _broken_warc(path: Path, *, gzipped: bool) -> None:
    records = [
        _record("a", HTTP),
        _record("b", b"not http at all", ctype=b"text/plain"),  # no HTTP status line
        _record("c", HTTP, length=10),  # Content-Length too short
        _record("d", HTTP),
        _record("e", HTTP, length=5000),  # too long: swallows f, then nothing is left
        _record("f", HTTP),
        _record("g", HTTP),
        _record("h", HTTP)[:-30],  # truncated: the file ends inside it
    ]
    if gzipped:
        path.write_bytes(b"".join(gzip.compress(record) for record in records))
    else:
        path.write_bytes(b"".join(records))


@pytest.mark.parametrize("gzipped", [True, False])
def test_broken_records_are_counted_named_and_skipped(tmp_path: Path, gzipped: bool) -> None:
    path = tmp_path / ("broken.warc.gz" if gzipped else "broken.warc")
    _broken_warc(path, gzipped=gzipped)
    entries = list(read_warc(path, max_body=LIMIT))
    urls = [entry.page.url.rsplit("/", 1)[1] for entry in entries if entry.page]
    assert "a" in urls
    assert "d" in urls
    assert "b" not in urls
    assert "h" not in urls
    bad = [entry for entry in entries if entry.kind == "bad"]
    assert len(bad) >= 3
    assert all(entry.problem for entry in bad)

    result = _feed("--dry-run", str(path))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert f"{path}: offset " in result.stderr
    assert f"{len(bad)} bad records" in result.stdout
    assert "text/html" in result.stdout


def test_the_dry_run_counts_by_content_type_and_status(tmp_path: Path) -> None:
    path = tmp_path / "mixed.warc.gz"
    specs = [WarcPageSpec(f"https://m.example/{i}", b"<p>x</p>") for i in range(3)]
    specs += [WarcPageSpec("https://m.example/img", b"\x89PNG", content_type="image/png")]
    specs += [WarcPageSpec("https://m.example/gone", b"<p>gone</p>", status=404)]
    write_warc(path, specs)
    result = _feed("--dry-run", "--progress", "log", str(path))
    assert result.returncode == 0, result.stderr
    lines = [line.split() for line in result.stdout.splitlines()]
    assert ["text/html", "200", "3"] in lines
    assert ["text/html", "404", "1"] in lines
    assert ["image/png", "200", "1"] in lines
    assert ["not_html", "1"] in lines
    assert result.stdout.startswith("10 records, 4 pages read (dry run")


def test_a_checkpoint_is_for_one_target(tmp_path: Path) -> None:
    path = tmp_path / "cp.json"
    warc = tmp_path / "x.warc"
    warc.write_bytes(_record("a", HTTP))
    checkpoint = Checkpoint(path, "amqp://h/ q1")
    checkpoint.mark(warc).offset = 5
    checkpoint.save()
    assert Checkpoint.load(path, "amqp://h/ q1").mark(warc).offset == 5
    with pytest.raises(CheckpointError, match="not 'amqp://h/ q2'"):
        Checkpoint.load(path, "amqp://h/ q2")
    warc.write_bytes(_record("a", HTTP) * 2)  # another file now: from the start
    assert Checkpoint.load(path, "amqp://h/ q1").mark(warc).offset == 0
    assert not list(tmp_path.glob(".*tmp"))


def test_a_broker_that_does_not_answer_is_one_line_and_status_1(tmp_path: Path) -> None:
    warc = tmp_path / "x.warc"
    warc.write_bytes(_record("a", HTTP))
    port = free_port()
    result = _feed(
        "--checkpoint",
        str(tmp_path / "cp"),
        str(warc),
        env={**os.environ, "BLOCKDENSITY_AMQP_URL": f"amqp://guest:guest@127.0.0.1:{port}/"},
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"cannot reach amqp://guest:***@127.0.0.1:{port}/" in result.stderr


def test_progress_shows_pages_megabytes_rate_and_the_time_left() -> None:
    out = io.StringIO()
    progress = Progress(10_000_000, stream=out, bar=True)
    progress.update(100, 90, 2_500_000)
    line = progress.line()
    assert line.startswith("records 100  pages 90  2.5/10.0 MB (25%)")
    assert "pages/s  ETA " in line
    progress.finish()
    assert out.getvalue().startswith("\rrecords 100")
    assert out.getvalue().endswith("\n")


def test_html_files_and_jsonl_lines_are_pages_too(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    (folder / "a b").mkdir(parents=True)
    (folder / "a b" / "page.html").write_bytes(b"<p>one</p>")
    lines = [
        b'{"url": "https://j.example/1", "body": "<p>two</p>", "fetch_id": "f1"}',
        b"",
        b'{"url": "", "body": "x"}',  # invalid: an empty url
        b'{"url": "https://j.example/3", "body": "<p>3</p>", "dead_letter": {"reason": "status"}}',
    ]
    (folder / "pages.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    html, jsonl = sorted(find_sources([folder]), key=lambda source: source.format.name)
    (item,) = html.items(0, LIMIT)
    assert item.message is not None
    assert item.message.url == "https://local.invalid/a%20b/page.html"
    assert decode_page(item.message.body, Encoding.MSGPACK).body == b"<p>one</p>"
    assert list(html.items(1, LIMIT)) == []  # fed: nothing left of the file
    items = list(jsonl.items(0, LIMIT))
    assert [item.kind for item in items] == ["page", "bad", "page"]
    assert "url" in (items[1].problem or "")
    assert items[1].offset == len(lines[0]) + 2  # where its line starts, for the message
    first, third = items[0].message, items[2].message
    assert first is not None
    assert third is not None
    assert first.content_type == "application/json"
    assert first.body == lines[0]  # as it is: the worker answers in JSON
    # From the offset of the third line on, only it.
    assert [i.offset for i in jsonl.items(items[2].offset, LIMIT)] == [items[2].offset]


def test_limit_stops_after_that_many_pages(tmp_path: Path) -> None:
    path = tmp_path / "five.warc.gz"
    write_warc(path, [WarcPageSpec(f"https://l.example/{i}", b"<p>x</p>") for i in range(5)])
    result = _feed("--dry-run", "--limit", "2", str(path))
    assert result.returncode == 0, result.stderr
    assert ", 2 pages read (dry run" in result.stdout
