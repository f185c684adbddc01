"""Throughput of the fit against its peers, in one process, on the same pages, by page size.

Two corpora: the development pages (scrapinghub and readability, `dev`) and
the trafilatura-eval pages (`small`: the segment set, older news, blogs and
general web pages). Every page is decoded once up front; each corpus is cut
into size quartiles by decoded HTML bytes (Q1 the smallest quarter of its
pages, Q4 the largest). Then, round after round, for each quartile in turn,
each extractor makes one full pass over that quartile's pages, the
extractors taking turns so that a noisy neighbour on a shared machine slows
them all alike; time is this process's CPU time (time spent descheduled does
not count), and each extractor's best pass counts. A corpus's "all" row is
its quartiles' best passes added up.

What the tables report per quartile: ms/page; the cost in bare parses (an
extractor's time over the bare lexbor parse's on the same quartile:
selectolax's LexborHTMLParser on the decoded str, its encode to UTF-8
included, the floor every lexbor-based extractor pays; the fit's own guard
and nesting scan before its parse are the fit's cost, not the floor's);
the share of the metadata and the language detection (the fit with them
over the fit without them, less one, under the article profile and under
the published one); and the default fit's speed against resiliparse's and trafilatura's. Then the
issue 24 targets, met or missed, then the fit's memory: RSS after 1 and
after 10 further passes (growth would mean a leak).

trafilatura costs 10-20x the fit: it runs on an evenly spread sample of each
quartile's pages (by size order, --peer-sample, default 24) and only in the
first --peer-rounds rounds (default: all); its "all" row weights the
quartiles by their page counts. The output says so.

    python -m bench.speed [--rounds N] [--corpus dev|small|both] [--only lexbor,resiliparse]
                          [--peer-sample N] [--peer-rounds N] [--plot] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import logging
import resource
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, fit_text
from devkit.corpus import DEFAULT_DATA, SEGMENT_SETS, SETS, load_pages

Extractor = Callable[[str], object]
T = TypeVar("T")

# The default fit without what it reports besides the text (the metadata and
# the detected language): the same text, so the difference is their cost.
TEXT_ONLY_CONF: Final = dataclasses.replace(
    DEFAULT_CONF, read_metadata=False, detect_language=False
)
# PUBLISHED_CONF is Conf(profile=PUBLISHED): metadata and language on, as in the default.
PUBLISHED_TEXT_CONF: Final = dataclasses.replace(
    PUBLISHED_CONF, read_metadata=False, detect_language=False
)

CORPORA: Final = {"dev": SETS, "small": SEGMENT_SETS}
QUARTILES: Final = 4

DEFAULT: Final = "blockdensity default"
ARTICLE_TEXT: Final = "blockdensity article text only"
PUBLISHED: Final = "blockdensity published"
PUBLISHED_TEXT: Final = "blockdensity published text only"
PARSE: Final = "lexbor parse (floor)"
RESILIPARSE: Final = "resiliparse main_content"
TRAFILATURA: Final = "trafilatura"
BOILERPY3: Final = "boilerpy3 NumWords"
# Run whatever --only says: the fits and the parse are what every figure is relative to.
ALWAYS: Final = (DEFAULT, ARTICLE_TEXT, PUBLISHED, PUBLISHED_TEXT, PARSE)
# Short names in the tables.
SHORT: Final = {
    DEFAULT: "default",
    ARTICLE_TEXT: "article text",
    PUBLISHED: "published",
    PUBLISHED_TEXT: "publ. text",
    PARSE: "parse",
    RESILIPARSE: "resiliparse",
    TRAFILATURA: "trafilatura*",
    BOILERPY3: "boilerpy3",
}


@dataclass(frozen=True, slots=True)
class Group:
    """One size quartile of a corpus: its pages (decoded HTML), and their size range."""

    corpus: str
    label: str  # Q1 .. Q4
    pages: list[str]
    sizes: list[int]  # decoded HTML bytes, per page
    sample: list[str]  # the pages the sampled extractors (trafilatura) run on

    @property
    def low(self) -> int:
        return min(self.sizes)

    @property
    def high(self) -> int:
        return max(self.sizes)

    @property
    def median_kb(self) -> float:
        return statistics.median(self.sizes) / 1e3


def html_bytes(html: str) -> int:
    """A decoded page's size: its UTF-8 bytes (what the parser reads)."""
    return len(html.encode("utf-8", "surrogatepass"))


def size_quartiles(sizes: Sequence[int]) -> list[list[int]]:
    """The indexes of the pages in each size quartile, smallest first: the pages in
    size order (ties by index), cut into four runs whose counts differ by at most one."""
    order = sorted(range(len(sizes)), key=lambda index: (sizes[index], index))
    count = len(order)
    return [order[count * k // QUARTILES : count * (k + 1) // QUARTILES] for k in range(QUARTILES)]


def spread_sample(items: Sequence[T], count: int) -> list[T]:
    """`count` items evenly spread over `items`, in its order: one from each of `count`
    equal stretches, the one nearest its middle; all of them when there are no more."""
    if count >= len(items):
        return list(items)
    size = len(items)
    # The middle rounded down, or the stretch's first position if that falls before it.
    return [
        items[max((2 * k + 1) * size // (2 * count), -(-k * size // count))] for k in range(count)
    ]


def groups_of(corpus: str, pages: Sequence[str], sample: int) -> list[Group]:
    sizes = [html_bytes(html) for html in pages]
    groups = []
    for number, indexes in enumerate(size_quartiles(sizes), 1):
        chosen = [pages[index] for index in indexes]  # in size order
        groups.append(
            Group(
                corpus,
                f"Q{number}",
                chosen,
                [sizes[index] for index in indexes],
                spread_sample(chosen, sample),
            )
        )
    return groups


def bare_parse(html: str) -> object:
    """The floor: lexbor's parse of the decoded page as any selectolax user makes it.

    Not blockdensity.dom.parse, which runs the fit's guard and nesting scan
    first (until 2026-12-03 it was the floor, so making the scan cheaper made
    the floor cheaper too and hid the gain from the ratios).
    """
    return LexborHTMLParser(html)


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

    def article_text(html: str) -> object:
        return fit_text(html, TEXT_ONLY_CONF)

    def published(html: str) -> object:
        return fit_text(html, PUBLISHED_CONF)

    def published_text(html: str) -> object:
        return fit_text(html, PUBLISHED_TEXT_CONF)

    return {
        DEFAULT: fit_text,  # DEFAULT_CONF: article profile, metadata, language
        ARTICLE_TEXT: article_text,
        PUBLISHED: published,
        PUBLISHED_TEXT: published_text,
        PARSE: bare_parse,
        RESILIPARSE: resiliparse_main,
        BOILERPY3: boilerpy3_numwords,
        TRAFILATURA: trafilatura_extract,
    }


SAMPLED: Final = frozenset({TRAFILATURA})


def forget_split_urls() -> None:
    """Empty urllib.parse.urlsplit's cache (the last 128 URLs it split, Python 3.11+): a
    run must not find the URLs of the pages a run before it read (their metadata's) split
    already, which no page in a crawl does."""
    clear: Callable[[], None] | None = getattr(urlsplit, "cache_clear", None)
    if clear is not None:
        clear()


def _pass(function: Extractor, pages: list[str]) -> float:
    start = time.process_time()
    for page in pages:
        function(page)
    return time.process_time() - start


def _rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


@dataclass(frozen=True, slots=True)
class Timings:
    """ms/page per (extractor, corpus, quartile label or "all")."""

    ms: dict[tuple[str, str, str], float]

    def get(self, name: str, group: Group | tuple[str, str]) -> float | None:
        key = (group.corpus, group.label) if isinstance(group, Group) else group
        return self.ms.get((name, *key))

    def ratio(self, top: str, bottom: str, group: Group | tuple[str, str]) -> float | None:
        over, under = self.get(top, group), self.get(bottom, group)
        return over / under if over is not None and under else None


def measure(
    extractors: dict[str, Extractor], groups: list[Group], rounds: int, peer_rounds: int
) -> Timings:
    best: dict[tuple[str, str, str], float] = {}
    for round_ in range(rounds):
        # Quartile by quartile, every extractor in turn: a ratio of best passes
        # holds only if each had the same chances at a quiet moment.
        for group in groups:
            for name, function in extractors.items():
                sampled = name in SAMPLED
                if sampled and round_ >= peer_rounds:
                    continue
                gc.collect()
                forget_split_urls()  # the pages' URLs split by the extractor before
                elapsed = _pass(function, group.sample if sampled else group.pages)
                key = (name, group.corpus, group.label)
                best[key] = min(best.get(key, elapsed), elapsed)
    ms: dict[tuple[str, str, str], float] = {}
    for group in groups:
        for name in extractors:
            pages = group.sample if name in SAMPLED else group.pages
            ms[name, group.corpus, group.label] = (
                best[name, group.corpus, group.label] / len(pages) * 1e3
            )
    for corpus in dict.fromkeys(group.corpus for group in groups):
        members = [group for group in groups if group.corpus == corpus]
        total = sum(len(group.pages) for group in members)
        for name in extractors:
            # Each quartile's ms/page weighted by its pages: for a full pass, the
            # summed best passes over all pages; for a sample, its estimate.
            ms[name, corpus, "all"] = (
                sum(ms[name, corpus, group.label] * len(group.pages) for group in members) / total
            )
    return Timings(ms)


def _cell(value: float | None, spec: str, suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


def _rows(groups: list[Group]) -> list[tuple[str, tuple[str, str]]]:
    """(row label, key) per quartile of one corpus, then its "all" row."""
    rows = [
        (f"{g.label} {g.low / 1e3:.1f}-{g.high / 1e3:.0f} KB", (g.corpus, g.label)) for g in groups
    ]
    low, high = min(g.low for g in groups), max(g.high for g in groups)
    rows.append((f"all {low / 1e3:.1f}-{high / 1e3:.0f} KB", (groups[0].corpus, "all")))
    return rows


def print_tables(timings: Timings, groups: list[Group], names: list[str]) -> None:
    for corpus in dict.fromkeys(group.corpus for group in groups):
        members = [group for group in groups if group.corpus == corpus]
        sets = ", ".join(CORPORA[corpus])
        total = sum(len(g.pages) for g in members)
        print(f"### {corpus}: {sets} ({total} pages, {len(members[0].pages)} or so a quartile)")
        print()
        print("ms/page (CPU time, best pass):")
        print()
        header = " | ".join(f"{SHORT[name]:>12}" for name in names)
        print(f"| {'quartile':24} | {header} |")
        print(f"|{'-' * 26}|" + "|".join(f"{'-' * 13}:" for _ in names) + "|")
        for label, key in _rows(members):
            cells = " | ".join(f"{_cell(timings.get(name, key), '12.3f')}" for name in names)
            print(f"| {label:24} | {cells} |")
        print()
        print(
            "cost in bare parses (this / the parse, same quartile); metadata + language share"
            " (with / without - 1); the default fit's speed against the peers':"
        )
        print()
        columns: list[tuple[str, Callable[[tuple[str, str]], float | None], str, str]] = [
            ("default", lambda key: timings.ratio(DEFAULT, PARSE, key), ".2f", ""),
            ("article text", lambda key: timings.ratio(ARTICLE_TEXT, PARSE, key), ".2f", ""),
            ("published", lambda key: timings.ratio(PUBLISHED, PARSE, key), ".2f", ""),
            ("publ. text", lambda key: timings.ratio(PUBLISHED_TEXT, PARSE, key), ".2f", ""),
            ("m+l article", lambda key: _share(timings, DEFAULT, ARTICLE_TEXT, key), "+.1%", ""),
            ("m+l publ.", lambda key: _share(timings, PUBLISHED, PUBLISHED_TEXT, key), "+.1%", ""),
            ("vs resiliparse", lambda key: timings.ratio(RESILIPARSE, DEFAULT, key), ".2f", "x"),
            ("vs trafilatura*", lambda key: timings.ratio(TRAFILATURA, DEFAULT, key), ".1f", "x"),
            ("vs boilerpy3", lambda key: timings.ratio(BOILERPY3, DEFAULT, key), ".1f", "x"),
        ]
        header = " | ".join(f"{title:>15}" for title, *_ in columns)
        print(f"| {'quartile':24} | {header} |")
        print(f"|{'-' * 26}|" + "|".join(f"{'-' * 16}:" for _ in columns) + "|")
        for label, key in _rows(members):
            cells = " | ".join(
                f"{_cell(column(key), spec, suffix):>15}" for _, column, spec, suffix in columns
            )
            print(f"| {label:24} | {cells} |")
        print()


def _share(timings: Timings, full: str, bare: str, key: tuple[str, str]) -> float | None:
    ratio = timings.ratio(full, bare, key)
    return None if ratio is None else ratio - 1


@dataclass(frozen=True, slots=True)
class Target:
    text: str
    value: Callable[[Timings, tuple[str, str]], float | None]
    limit: float
    at_most: bool  # else at least
    spec: str


TARGETS: Final = (
    Target(
        "default fit <= 2.2 bare parses",
        lambda t, key: t.ratio(DEFAULT, PARSE, key),
        2.2,
        at_most=True,
        spec=".2f",
    ),
    Target(
        "published + metadata + language <= 2.0 parses",
        lambda t, key: t.ratio(PUBLISHED, PARSE, key),
        2.0,
        at_most=True,
        spec=".2f",
    ),
    Target(
        "metadata + language <= 10% (article)",
        lambda t, key: _share(t, DEFAULT, ARTICLE_TEXT, key),
        0.10,
        at_most=True,
        spec="+.0%",
    ),
    Target(
        "metadata + language <= 10% (published)",
        lambda t, key: _share(t, PUBLISHED, PUBLISHED_TEXT, key),
        0.10,
        at_most=True,
        spec="+.0%",
    ),
    Target(
        "default >= 1.8x resiliparse's speed",
        lambda t, key: t.ratio(RESILIPARSE, DEFAULT, key),
        1.8,
        at_most=False,
        spec=".2f",
    ),
    Target(
        "default >= 20x trafilatura's speed*",
        lambda t, key: t.ratio(TRAFILATURA, DEFAULT, key),
        20.0,
        at_most=False,
        spec=".1f",
    ),
)


def print_targets(timings: Timings, groups: list[Group]) -> None:
    """Each target on every quartile of every corpus run: met only if met on all."""
    print("### issue 24 targets (every quartile of every corpus)")
    print()
    keys = [(g.corpus, g.label) for g in groups]
    header = " | ".join(f"{corpus} {label}" for corpus, label in keys)
    print(f"| target | {header} | verdict |")
    print("|---|" + "---:|" * len(keys) + "---|")
    for target in TARGETS:
        values = [target.value(timings, key) for key in keys]
        if any(value is None for value in values):
            print(f"| {target.text} |" + " - |" * len(keys) + " not run |")
            continue
        ok = [
            value <= target.limit if target.at_most else value >= target.limit
            for value in values
            if value is not None
        ]
        cells = " | ".join(
            f"{value:{target.spec}}" + ("" if good else "!")
            for value, good in zip(values, ok, strict=True)
            if value is not None
        )
        verdict = "met" if all(ok) else f"**missed** ({ok.count(False)} of {len(ok)})"
        print(f"| {target.text} | {cells} | {verdict} |")
    print()
    print("(! marks a quartile that misses the target)")


PLOTTED: Final = (DEFAULT, PUBLISHED, PARSE, RESILIPARSE, TRAFILATURA)


def plot(timings: Timings, groups: list[Group], path: Path) -> None:
    """ms/page against page size (the quartile's median KB), log-log, one panel per corpus."""
    import matplotlib as mpl

    mpl.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    def label_125(value: float, _: object) -> str:
        """Ticks labelled at 1, 2, 3 and 5 of each decade only: the others crowd a log axis."""
        return f"{value:g}" if f"{value:e}"[0] in "1235" else ""

    plain = FuncFormatter(label_125)
    corpora = list(dict.fromkeys(group.corpus for group in groups))
    figure, axes = plt.subplots(1, len(corpora), figsize=(9, 4), squeeze=False, sharey=True)
    styles = {
        DEFAULT: ("tab:red", "o", "-"),
        PUBLISHED: ("tab:orange", "s", "--"),
        PARSE: ("black", ".", ":"),
        RESILIPARSE: ("tab:blue", "^", "-"),
        TRAFILATURA: ("tab:green", "v", "-"),
    }
    for axis, corpus in zip(axes[0], corpora, strict=True):
        members = [group for group in groups if group.corpus == corpus]
        sizes = [group.median_kb for group in members]
        for name in PLOTTED:
            values = [timings.get(name, group) for group in members]
            if any(value is None for value in values):
                continue
            color, marker, line = styles[name]
            label = name.replace("blockdensity ", "").replace(" (floor)", "")
            if name == TRAFILATURA:
                label += " (sample)"
            axis.plot(sizes, values, color=color, marker=marker, linestyle=line, label=label)
        axis.set_xscale("log")
        axis.set_yscale("log")
        total = sum(len(group.pages) for group in members)
        axis.set_title(f"{corpus}: {', '.join(CORPORA[corpus])} ({total} pages)", fontsize=9)
        axis.set_xlabel("page size, decoded HTML (KB, quartile median)", fontsize=8)
        axis.grid(visible=True, which="both", alpha=0.3)
        axis.tick_params(which="both", labelsize=7)
        for scale in (axis.xaxis, axis.yaxis):
            scale.set_major_formatter(plain)
            scale.set_minor_formatter(plain)
    axes[0][0].set_ylabel("ms per page (CPU, best pass)", fontsize=8)
    axes[0][0].legend(fontsize=7)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)


FIGURE: Final = Path(__file__).parent / "figures" / "speed_by_size.png"


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="passes per extractor (default 5)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--corpus", choices=("dev", "small", "both"), default="both")
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated peer name prefixes (resiliparse, trafilatura, boilerpy3);"
        " the fits and the parse always run",
    )
    parser.add_argument(
        "--peer-sample",
        type=int,
        default=24,
        help="pages per quartile trafilatura runs on (evenly spread by size; default 24)",
    )
    parser.add_argument(
        "--peer-rounds",
        type=int,
        default=0,
        help="rounds trafilatura takes part in (default 0: all of them)",
    )
    parser.add_argument(
        "--plot",
        nargs="?",
        const=FIGURE,
        type=Path,
        default=None,
        help="write the figure (default: bench/figures/speed_by_size.png)",
    )
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    corpora = ("dev", "small") if args.corpus == "both" else (args.corpus,)
    groups: list[Group] = []
    all_pages: list[str] = []
    for corpus in corpora:
        pages = [page.html for page in load_pages(args.data, CORPORA[corpus])]
        all_pages += pages
        groups += groups_of(corpus, pages, args.peer_sample)

    extractors = _extractors()
    if args.only:
        wanted = [prefix.strip().lower() for prefix in args.only.split(",")]
        extractors = {
            name: value
            for name, value in extractors.items()
            if name in ALWAYS or any(name.lower().startswith(prefix) for prefix in wanted)
        }
    for function in extractors.values():  # warm up imports and caches
        for page in all_pages[:: max(1, len(all_pages) // 20)]:
            function(page)

    peer_rounds = args.peer_rounds or args.rounds
    timings = measure(extractors, groups, args.rounds, peer_rounds)
    names = list(extractors)

    print(f"command: {shlex.join(['python', *sys.argv])}")
    megabytes = sum(sum(group.sizes) for group in groups) / 1e6
    print(
        f"{len(all_pages)} pages, {megabytes:.1f} MB of decoded HTML, best of {args.rounds} rounds;"
        f" python {sys.version.split()[0]}"
    )
    print(
        "default: DEFAULT_CONF (article profile, metadata, language); article text only: it"
        " without metadata and language; published: PUBLISHED_CONF (metadata and language on);"
        " published text only: it without them"
    )
    if TRAFILATURA in extractors:
        print(
            f"* trafilatura: on {args.peer_sample} pages a quartile (evenly spread by size),"
            f" best of {min(peer_rounds, args.rounds)} rounds; its 'all' rows weight the quartiles"
            " by their page counts"
        )
    print()
    print_tables(timings, groups, names)
    print_targets(timings, groups)

    for corpus in corpora:
        per_page = []
        for group in groups:
            if group.corpus != corpus:
                continue
            for page in group.pages:
                start = time.perf_counter()
                fit_text(page)
                per_page.append(time.perf_counter() - start)
        print()
        print(
            f"default fit per page ({corpus}, wall clock): median"
            f" {statistics.median(per_page) * 1e3:.3f} ms,"
            f" p90 {statistics.quantiles(per_page, n=10)[-1] * 1e3:.3f} ms,"
            f" max {max(per_page) * 1e3:.3f} ms"
        )

    gc.collect()
    _pass(fit_text, all_pages)
    gc.collect()
    after_one = _rss_mib()
    for _ in range(10):
        _pass(fit_text, all_pages)
    gc.collect()
    after_eleven = _rss_mib()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"fit memory: RSS after 1 pass {after_one:.1f} MiB, after 10 more {after_eleven:.1f} MiB "
        f"(growth {after_eleven - after_one:+.1f} MiB); peak RSS of this process {peak:.1f} MiB"
    )
    if args.plot is not None:
        plot(timings, groups, args.plot)
        print()
        print(f"figure: {args.plot}")


if __name__ == "__main__":
    main()
