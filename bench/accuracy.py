"""Accuracy of the fit against its peers on the development corpus, and the ablation SPEC asks for.

Every extractor reads the same input, each page decoded once as a browser
would (devkit.corpus: Page.html), and is scored by devkit.corpus as
../shared/data/README.md says for each kind of set:
- the ROUGE sets (scrapinghub, readability): per page, multiset
  whitespace-token precision, recall and F1 against the human-marked text;
  the table gives the mean of each over a set, and "overall" is the mean
  over every page of the ROUGE sets run (so the larger set weighs more);
- the segment set (trafilatura-eval): per page, the passages that must be
  in the output and those that must not, found or not (whitespace
  collapsed); the counts are summed over the set and precision, recall, F1
  and accuracy come from the sums.
The fallback rate is the share of pages on which the fit returned the whole
page (docs/spec.md section 6); peers have none ("-").

The extractors: the fit with DEFAULT_CONF; trafilatura's `extract` with its
defaults (comments included, as in the data README's figures); resiliparse
`extract_plain_text(..., main_content=True)`; boilerpy3's
NumWordsRulesExtractor (the reference's own decision tree); jusText with the
English stoplist, keeping the paragraphs it does not call boilerplate, one a
line; readability-lxml, whose `summary()` is HTML: it is turned into text with
`blockdensity.html_to_text`, so that every extractor is compared on text; and
"all text", `html_to_text` of the whole page (the floor any filter must beat
on precision). A peer that raises on a page scores that page as empty text;
the failures are counted and listed. A peer that is not installed is skipped
with a note.

Speed: each page's extraction is timed in process CPU time, and pages/s per
set is the set's pages over their summed time. Peers are slow (trafilatura
and readability-lxml take a minute each over the corpus), so their outputs
and times are cached on disk (bench/out/peer-cache/, git-ignored), keyed by
peer, its version and the page id: a cached peer's pages/s is the one
measured when its cache was filled, on the same machine; `--no-cache`
measures everything again. The fit is always run and timed in this run.

The second table is the ablation docs/spec.md sections 2 and 5 leave to measurement
(the boundary set, the semantic drops), the published profile, and each
article rule switched off alone, each against DEFAULT_CONF, in F1 points
(0.01 F1 = 1 point). `--plot` writes a figure: F1 against pages/s for every
extractor, one panel per set.

    python -m bench.accuracy [--data ../shared/data]
        [--sets scrapinghub,readability,trafilatura-eval]
        [--peers trafilatura,resiliparse,boilerpy3,justext,readability-lxml,all-text]
        [--plot bench/figures/accuracy_speed.png] [--no-cache] [--no-ablation]

`--peers ''` runs the fit alone (a few seconds).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import blockdensity.segment
from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, Rule, fit_text, html_to_text, tags
from devkit.corpus import (
    ALL_SETS,
    DEFAULT_DATA,
    SEGMENT_SETS,
    Counts,
    Page,
    Score,
    count_segments,
    load_pages,
    score,
    sum_counts,
)

Extractor = Callable[[str], str]

FIT = "blockdensity fit"  # DEFAULT_CONF: the article profile
PUBLISHED = "blockdensity published"
OVERALL = "overall"  # every page of the ROUGE sets run
BENCH_OUT = Path(__file__).resolve().parent / "out"
CACHE = BENCH_OUT / "peer-cache"
DEFAULT_PLOT = Path(__file__).resolve().parent / "figures" / "accuracy_speed.png"


def _trafilatura() -> Extractor:
    import trafilatura

    def extract(html: str) -> str:
        text = trafilatura.extract(html)
        return text or ""

    return extract


def _resiliparse() -> Extractor:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    def extract(html: str) -> str:
        text: str = extract_plain_text(HTMLTree.parse(html), main_content=True)
        return text

    return extract


def _boilerpy3() -> Extractor:
    from boilerpy3.extractors import NumWordsRulesExtractor

    extractor = NumWordsRulesExtractor(raise_on_failure=False)

    def extract(html: str) -> str:
        text: str = extractor.get_content(html)
        return text

    return extract


def _justext() -> Extractor:
    import justext

    stoplist = justext.get_stoplist("English")

    def extract(html: str) -> str:
        paragraphs = justext.justext(html, stoplist)
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return extract


def _readability() -> Extractor:
    from readability import Document

    def extract(html: str) -> str:
        # summary() is HTML; the one renderer turns it into text so that the
        # comparison is on text, not on one peer's choice of converter.
        return html_to_text(Document(html).summary())

    return extract


def _all_text() -> Extractor:
    return html_to_text


# name -> (distribution whose version is printed, factory). The factories
# import lazily, so a peer that is not installed costs only its own row.
PEERS: dict[str, tuple[str | None, Callable[[], Extractor]]] = {
    "trafilatura": ("trafilatura", _trafilatura),
    "resiliparse": ("resiliparse", _resiliparse),
    "boilerpy3": ("boilerpy3", _boilerpy3),
    "justext": ("jusText", _justext),
    "readability-lxml": ("readability-lxml", _readability),
    "all-text": (None, _all_text),
}

# Peers log a warning per odd page (boilerpy3's "nested A elements",
# readability's candidates); hundreds of them would bury the tables.
_NOISY_LOGGERS = ("trafilatura", "htmldate", "courlan", "readability", "boilerpy3", "justext")


@dataclass(frozen=True, slots=True)
class Failure:
    page: Page
    error: str


# A page's outcome: a Score on a ROUGE set, Counts on a segment set.
Outcome = Score | Counts


@dataclass(frozen=True, slots=True)
class Run:
    """One extractor over the pages: an outcome and CPU seconds per page, in page order."""

    name: str
    outcomes: list[Outcome]
    seconds: list[float]
    fallbacks: list[bool] | None  # the fit only
    failures: list[Failure]
    cached: bool = False  # the peer's outputs and times came from the cache


@dataclass(frozen=True, slots=True)
class Summary:
    pages: int
    f1: float
    precision: float
    recall: float
    accuracy: float | None  # segment sets only
    fallback_rate: float | None
    pages_per_second: float


def _outcome(text: str, page: Page) -> Outcome:
    return count_segments(text, page) if page.segmented else score(text, page.truth)


def _extract_timed(extract: Extractor, html: str) -> tuple[str, float, str | None]:
    start = time.process_time()
    try:
        text = extract(html) or ""
        error = None
    except Exception as exc:  # noqa: BLE001 - a peer's crash on one page scores it as empty
        text, error = "", f"{type(exc).__name__}: {exc}"
    return text, time.process_time() - start, error


def _cache_file(name: str) -> Path | None:
    """Where a peer's outputs are kept: a file per peer and version (None: not cached,
    for "all text", which is the fit's own renderer and as fast)."""
    distribution = PEERS[name][0]
    return CACHE / f"{name}-{_version(distribution)}.json" if distribution else None


def run_peer(name: str, extract: Extractor, pages: Sequence[Page], *, cache: bool = True) -> Run:
    """The peer over `pages`; its outputs and times from the cache where it has them
    (keyed by page id, in a file per peer version), the rest run and stored."""
    path = _cache_file(name) if cache else None
    cache = path is not None
    stored: dict[str, list[object]] = {}
    if path is not None and path.is_file():
        stored = json.loads(path.read_text(encoding="utf-8"))
    outcomes: list[Outcome] = []
    seconds: list[float] = []
    failures: list[Failure] = []
    fresh = 0
    for page in pages:
        entry = stored.get(page.page_id)
        if entry is None:
            text, elapsed, error = _extract_timed(extract, page.html)
            stored[page.page_id] = [text, elapsed, error]
            fresh += 1
        else:
            text, elapsed = str(entry[0]), float(entry[1])  # type: ignore[arg-type]
            error = None if entry[2] is None else str(entry[2])
        if error is not None:
            failures.append(Failure(page, str(error)))
        outcomes.append(_outcome(text, page))
        seconds.append(elapsed)
    if path is not None and fresh:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(stored), encoding="utf-8")
        os.replace(temporary, path)
    return Run(name, outcomes, seconds, None, failures, cached=cache and fresh < len(pages))


def run_fit(name: str, conf: Conf, pages: Sequence[Page]) -> Run:
    # Not wrapped: the fit never raises (docs/spec.md section 7), so an exception is
    # a bug that should stop the benchmark, not a zero in a table.
    outcomes: list[Outcome] = []
    seconds: list[float] = []
    fallbacks: list[bool] = []
    for page in pages:
        start = time.process_time()
        fit = fit_text(page.html, conf)
        seconds.append(time.process_time() - start)
        outcomes.append(_outcome(fit.text, page))
        fallbacks.append(fit.fallback)
    return Run(name, outcomes, seconds, fallbacks, [])


def in_group(page: Page, group: str) -> bool:
    return page.set_name == group or (group == OVERALL and not page.segmented)


def summarize(run: Run, pages: Sequence[Page], group: str) -> Summary:
    chosen = [i for i, page in enumerate(pages) if in_group(page, group)]
    fallback = None
    if run.fallbacks is not None:
        fallback = sum(run.fallbacks[i] for i in chosen) / len(chosen)
    elapsed = sum(run.seconds[i] for i in chosen)
    rate = len(chosen) / elapsed if elapsed > 0 else float("inf")
    if group in SEGMENT_SETS:
        counts = sum_counts(run.outcomes[i] for i in chosen)  # type: ignore[misc]
        return Summary(
            len(chosen), counts.f1, counts.precision, counts.recall, counts.accuracy, fallback, rate
        )
    scores = [run.outcomes[i] for i in chosen]
    return Summary(
        pages=len(chosen),
        f1=statistics.fmean(s.f1 for s in scores),
        precision=statistics.fmean(s.precision for s in scores),
        recall=statistics.fmean(s.recall for s in scores),
        accuracy=None,
        fallback_rate=fallback,
        pages_per_second=rate,
    )


def ablation_variants() -> list[tuple[str, Conf]]:
    """The configurations SPEC leaves to measurement, each a change of DEFAULT_CONF.

    The boundary sets are built from the seed list, not from the default, so
    each row means the same whichever set is the default today.
    """
    seed = tags.SEED_BOUNDARIES
    replace = dataclasses.replace
    rules = sorted(Rule)
    letters = [chr(ord("g") + index) for index in range(len(rules))]
    return [
        ("(a) SPEC's seed boundaries", replace(DEFAULT_CONF, boundaries=seed)),
        (
            "(b) seed + block-display extra",
            replace(DEFAULT_CONF, boundaries=seed | tags.BLOCK_DISPLAY_EXTRA),
        ),
        ("(c) default + br", replace(DEFAULT_CONF, boundaries=DEFAULT_CONF.boundaries | {"br"})),
        ("(d) default, ARIA roles off", replace(DEFAULT_CONF, drop_roles=frozenset())),
        ("(e) default, no semantic drops", DEFAULT_CONF.without_drops()),
        ("(f) published profile (SPEC alone)", PUBLISHED_CONF),
        *(
            (f"({letter}) default, without {rule}", replace(DEFAULT_CONF, article_rules=others))
            for letter, rule in zip(letters, rules, strict=True)
            for others in [DEFAULT_CONF.article_rules - {rule}]
        ),
    ]


def _describe(conf: Conf) -> str:
    extra = conf.boundaries - tags.SEED_BOUNDARIES
    boundaries = "seed" + (" + " + ", ".join(sorted(extra)) if extra else "")
    missing = tags.SEED_BOUNDARIES - conf.boundaries
    if missing:
        boundaries += " - " + ", ".join(sorted(missing))
    drops = ", ".join(sorted(conf.drop_elements)) or "none"
    roles = ", ".join(sorted(conf.drop_roles)) or "none"
    rules = ", ".join(sorted(conf.rules)) or "none"
    return (
        f"boundaries: {boundaries}; drop_elements: {drops}; drop_roles: {roles};"
        f" profile: {conf.profile}; article rules: {rules}"
    )


def _versions(peers: Sequence[str]) -> str:
    build = "mypyc-compiled" if blockdensity.segment.__file__.endswith(".so") else "pure Python"
    parts = [
        f"python {sys.version.split()[0]}",
        f"blockdensity {_version('blockdensity')} ({build})",
        f"selectolax {_version('selectolax')}",
    ]
    distributions = [PEERS[name][0] for name in peers]
    parts += [f"{d} {_version(d)}" for d in distributions if d is not None]
    return ", ".join(parts)


def _version(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "not installed"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _comma_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


@dataclass(frozen=True, slots=True)
class Options:
    data: Path
    sets: list[str]
    peers: list[str]
    plot: Path | None
    cache: bool
    ablation: bool


def _arguments() -> Options:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the corpus folder")
    parser.add_argument("--sets", default=",".join(ALL_SETS), help="comma-separated set names")
    parser.add_argument(
        "--peers",
        default=",".join(PEERS),
        help="comma-separated peers to run besides the fit ('' for none; default all)",
    )
    parser.add_argument(
        "--plot",
        type=Path,
        default=DEFAULT_PLOT,
        help="where to write the F1-against-pages/s figure ('' for none)",
    )
    parser.add_argument("--no-cache", action="store_true", help="run every peer on every page")
    parser.add_argument("--no-ablation", action="store_true", help="skip the ablation table")
    args = parser.parse_args()
    plot = args.plot if str(args.plot) else None
    options = Options(
        args.data,
        _comma_list(args.sets),
        _comma_list(args.peers),
        plot,
        not args.no_cache,
        not args.no_ablation,
    )
    for bad in sorted(set(options.sets) - set(ALL_SETS)):
        parser.error(f"unknown set {bad!r} (known: {', '.join(ALL_SETS)})")
    for bad in sorted(set(options.peers) - set(PEERS)):
        parser.error(f"unknown peer {bad!r} (known: {', '.join(PEERS)})")
    if not options.sets:
        parser.error("--sets names no set")
    return options


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def print_extractors(runs: Sequence[Run], pages: Sequence[Page], groups: Sequence[str]) -> None:
    print(
        "ROUGE sets: mean per-page F1, precision and recall; segment set: from the summed"
        " passage counts, with accuracy. fallback: pages where the fit kept everything;"
        " pages/s: process CPU time (* from the peer cache)."
    )
    print()
    print(
        "| set | extractor | pages | F1 | precision | recall | accuracy | fallback | pages/s"
        " | failures |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for group in groups:
        for run in runs:
            s = summarize(run, pages, group)
            failed = sum(in_group(f.page, group) for f in run.failures)
            star = "*" if run.cached else ""
            print(
                f"| {group} | {run.name} | {s.pages} | {s.f1:.4f} | {s.precision:.4f} |"
                f" {s.recall:.4f} | {_figure(s.accuracy)} | {_rate(s.fallback_rate)} |"
                f" {s.pages_per_second:,.0f}{star} | {failed} |"
            )
    failures = [(run.name, failure) for run in runs for failure in run.failures]
    if failures:
        print()
        print(f"{len(failures)} peer failures (scored as empty text):")
        for name, failure in failures:
            page = failure.page
            print(f"- {name} on {page.set_name}/{page.page_id[:12]}: {failure.error[:120]}")


def print_ablation(default_run: Run, pages: Sequence[Page], groups: Sequence[str]) -> None:
    # The default's run is reused where a variant equals DEFAULT_CONF.
    ablation = [
        (label, conf, default_run if conf == DEFAULT_CONF else run_fit(label, conf, pages))
        for label, conf in ablation_variants()
    ]
    if not any(conf == DEFAULT_CONF for _, conf, _ in ablation):
        ablation.insert(0, ("DEFAULT_CONF", DEFAULT_CONF, default_run))
    print(
        "Ablation: the fit under each configuration; delta in F1 points (x100) vs DEFAULT_CONF;"
        " on the segment set also precision and recall."
    )
    print()
    header = ""
    align = ""
    for group in groups:
        header += f" {group} F1 | delta |"
        align += "---:|---:|"
        if group in SEGMENT_SETS:
            header += " P | R |"
            align += "---:|---:|"
    print(f"| variant |{header} fallback |")
    print("|---|" + align + "---:|")
    baseline = {group: summarize(default_run, pages, group).f1 for group in groups}
    for label, conf, run in ablation:
        cells = ""
        for group in groups:
            s = summarize(run, pages, group)
            cells += f" {s.f1:.4f} | {(s.f1 - baseline[group]) * 100:+.2f} |"
            if group in SEGMENT_SETS:
                cells += f" {s.precision:.4f} | {s.recall:.4f} |"
        marker = " **(default)**" if conf == DEFAULT_CONF else ""
        fallback = _rate(summarize(run, pages, OVERALL).fallback_rate)
        print(f"| {label}{marker} |{cells} {fallback} |")
    print()
    print(f"DEFAULT_CONF: {_describe(DEFAULT_CONF)}")


def plot(runs: Sequence[Run], pages: Sequence[Page], sets: Sequence[str], path: Path) -> None:
    """F1 against pages/s (log scale) for every extractor, one panel per set."""
    import matplotlib as mpl

    mpl.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(sets), figsize=(5.2 * len(sets), 4.4), squeeze=False)
    for axis, set_name in zip(axes[0], sets, strict=True):
        for run in runs:
            s = summarize(run, pages, set_name)
            ours = run.name in (FIT, PUBLISHED)
            axis.scatter(
                s.pages_per_second,
                s.f1,
                s=60 if ours else 36,
                marker="*" if ours else "o",
                color="tab:red" if ours else "tab:blue",
                zorder=3,
            )
            axis.annotate(
                run.name.replace("blockdensity ", "bd "),
                (s.pages_per_second, s.f1),
                textcoords="offset points",
                xytext=(5, 4),
                fontsize=8,
            )
        axis.set_xscale("log")
        metric = "F1 (summed passages)" if set_name in SEGMENT_SETS else "mean per-page F1"
        axis.set_title(f"{set_name} ({sum(p.set_name == set_name for p in pages)} pages)")
        axis.set_xlabel("pages/s (process CPU time, log scale)")
        axis.set_ylabel(metric)
        axis.grid(visible=True, which="both", alpha=0.3)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main() -> None:
    args = _arguments()
    for name in _NOISY_LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    pages = load_pages(args.data, tuple(args.sets))

    runs = [run_fit(FIT, DEFAULT_CONF, pages), run_fit(PUBLISHED, PUBLISHED_CONF, pages)]
    skipped: list[str] = []
    for name in args.peers:
        try:
            extract = PEERS[name][1]()
        except ImportError as exc:
            skipped.append(f"{name} (not installed: {exc})")
            continue
        runs.append(run_peer(name, extract, pages, cache=args.cache))

    print(f"command: {shlex.join(['python', *sys.argv])}")
    print(f"versions: {_versions(args.peers)}")
    counts = ", ".join(f"{s} {sum(p.set_name == s for p in pages)}" for s in args.sets)
    print(f"{len(pages)} pages ({counts}), data {args.data}")
    if skipped:
        print(f"skipped: {'; '.join(skipped)}")
    print()
    # "overall" is the ROUGE sets together; with one of them it would only repeat it.
    rouge = [s for s in args.sets if s not in SEGMENT_SETS]
    groups = [*args.sets, OVERALL] if len(rouge) > 1 else args.sets
    print_extractors(runs, pages, groups)
    if args.ablation:
        print()
        print_ablation(runs[0], pages, groups)
    if args.plot is not None:
        plot(runs, pages, args.sets, args.plot)
        print()
        print(f"figure: {args.plot}")


if __name__ == "__main__":
    main()
