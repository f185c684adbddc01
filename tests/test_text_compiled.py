"""The compiled text passes (blockdensity._text) against their references.

The word counter (words._count_ended_python) must count the same words in
every block of every development corpus page (text and link text, in every
script the corpus holds), in every Unicode character alone and beside
letters, and in random text; the whitespace collapse (render._collapse_python)
must make the same lines of the same blocks and random text.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockdensity import DEFAULT_CONF, render, words
from blockdensity.render import _collapse, _collapse_python
from blockdensity.segment import ANCHOR_MARK, BREAK_MARK, PRE, SUB_CLOSE, SUB_OPEN, segment
from blockdensity.words import END, _count_ended_python, count_ended
from devkit.corpus import DEFAULT_DATA, Corpus
from tests.hypothesis_profiles import examples

CORPUS = Corpus(DEFAULT_DATA)
needs_corpus = pytest.mark.skipif(not CORPUS.available, reason=f"no corpus at {DEFAULT_DATA}")
needs_compiled = pytest.mark.skipif(not words.compiled, reason="built without a compiler")


def agree(texts: str) -> None:
    """Both count the same in `texts`, whose NULs are END's (count_ended's contract:
    the reference's paths disagree on a word that runs into a bare NUL)."""
    assert "\x00" not in texts.replace(END, "")
    assert count_ended(texts) == _count_ended_python(texts)


def collapse_agrees(texts: list[str]) -> None:
    assert _collapse(texts) == _collapse_python(texts)


@needs_compiled
def test_the_installed_package_has_the_compiled_passes() -> None:
    assert words.compiled
    assert render._compiled_collapse is not None


@needs_corpus
def test_both_counters_agree_on_every_corpus_page() -> None:
    for page in CORPUS.pages():
        segmented = segment(page.html, DEFAULT_CONF)
        agree(segmented.text)
        agree(segmented.linked)
        # As measure counts it: the marks made separators, sup/sub edges gone.
        text = segmented.text.replace(ANCHOR_MARK, " ").replace(BREAK_MARK, " ")
        agree(text.replace(SUB_OPEN, "").replace(SUB_CLOSE, ""))
        # As render_blocks collapses them: the blocks outside <pre> without <br>.
        pairs = zip(segmented.blocks, segmented.block_texts(), strict=True)
        collapse_agrees([t for block, t in pairs if not block[PRE] and BREAK_MARK not in t])


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


@examples(500)
@given(st.lists(ALPHABET, max_size=80))
def test_both_counters_agree_on_random_text(chars: list[str]) -> None:
    agree("".join(chars))
    agree("".join(chars) + END)


SPACES = st.sampled_from([" ", "\t", "\n", "\u00a0", "\u3000", "\u2028", "\x1c", "\x85"])
LINE_TEXT = st.lists(st.one_of(SPACES, ALPHABET.filter(lambda char: char != END)), max_size=30)


@examples(500)
@given(st.lists(LINE_TEXT, max_size=8))
def test_both_collapses_agree_on_random_text(texts: list[list[str]]) -> None:
    # With texts that are all whitespace too: the compiled one defers to the reference.
    collapse_agrees(["".join(chars) for chars in texts])


@pytest.mark.parametrize(
    "texts",
    [[], [" "], ["a"], [" a  b ", "\u00e9\u3000\u4e2d "], ["\U0001f600 x", "\xff"], ["a\x00b"]],
)
def test_both_collapses_agree_on_the_edges(texts: list[str]) -> None:
    collapse_agrees(texts)
