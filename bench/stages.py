"""Where the default fit's time goes, stage by stage, on small pages and on large ones.

Each page is fitted by calling, in sequence, the same internal functions
blockdensity.fit.fit_text calls (blockdensity/fit.py, dom.py, segment.py),
with a CPU-time reading (process_time) after each: the encoding of the page
to UTF-8, the nesting scan (blockdensity.nesting, which also marks the
article profile's regions), lexbor's parse, the walk (segment), measure,
classify, the semantic drop and the article rules (the fates), the verdict
(the kept blocks, the published verdict when the rules took everything, the
fallback), the blocks' texts, render, the language detection, the digest
(the text's SHA-256), the metadata, the Fit record, then what the worker's
fit process does with it (worker/stage/fitproc.py): the CleanPage built and
encoded with msgspec (MessagePack, as bench.worker_e2e sends); last, the
freeing of the page (the Fit holds the walk's Page, whose declaration nodes
hold lexbor's tree: the tree goes when the Fit goes).

Before any timing, every page's staged result is checked against fit_text's
(every Summary field: text, comments, metadata, language, digest, counts);
a difference stops the script, naming the page and the field.

Each round, every page runs staged and then whole (fit_text, then the same
record and free, the order swapped each round), so both see the same machine.
A stage's figure is its best round (summed over a group's pages), less the
timer's own cost (calibrated here: one reading per stage). The sum of the
stages is compared with the whole fit's best round (the residual), and so is
the staged fit run without clock readings (a third variant each round): the
glue between the calls here is interpreted Python where fit.py is compiled
by mypyc, and that row shows what it costs (nothing measurable on the
corpus); the residual is then what the readings themselves disturb, and noise.

Groups: per corpus (dev: scrapinghub + readability; small: trafilatura-eval),
its smallest size quartile (Q1), all its pages, its largest quartile (Q4).
Outside the fit, for the worker (issue 24 item 4): the message's decoding
(msgspec, MessagePack) and the bytes' (prepare_html) are timed too.

    python -m bench.stages [--rounds N] [--corpus dev|small|both]
                           [--profile article|published|both] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import itertools
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser

from bench.speed import CORPORA, html_bytes, size_quartiles
from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, fit_text
from blockdensity import dom as dom_module
from blockdensity import fit as fit_module
from blockdensity import segment as segment_module
from blockdensity.classify import classify
from blockdensity.conf import Comments
from blockdensity.decode import prepare_html
from blockdensity.language import detect_language
from blockdensity.measure import measure
from blockdensity.metadata import read_metadata
from blockdensity.nesting import bound_nesting
from blockdensity.render import render_blocks
from blockdensity.result import NO_METADATA, Block, FallbackReason, Fit, summary_fields
from devkit.corpus import DEFAULT_DATA, Page, load_pages
from worker.schemas import Encoding, FetchedPage, clean_page, decode_page, encode_message

# The fit's stages, in order; then the worker's around it (not part of fit_text).
FIT_STAGES: Final = (
    "encode (str to UTF-8)",
    "scan (nesting, regions)",
    "parse (lexbor)",
    "walk (segment)",
    "measure",
    "classify",
    "fates (drop, article rules)",
    "verdict (kept, fallback)",
    "block texts",
    "render",
    "language",
    "digest (SHA-256)",
    "metadata",
    "Fit record",
)
RECORD: Final = "record (CleanPage + msgpack)"
FREE: Final = "free (Fit, page, tree)"
AFTER_STAGES: Final = (RECORD, FREE)
MESSAGE: Final = "message decode (msgspec)"
BYTES: Final = "bytes decode (prepare_html)"
WORKER_STAGES: Final = (MESSAGE, BYTES)
STAGES: Final = FIT_STAGES + AFTER_STAGES + WORKER_STAGES
WHOLE: Final = "whole fit_text"
UNREAD: Final = "staged fit, no clock readings"

_fates = fit_module._fates
_KEPT_FATES = fit_module._KEPT_FATES
_COMMENTS = fit_module._COMMENTS
_block_records = fit_module._block_records
_walk = segment_module._walk
_close_titles = segment_module._close_titles
_GROWING_REFERENCE = dom_module._GROWING_REFERENCE
_replacement = dom_module._replacement

Clock = Callable[[], float]


def staged_fit(  # noqa: C901 - fit_text's body, one stage after another
    html: str, conf: Conf, url: str, marks: list[float], clock: Clock
) -> tuple[Fit, dom_module.Document]:
    """fit_text(html, conf, url=url) for a str page, stage by stage: appends a clock
    reading to `marks` after each of FIT_STAGES. Must mirror blockdensity/fit.py.
    Also returns the tree, so that the caller frees it where it chooses (the Fit
    holds it anyway when the body has declarations: their nodes hold the tree)."""
    # dom.parse: encode, the two growing references, the nesting scan, lexbor.
    data = html.encode("utf-8", "ignore")
    if _GROWING_REFERENCE.search(data) is not None:
        data = _GROWING_REFERENCE.sub(_replacement, data)
    marks.append(clock())
    regions = bool(conf.rules)
    data = bound_nesting(data, regions=regions)
    marks.append(clock())
    doc = LexborHTMLParser(data, options=LexborDocumentOptions.WO_EVENTS, scripting=True)
    marks.append(clock())
    # segment.trace_segment: the walk, and the unclosed-title repair (rare: in the walk).
    page = _walk(doc, conf, None)
    if not page.blocks:
        repaired = _close_titles(html)
        if repaired is not None:
            doc = dom_module.parse(repaired, regions=regions)
            page = _walk(doc, conf, None)
    marks.append(clock())
    raw_blocks = page.blocks
    words, links = measure(page)
    marks.append(clock())
    leaves = classify(words, links, conf)
    marks.append(clock())
    scopes, parents = page.drop_scopes, page.scope_parents
    fates = _fates(raw_blocks, words, links, leaves, scopes, parents, conf.rules)
    marks.append(clock())
    kept = [index for index, fate in enumerate(fates) if fate in _KEPT_FATES]
    kept_words = [words[index] for index in kept]
    if conf.rules and not any(kept_words):
        published = _fates(raw_blocks, words, links, leaves, scopes, parents, frozenset())
        verdict = [index for index, fate in enumerate(published) if fate in _KEPT_FATES]
        if any(words[index] for index in verdict):
            fates, kept = published, verdict
            kept_words = [words[index] for index in kept]
    words_total = sum(words)
    blocks_with_words = len(words) - words.count(0)
    fallback: FallbackReason | None = None
    if words_total == 0:
        fallback = FallbackReason.NO_TEXT
    elif blocks_with_words <= 1:
        fallback = FallbackReason.SINGLE_BLOCK
    elif not any(kept_words):
        fallback = FallbackReason.NOTHING_KEPT
    if fallback is not None:
        kept = list(range(len(raw_blocks)))
        kept_words = words
    marks.append(clock())
    texts = page.block_texts()
    marks.append(clock())
    text = render_blocks([raw_blocks[index] for index in kept], [texts[index] for index in kept])
    comments = None
    if fallback is None and conf.comments is not Comments.DROP:
        found = [index for index, fate in enumerate(fates) if fate == _COMMENTS]
        if found:
            comments = render_blocks(
                [raw_blocks[index] for index in found], [texts[index] for index in found]
            )
            if conf.comments is Comments.INCLUDE:
                text = f"{text}\n{comments}" if text else comments
    marks.append(clock())
    lang_detected, lang_confidence = detect_language(text) if conf.detect_language else (None, None)
    marks.append(clock())
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    marks.append(clock())
    metadata = read_metadata(doc, page.declarations, url) if conf.read_metadata else NO_METADATA
    marks.append(clock())

    def blocks() -> tuple[Block, ...]:
        return _block_records(scopes, raw_blocks, texts, words, links, leaves, fates)

    fit = Fit(
        text=text,
        title=page.title,
        lang=page.lang,
        fallback_reason=fallback,
        block_factory=blocks,
        blocks_total=len(raw_blocks),
        blocks_with_words=blocks_with_words,
        blocks_kept=len(kept),
        words_total=words_total,
        words_kept=sum(kept_words),
        profile=conf.profile,
        lang_detected=lang_detected,
        lang_confidence=lang_confidence,
        text_sha256=digest,
        metadata=metadata,
        encoding=None,
        comments=comments or None,
    )
    marks.append(clock())
    return fit, doc


@dataclass(frozen=True, slots=True)
class Item:
    """One page as the stages need it: decoded HTML, its message, its size."""

    page_id: str
    html: str
    message: bytes  # a FetchedPage in MessagePack, as bench.worker_e2e sends it
    size: int  # decoded HTML bytes


def item_of(page: Page) -> Item:
    url = f"https://{page.set_name}.example/{page.page_id}"
    fetched = FetchedPage(url=url, body=page.raw, fetch_id=page.page_id)
    return Item(
        f"{page.set_name}/{page.page_id}",
        page.html,
        encode_message(fetched, Encoding.MSGPACK),
        html_bytes(page.html),
    )


def run_page(item: Item, conf: Conf, *, staged: bool, clock: Clock) -> list[float]:
    """One page through the worker's path: the message and its bytes decoded (timed,
    unused: the fit reads the decoded str, as bench.speed does), the fit (staged, or
    fit_text whole), the record, the free. Returns the clock readings."""
    marks = [clock()]
    fetched = decode_page(item.message, Encoding.MSGPACK)
    marks.append(clock())
    prepare_html(fetched.body if isinstance(fetched.body, bytes) else fetched.body.encode())
    marks.append(clock())
    tree = None
    if staged:
        fit, tree = staged_fit(item.html, conf, fetched.url, marks, clock)
    else:
        fit = fit_text(item.html, conf, url=fetched.url)
        marks.append(clock())
    record = clean_page(fetched, fit, 0.0)
    encode_message(record, Encoding.MSGPACK)
    marks.append(clock())
    del fit, record, tree
    marks.append(clock())
    return marks


def check(items: list[Item], conf: Conf) -> None:
    """Every page's staged fit equals fit_text's, field for field; else stop, saying where."""
    for item in items:
        url = f"https://bench.example/{item.page_id}"
        staged = summary_fields(staged_fit(item.html, conf, url, [], time.process_time)[0])
        whole = summary_fields(fit_text(item.html, conf, url=url))
        differing = [name for name in whole if staged[name] != whole[name]]
        if differing:
            raise AssertionError(
                f"bench.stages: the staged fit of {item.page_id} ({conf.profile} profile)"
                f" differs from fit_text's in {', '.join(differing)}: blockdensity/fit.py"
                " changed and staged_fit no longer mirrors it"
            )


def timer_cost(clock: Clock, readings: int = 200_000) -> float:
    """The mean CPU time one reading of `clock` adds to the interval it ends."""
    start = clock()
    marks = [clock() for _ in range(readings)]
    return (marks[-1] - start) / readings


@dataclass(frozen=True, slots=True)
class Group:
    corpus: str
    label: str  # "Q1 (smallest)", "all", "Q4 (largest)"
    indexes: list[int]  # into the items

    @property
    def name(self) -> str:
        return f"{self.corpus} {self.label}"


def _no_reading() -> float:
    return 0.0


def profile(
    items: list[Item], groups: list[Group], conf: Conf, rounds: int, overhead: float
) -> dict[tuple[str, str], float]:
    """(group, stage or WHOLE or UNREAD) -> best round's seconds a page, less the timer's cost."""
    clock = time.process_time
    best: dict[tuple[str, str], float] = {}
    variants = ("staged", "whole", "unread")
    for round_ in range(rounds):
        staged = [[0.0] * len(STAGES) for _ in items]
        whole = [0.0] * len(items)
        unread = [0.0] * len(items)
        gc.collect()
        for index, item in enumerate(items):
            # Each variant first in turn, round by round: whoever runs second
            # finds the page in the caches.
            shift = round_ % len(variants)
            for variant in variants[shift:] + variants[:shift]:
                if variant == "unread":
                    start = clock()
                    kept_alive = staged_fit(item.html, conf, item.page_id, [], _no_reading)
                    unread[index] = clock() - start - overhead
                    del kept_alive  # freed outside, as the whole fit's result is
                    continue
                marks = run_page(item, conf, staged=variant == "staged", clock=clock)
                spans = [later - earlier - overhead for earlier, later in itertools.pairwise(marks)]
                if variant == "staged":
                    # marks: message, bytes, the fit's stages, record, free.
                    staged[index] = [*spans[2:], *spans[:2]]
                else:
                    whole[index] = spans[2]  # message, bytes, the fit, record, free
        for group in groups:
            columns = [
                (stage, [staged[index][at] for index in group.indexes])
                for at, stage in enumerate(STAGES)
            ]
            columns.append((WHOLE, [whole[index] for index in group.indexes]))
            columns.append((UNREAD, [unread[index] for index in group.indexes]))
            for name, values in columns:
                seconds = sum(values) / len(values)
                best[group.name, name] = min(best.get((group.name, name), seconds), seconds)
    return best


def print_table(
    title: str, per_page: dict[tuple[str, str], float], groups: list[Group], items: list[Item]
) -> None:
    print(f"### {title}")
    print()
    names = [group.name for group in groups]
    header = " | ".join(f"{group.label:>22}" for group in groups)
    print(f"| {'stage':30} | {header} |")
    print(f"|{'-' * 32}|" + "|".join(f"{'-' * 23}:" for _ in names) + "|")

    def row(label: str, values: list[tuple[float, float | None]]) -> None:
        cells = " | ".join(
            f"{ms * 1e3:8.3f} ms" + (f" {share:9.1%}" if share is not None else " " * 10)
            for ms, share in values
        )
        print(f"| {label:30} | {cells} |")

    whole = {name: per_page[name, WHOLE] for name in names}
    for stage in FIT_STAGES:
        row(stage, [(per_page[name, stage], per_page[name, stage] / whole[name]) for name in names])
    sums = {name: sum(per_page[name, stage] for stage in FIT_STAGES) for name in names}
    row("sum of the fit's stages", [(sums[name], sums[name] / whole[name]) for name in names])
    row("whole fit_text", [(whole[name], 1.0) for name in names])
    row(
        "residual (whole - sum)",
        [(whole[name] - sums[name], (whole[name] - sums[name]) / whole[name]) for name in names],
    )
    row(UNREAD, [(per_page[name, UNREAD], per_page[name, UNREAD] / whole[name]) for name in names])
    for stage in (*AFTER_STAGES, *WORKER_STAGES):
        row(stage, [(per_page[name, stage], per_page[name, stage] / whole[name]) for name in names])
    sizes = []
    for group in groups:
        in_group = sorted(items[index].size for index in group.indexes)
        median = in_group[len(in_group) // 2] / 1e3
        sizes.append(f"{group.label}: {len(in_group)} pages, median {median:.0f} KB")
    print()
    print("; ".join(sizes))
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--data", default=DEFAULT_DATA)
    parser.add_argument("--corpus", choices=("dev", "small", "both"), default="both")
    parser.add_argument("--profile", choices=("article", "published", "both"), default="both")
    args = parser.parse_args()

    corpora = ("small", "dev") if args.corpus == "both" else (args.corpus,)
    confs = {"article (DEFAULT_CONF)": DEFAULT_CONF, "published (PUBLISHED_CONF)": PUBLISHED_CONF}
    if args.profile != "both":
        confs = {name: conf for name, conf in confs.items() if name.startswith(args.profile)}

    items: list[Item] = []
    groups: list[Group] = []
    for corpus in corpora:
        first = len(items)
        items += [item_of(page) for page in load_pages(args.data, CORPORA[corpus])]
        quartiles = size_quartiles([item.size for item in items[first:]])
        groups += [
            Group(corpus, "Q1 (smallest)", [first + index for index in quartiles[0]]),
            Group(corpus, "all", list(range(first, len(items)))),
            Group(corpus, "Q4 (largest)", [first + index for index in quartiles[-1]]),
        ]
    for conf in confs.values():
        check(items, conf)
        for item in items[:: max(1, len(items) // 20)]:  # warm up
            run_page(item, conf, staged=True, clock=time.process_time)
    overhead = timer_cost(time.process_time)

    print(f"command: {shlex.join(['python', *sys.argv])}")
    print(
        f"{len(items)} pages; CPU time (process_time), best of {args.rounds} rounds;"
        f" python {sys.version.split()[0]}; every staged fit checked equal to fit_text's"
    )
    print(
        f"timer: {overhead * 1e6:.2f} us a reading, subtracted from every stage and from the"
        " whole fit"
    )
    print(
        "% of the whole fit; the record and the free follow the fit in the worker's fit process"
        " (the free: the Fit keeps the tree alive); the message and bytes decodes precede it"
        " (the fit here reads the decoded str, so its encode stage is the worker's bytes decode)"
    )
    print()
    results = {}
    for name, conf in confs.items():
        results[name] = profile(items, groups, conf, args.rounds, overhead)
    for corpus in corpora:
        members = [group for group in groups if group.corpus == corpus]
        for name in confs:
            print_table(f"{corpus} pages, {name}", results[name], members, items)
    if len(confs) == 2:
        article, published = (results[name] for name in confs)
        print("### metadata and language: the article profile against the published")
        print()
        print("| group | metadata: article | published | language: article | published |")
        print("|---|---:|---:|---:|---:|")
        for group in groups:
            cells = " | ".join(
                f"{run[group.name, stage] * 1e3:.3f} ms"
                for stage in ("metadata", "language")
                for run in (article, published)
            )
            print(f"| {group.name} | {cells} |")


if __name__ == "__main__":
    main()
