"""Accuracy of the fit against its peers on the development corpus, and the ablation SPEC asks for.

Every extractor reads the same input, each page decoded once as a browser
would (devkit.corpus: Page.html), and is scored by devkit.corpus's
`score`: per page, multiset whitespace-token precision, recall and F1 against
the human-marked text; the table gives the mean of each over a set, and
"overall" is the mean over every page of the sets run (so the larger set
weighs more). The fallback rate is the share of pages on which the fit
returned the whole page (SPEC section 6); peers have none ("-").

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

The second table is the ablation SPEC sections 2 and 5 leave to measurement:
the boundary set (SPEC's seed list, plus the other block-display elements,
plus <br>) and the semantic drops (ARIA roles off, no drops at all), each
against DEFAULT_CONF, in F1 points (0.01 F1 = 1 point).

    python -m bench.accuracy [--data ../shared/data] [--sets scrapinghub,readability]
        [--peers trafilatura,resiliparse,boilerpy3,justext,readability-lxml,all-text]

`--peers ''` runs the fit alone (a few seconds).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import shlex
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import blockdensity.segment
from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, Rule, fit_text, html_to_text, tags
from devkit.corpus import DEFAULT_DATA, SETS, Page, Score, load_pages, score

Extractor = Callable[[str], str]

FIT = "blockdensity fit"  # DEFAULT_CONF: the article profile
PUBLISHED = "blockdensity published"
OVERALL = "overall"


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


@dataclass(frozen=True, slots=True)
class Run:
    """One extractor over the pages: a score per page, in page order."""

    name: str
    scores: list[Score]
    fallbacks: list[bool] | None  # the fit only
    failures: list[Failure]


@dataclass(frozen=True, slots=True)
class Summary:
    pages: int
    f1: float
    precision: float
    recall: float
    fallback_rate: float | None


def run_peer(name: str, extract: Extractor, pages: Sequence[Page]) -> Run:
    scores: list[Score] = []
    failures: list[Failure] = []
    for page in pages:
        try:
            text = extract(page.html)
        except Exception as exc:  # noqa: BLE001 - a peer's crash on one page scores it as empty
            failures.append(Failure(page, f"{type(exc).__name__}: {exc}"))
            text = ""
        scores.append(score(text, page.truth))
    return Run(name, scores, None, failures)


def run_fit(name: str, conf: Conf, pages: Sequence[Page]) -> Run:
    # Not wrapped: the fit never raises (SPEC section 7), so an exception is
    # a bug that should stop the benchmark, not a zero in a table.
    fits = [fit_text(page.html, conf) for page in pages]
    scores = [score(fit.text, page.truth) for fit, page in zip(fits, pages, strict=True)]
    return Run(name, scores, [fit.fallback for fit in fits], [])


def summarize(run: Run, pages: Sequence[Page], set_name: str) -> Summary:
    chosen = [i for i, page in enumerate(pages) if set_name in (OVERALL, page.set_name)]
    scores = [run.scores[i] for i in chosen]
    fallback = None
    if run.fallbacks is not None:
        fallback = sum(run.fallbacks[i] for i in chosen) / len(chosen)
    return Summary(
        pages=len(chosen),
        f1=statistics.fmean(s.f1 for s in scores),
        precision=statistics.fmean(s.precision for s in scores),
        recall=statistics.fmean(s.recall for s in scores),
        fallback_rate=fallback,
    )


def ablation_variants() -> list[tuple[str, Conf]]:
    """The configurations SPEC leaves to measurement, each a change of DEFAULT_CONF.

    The boundary sets are built from the seed list, not from the default, so
    each row means the same whichever set is the default today.
    """
    seed = tags.SEED_BOUNDARIES
    replace = dataclasses.replace
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
            for letter, rule in zip("ghijk", sorted(Rule), strict=True)
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


def _arguments() -> Options:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the corpus folder")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    parser.add_argument(
        "--peers",
        default=",".join(PEERS),
        help="comma-separated peers to run besides the fit ('' for none; default all)",
    )
    args = parser.parse_args()
    options = Options(args.data, _comma_list(args.sets), _comma_list(args.peers))
    for bad in sorted(set(options.sets) - set(SETS)):
        parser.error(f"unknown set {bad!r} (known: {', '.join(SETS)})")
    for bad in sorted(set(options.peers) - set(PEERS)):
        parser.error(f"unknown peer {bad!r} (known: {', '.join(PEERS)})")
    if not options.sets:
        parser.error("--sets names no set")
    return options


def print_extractors(runs: Sequence[Run], pages: Sequence[Page], groups: Sequence[str]) -> None:
    print("Mean per-page F1, precision and recall; fallback: pages where the fit kept everything.")
    print()
    print("| set | extractor | pages | F1 | precision | recall | fallback | failures |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for group in groups:
        for run in runs:
            s = summarize(run, pages, group)
            failed = sum(group in (OVERALL, f.page.set_name) for f in run.failures)
            print(
                f"| {group} | {run.name} | {s.pages} | {s.f1:.4f} | {s.precision:.4f} |"
                f" {s.recall:.4f} | {_rate(s.fallback_rate)} | {failed} |"
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
    print("Ablation: the fit under each configuration; delta in F1 points (x100) vs DEFAULT_CONF.")
    print()
    header = "".join(f" {group} F1 | delta |" for group in groups)
    print(f"| variant |{header} fallback |")
    print("|---|" + "---:|---:|" * len(groups) + "---:|")
    baseline = {group: summarize(default_run, pages, group).f1 for group in groups}
    for label, conf, run in ablation:
        cells = ""
        for group in groups:
            f1 = summarize(run, pages, group).f1
            cells += f" {f1:.4f} | {(f1 - baseline[group]) * 100:+.2f} |"
        marker = " **(default)**" if conf == DEFAULT_CONF else ""
        fallback = _rate(summarize(run, pages, OVERALL).fallback_rate)
        print(f"| {label}{marker} |{cells} {fallback} |")
    print()
    print(f"DEFAULT_CONF: {_describe(DEFAULT_CONF)}")


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
        runs.append(run_peer(name, extract, pages))

    print(f"command: {shlex.join(['python', *sys.argv])}")
    print(f"versions: {_versions(args.peers)}")
    counts = ", ".join(f"{s} {sum(p.set_name == s for p in pages)}" for s in args.sets)
    print(f"{len(pages)} pages ({counts}), data {args.data}")
    if skipped:
        print(f"skipped: {'; '.join(skipped)}")
    print()
    # With one set, "overall" would only repeat it.
    groups = [*args.sets, OVERALL] if len(args.sets) > 1 else args.sets
    print_extractors(runs, pages, groups)
    print()
    print_ablation(runs[0], pages, groups)


if __name__ == "__main__":
    main()
