"""Throughput of the fit against its peers, in one process, on the same pages.

Every page of both development sets is decoded once up front. Then, round
after round, each extractor makes one full pass over all the pages, the
extractors taking turns so that a noisy neighbour on a shared machine slows
them all alike; time is this process's CPU time (time spent descheduled does
not count). The table reports each extractor's best pass (pages/s, MB/s of
decoded HTML) and the fit's speed relative to it. Then the fit's memory:
peak RSS, and RSS after 1 and after 10 further passes (growth would mean a
leak).

    python -m bench.speed [--rounds N] [--data ../shared/data] [--only fit,parse]
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import logging
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, fit_text
from blockdensity.dom import parse
from devkit.corpus import DEFAULT_DATA, load_pages

Extractor = Callable[[str], object]

# The default fit without what it reports besides the text (the metadata and
# the detected language): the same text, so the difference is their cost.
TEXT_ONLY_CONF = dataclasses.replace(DEFAULT_CONF, read_metadata=False, detect_language=False)


def _extractors() -> dict[str, Extractor]:
    """name -> function, in the order they take their turns."""
    import boilerpy3.extractors
    import trafilatura
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    numwords = boilerpy3.extractors.NumWordsRulesExtractor(raise_on_failure=False)
    # Peers log a warning per odd page; the table is what this script prints.
    for noisy in ("trafilatura", "htmldate", "courlan", "boilerpy3"):
        logging.getLogger(noisy).setLevel(logging.CRITICAL)

    def resiliparse_main(html: str) -> object:
        return extract_plain_text(HTMLTree.parse(html), main_content=True)

    def trafilatura_extract(html: str) -> object:
        return trafilatura.extract(html)  # its defaults, as in bench.accuracy

    def boilerpy3_numwords(html: str) -> object:
        return numwords.get_content(html)

    def published_fit(html: str) -> object:
        return fit_text(html, PUBLISHED_CONF)

    def text_only_fit(html: str) -> object:
        return fit_text(html, TEXT_ONLY_CONF)

    return {
        "blockdensity fit": fit_text,  # the default: the article profile
        "blockdensity published": published_fit,
        "blockdensity text only": text_only_fit,
        "lexbor parse (floor)": parse,
        "resiliparse main_content": resiliparse_main,
        "boilerpy3 NumWords": boilerpy3_numwords,
        "trafilatura": trafilatura_extract,
    }


def _pass(function: Extractor, pages: list[str]) -> float:
    start = time.process_time()
    for page in pages:
        function(page)
    return time.process_time() - start


def _rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="passes per extractor (default 5)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--only", default="", help="comma-separated extractor name prefixes")
    args = parser.parse_args()

    pages = [page.html for page in load_pages(args.data)]
    megabytes = sum(len(html.encode()) for html in pages) / 1e6
    extractors = _extractors()
    if args.only:
        wanted = [prefix.strip() for prefix in args.only.split(",")]
        extractors = {
            name: value
            for name, value in extractors.items()
            if any(name.startswith(prefix) for prefix in wanted) or name.startswith("blockdensity")
        }
    for function in extractors.values():  # warm up imports and caches
        for page in pages[:20]:
            function(page)

    best: dict[str, float] = {}
    for _ in range(args.rounds):
        # Every extractor every round: a ratio of best passes holds only if
        # each had the same chances at a quiet moment.
        for name, function in extractors.items():
            gc.collect()
            elapsed = _pass(function, pages)
            best[name] = min(best.get(name, elapsed), elapsed)

    fit_seconds = best["blockdensity fit"]
    print(f"{len(pages)} pages, {megabytes:.1f} MB of decoded HTML, best of {args.rounds} rounds")
    print("blockdensity fit: the default, article profile; published: SPEC's profile alone;")
    print("text only: the default without the metadata and the language detection")
    print(f"python {sys.version.split()[0]}")
    print()
    columns = f"{'pages/s':>8} | {'MB/s':>6} | {'ms/page':>7} | {'fit speed / this':>16}"
    print(f"| {'extractor':35} | {columns} |")
    print(f"|{'-' * 37}|{'-' * 9}:|{'-' * 7}:|{'-' * 8}:|{'-' * 17}:|")
    for name, seconds in best.items():
        print(
            f"| {name:35} | {len(pages) / seconds:8.0f} | {megabytes / seconds:6.1f} |"
            f" {seconds / len(pages) * 1e3:7.3f} | {seconds / fit_seconds:15.2f}x |"
        )

    extras = fit_seconds / best["blockdensity text only"] - 1
    print()
    print(f"metadata and language detection: {extras:+.1%} of the fit without them")

    per_page = []
    for page in pages:
        start = time.perf_counter()
        fit_text(page)
        per_page.append(time.perf_counter() - start)
    print()
    print(
        f"fit per page: median {statistics.median(per_page) * 1e3:.3f} ms, "
        f"p90 {statistics.quantiles(per_page, n=10)[-1] * 1e3:.3f} ms, "
        f"max {max(per_page) * 1e3:.3f} ms"
    )

    gc.collect()
    _pass(fit_text, pages)
    gc.collect()
    after_one = _rss_mib()
    for _ in range(10):
        _pass(fit_text, pages)
    gc.collect()
    after_eleven = _rss_mib()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"fit memory: RSS after 1 pass {after_one:.1f} MiB, after 10 more {after_eleven:.1f} MiB "
        f"(growth {after_eleven - after_one:+.1f} MiB); peak RSS of this process {peak:.1f} MiB"
    )


if __name__ == "__main__":
    main()
