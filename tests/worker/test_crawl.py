"""A crawl end to end against the real broker: WARC -> blockdensity-feed -> python -m
worker -> blockdensity-collect, and every text is the fit of its page's bytes."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from blockdensity import fit_text
from devkit.client import Client
from devkit.corpus import SAMPLE_DATA
from devkit.messages import corpus_pages
from devkit.paths import ROOT
from devkit.warcs import WarcPageSpec, write_warc
from devkit.workers import WorkerProcess, start_worker
from tests.worker.programs import collected_lines, start_program, wait_until
from worker.config import StageSettings

pytestmark = pytest.mark.integration

CC = SAMPLE_DATA / "warc" / "cc-main-2024-22-one-page.warc.gz"


@pytest.mark.slow
async def test_a_crawl_end_to_end_every_text_is_the_fit_of_its_bytes(
    tmp_path: Path,
    client: Client,
    settings: StageSettings,
    env: dict[str, str],
    worker_processes: list[WorkerProcess],
) -> None:
    samples = corpus_pages(40)
    codings: list[dict[str, Any]] = [
        {},
        {"content_encoding": "gzip"},
        {"chunked": True},
        {"charset": "utf-8"},
    ]
    specs = [
        WarcPageSpec(f"https://e2e.example/{i}/{sample.name}", sample.raw, **codings[i % 4])
        for i, sample in enumerate(samples)
    ]
    specs.append(WarcPageSpec("https://e2e.example/gone", samples[0].raw, status=404))
    warc = tmp_path / "crawl.warc.gz"
    write_warc(warc, specs)
    out = tmp_path / "out"
    logs = tmp_path / "logs"
    logs.mkdir()
    feed = start_program(
        "worker.feed",
        "--checkpoint",
        str(tmp_path / "cp.json"),
        str(warc),
        str(CC),
        env=env,
        log=logs / "feed.log",
    )
    assert feed.wait(120) == 0, (logs / "feed.log").read_text()
    worker_processes.append(start_worker(env, logs / "worker.log"))
    collector = start_program("worker.collect", str(out), env=env, log=logs / "collect.log")
    try:
        wait_until(
            lambda: (
                len(collected_lines(out, "clean-*.jsonl")) >= len(samples) + 1
                and len(collected_lines(out, "dead-letters-*.jsonl")) >= 1
            ),
            120,
            "every page collected",
        )
    finally:
        collector.send_signal(signal.SIGTERM)
        assert collector.wait(30) == 0
    by_url = {str(line["url"]): line for line in collected_lines(out, "clean-*.jsonl")}
    for spec in specs[:-1]:
        expected = fit_text(spec.body, charset=spec.charset, url=spec.url).text
        assert by_url[spec.url]["text"] == expected, spec.url
    cc = by_url["https://an.wikipedia.org/wiki/Escopete"]
    assert cc["fetch_id"] == "<urn:uuid:2aabeff2-67f5-4608-8466-e87c6296e2b6>"
    # `blockdensity PAGE` prints the same text.
    page = tmp_path / "page.html"
    page.write_bytes(specs[1].body)
    printed = subprocess.run(  # noqa: S603 - our own interpreter and modules
        [str(Path(sys.executable).with_name("blockdensity")), str(page)],
        capture_output=True,
        check=True,
        cwd=ROOT,
        timeout=60,
    ).stdout.decode()
    assert printed == by_url[specs[1].url]["text"] + "\n"
    # The 404 is a dead letter, with its reason, and feeds back as it is.
    (dead,) = collected_lines(out, "dead-letters-*.jsonl")
    assert dead["url"] == "https://e2e.example/gone"
    assert dead["dead_letter"]["reason"] == "status"
    refeed = subprocess.run(  # noqa: S603 - our own interpreter and modules
        [sys.executable, "-m", "worker.feed", "--dry-run", *sorted(map(str, out.glob("dead-*")))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert refeed.returncode == 0
    assert refeed.stdout.startswith("1 records, 1 pages read")
