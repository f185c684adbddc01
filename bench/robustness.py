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
time; quadratic time grows with the size ratio); the blocks, words_total,
the fallback reason, and any exception (there must be none). Then, per
case, whether the text is sensible, with one line of evidence, and the peak
RSS of the process.

Every case also checks what SPEC promises for every page: no NUL and no
marker character (a lone surrogate) in the text; on fallback the text is
exactly html_to_text's (section 1's identity); otherwise every line of the
kept text is a line of html_to_text's (only dropped blocks' text goes).

Exit status 1 when anything raised or a check failed.

    python bench/robustness.py [--data ../shared/data] [--only nested,links] [--seed 2010]
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import DEFAULT_DATA, Page, load_pages

import blockdensity.segment
from blockdensity import Fit, fit_text, html_to_text
from blockdensity.dom import parse

Html = str | bytes
T = TypeVar("T")

SEED = 2010
KB = 1_000
MB = 1_000_000
# Growth of us/KB from the smallest to the largest size above which a case
# is called out as not linear. Linear cases measure up to x2 (the smallest
# inputs fit in the CPU caches); quadratic ones grow with the size ratio (x10).
NOT_LINEAR = 3.0

# Common English words, a few accented: generated text that reads as text.
_WORD_LIST = """
    the of and to in is that for it as with was on be by this are from at or an which
    people time year city report water market school system study group public health
    said would could about after first other new more most some many during between
    café naïve über straße résumé façade piñata
"""
WORDS: tuple[str, ...] = tuple(_WORD_LIST.split())
# Glue, separators, symbols and entities: no letter or digit among them.
PUNCTUATION = (*"\"'.,!@-:;$?()/|»©—[]{}#%*+=~^", "&amp;", "&lt;", "&gt;", "&nbsp;")
# Byte sequences that are never valid UTF-8: a stray continuation byte, a lead
# byte without its continuation, an encoded surrogate, overlong forms, 0xFF.
INVALID_UTF8 = (b"\x80", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xff")
_PLACEHOLDER = "\ue000"  # stands where an invalid sequence goes, until encoding


class Corpus:
    """The development corpus, loaded on first use (only the cases that need it do)."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self._pages: list[Page] | None = None

    @property
    def available(self) -> bool:
        return self.data.is_dir()

    def pages(self) -> list[Page]:
        if self._pages is None:
            self._pages = load_pages(self.data)
        return self._pages


# ---------------------------------------------------------------- generators


def sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def article(rng: random.Random, size: int, *, gap: str = "") -> str:
    """An article of about `size` characters: a navigation list, a heading, paragraphs.

    `gap` (if any) is put between some words: the invalid-bytes cases use it.
    """
    nav = "".join(f'<li><a href="/s/{i}">{rng.choice(WORDS)}</a></li>' for i in range(8))
    parts = [f"<ul>{nav}</ul><h1>{sentence(rng, 8)}</h1>"]
    length = len(parts[0])
    while length < size:
        words = [rng.choice(WORDS) for _ in range(rng.randint(40, 120))]
        if gap:
            for _ in range(len(words) // 10):
                words[rng.randrange(len(words))] += gap
        link = rng.randrange(len(words) - 3)
        words[link] = f'<a href="/w/{length}">{words[link]}'
        words[link + 2] += "</a>"
        paragraph = f"<p>{' '.join(words)}.</p>\n"
        parts.append(paragraph)
        length += len(paragraph)
    return "".join(parts)


def no_body(size: int, rng: random.Random, _: Corpus) -> Html:
    # No html, head or body tag: the parser implies them.
    return f"<title>No body</title>{article(rng, size)}"


def frameset(frames: int, _rng: random.Random, _: Corpus) -> Html:
    # A frameset document has no body element at all.
    items = "".join(f'<frame src="/f/{i}.html" name="f{i}">' for i in range(frames))
    return (
        f'<html><head><title>Frames</title></head><frameset cols="50%,50%">{items}'
        "<noframes><p>Your browser does not show frames.</p></noframes></frameset></html>"
    )


def fragment(size: int, rng: random.Random, _: Corpus) -> Html:
    # A piece cut out of a page: stray closes, list items and cells out of
    # their containers, misnested formatting, no document around it.
    pieces: list[str] = []
    length = 0
    while length < size:
        piece = (
            f"</div></td>{sentence(rng, 6)} <li>{sentence(rng, 12)} "
            f'<a href="/x/{length}">{rng.choice(WORDS)}</a> <td>{sentence(rng, 5)}</td>'
            f" <b>{rng.choice(WORDS)} <i>{rng.choice(WORDS)}</b> {rng.choice(WORDS)}</i>"
            f" <p>{sentence(rng, 30)}\n"
        )
        pieces.append(piece)
        length += len(piece)
    return "".join(pieces)


def truncated(percent: int, _rng: random.Random, corpus: Corpus) -> Html:
    """The corpus's largest page, cut inside a tag about `percent`% of the way in."""
    page = max(corpus.pages(), key=lambda page: len(page.html))
    html = page.html
    start = len(html) * percent // 100
    # Inside an attribute value where one is near (end of input inside a
    # quoted value), else a few characters into the next tag.
    quote = html.find('href="', start)
    tag = html.find("<", start)
    if 0 <= quote < start + 10_000:
        return html[: quote + len('href="') + 4]
    return html[: tag + 3] if tag >= 0 else html


def utf8_corpus(size: int, corpus: Corpus) -> bytes:
    """Raw bytes of the corpus's UTF-8 pages, concatenated up to `size` bytes."""
    chunks: list[bytes] = []
    length = 0
    for page in corpus.pages():
        try:
            page.raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        chunks.append(page.raw)
        length += len(page.raw)
        if length >= size:
            break
    return b"".join(chunks)[:size]


def nul_bytes(size: int, rng: random.Random, corpus: Corpus) -> Html:
    # About one NUL per 100 bytes. Each goes before an ASCII byte, so the
    # UTF-8 around it stays valid (NUL is the test here), and outside tags:
    # a NUL inside "</style>" makes the rest of the page style text, in a
    # browser too, which would test the page, not the fit.
    data = utf8_corpus(size, corpus)
    cuts = sorted(
        p
        for p in rng.sample(range(1, len(data)), len(data) // 100)
        if data[p] < 0x80 and data.rfind(b"<", 0, p) < data.rfind(b">", 0, p)
    )
    pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    return b"\x00".join(pieces)


def _with_invalid_bytes(rng: random.Random, size: int, head: str) -> bytes:
    body = article(rng, size, gap=_PLACEHOLDER)
    html = f"<html><head>{head}<title>Bytes</title></head><body>{body}".encode()
    return re.sub(_PLACEHOLDER.encode(), lambda _: rng.choice(INVALID_UTF8), html)


def invalid_declared(size: int, rng: random.Random, _: Corpus) -> Html:
    # Declared UTF-8: the parser replaces each invalid sequence with U+FFFD.
    return _with_invalid_bytes(rng, size, '<meta charset="utf-8">')


def no_charset(size: int, rng: random.Random, _: Corpus) -> Html:
    # Undeclared: not valid UTF-8, so the detector picks the encoding.
    return _with_invalid_bytes(rng, size, "")


def nested_divs(depth: int, rng: random.Random, _: Corpus) -> Html:
    # A word at every level (so every level is a block), the article at the bottom.
    opens = "".join(f"<div>d{i} " for i in range(depth))
    return f"{opens}<p>{sentence(rng, 60)}</p>{'</div>' * depth}"


def _long_run(first: str, second: str, rng: random.Random) -> str:
    # A paragraph holding the run with exactly two words in it: "x" (its sup
    # does not count, and touching it sends the block through the
    # word-position regex as well) and "word", glued to the run's second half.
    return (
        f"<p>{sentence(rng, 20)}</p><p>{first} x<sup>2</sup> word{second}</p>"
        f"<p>{sentence(rng, 20)}</p>"
    )


def underscores(size: int, rng: random.Random, _: Corpus) -> Html:
    return _long_run("_" * (size // 2), "_" * (size // 2), rng)


def punctuation(size: int, rng: random.Random, _: Corpus) -> Html:
    pieces: list[str] = []
    length = 0
    while length < size:
        piece = rng.choice(PUNCTUATION)
        pieces.append(piece)
        length += len(piece)
    # Split between pieces, never inside an entity (half an entity is text).
    half = len(pieces) // 2
    return _long_run("".join(pieces[:half]), "".join(pieces[half:]), rng)


def links(count: int, rng: random.Random, _: Corpus) -> Html:
    items = "".join(f'<li><a href="/p/{i}">link {i}</a></li>' for i in range(count))
    return f"<div><ul>{items}</ul></div><article><p>{sentence(rng, 80)}</p></article>"


def sup_citations(count: int, _rng: random.Random, _: Corpus) -> Html:
    # One paragraph of cited claims: 4 counted words a claim, 1 of them a
    # link word; the citation mark begins inside sup, so it is not counted.
    claims = "".join(
        f'claim {i} holds <a href="#c{i}">source</a><sup>[{i}]</sup> ' for i in range(count)
    )
    return f"<p>{claims}</p><p>After the claims.</p>"


def large_page(size: int, _rng: random.Random, corpus: Corpus) -> Html:
    """The corpus's decoded pages, one after another, cut at `size` bytes."""
    pieces: list[str] = []
    length = 0
    for page in corpus.pages():
        pieces.append(page.html)
        length += len(page.html.encode())
        if length >= size:
            break
    return "".join(pieces).encode()[:size].decode("utf-8", "ignore")


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
    Case("underscores", (100 * KB, 300 * KB, MB), _bytes, underscores, two_words_in_run),
    Case("punctuation", (100 * KB, 300 * KB, MB), _bytes, punctuation, two_words_in_run),
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


def _invariants(fit: Fit, text: str) -> list[str]:
    """What SPEC promises of every page, whatever the input."""
    problems = []
    for name, value in (("fit text", fit.text), ("html_to_text", text)):
        if "\x00" in value:
            problems.append(f"NUL in {name}")
        if any("\ud800" <= char <= "\udfff" for char in value):
            problems.append(f"a marker (lone surrogate) leaked into {name}")
    if fit.fallback and fit.text != text:
        problems.append("fallback text differs from html_to_text")
    if not fit.fallback and Counter(fit.text.split("\n")) - Counter(text.split("\n")):
        problems.append("a kept line is not a line of html_to_text")
    return problems


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
            problems += _invariants(fit, text)
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


def print_table(rows: Sequence[Row]) -> list[str]:
    """The table; returns the cases whose time per KB grew more than NOT_LINEAR."""
    print(
        "| case | size | input | parse s | fit s | fit us/KB | growth | html_to_text s"
        " | h2t us/KB | growth | blocks | words_total | fallback | exception | peak RSS MiB |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|")
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
        print(
            f"| {row.case.name} | {row.case.label(row.size)} | {_bytes(row.input_bytes)}"
            f" {row.kind} | {row.parse_seconds:.3f} | {row.fit_seconds:.3f} | {fit_rate:.0f} |"
            f" x{fit_growth:.1f} |"
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
    print()
    not_linear = print_table(rows)
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
