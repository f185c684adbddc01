"""Every page, every script: no text lost to a noscript, the words of Thai, Lao, Khmer, Myanmar.

Three tables.

1. Pages whose fit returns an empty text although a browser shows text
   (target 0). "Shows text" is devkit.visible's: the body's text as a
   browser with scripting on builds the tree, removed and hidden elements
   taken out, found without the fit. Over every page of the corpora
   (../shared/data/*/html), the same pages with the construction that once
   emptied them inserted at the top of the body (`<noscript><div
   id="x"></noscript>`), and generated pages (devkit.fuzzing's tag soup and
   element trees, from a fixed seed), under both profiles.
2. Per script, the words counted on real text against ICU's word break over
   the same text (the reference: each segment holding a letter or number is
   a word): the script's words alone (segments holding a character of the
   script; SPEC's rule for its runs) and all words (the space rule on
   the rest differs from ICU's by design, e.g. `foo-bar` is one word). Beside
   it, the lighter method SPEC allows and that was rejected: a
   letters-per-word ratio fitted on the very text it is scored on (its best
   case), with its error per paragraph of 10 script words or more. The text
   is the UDHR in each script (devkit/realtext); with --debian DIR, also
   Debian's Firefox messages (Thai, Khmer, Burmese) and LibreOffice's Khmer
   help pages, fetched into DIR beforehand with
   `apt-get download firefox-esr-l10n-th firefox-esr-l10n-km
   firefox-esr-l10n-my libreoffice-help-km`.
3. The cost: the word counter's time per character on each script's text
   and on the corpus pages' English text, and the segmenter's share; CPU
   time, best of --rounds.

    python -m bench.every_page [--data ../shared/data] [--debian DIR] [--generated 600]
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
import statistics
import time
import unicodedata
from collections.abc import Callable
from functools import partial
from pathlib import Path

from icu4py.breakers import WordBreaker

from blockdensity import PUBLISHED_CONF, fit_text, wordbreak
from blockdensity.decode import decode_html
from blockdensity.words import count_many
from devkit.corpus import DEFAULT_DATA
from devkit.fuzzing import Gen
from devkit.realtext import SCRIPTS, debian_paragraphs, udhr
from devkit.visible import has_visible_text

SEED = 2010
CONSTRUCTION = '<noscript><div id="x"></noscript>'
_BODY = re.compile(r"<body\b[^>]*>", re.IGNORECASE)
_SCRIPT_CHAR = re.compile("[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff]")
_RUN = re.compile(r"\S+")


# ------------------------------------------------------------------ 1. empty pages


def with_construction(html: str) -> str:
    """`html` with the issue's noscript construction right after its <body> tag (or first)."""
    body = _BODY.search(html)
    at = body.end() if body else 0
    return html[:at] + CONSTRUCTION + html[at:]


def empty_count(pages: list[str]) -> tuple[int, int, int]:
    """(pages showing text, of them empty under published, under article)."""
    visible = published = article = 0
    for html in pages:
        if not has_visible_text(html):
            continue
        visible += 1
        published += not fit_text(html, PUBLISHED_CONF).text
        article += not fit_text(html).text
    return visible, published, article


def generated(count: int) -> list[str]:
    rng = random.Random(SEED)
    pages = []
    for index in range(count):
        gen = Gen(random.Random(rng.getrandbits(32)))
        size = rng.randrange(200, 20_000)
        pages.append(gen.soup(size) if index % 2 else gen.tree(size, rng.randrange(2, 40)))
    return pages


def print_empty(data: Path, count: int) -> None:
    corpus: dict[str, list[str]] = {}
    for path in sorted(data.glob("*/html/*.html.gz")):
        html, _ = decode_html(gzip.decompress(path.read_bytes()))
        corpus.setdefault(path.parent.parent.name, []).append(html)
    rows: list[tuple[str, list[str]]] = list(corpus.items())
    every = [html for pages in corpus.values() for html in pages]
    rows.append(("corpus, noscript construction inserted", [with_construction(h) for h in every]))
    rows.append((f"generated (seed {SEED})", generated(count)))
    print("1. Pages returning an empty text although a browser shows text (target 0)\n")
    print("| pages | count | showing text | empty: published | empty: article |")
    print("|---|---:|---:|---:|---:|")
    for name, pages in rows:
        visible, published, article = empty_count(pages)
        print(f"| {name} | {len(pages):,} | {visible:,} | {published} | {article} |")
    print()


# ------------------------------------------------------------------ 2. words per script


def icu_counts(text: str) -> tuple[int, int]:
    """ICU's words of `text`: (those holding a character of the scripts, all)."""
    script = every = 0
    for start, end in WordBreaker(text, "root").segments():
        segment = text[start:end]
        if any(unicodedata.category(char)[0] in "LN" for char in segment):
            every += 1
            script += _SCRIPT_CHAR.search(segment) is not None
    return script, every


def fit_counts(paragraphs: list[str]) -> tuple[list[int], list[int]]:
    """The fit's words of each paragraph: (in runs of the scripts, all)."""
    every = count_many(paragraphs)
    # The runs' words are what the count loses when each script character is a space.
    rest = count_many([_SCRIPT_CHAR.sub(" ", paragraph) for paragraph in paragraphs])
    return [all_ - other for all_, other in zip(every, rest, strict=True)], every


def script_letters(text: str) -> int:
    return sum(1 for char in _SCRIPT_CHAR.findall(text) if unicodedata.category(char)[0] in "LN")


def ratio_errors(paragraphs: list[str], icu_script: list[int]) -> tuple[float, float, float]:
    """The letters-per-word ratio fitted on `paragraphs`; its median and 90th percentile
    error per paragraph of 10 script words or more."""
    letters = [script_letters(paragraph) for paragraph in paragraphs]
    ratio = sum(letters) / sum(icu_script)
    errors = sorted(
        abs(round(count / ratio) - words) / words
        for count, words in zip(letters, icu_script, strict=True)
        if words >= 10
    )
    if not errors:
        return ratio, float("nan"), float("nan")
    return ratio, statistics.median(errors), errors[int(0.9 * (len(errors) - 1))]


def print_scripts(sources: dict[str, dict[str, list[str]]]) -> None:
    print("2. Words per script on real text, against ICU's word break (the reference)\n")
    print(
        "| script | text | paragraphs | characters | script words: ICU | fit | error "
        "| paragraphs off | all words: ICU | fit | error "
        "| letters/word ratio | ratio error per paragraph: median | p90 |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for lang, texts in sources.items():
        for source, paragraphs in texts.items():
            icu = [icu_counts(paragraph) for paragraph in paragraphs]
            icu_script = [script for script, _ in icu]
            icu_all = sum(every for _, every in icu)
            fit_script, fit_all = fit_counts(paragraphs)
            off = sum(
                1 for ours, theirs in zip(fit_script, icu_script, strict=True) if ours != theirs
            )
            ratio, median, p90 = ratio_errors(paragraphs, icu_script)
            print(
                f"| {SCRIPTS[lang]} | {source} | {len(paragraphs):,} "
                f"| {sum(map(len, paragraphs)):,} | {sum(icu_script):,} | {sum(fit_script):,} "
                f"| {_error(sum(fit_script), sum(icu_script))} | {off} "
                f"| {icu_all:,} | {sum(fit_all):,} | {_error(sum(fit_all), icu_all)} "
                f"| {ratio:.2f} | {median:.1%} | {p90:.1%} |"
            )
    print()


def _error(ours: int, reference: int) -> str:
    return f"{(ours - reference) / reference:+.2%}"


# ------------------------------------------------------------------ 3. cost


def best_seconds(function: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def print_cost(sources: dict[str, dict[str, list[str]]], english: list[str], rounds: int) -> None:
    print(f"3. The word counter's cost (CPU, best of {rounds})\n")
    print("| text | characters | ns per character | of which the segmenter |")
    print("|---|---:|---:|---:|")
    texts = {
        SCRIPTS[lang]: [p for ps in found.values() for p in ps] for lang, found in sources.items()
    }
    texts["English (corpus pages' text)"] = english
    for name, paragraphs in texts.items():
        # Repeated to a comparable size, so that timer resolution does not show.
        batch = paragraphs * max(1, 400_000 // sum(map(len, paragraphs)))
        characters = sum(map(len, batch))
        counter = best_seconds(partial(count_many, batch), rounds)
        joined = "".join(paragraph + " \x00" for paragraph in batch)
        bounds = [bound for run in re.finditer(_SEGMENTED, joined) for bound in run.span()]
        segmenter = best_seconds(partial(wordbreak.count_runs, joined, bounds), rounds)
        print(
            f"| {name} | {characters:,} | {counter / characters * 1e9:.1f} "
            f"| {segmenter / characters * 1e9:.1f} |"
        )
    print()


# The runs the counter hands to the segmenter (words._DENSE_RUN, restated).
_SEGMENTED = re.compile(
    "["
    + "".join(
        re.escape(chr(code))
        for lo, hi in wordbreak.DENSE_RANGES
        for code in range(lo, hi + 1)
        if unicodedata.category(chr(code))[0] in "LN"
    )
    + "]["
    + "".join(
        re.escape(chr(code))
        for lo, hi in wordbreak.DENSE_RANGES
        for code in range(lo, hi + 1)
        if unicodedata.category(chr(code))[0] in "LNM"
    )
    + "]*+"
)


def english_text(data: Path, limit: int = 60) -> list[str]:
    paragraphs = []
    for path in sorted((data / "scrapinghub" / "html").glob("*.html.gz"))[:limit]:
        html, _ = decode_html(gzip.decompress(path.read_bytes()))
        paragraphs += fit_text(html, PUBLISHED_CONF).text.split("\n")
    return [paragraph for paragraph in paragraphs if paragraph]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--debian", type=Path, help="a folder of the .deb files named above")
    parser.add_argument("--generated", type=int, default=600, help="generated pages (600)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    print_empty(args.data, args.generated)
    sources: dict[str, dict[str, list[str]]] = {lang: {"UDHR": udhr(lang)} for lang in SCRIPTS}
    if args.debian:
        for lang, found in debian_paragraphs(args.debian).items():
            sources[lang].update(found)
    print_scripts(sources)
    print_cost(sources, english_text(args.data), args.rounds)


if __name__ == "__main__":
    main()
