"""Hostile inputs: the fit must raise nothing, stay linear in time, and return sensible text.

Each case builds one kind of hostile page at three sizes, from a fixed seed
(and from the development corpus where it needs real markup), and runs
fit_text and html_to_text on it. Time is this process's CPU time (best of 3
runs when one takes under 0.1 s, else one run), so a busy neighbour on a
shared machine does not inflate it. The table gives the input size (the UTF-8
length of a str, the length of bytes); seconds for lexbor's parse alone (the
floor under both, which tells the parser's cost from the fit's), for
fit_text and for html_to_text; microseconds per KB (1 KB = 1,000 bytes of
input); the growth of us/KB from the case's smallest size ("x1.0" is linear
time; quadratic time grows with the size ratio); the fit's us/KB as a
multiple of its median over the development corpus's pages ("x median");
the blocks, words_total, the fallback reason, and any exception (there must
be none). Then, per
case, whether the text is sensible, with one line of evidence, and the peak
RSS of the process.

Every case also checks what SPEC promises for every page (devkit.invariants):
no NUL and no marker character (a lone surrogate) in the text; on fallback
the text is exactly html_to_text's (section 1's identity); otherwise every
line of the kept text is a line of html_to_text's (only dropped blocks' text
goes). The pages come from devkit.hostile's generators.

Exit status 1 when anything raised or a check failed.

    python -m bench.robustness [--data ../shared/data] [--only nested,links] [--seed 2010]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import TypeVar

import blockdensity.segment
from blockdensity import Fit, fit_text, html_to_text
from blockdensity.dom import parse
from devkit.corpus import DEFAULT_DATA, Corpus
from devkit.hostile import (
    Html,
    flat_divs,
    fragment,
    frameset,
    invalid_declared,
    large_page,
    links,
    nested_divs,
    no_body,
    no_charset,
    nul_bytes,
    punctuation,
    sup_citations,
    truncated,
    unclosed_formatting,
    underscores,
    unspaced_thai,
)
from devkit.invariants import broken_invariants

T = TypeVar("T")

SEED = 2010
KB = 1_000
MB = 1_000_000
# Growth of us/KB from the smallest to the largest size above which a case
# is called out as not linear. Linear cases measure up to x2 (the smallest
# inputs fit in the CPU caches); quadratic ones grow with the size ratio (x10).
NOT_LINEAR = 3.0

# ------------------------------------------------------------------- checks

Check = Callable[[Fit, str, int], str | None]  # (fit, html_to_text, size) -> problem


def kept_most(fit: Fit, _text: str, _size: int) -> str | None:
    if fit.fallback or fit.words_kept * 2 < fit.words_total:
        return f"expected most words kept without fallback, got {fit.words_kept}/{fit.words_total}"
    return None


def some_text(fit: Fit, _text: str, _size: int) -> str | None:
    return None if fit.words_kept > 0 else "no words kept"


def no_text(fit: Fit, _text: str, _size: int) -> str | None:
    if fit.text or str(fit.fallback_reason) != "no_text" or fit.title != "Frames":
        return f"expected empty text, no_text, title 'Frames'; got {fit!r}"
    return None


def no_nul(fit: Fit, text: str, size: int) -> str | None:
    if "\x00" in fit.text or "\x00" in text:
        return "NUL in the text"
    return some_text(fit, text, size)


def replaced(fit: Fit, text: str, size: int) -> str | None:
    if "\ufffd" not in fit.text:
        return "no U+FFFD in the text: where did the invalid bytes go?"
    return kept_most(fit, text, size)


def deep_article(fit: Fit, _text: str, _size: int) -> str | None:
    # The 60-word paragraph is kept and the one-word levels mostly are not.
    if fit.fallback or not 60 <= fit.words_kept <= 70:
        return f"expected the 60-word paragraph kept, got {fit.words_kept} words ({fit!r})"
    return None


def one_word_each(fit: Fit, _text: str, size: int) -> str | None:
    # Every paragraph's word survives, whatever happens to the <b> around it.
    if fit.words_total != size + 60:
        return f"expected {size + 60} words, got {fit.words_total}"
    return None


def two_words_in_run(fit: Fit, text: str, size: int) -> str | None:
    # Entities render as one character, so the run's text is shorter than its
    # source; half of it is a safe floor.
    size //= 2
    runs = [block for block in fit.blocks if len(block.text) >= size]
    if len(runs) != 1 or runs[0].words != 2:
        found = [(block.words, len(block.text)) for block in runs]
        return f"expected one block of 2 words holding the run, got (words, chars) {found}"
    if len(text) < size:
        return f"html_to_text lost the run: {len(text)} characters"
    return None


def article_not_links(fit: Fit, _text: str, size: int) -> str | None:
    if fit.fallback or fit.words_kept != 80 or fit.words_total != 80 + 2 * size:
        return f"expected the 80-word article kept, the links not; got {fit!r}"
    return None


def cited(fit: Fit, _text: str, size: int) -> str | None:
    first = fit.blocks[0]
    if (first.words, first.link_words) != (4 * size, size):
        got = f"{first.words}, {first.link_words}"
        return f"expected {4 * size} words, {size} link words; got {got}"
    return None


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    sizes: tuple[int, ...]
    label: Callable[[int], str]  # the size as the table shows it
    build: Callable[[int, random.Random, Corpus], Html]
    check: Check
    needs_corpus: bool = False


def _bytes(size: int) -> str:
    return f"{size / MB:.3g} MB" if size >= MB else f"{size / KB:.3g} KB"


def _count(unit: str) -> Callable[[int], str]:
    return lambda size: f"{size:,} {unit}"


CASES = (
    Case("no <body> tag", (100 * KB, 300 * KB, MB), _bytes, no_body, kept_most),
    Case("frameset, no body", (5_000, 15_000, 50_000), _count("frames"), frameset, no_text),
    Case("fragment", (100 * KB, 300 * KB, MB), _bytes, fragment, some_text),
    Case("truncated mid-tag", (25, 50, 90), lambda p: f"{p}% of page", truncated, some_text, True),
    Case("NUL bytes (bytes)", (300 * KB, MB, 3 * MB), _bytes, nul_bytes, no_nul, True),
    Case("invalid UTF-8, declared", (100 * KB, MB, 3 * MB), _bytes, invalid_declared, replaced),
    Case("invalid UTF-8, no charset", (100 * KB, MB, 3 * MB), _bytes, no_charset, kept_most),
    Case("nested divs", (5_000, 20_000, 50_000), _count("divs"), nested_divs, deep_article),
    Case("flat divs", (5_000, 20_000, 50_000), _count("divs"), flat_divs, deep_article),
    Case("unclosed <b>", (2_000, 8_000, 32_000), _count("paragraphs"), unclosed_formatting,
         one_word_each),
    Case("underscores", (100 * KB, 300 * KB, MB), _bytes, underscores, two_words_in_run),
    Case("punctuation", (100 * KB, 300 * KB, MB), _bytes, punctuation, two_words_in_run),
    Case("Thai, no spaces", (100 * KB, 300 * KB, MB), _count("characters"), unspaced_thai,
         kept_most),
    Case("links", (10_000, 30_000, 100_000), _count("links"), links, article_not_links),
    Case("sup citations", (2_000, 8_000, 32_000), _count("cites"), sup_citations, cited),
    Case("large page (corpus)", (2 * MB, 5 * MB, 20 * MB), _bytes, large_page, some_text, True),
)  # fmt: skip


# ---------------------------------------------------------------- measuring


@dataclass(frozen=True, slots=True)
class Row:
    case: Case
    size: int
    input_bytes: int
    kind: str  # "str" or "bytes"
    parse_seconds: float  # lexbor alone: the floor under both
    fit_seconds: float
    text_seconds: float
    fit: Fit | None
    errors: list[str]  # formatted tracebacks
    problems: list[str]  # failed checks
    peak_rss_mib: float


def _timed(function: Callable[[], T]) -> tuple[T, float]:
    """The result of `function` and its best CPU time over 1 run, or 3 when it is quick."""
    start = time.process_time()
    result = function()
    best = time.process_time() - start
    if best < 0.1:
        for _ in range(2):
            start = time.process_time()
            function()
            best = min(best, time.process_time() - start)
    return result, best


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(case: Case, size: int, rng: random.Random, corpus: Corpus) -> Row:
    html = case.build(size, rng, corpus)
    input_bytes = len(html) if isinstance(html, bytes) else len(html.encode())
    kind = "bytes" if isinstance(html, bytes) else "str"
    errors: list[str] = []
    fit: Fit | None = None
    text: str | None = None
    fit_seconds = text_seconds = float("nan")
    _, parse_seconds = _timed(lambda: parse(html))
    try:
        fit, fit_seconds = _timed(lambda: fit_text(html))
    except Exception:  # noqa: BLE001 - recorded and printed loudly: the point of the run
        errors.append(f"fit_text: {traceback.format_exc()}")
    try:
        text, text_seconds = _timed(lambda: html_to_text(html))
    except Exception:  # noqa: BLE001 - as above
        errors.append(f"html_to_text: {traceback.format_exc()}")
    problems: list[str] = []
    if fit is not None and text is not None:
        try:
            problems += broken_invariants(fit, text)
            problem = case.check(fit, text, size)
        except Exception:  # noqa: BLE001 - a crash in reading the Fit is a finding too
            errors.append(f"reading the Fit: {traceback.format_exc()}")
        else:
            if problem:
                problems.append(problem)
    return Row(
        case, size, input_bytes, kind, parse_seconds, fit_seconds, text_seconds, fit, errors,
        problems, _peak_rss_mib(),
    )  # fmt: skip


# ----------------------------------------------------------------- printing


def _us_per_kb(seconds: float, input_bytes: int) -> float:
    return seconds * 1e6 / (input_bytes / KB)


def corpus_median_us_per_kb(corpus: Corpus) -> float | None:
    """The fit's median CPU time per KB over the corpus pages (as fetched), or None."""
    if not corpus.available:
        return None
    rates = []
    for page in corpus.pages():
        _, seconds = _timed(partial(fit_text, page.raw))
        rates.append(_us_per_kb(seconds, len(page.raw)))
    return statistics.median(rates)


def print_table(rows: Sequence[Row], median: float | None) -> list[str]:
    """The table; returns the cases whose time per KB grew more than NOT_LINEAR.

    "x median" is the fit's us/KB over the corpus's median us/KB (`median`).
    """
    print(
        "| case | size | input | parse s | fit s | fit us/KB | growth | x median | html_to_text s"
        " | h2t us/KB | growth | blocks | words_total | fallback | exception | peak RSS MiB |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|")
    smallest: dict[str, tuple[float, float]] = {}
    not_linear: list[str] = []
    for row in rows:
        fit_rate = _us_per_kb(row.fit_seconds, row.input_bytes)
        text_rate = _us_per_kb(row.text_seconds, row.input_bytes)
        first = smallest.setdefault(row.case.name, (fit_rate, text_rate))
        fit_growth = fit_rate / max(first[0], 1e-9)
        text_growth = text_rate / max(first[1], 1e-9)
        if row.size == row.case.sizes[-1]:
            for what, growth in (("fit_text", fit_growth), ("html_to_text", text_growth)):
                if growth > NOT_LINEAR:
                    not_linear.append(f"{row.case.name} ({what}: us/KB x{growth:.1f})")
        fit = row.fit
        blocks = f"{fit.blocks_total:,}" if fit else "-"
        words = f"{fit.words_total:,}" if fit else "-"
        fallback = str(fit.fallback_reason or "-") if fit else "-"
        raised = "**YES**" if row.errors else "no"
        ratio = f"x{fit_rate / median:.1f}" if median else "-"
        print(
            f"| {row.case.name} | {row.case.label(row.size)} | {_bytes(row.input_bytes)}"
            f" {row.kind} | {row.parse_seconds:.3f} | {row.fit_seconds:.3f} | {fit_rate:.0f} |"
            f" x{fit_growth:.1f} | {ratio} |"
            f" {row.text_seconds:.3f} | {text_rate:.0f} | x{text_growth:.1f} | {blocks} |"
            f" {words} | {fallback} | {raised} | {row.peak_rss_mib:.0f} |"
        )
    return not_linear


def print_evidence(rows: Sequence[Row]) -> None:
    for row in rows:
        where = f"{row.case.name}, {row.case.label(row.size)}"
        fit = row.fit
        if fit is None:
            print(f"- FAIL {where}: fit_text raised")
            continue
        verdict = "FAIL" if row.problems or row.errors else "ok"
        evidence = (
            f"words_kept {fit.words_kept:,}/{fit.words_total:,}, blocks_kept "
            f"{fit.blocks_kept:,}/{fit.blocks_total:,}, encoding {fit.encoding}, "
            f"text {fit.text[:60]!r}"
        )
        print(f"- {verdict} {where}: {evidence}")
        for problem in row.problems:
            print(f"    PROBLEM: {problem}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the corpus folder")
    parser.add_argument("--only", default="", help="comma-separated case name prefixes")
    parser.add_argument("--seed", type=int, default=SEED, help=f"default {SEED}")
    args = parser.parse_args()
    wanted = [prefix.strip() for prefix in args.only.split(",") if prefix.strip()]
    corpus = Corpus(args.data)

    build = "mypyc-compiled" if blockdensity.segment.__file__.endswith(".so") else "pure Python"
    print(f"command: {' '.join(['python', *sys.argv])}")
    print(
        f"python {sys.version.split()[0]}, blockdensity {version('blockdensity')} ({build}),"
        f" selectolax {version('selectolax')}; seed {args.seed}"
    )
    rows: list[Row] = []
    skipped: list[str] = []
    for case in CASES:
        if wanted and not any(case.name.startswith(prefix) for prefix in wanted):
            continue
        if case.needs_corpus and not corpus.available:
            skipped.append(case.name)
            continue
        for size in case.sizes:
            # A generator per size, seeded from the case and the size: any
            # one row can be rebuilt alone, identical.
            rng = random.Random(f"{args.seed}/{case.name}/{size}")
            rows.append(measure(case, size, rng, corpus))
    if skipped:
        print(f"skipped (no corpus at {args.data}): {', '.join(skipped)}")
    median = corpus_median_us_per_kb(corpus)
    if median is not None:
        print(f"the fit's median over the corpus's pages: {median:.1f} us/KB")
    print()
    not_linear = print_table(rows, median)
    print()
    print(f"peak RSS of this process: {_peak_rss_mib():.0f} MiB")
    if not_linear:
        print(f"NOT LINEAR (us/KB grew over x{NOT_LINEAR:g}): {'; '.join(not_linear)}")
    print()
    print("Is the fit's text sensible?")
    print_evidence(rows)
    errors = [(row, error) for row in rows for error in row.errors]
    failed = sum(bool(row.problems) for row in rows)
    if errors:
        print()
        print("!" * 72)
        print(f"!!! {len(errors)} EXCEPTION(S): the fit must never raise")
        print("!" * 72)
        for row, error in errors:
            print(f"--- {row.case.name}, {row.case.label(row.size)}: {error}")
    if errors or failed:
        print(f"\n{len(errors)} exception(s), {failed} failed check(s)")
        sys.exit(1)


if __name__ == "__main__":
    main()
