"""The compiled counter (blockdensity._words) against its reference (words._count_ended_python).

Both must count the same words in every block of every development corpus
page (text and link text, in every script the corpus holds), in every
Unicode character alone and beside letters, and in random text.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockdensity import DEFAULT_CONF, words
from blockdensity.segment import ANCHOR_MARK, BREAK_MARK, SUB_CLOSE, SUB_OPEN, segment
from blockdensity.words import END, _count_ended_python, count_ended
from devkit.corpus import DEFAULT_DATA, Corpus

CORPUS = Corpus(DEFAULT_DATA)
needs_corpus = pytest.mark.skipif(not CORPUS.available, reason=f"no corpus at {DEFAULT_DATA}")
needs_compiled = pytest.mark.skipif(not words.compiled, reason="built without a compiler")


def agree(texts: str) -> None:
    """Both count the same in `texts`, whose NULs are END's (count_ended's contract:
    the reference's paths disagree on a word that runs into a bare NUL)."""
    assert "\x00" not in texts.replace(END, "")
    assert count_ended(texts) == _count_ended_python(texts)


@needs_compiled
def test_the_installed_package_has_the_compiled_counter() -> None:
    assert words.compiled


@needs_corpus
def test_both_counters_agree_on_every_corpus_page() -> None:
    for page in CORPUS.pages():
        segmented = segment(page.html, DEFAULT_CONF)
        agree(segmented.text)
        agree(segmented.linked)
        # As measure counts it: the marks made separators, sup/sub edges gone.
        text = segmented.text.replace(ANCHOR_MARK, " ").replace(BREAK_MARK, " ")
        agree(text.replace(SUB_OPEN, "").replace(SUB_CLOSE, ""))


def test_both_counters_agree_on_every_character() -> None:
    step = 4096
    for start in range(0, sys.maxunicode + 1, step):
        chars = [chr(code) for code in range(start, min(start + step, sys.maxunicode + 1))]
        chars = [char for char in chars if char != "\x00"]  # END's alone
        alone = "".join(char + END for char in chars)
        beside = "".join(f"a{char}b{END}{char}1{END}.{char}{END}" for char in chars)
        agree(alone)
        agree(beside)


@pytest.mark.parametrize(
    "texts",
    ["", "no end", "a b" + END + "c", END * 3, END + "a" + END, "e.g. don't\u2019s" + END],
)
def test_both_counters_agree_on_the_edges_of_a_batch(texts: str) -> None:
    agree(texts)


ALPHABET = st.sampled_from(
    [
        *"ab1 _.,'-()/\t\n", END, "\u00e9", "\u0301", "\u4e2d", "\u30fc", "\u0416", "\ufffd",
        "\u0915", "\u093f", "\u00a0", "\u2014", "\ud800", "\U0001f600", "\U00020000", "\u0661",
    ]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(ALPHABET, max_size=80))
def test_both_counters_agree_on_random_text(chars: list[str]) -> None:
    agree("".join(chars))
    agree("".join(chars) + END)
