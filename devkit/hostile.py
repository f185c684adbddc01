"""Hostile pages built from a seed: no body, fragments, invalid bytes, deep nesting, long runs.

Each generator takes a size (characters or bytes; for some a count: levels,
links, frames, citations, or a percentage of a page), a seeded random.Random
and the development corpus (read only by those that start from real pages),
and returns the page as str or bytes.
bench.robustness times the fit on them at three sizes; the chaos harness
(devkit.chaos) mixes them into its plan as pages that must still give an
output, and the fuzzer (devkit.fuzzing) sprinkles INVALID_UTF8 into its pages.
"""

from __future__ import annotations

import random
import re
from typing import Final

from devkit.corpus import Corpus

__all__ = [
    "INVALID_UTF8",
    "PUNCTUATION",
    "WORDS",
    "Html",
    "article",
    "fragment",
    "frameset",
    "invalid_declared",
    "large_page",
    "links",
    "nested_divs",
    "no_body",
    "no_charset",
    "nul_bytes",
    "punctuation",
    "sentence",
    "sup_citations",
    "truncated",
    "underscores",
    "unspaced_thai",
    "utf8_corpus",
]

Html = str | bytes

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


def flat_divs(count: int, rng: random.Random, _: Corpus) -> Html:
    # nested_divs's markup, one level deep: the same tags and words, so the
    # difference between the two is what nesting costs.
    levels = "".join(f"<div>d{i} </div>" for i in range(count))
    return f"{levels}<p>{sentence(rng, 60)}</p>"


def unclosed_formatting(paragraphs: int, rng: random.Random, _: Corpus) -> Html:
    # Each paragraph opens a <b> it never closes, each with its own id so that
    # HTML's "Noah's Ark" clause (at most three identical ones) does not apply:
    # every later paragraph re-creates all of them, so the tree grows with the
    # square of the page.
    body = "".join(f"<p><b id=b{i}>p{i} " for i in range(paragraphs))
    return f"<p>{sentence(rng, 60)}</p>{body}"


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


# Thai consonants, vowels and tone marks: random text the segmenter has no
# dictionary word for, one long run of the script without a space.
_THAI: Final = (
    "".join(chr(code) for code in range(0x0E01, 0x0E2F)) + "\u0e30\u0e32\u0e34\u0e38\u0e48"
)


def unspaced_thai(size: int, rng: random.Random, _: Corpus) -> Html:
    """A paragraph of `size` characters of Thai without a space: the segmenter's worst case."""
    run = "".join(rng.choice(_THAI) for _ in range(size))
    return f"<p>{sentence(rng, 20)}</p><p>{run}</p>"


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
