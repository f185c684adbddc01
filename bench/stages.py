"""Where the default fit's time goes, stage by stage, on small pages and on large ones.

Each page is fitted by calling blockdensity's stage functions in the order
fit_text calls them (blockdensity/fit.py: decode, parse, walk, measure, the
metadata, the page type, decide, render; then the language and the record), with a
CPU-time reading (process_time) after each; then what the worker's fit
process does with it (worker/stage/fitproc.py): the CleanPage built and
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
by mypyc, and that row shows what it costs; the residual is then what the
readings themselves disturb, and noise.

Groups: per corpus (dev: scrapinghub + readability; small: trafilatura-eval),
its smallest size quartile (Q1), all its pages, its largest quartile (Q4).
Outside the fit, for the worker: the message's decoding (msgspec,
MessagePack) and the bytes' (prepare_html) are timed too, and so is the bare
parse (selectolax's parser on the decoded str, bench.speed's floor).

    python -m bench.stages [--rounds N] [--corpus dev|small|both]
                           [--profile article|published|both] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import gc
import itertools
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from selectolax.lexbor import LexborHTMLParser

from bench.speed import CORPORA, forget_split_urls, html_bytes, size_quartiles
from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, Fit, Profile, fit_text
from blockdensity.decide import decide
from blockdensity.decode import decode, prepare_html
from blockdensity.dom import Document
from blockdensity.evidence import gather
from blockdensity.fit import NO_LANGUAGE, record
from blockdensity.language import detect_language
from blockdensity.measure import measure
from blockdensity.metadata import read_declared
from blockdensity.pagetype import PageType, ranked
from blockdensity.parse import parse
from blockdensity.read import Read, needs_rereading, reread
from blockdensity.render import render
from blockdensity.result import NO_METADATA, summary_fields
from blockdensity.segment import walk
from devkit.corpus import DEFAULT_DATA, Page, load_pages
from worker.schemas import Encoding, FetchedPage, decode_page, encode_message
from worker.stage.clean_record import clean_page

# The fit's stages, in order; then the worker's around it (not part of fit_text).
FIT_STAGES: Final = (
    "decode",
    "parse (encode, scan, lexbor)",
    "walk",
    "measure (and rereadings)",
    "metadata",
    "page type (evidence, classify)",
    "decide",
    "render",
    "language",
    "record (Fit)",
)
RECORD: Final = "record (CleanPage + msgpack)"
FREE: Final = "free (Fit, page, tree)"
AFTER_STAGES: Final = (RECORD, FREE)
MESSAGE: Final = "message decode (msgspec)"
BYTES: Final = "bytes decode (prepare_html)"
BARE: Final = "bare parse (selectolax, str)"
WORKER_STAGES: Final = (MESSAGE, BYTES, BARE)
STAGES: Final = FIT_STAGES + AFTER_STAGES + WORKER_STAGES
WHOLE: Final = "whole fit_text"
UNREAD: Final = "staged fit, no clock readings"

Clock = Callable[[], float]


def staged_fit(
    html: str, conf: Conf, url: str, marks: list[float], clock: Clock
) -> tuple[Fit, Document]:
    """fit_text(html, conf, url=url), its stage functions called one after another:
    appends a clock reading to `marks` after each of FIT_STAGES. Also returns the
    tree, so that the caller frees it where it chooses (the Fit holds it anyway when
    the body has declarations: their nodes hold the tree)."""
    source = decode(html)
    marks.append(clock())
    parsed = parse(source, conf)
    marks.append(clock())
    page = walk(parsed, conf)
    marks.append(clock())
    measures = measure(page)
    if needs_rereading(page, measures):
        parsed, page, measures = reread(Read(parsed, page, measures), conf)
    marks.append(clock())
    metadata, declared = read_declared(
        parsed.document, page.declarations, url, page.declared_ids, page.microdata
    )
    marks.append(clock())
    call = (
        ranked(gather(page, measures, metadata, declared, source.markup, url))
        if conf.profile is Profile.ARTICLE
        else None
    )
    kind = call[:2] if call is not None else None
    marks.append(clock())
    verdict = decide(
        page,
        measures,
        conf,
        *(kind or (PageType.ARTICLE, 0.0)),
        runner_up=call[2] if call is not None else None,
    )
    marks.append(clock())
    rendered = render(page, verdict, conf.comments)
    marks.append(clock())
    language = detect_language(rendered.text) if conf.detect_language else NO_LANGUAGE
    if not conf.read_metadata:
        metadata = NO_METADATA
    marks.append(clock())
    fit = record(source, parsed, page, measures, verdict, rendered, language, metadata, conf, kind)
    marks.append(clock())
    return fit, parsed.document


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
    LexborHTMLParser(item.html)
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
        # marks: message, bytes, bare parse, the fit's stages, record, free
        return [*spans[3:], *spans[:3]]
    return [spans[3]]  # message, bytes, bare parse, the fit, record, free


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
        "metadata": ("metadata",),
        "language": ("language",),
        "parse (encode, scan, lexbor)": ("parse (encode, scan, lexbor)",),
        "decide": ("decide",),
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
    # The bare parse: bench.speed's floor (selectolax's parse of the str, its encode
    # included), timed beside the fit in the published run.
    parses = {group.name: published[group.name, BARE] for group in groups}
    cells = " | ".join(
        f"{article[group.name, WHOLE] / parses[group.name]:.2f}"
        f" / {published[group.name, WHOLE] / parses[group.name]:.2f}"
        for group in groups
    )
    print(f"| whole fit in bare parses | {cells} |")
    print()


if __name__ == "__main__":
    main()
