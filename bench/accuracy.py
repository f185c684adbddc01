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
  and accuracy come from the sums;
- the page-type set (wcxb-dev), as WCXB's evaluate.py scores it: per page,
  precision, recall and F1 of the lowercased `\\w+` words against the
  human-marked text, the mean of each over the set and over each page type
  (a table of its own, and a figure); beside them the share of the `with`
  passages found and of the `without` passages found (lowercased,
  whitespace collapsed; passages summed over the pages).
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
on precision). The page's URL, where the set gives one, goes to the fit and
to the peers whose API takes one (trafilatura, readability-lxml). A peer
that raises on a page scores that page as empty text;
the failures are counted and listed. A peer that is not installed is skipped
with a note. rs-trafilatura (a page-type aware Rust port of trafilatura)
ships a wheel for CPython 3.12 alone: it runs in that interpreter, through
bench/rs_trafilatura_runner.py, when `--rs-trafilatura-python` names one
(its defaults, the page's URL passed; its own page-type classification is
kept in the cache and compared with WCXB's labels); otherwise it is skipped
with a note.

Speed: each page's extraction is timed in process CPU time, and pages/s per
set is the set's pages over their summed time. Peers are slow (trafilatura
and readability-lxml take minutes each over the corpus), so their outputs
and times are cached on disk (bench/out/peer-cache/, git-ignored), keyed by
peer, its version and the page id (an output made from another URL than
the one passed now is made again): a cached peer's pages/s is the one
measured when its cache was filled, on the same machine; `--no-cache`
measures everything again. The fit is always run and timed in this run.

The second table is the ablation docs/spec.md sections 2 and 5 leave to measurement
(the boundary set, the semantic drops), the published profile, and each
article rule switched off alone, each against DEFAULT_CONF, in F1 points
(0.01 F1 = 1 point). `--plot` writes a figure: F1 against pages/s for every
extractor, one panel per set; and, when wcxb-dev is run, beside it
wcxb_types.png: each extractor's F1 on each page type.

    python -m bench.accuracy [--data ../shared/data]
        [--sets scrapinghub,readability,trafilatura-eval,wcxb-dev]
        [--peers trafilatura,resiliparse,boilerpy3,justext,readability-lxml,all-text]
        [--rs-trafilatura-python /work/rs312/bin/python]
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
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import blockdensity.segment
from blockdensity import (
    DEFAULT_CONF,
    PUBLISHED_CONF,
    Conf,
    Profile,
    Rule,
    fit_text,
    html_to_text,
    tags,
)
from devkit.corpus import (
    DEFAULT_DATA,
    EVERY_SET,
    PAGE_TYPE_SETS,
    PAGE_TYPES,
    SEGMENT_SETS,
    SETS,
    Counts,
    Page,
    Score,
    count_passages,
    count_segments,
    load_pages,
    score,
    score_words,
    sum_counts,
)

# A peer's extraction of one page: the page's HTML and URL (None where the set
# gives none) in, its text out.
Extractor = Callable[[str, str | None], str]

FIT = "blockdensity fit"  # DEFAULT_CONF: the article profile
PUBLISHED = "blockdensity published"
RS_TRAFILATURA = "rs-trafilatura"
OVERALL = "overall"  # every page of the ROUGE sets run
BENCH_OUT = Path(__file__).resolve().parent / "out"
CACHE = BENCH_OUT / "peer-cache"
DEFAULT_PLOT = Path(__file__).resolve().parent / "figures" / "accuracy_speed.png"
TYPES_PLOT = "wcxb_types.png"  # beside the --plot figure
RS_RUNNER = Path(__file__).resolve().parent / "rs_trafilatura_runner.py"


def _trafilatura() -> Extractor:
    import trafilatura

    def extract(html: str, url: str | None) -> str:
        text = trafilatura.extract(html, url=url)
        return text or ""

    return extract


def _resiliparse() -> Extractor:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    def extract(html: str, url: str | None) -> str:
        text: str = extract_plain_text(HTMLTree.parse(html), main_content=True)
        return text

    return extract


def _boilerpy3() -> Extractor:
    from boilerpy3.extractors import NumWordsRulesExtractor

    extractor = NumWordsRulesExtractor(raise_on_failure=False)

    def extract(html: str, url: str | None) -> str:
        text: str = extractor.get_content(html)
        return text

    return extract


def _justext() -> Extractor:
    import justext

    stoplist = justext.get_stoplist("English")

    def extract(html: str, url: str | None) -> str:
        paragraphs = justext.justext(html, stoplist)
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return extract


def _readability() -> Extractor:
    from readability import Document

    def extract(html: str, url: str | None) -> str:
        # summary() is HTML; the one renderer turns it into text so that the
        # comparison is on text, not on one peer's choice of converter. The
        # URL only makes the summary's links absolute.
        return html_to_text(Document(html, url=url).summary())

    return extract


def _all_text() -> Extractor:
    def extract(html: str, url: str | None) -> str:
        return html_to_text(html)

    return extract


@dataclass(frozen=True, slots=True)
class Peer:
    # The distribution whose version is printed and keys the cache (None: not
    # cached, for "all text", which is the fit's own renderer and as fast).
    distribution: str | None
    # Imports lazily, so a peer that is not installed costs only its own row.
    factory: Callable[[], Extractor]
    # Its API takes the page's URL: what it is given is part of the cache key.
    takes_url: bool


PEERS: dict[str, Peer] = {
    "trafilatura": Peer("trafilatura", _trafilatura, takes_url=True),
    "resiliparse": Peer("resiliparse", _resiliparse, takes_url=False),
    "boilerpy3": Peer("boilerpy3", _boilerpy3, takes_url=False),
    "justext": Peer("jusText", _justext, takes_url=False),
    "readability-lxml": Peer("readability-lxml", _readability, takes_url=True),
    "all-text": Peer(None, _all_text, takes_url=False),
}

# Peers log a warning per odd page (boilerpy3's "nested A elements",
# readability's candidates); hundreds of them would bury the tables.
_NOISY_LOGGERS = ("trafilatura", "htmldate", "courlan", "readability", "boilerpy3", "justext")


@dataclass(frozen=True, slots=True)
class Failure:
    page: Page
    error: str


@dataclass(frozen=True, slots=True)
class Typed:
    """A page of the page-type set: its word score and its passage counts."""

    score: Score
    passages: Counts


# A page's outcome: a Score on a ROUGE set, Counts on the segment set, Typed
# on the page-type set.
Outcome = Score | Counts | Typed


@dataclass(frozen=True, slots=True)
class Run:
    """One extractor over the pages: an outcome and CPU seconds per page, in page order."""

    name: str
    outcomes: list[Outcome]
    seconds: list[float]
    fallbacks: list[bool] | None  # the fit only
    failures: list[Failure]
    cached: bool = False  # the peer's outputs and times came from the cache
    # The extractor's own page-type classification of each page (rs-trafilatura).
    page_types: list[str | None] | None = None


@dataclass(frozen=True, slots=True)
class Summary:
    pages: int
    f1: float
    precision: float
    recall: float
    accuracy: float | None  # segment sets only
    fallback_rate: float | None
    pages_per_second: float
    # The page-type set only: the share of `with` passages found, of `without` found.
    with_share: float | None = None
    without_share: float | None = None


def _outcome(text: str, page: Page) -> Outcome:
    if page.segmented:
        return count_segments(text, page)
    if page.typed:
        return Typed(score_words(text, page.truth), count_passages(text, page))
    return score(text, page.truth)


@dataclass(frozen=True, slots=True)
class Output:
    """A peer's output on one page, as the cache keeps it."""

    text: str
    seconds: float  # process CPU time of the extraction
    error: str | None  # the peer raised (the text is then empty)
    url: str | None = None  # the URL the peer was given
    page_type: str | None = None  # the peer's own classification of the page

    def stored(self) -> list[Any]:
        return [self.text, self.seconds, self.error, self.url, self.page_type]

    @classmethod
    def from_stored(cls, entry: list[Any]) -> Output:
        # Entries written before URLs were passed hold the first three.
        text, seconds, error, url, page_type = [*entry, None, None][:5]
        return cls(
            str(text),
            float(seconds),
            None if error is None else str(error),
            None if url is None else str(url),
            None if page_type is None else str(page_type),
        )


def _url_for(page: Page, takes_url: bool) -> str | None:
    return page.url if takes_url else None


def _extract_timed(extract: Extractor, page: Page, takes_url: bool) -> Output:
    url = _url_for(page, takes_url)
    start = time.process_time()
    try:
        text = extract(page.html, url) or ""
        error = None
    except Exception as exc:  # noqa: BLE001 - a peer's crash on one page scores it as empty
        text, error = "", f"{type(exc).__name__}: {exc}"
    return Output(text, time.process_time() - start, error, url)


# A peer over the pages the cache lacks: their outputs, in page order.
Batch = Callable[[Sequence[Page]], list[Output]]


def _cache_file(name: str, peer_version: str) -> Path:
    """Where a peer's outputs are kept: a file per peer and version."""
    return CACHE / f"{name}-{peer_version}.json"


def run_peer(name: str, extract: Extractor, pages: Sequence[Page], *, cache: bool = True) -> Run:
    """The peer over `pages`; its outputs and times from the cache where it has them
    (keyed by page id, in a file per peer version), the rest run and stored."""
    peer = PEERS[name]
    path = None
    if cache and peer.distribution is not None:
        path = _cache_file(name, _version(peer.distribution))

    def batch(missing: Sequence[Page]) -> list[Output]:
        return [_extract_timed(extract, page, peer.takes_url) for page in missing]

    return run_cached(name, batch, pages, path, takes_url=peer.takes_url)


def run_cached(
    name: str, batch: Batch, pages: Sequence[Page], path: Path | None, *, takes_url: bool
) -> Run:
    """A peer's run: each page's output from the cache file `path` (None: no cache) where
    it holds one made from the URL the peer is given now, the rest from `batch`, and
    the cache updated with them."""
    stored: dict[str, list[Any]] = {}
    if path is not None and path.is_file():
        stored = json.loads(path.read_text(encoding="utf-8"))
    outputs: dict[str, Output] = {}
    missing: list[Page] = []
    for page in pages:
        entry = stored.get(page.page_id)
        output = None if entry is None else Output.from_stored(entry)
        # An output made from another URL (or none) is made again.
        if output is None or output.url != _url_for(page, takes_url):
            missing.append(page)
        else:
            outputs[page.page_id] = output
    for page, output in zip(missing, batch(missing), strict=True):
        outputs[page.page_id] = output
        stored[page.page_id] = output.stored()
    if path is not None and missing:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(stored), encoding="utf-8")
        os.replace(temporary, path)
    ordered = [outputs[page.page_id] for page in pages]
    page_types = [output.page_type for output in ordered]
    return Run(
        name,
        [_outcome(output.text, page) for output, page in zip(ordered, pages, strict=True)],
        [output.seconds for output in ordered],
        None,
        [Failure(page, o.error) for o, page in zip(ordered, pages, strict=True) if o.error],
        cached=path is not None and len(missing) < len(pages),
        page_types=page_types if any(page_types) else None,
    )


class RunnerError(Exception):
    """The rs-trafilatura runner could not start, or broke off without a page to blame."""


def rs_trafilatura_version(python: Path) -> str:
    try:
        done = subprocess.run(  # noqa: S603 - the interpreter the user named
            [python, RS_RUNNER, "--version"], capture_output=True, text=True, check=False
        )
    except OSError as exc:
        raise RunnerError(f"{python} did not start: {exc}") from exc
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["no message"]
        raise RunnerError(f"{python} {RS_RUNNER.name} --version failed: {last[0]}")
    return done.stdout.strip()


def run_rs_trafilatura(
    python: Path, peer_version: str, pages: Sequence[Page], *, cache: bool = True
) -> Run:
    """rs-trafilatura (`peer_version`, rs_trafilatura_version's) over `pages` in the
    interpreter `python` (its runner script), cached as the other peers are, with its
    own page-type classification."""
    path = _cache_file(RS_TRAFILATURA, peer_version) if cache else None

    def batch(missing: Sequence[Page]) -> list[Output]:
        outputs: list[Output] = []
        while len(outputs) < len(missing):
            rest = missing[len(outputs) :]
            done, died = _rs_runner(python, rest)
            outputs += done
            if died is not None and len(done) < len(rest):
                # The library took the process down on the next page: that
                # page scores as empty, and the runner starts again after it.
                page = rest[len(done)]
                outputs.append(Output("", 0.0, died, page.url))
        return outputs

    return run_cached(RS_TRAFILATURA, batch, pages, path, takes_url=True)


def _rs_runner(python: Path, pages: Sequence[Page]) -> tuple[list[Output], str | None]:
    """One run of the runner: the outputs of the pages it got through, in order, and
    why it stopped early (None: it finished)."""
    with tempfile.TemporaryDirectory(prefix="rs-trafilatura-") as folder:
        given, taken = Path(folder) / "pages.jsonl", Path(folder) / "outputs.jsonl"
        with open(given, "w", encoding="utf-8") as lines:
            for page in pages:
                row = {"page_id": page.page_id, "html": page.html, "url": page.url}
                lines.write(json.dumps(row) + "\n")
        done = subprocess.run(  # noqa: S603 - the interpreter the user named
            [python, RS_RUNNER, given, taken], capture_output=True, text=True, check=False
        )
        rows = []
        if taken.is_file():
            with open(taken, encoding="utf-8") as lines:
                rows = [json.loads(line) for line in lines if line.endswith("\n")]
    outputs = []
    for page, row in zip(pages, rows, strict=False):
        if row["page_id"] != page.page_id:
            raise RunnerError(f"runner answered {row['page_id']!r} for page {page.page_id!r}")
        output = Output(row["text"], row["seconds"], row["error"], page.url, row["page_type"])
        outputs.append(output)
    if done.returncode == 0:
        if len(outputs) < len(pages):
            raise RunnerError(f"runner finished after {len(outputs)} of {len(pages)} pages")
        return outputs, None
    last = done.stderr.strip().splitlines()[-1:] or ["no message"]
    if not outputs and done.returncode > 0:
        # Stopped before the first page with an error of its own (a missing
        # library, say), not a crash on a page (a signal): no page to blame.
        raise RunnerError(f"runner failed (exit {done.returncode}): {last[0]}")
    return outputs, f"runner died (exit {done.returncode}): {last[0]}"


def run_fit(name: str, conf: Conf, pages: Sequence[Page]) -> Run:
    # Not wrapped: the fit never raises (docs/spec.md section 7), so an exception is
    # a bug that should stop the benchmark, not a zero in a table.
    outcomes: list[Outcome] = []
    seconds: list[float] = []
    fallbacks: list[bool] = []
    page_types: list[str | None] = []
    for page in pages:
        start = time.process_time()
        fit = fit_text(page.html, conf, url=page.url)
        seconds.append(time.process_time() - start)
        outcomes.append(_outcome(fit.text, page))
        fallbacks.append(fit.fallback)
        page_types.append(None if fit.page_type is None else fit.page_type.value)
    # The fit's own classification (Fit.page_type), compared with WCXB's labels as a
    # peer's is; the published profile's is the same, so only the default's is shown.
    shown = page_types if conf.profile is Profile.ARTICLE else None
    return Run(name, outcomes, seconds, fallbacks, [], page_types=shown)


def type_group(set_name: str, page_type: str) -> str:
    """The group of a page-type set's pages of one type ("wcxb-dev/forum")."""
    return f"{set_name}/{page_type}"


def in_group(page: Page, group: str) -> bool:
    """A group is a set, a set's pages of one type (type_group), or OVERALL."""
    if group == OVERALL:
        return page.set_name in SETS
    set_name, _, page_type = group.partition("/")
    return page.set_name == set_name and (not page_type or page.page_type == page_type)


def _share(found: int, missed: int) -> float:
    return found / (found + missed) if found + missed else 0.0


def summarize(run: Run, pages: Sequence[Page], group: str) -> Summary:
    chosen = [i for i, page in enumerate(pages) if in_group(page, group)]
    fallback = None
    if run.fallbacks is not None:
        fallback = sum(run.fallbacks[i] for i in chosen) / len(chosen)
    elapsed = sum(run.seconds[i] for i in chosen)
    rate = len(chosen) / elapsed if elapsed > 0 else float("inf")
    outcomes = [run.outcomes[i] for i in chosen]
    counted = [outcome for outcome in outcomes if isinstance(outcome, Counts)]
    if counted:  # the segment set
        counts = sum_counts(counted)
        return Summary(
            len(chosen), counts.f1, counts.precision, counts.recall, counts.accuracy, fallback, rate
        )
    typed = [outcome for outcome in outcomes if isinstance(outcome, Typed)]
    passages = sum_counts(outcome.passages for outcome in typed)
    scores = [o.score if isinstance(o, Typed) else o for o in outcomes if not isinstance(o, Counts)]
    return Summary(
        pages=len(chosen),
        f1=statistics.fmean(s.f1 for s in scores),
        precision=statistics.fmean(s.precision for s in scores),
        recall=statistics.fmean(s.recall for s in scores),
        accuracy=None,
        fallback_rate=fallback,
        pages_per_second=rate,
        with_share=_share(passages.true_positives, passages.false_negatives) if typed else None,
        without_share=_share(passages.false_positives, passages.true_negatives) if typed else None,
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


def _versions(peers: Sequence[str], extra: Sequence[str]) -> str:
    build = "mypyc-compiled" if blockdensity.segment.__file__.endswith(".so") else "pure Python"
    parts = [
        f"python {sys.version.split()[0]}",
        f"blockdensity {_version('blockdensity')} ({build})",
        f"selectolax {_version('selectolax')}",
    ]
    distributions = [PEERS[name].distribution for name in peers]
    parts += [f"{d} {_version(d)}" for d in distributions if d is not None]
    return ", ".join([*parts, *extra])


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
    rs_trafilatura_python: Path | None
    plot: Path | None
    cache: bool
    ablation: bool


def _arguments() -> Options:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the corpus folder")
    parser.add_argument("--sets", default=",".join(EVERY_SET), help="comma-separated set names")
    parser.add_argument(
        "--peers",
        default=",".join(PEERS),
        help="comma-separated peers to run besides the fit ('' for none; default all)",
    )
    parser.add_argument(
        "--rs-trafilatura-python",
        type=Path,
        default=None,
        help="a CPython 3.12 with rs-trafilatura installed: runs it as a peer (default: skipped)",
    )
    parser.add_argument(
        "--plot",
        # A string, not a Path: Path("") is ".", which would never read as "none".
        default=str(DEFAULT_PLOT),
        help=f"where to write the F1-against-pages/s figure, {TYPES_PLOT} beside it ('' for none)",
    )
    parser.add_argument("--no-cache", action="store_true", help="run every peer on every page")
    parser.add_argument("--no-ablation", action="store_true", help="skip the ablation table")
    args = parser.parse_args()
    plot = Path(args.plot) if args.plot else None
    options = Options(
        args.data,
        _comma_list(args.sets),
        _comma_list(args.peers),
        args.rs_trafilatura_python,
        plot,
        not args.no_cache,
        not args.no_ablation,
    )
    for bad in sorted(set(options.sets) - set(EVERY_SET)):
        parser.error(f"unknown set {bad!r} (known: {', '.join(EVERY_SET)})")
    for bad in sorted(set(options.peers) - set(PEERS)):
        parser.error(f"unknown peer {bad!r} (known: {', '.join(PEERS)})")
    if not options.sets:
        parser.error("--sets names no set")
    return options


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def print_extractors(runs: Sequence[Run], pages: Sequence[Page], groups: Sequence[str]) -> None:
    print(
        "ROUGE sets and wcxb-dev: mean per-page F1, precision and recall (wcxb-dev: WCXB's"
        " lowercased word tokens); segment set: from the summed passage counts, with accuracy."
        " fallback: pages where the fit kept everything; pages/s: process CPU time (* from the"
        " peer cache)."
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


def _type_groups(set_name: str) -> list[str]:
    """The set itself ("all"), then its pages of each type, in WCXB's order."""
    return [set_name, *(type_group(set_name, page_type) for page_type in PAGE_TYPES)]


def print_page_types(runs: Sequence[Run], pages: Sequence[Page], set_name: str) -> None:
    """A page-type set: each extractor's F1 by type, then every figure by type."""
    groups = _type_groups(set_name)
    sizes = [sum(in_group(page, group) for page in pages) for group in groups]
    labels = ["all", *PAGE_TYPES]
    print(
        f"{set_name} by page type (WCXB's scoring): mean per-page word F1; with / without: the"
        " share of the `with` passages found and of the `without` passages found (lower is"
        " better), over the passages of all the pages."
    )
    print()
    header = " | ".join(f"{label} ({size})" for label, size in zip(labels, sizes, strict=True))
    print(f"| extractor | {header} | with | without |")
    print("|---|" + "---:|" * (len(groups) + 2))
    for run in runs:
        summaries = [summarize(run, pages, group) for group in groups]
        cells = " | ".join(f"{s.f1:.3f}" for s in summaries)
        whole = summaries[0]
        print(
            f"| {run.name} | {cells} | {_rate(whole.with_share)} | {_rate(whole.without_share)} |"
        )
    print()
    print("| type | extractor | pages | F1 | precision | recall | with | without |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for label, group in zip(labels, groups, strict=True):
        for run in runs:
            s = summarize(run, pages, group)
            print(
                f"| {label} | {run.name} | {s.pages} | {s.f1:.4f} | {s.precision:.4f} |"
                f" {s.recall:.4f} | {_rate(s.with_share)} | {_rate(s.without_share)} |"
            )


def print_classification(run: Run, pages: Sequence[Page], set_name: str) -> None:
    """An extractor's own page-type classification against the set's labels."""
    if run.page_types is None:
        return
    pairs = [
        (page.page_type, guess)
        for page, guess in zip(pages, run.page_types, strict=True)
        if page.set_name == set_name
    ]
    agree = sum(label == guess for label, guess in pairs)
    print(
        f"{run.name}'s page-type classification on {set_name}: {agree} of {len(pairs)} pages"
        f" ({agree / len(pairs):.1%}) get the set's label. Rows: the label; columns: its guess."
    )
    print()
    guesses = sorted({guess or "none" for _, guess in pairs} - set(PAGE_TYPES))
    columns = [*PAGE_TYPES, *guesses]
    print(f"| label | {' | '.join(columns)} | agree |")
    print("|---|" + "---:|" * (len(columns) + 1))
    tally = Counter((label, guess or "none") for label, guess in pairs)
    for label in PAGE_TYPES:
        row = [tally[label, column] for column in columns]
        print(
            f"| {label} | {' | '.join(str(n) for n in row)} |"
            f" {_rate(_share(tally[label, label], sum(row) - tally[label, label]))} |"
        )


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


def _short(name: str) -> str:
    return name.replace("blockdensity ", "bd ")


def plot(runs: Sequence[Run], pages: Sequence[Page], sets: Sequence[str], path: Path) -> None:
    """F1 against pages/s (log scale) for every extractor, one panel per set."""
    import matplotlib as mpl

    mpl.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

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
                _short(run.name),
                (s.pages_per_second, s.f1),
                textcoords="offset points",
                xytext=(5, 4),
                fontsize=8,
            )
        axis.set_xscale("log")
        # Over a decade or two matplotlib labels the minor ticks too ("2x10^1"), a
        # clutter of labels on top of each other.
        axis.xaxis.set_minor_formatter(NullFormatter())
        if set_name in SEGMENT_SETS:
            metric = "F1 (summed passages)"
        elif set_name in PAGE_TYPE_SETS:
            metric = "mean per-page word F1 (WCXB)"
        else:
            metric = "mean per-page F1"
        axis.set_title(f"{set_name} ({sum(p.set_name == set_name for p in pages)} pages)")
        axis.set_xlabel("pages/s (process CPU time, log scale)")
        axis.set_ylabel(metric)
        axis.grid(visible=True, which="both", alpha=0.3)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_page_types(runs: Sequence[Run], pages: Sequence[Page], set_name: str, path: Path) -> None:
    """A dot plot: for each page type (and all pages), every extractor's mean word F1."""
    import matplotlib as mpl

    mpl.use("Agg")
    import matplotlib.pyplot as plt

    groups = _type_groups(set_name)
    labels = [
        f"{label} ({sum(in_group(page, group) for page in pages)})"
        for label, group in zip(["all", *PAGE_TYPES], groups, strict=True)
    ]
    markers = "*sPoD^v<>Xph"
    # tab10 without its red, which is the fit's alone.
    tab10 = plt.get_cmap("tab10")
    palette = [tab10(index) for index in range(10) if index != 3]
    figure, axis = plt.subplots(figsize=(7.2, 0.42 * len(groups) + 1.6))
    rows = range(len(groups))
    # Each extractor a little above or below its type's line, so that close
    # figures stay apart.
    spread = 0.6 / max(len(runs) - 1, 1)
    for index, run in enumerate(runs):
        offset = -0.3 + index * spread if len(runs) > 1 else 0.0
        f1 = [summarize(run, pages, group).f1 for group in groups]
        ours = run.name in (FIT, PUBLISHED)
        axis.scatter(
            f1,
            [row + offset for row in rows],
            marker=markers[index % len(markers)],
            s=70 if ours else 34,
            color="tab:red" if run.name == FIT else palette[index % len(palette)],
            edgecolors="black" if ours else "none",
            linewidths=0.5,
            label=_short(run.name),
            zorder=3,
        )
    axis.set_yticks(list(rows), labels)
    axis.invert_yaxis()  # "all" on top, then WCXB's order
    for row in rows[:-1]:
        axis.axhline(row + 0.5, color="0.85", linewidth=0.6)
    axis.set_xlim(0, 1)
    axis.set_xlabel("mean per-page word F1 (WCXB's scoring)")
    axis.set_title(f"{set_name}: F1 by page type (pages)", fontsize=10)
    axis.grid(visible=True, axis="x", alpha=0.3)
    axis.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _rs_trafilatura_peer(
    python: Path | None, pages: Sequence[Page], *, cache: bool
) -> tuple[Run | None, str]:
    """rs-trafilatura's run and its version, or None and why it was skipped."""
    if python is None:
        return None, "its wheel is for CPython 3.12: --rs-trafilatura-python names one with it"
    try:
        peer_version = rs_trafilatura_version(python)
        return run_rs_trafilatura(python, peer_version, pages, cache=cache), peer_version
    except RunnerError as exc:
        return None, str(exc)


def main() -> None:
    args = _arguments()
    for name in _NOISY_LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    pages = load_pages(args.data, tuple(args.sets))

    runs = [run_fit(FIT, DEFAULT_CONF, pages), run_fit(PUBLISHED, PUBLISHED_CONF, pages)]
    skipped: list[str] = []
    for name in args.peers:
        try:
            extract = PEERS[name].factory()
        except ImportError as exc:
            skipped.append(f"{name} (not installed: {exc})")
            continue
        runs.append(run_peer(name, extract, pages, cache=args.cache))
    extra_versions: list[str] = []
    rs_run, rs_note = _rs_trafilatura_peer(args.rs_trafilatura_python, pages, cache=args.cache)
    if rs_run is None:
        skipped.append(f"{RS_TRAFILATURA} ({rs_note})")
    else:
        runs.append(rs_run)
        extra_versions.append(f"{RS_TRAFILATURA} {rs_note}")

    print(f"command: {shlex.join(['python', *sys.argv])}")
    print(f"versions: {_versions(args.peers, extra_versions)}")
    counts = ", ".join(f"{s} {sum(p.set_name == s for p in pages)}" for s in args.sets)
    print(f"{len(pages)} pages ({counts}), data {args.data}")
    if skipped:
        print(f"skipped: {'; '.join(skipped)}")
    print()
    # "overall" is the ROUGE sets together; with one of them it would only repeat it.
    rouge = [s for s in args.sets if s in SETS]
    groups = [*args.sets, OVERALL] if len(rouge) > 1 else args.sets
    print_extractors(runs, pages, groups)
    typed_sets = [s for s in args.sets if s in PAGE_TYPE_SETS]
    for set_name in typed_sets:
        print()
        print_page_types(runs, pages, set_name)
        for run in runs:
            if run.page_types is not None:
                print()
                print_classification(run, pages, set_name)
    if args.ablation:
        print()
        print_ablation(runs[0], pages, groups)
    if args.plot is not None:
        plot(runs, pages, args.sets, args.plot)
        print()
        print(f"figure: {args.plot}")
        for set_name in typed_sets:
            # One page-type set today; a second would need its own file name.
            types_path = args.plot.parent / TYPES_PLOT
            plot_page_types(runs, pages, set_name, types_path)
            print(f"figure: {types_path}")


if __name__ == "__main__":
    main()
