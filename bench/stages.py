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

from bench.speed import CORPORA, forget_split_urls, html_bytes, size_quartiles
from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, fit_text
from blockdensity import dom as dom_module
from blockdensity import fit as fit_module
from blockdensity import metadata as metadata_module
from blockdensity import segment as segment_module
from blockdensity._growing_references import has_growing_reference
from blockdensity._walk import DECLARED_ATTRIBUTES
from blockdensity.classify import classify
from blockdensity.conf import Comments
from blockdensity.decode import prepare_html
from blockdensity.language import detect_language
from blockdensity.measure import measure
from blockdensity.nesting import bound_nesting
from blockdensity.render import render_blocks
from blockdensity.result import NO_METADATA, Block, FallbackReason, Fit, Metadata, summary_fields
from blockdensity.times import rfc3339
from devkit.corpus import DEFAULT_DATA, Page, load_pages
from worker.schemas import Encoding, FetchedPage, decode_page, encode_message
from worker.stage.clean_record import clean_page

# blockdensity.metadata.read_metadata, step by step.
METADATA_STAGES: Final = (
    "metadata: meta, link, script",
    "metadata: JSON-LD",
    "metadata: microdata query",
    "metadata: fields",
)
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
    *METADATA_STAGES,
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
_read_declarations = metadata_module._read_declarations
_may_hold_microdata = metadata_module._may_hold_microdata
_read_jsonld = metadata_module._read_jsonld
_read_microdata = metadata_module._read_microdata
_first = metadata_module._first
_resolve = metadata_module._resolve
_metadata = metadata_module._metadata
_PUBLISHED = metadata_module._PUBLISHED
_MICRODATA = metadata_module._MICRODATA

Clock = Callable[[], float]


def staged_fit(  # noqa: C901, PLR0912 - fit_text's body, one stage after another
    html: str, conf: Conf, url: str, marks: list[float], clock: Clock
) -> tuple[Fit, dom_module.Document]:
    """fit_text(html, conf, url=url) for a str page, stage by stage: appends a clock
    reading to `marks` after each of FIT_STAGES. Must mirror blockdensity/fit.py.
    Also returns the tree, so that the caller frees it where it chooses (the Fit
    holds it anyway when the body has declarations: their nodes hold the tree)."""
    # dom.parse: encode, the two growing references, the nesting scan, lexbor.
    data = html.encode("utf-8", "ignore")
    if has_growing_reference(data):
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
    if conf.read_metadata:
        metadata = staged_metadata(
            doc, page.declarations, url, page.declared_ids, page.microdata, marks, clock
        )
    else:
        metadata = NO_METADATA
        marks += [clock()] * len(METADATA_STAGES)

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


def staged_metadata(  # noqa: PLR0913, PLR0917 - read_metadata's arguments, the clock's two
    doc: dom_module.Document,
    body: list[dom_module.Node],
    url: str,
    names: tuple[int, ...],
    microdata: bool | None,
    marks: list[float],
    clock: Clock,
) -> Metadata:
    """read_metadata(doc, body, url, names, microdata), appending a clock reading after
    each of METADATA_STAGES. Must mirror blockdensity/metadata.py."""
    root = doc.root
    if root is None:
        marks += [clock()] * len(METADATA_STAGES)
        return Metadata()
    values: dict[str, list[str]] = {}
    scripts: list[str] = []
    names = names or segment_module.attribute_ids(doc, DECLARED_ATTRIBUTES)
    base_href = _read_declarations(doc, body, names, values, scripts)
    marks.append(clock())
    if scripts:
        _read_jsonld(scripts, values)
    marks.append(clock())
    published = _first(values, _PUBLISHED, rfc3339)
    if published is None and _may_hold_microdata(doc, names, microdata):
        for node in dom_module.select(root, _MICRODATA):
            _read_microdata(node, node.attributes, values)
    marks.append(clock())
    base = (_resolve(url, base_href) if base_href else None) or url
    metadata = _metadata(values, base, published)
    marks.append(clock())
    return metadata


@dataclass(frozen=True, slots=True)
class Item:
    """One page as the stages need it: decoded HTML, its message, its size."""

    page_id: str
    url: str
    html: str
    message: bytes  # a FetchedPage in MessagePack, as bench.worker_e2e sends it
    size: int  # decoded HTML bytes


def item_of(page: Page) -> Item:
    url = f"https://{page.set_name}.example/{page.page_id}"
    fetched = FetchedPage(url=url, body=page.raw, fetch_id=page.page_id)
    return Item(
        f"{page.set_name}/{page.page_id}",
        url,
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
        staged = summary_fields(staged_fit(item.html, conf, item.url, [], time.process_time)[0])
        whole = summary_fields(fit_text(item.html, conf, url=item.url))
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


Timings = dict[tuple[str, str], float]  # (group, stage or WHOLE or UNREAD) -> s a page


def _run(item: Item, conf: Conf, variant: str, overhead: float) -> list[float]:
    """One page, one variant: the staged fit's spans (in STAGES order), or the whole
    fit's, or the staged fit's without readings (one span each)."""
    clock = time.process_time
    forget_split_urls()  # else the second run of a page finds its URLs split already
    if variant == "unread":
        start = clock()
        kept_alive = staged_fit(item.html, conf, item.url, [], _no_reading)
        span = clock() - start - overhead
        del kept_alive  # freed outside, as the whole fit's result is
        return [span]
    marks = run_page(item, conf, staged=variant == "staged", clock=clock)
    spans = [later - earlier - overhead for earlier, later in itertools.pairwise(marks)]
    if variant == "staged":
        return [*spans[2:], *spans[:2]]  # marks: message, bytes, the fit's stages, record, free
    return [spans[2]]  # message, bytes, the fit, record, free


def profile(
    items: list[Item], groups: list[Group], confs: dict[str, Conf], rounds: int, overhead: float
) -> dict[str, Timings]:
    """Per configuration: best round's seconds a page per group and stage, less the timer's
    cost. Page by page, every configuration and variant in turn (so that two profiles are
    compared at the same moments of a shared machine), whoever goes first changing each
    round: whoever runs second finds the page in the caches."""
    runs = [(name, variant) for name in confs for variant in ("staged", "whole", "unread")]
    best: dict[str, Timings] = {name: {} for name in confs}
    for round_ in range(rounds):
        spans: dict[tuple[str, str], list[list[float]]] = {run: [] for run in runs}
        gc.collect()
        shift = round_ % len(runs)
        for item in items:
            for name, variant in runs[shift:] + runs[:shift]:
                spans[name, variant].append(_run(item, confs[name], variant, overhead))
        for name in confs:
            staged, whole, unread = (
                spans[name, variant] for variant in ("staged", "whole", "unread")
            )
            for group in groups:
                columns = [
                    (stage, [staged[index][at] for index in group.indexes])
                    for at, stage in enumerate(STAGES)
                ]
                columns.append((WHOLE, [whole[index][0] for index in group.indexes]))
                columns.append((UNREAD, [unread[index][0] for index in group.indexes]))
                table = best[name]
                for stage, values in columns:
                    seconds = sum(values) / len(values)
                    table[group.name, stage] = min(table.get((group.name, stage), seconds), seconds)
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
    results = profile(items, groups, confs, args.rounds, overhead)
    for corpus in corpora:
        members = [group for group in groups if group.corpus == corpus]
        for name in confs:
            print_table(f"{corpus} pages, {name}", results[name], members, items)
    if len(confs) == 2:  # both profiles, timed side by side: what the article profile adds
        article, published = (results[name] for name in confs)
        print_profiles(article, published, groups)


def print_profiles(article: Timings, published: Timings, groups: list[Group]) -> None:
    print("### the article profile against the published (ms a page: article / published)")
    print()
    rows = {
        "metadata": METADATA_STAGES,
        "language": ("language",),
        **{stage: (stage,) for stage in METADATA_STAGES},
        "scan (nesting, regions)": ("scan (nesting, regions)",),
        "fates (drop, article rules)": ("fates (drop, article rules)",),
        "whole fit_text": (WHOLE,),
    }
    print("| stage | " + " | ".join(group.name for group in groups) + " |")
    print("|---|" + "---:|" * len(groups))
    for label, stages in rows.items():
        cells = " | ".join(
            " / ".join(
                f"{sum(run[group.name, stage] for stage in stages) * 1e3:.3f}"
                for run in (article, published)
            )
            for group in groups
        )
        print(f"| {label} | {cells} |")
    # The bare parse (bench.speed's floor: selectolax's parse of the str, its encode
    # included) is the encode and lexbor's parse; the scan between them is the fit's.
    floor = ("encode (str to UTF-8)", "parse (lexbor)")
    parses = {group.name: sum(published[group.name, stage] for stage in floor) for group in groups}
    cells = " | ".join(
        f"{article[group.name, WHOLE] / parses[group.name]:.2f}"
        f" / {published[group.name, WHOLE] / parses[group.name]:.2f}"
        for group in groups
    )
    print(f"| whole fit in bare parses (encode + lexbor, published's) | {cells} |")
    print()


if __name__ == "__main__":
    main()
