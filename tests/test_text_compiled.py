"""The text passes the fit runs (blockdensity._text) against their plain Python references.

The word counter must count what tests/reference/text.py counts, SPEC
section 3 read a character at a time, in every block of every page of the
development corpus's sample (text and link text, in every script it holds), for
every Unicode character alone and beside letters, and in random text, and
word_starts locate the words the reference locates on the same pages; the
whitespace collapse must make the same lines of the same blocks and of
random text.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockdensity import DEFAULT_CONF, _text
from blockdensity.segment import (
    ANCHOR_MARK,
    BLOCK_END,
    BREAK_MARK,
    PRE,
    SUB_CLOSE,
    SUB_OPEN,
    segment,
)
from blockdensity.words import END, count_ended, word_starts
from devkit.corpus import SAMPLE_DATA, Corpus
from devkit.corpus_sample import SAMPLED_SETS
from tests.hypothesis_profiles import examples
from tests.reference import text as reference

CORPUS = Corpus(SAMPLE_DATA, SAMPLED_SETS)  # every page of the sample (tests/corpus)


def agree(texts: str) -> None:
    """Both count the same in `texts`, whose NULs are END's (count_ended's contract)."""
    assert "\x00" not in texts.replace(END, "")
    assert count_ended(texts) == reference.count_ended(texts)


def collapse_agrees(texts: list[str]) -> None:
    assert _text.collapse(texts) == reference.collapse(texts)


def stretches_agree(text: str) -> None:
    for shortest in (1, 6):
        assert _text.date_stretches(text, shortest) == reference.date_stretches(text, shortest)
        dated = _text.date_stretches(text, shortest, dated=True)
        assert dated == reference.date_stretches(text, shortest, dated=True)


def parts_agree(text: str, separator: str, indexes: list[int]) -> None:
    assert _text.parts_at(text, separator, indexes) == reference.parts_at(text, separator, indexes)


def occurrences_agree(text: str, needle: str) -> None:
    assert _text.occurrences(text, needle) == reference.occurrences(text, needle)


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
        # As evidence looks for dates: in the lowercased text (all of it, not only the
        # short blocks).
        stretches_agree(segmented.text.lower())
        # As evidence takes the short blocks' texts: every block's (and every other's).
        blocks = len(segmented.blocks)
        parts_agree(segmented.text, BLOCK_END, list(range(blocks)))
        parts_agree(segmented.text, BLOCK_END, list(range(0, blocks + 1, 2)))
        # As evidence looks for microdata's types: in the markup.
        for needle in ("itemtype", "<div", "="):
            occurrences_agree(page.html, needle)


def test_both_word_starts_agree_on_every_corpus_page() -> None:
    # As measure locates the words of a block with sup or sub: the marks made
    # separators, sup/sub edges gone; here every block of every page at once.
    for page in CORPUS.pages():
        text = segment(page.html, DEFAULT_CONF).text
        text = text.replace(ANCHOR_MARK, " ").replace(BREAK_MARK, " ").replace(BLOCK_END, " ")
        text = text.replace(SUB_OPEN, "").replace(SUB_CLOSE, "")
        assert word_starts(text) == reference.reference_starts(text), page.page_id


# The words of "{c}", "a{c}b", "{c}1" and ".{c}" by the class of c: a letter makes
# a word alone and joins its neighbours; a mark or glue joins them; a separator
# parts them; a CJK character is a word of its own and parts them; so is a
# letter of Thai, Lao, Khmer or Myanmar (a run of one: one word to ICU), whose
# marks, outside a run, join like any mark.
_WORDS_BY_CLASS = {
    "letter": (1, 1, 1, 1),
    "mark": (0, 1, 1, 0),
    "glue": (0, 1, 1, 0),
    "sep": (0, 2, 1, 0),
    "cjk": (1, 3, 2, 1),
    "dense": (1, 3, 2, 1),
    "dense_mark": (0, 1, 1, 0),
}


def test_every_character_counts_as_its_class_says() -> None:
    # The compiled counter asks each code point's class once and keeps it in a
    # table: every entry of the table, alone and beside letters, glue and digits.
    step = 65_536
    for start in range(0, sys.maxunicode + 1, step):
        chars = [chr(code) for code in range(start, min(start + step, sys.maxunicode + 1))]
        chars = [char for char in chars if char != "\x00"]  # END's alone
        texts = "".join(f"{c}{END}a{c}b{END}{c}1{END}.{c}{END}" for c in chars)
        # Each character once: past the reference's cache, which would only churn.
        classes = [reference.reference_class.__wrapped__(c) for c in chars]
        expected = [n for name in classes for n in _WORDS_BY_CLASS[name]]
        assert count_ended(texts) == expected, f"U+{start:04X}..U+{start + step - 1:04X}"


def test_the_classes_by_character_are_the_reference_s_counts() -> None:
    # The table above, checked against the reference counter itself.
    samples = {
        "letter": "\u00e9", "mark": "\u0301", "glue": "-", "sep": "\u00a0", "cjk": "\u4e2d",
        "dense": "\u0e01", "dense_mark": "\u0e34",
    }  # fmt: skip
    for name, c in samples.items():
        assert reference.reference_class(c) == name
        texts = f"{c}{END}a{c}b{END}{c}1{END}.{c}{END}"
        assert tuple(reference.count_ended(texts)) == _WORDS_BY_CLASS[name]


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
        "\u0e01", "\u0e34", "\u0e44\u0e17\u0e22", "\u1780\u17b6", "\u1000\u102c", "\u0e81",
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
    # Texts that are all whitespace too: they make no line.
    collapse_agrees(["".join(chars) for chars in texts])


@examples(500)
@given(
    st.lists(
        st.one_of(ALPHABET, st.sampled_from([*"A/Z9", "2025", "mar", "ago", "\u0663", "1.2"])),
        max_size=60,
    )
)
def test_both_date_stretches_agree_on_random_text(chars: list[str]) -> None:
    stretches_agree("".join(chars))


@pytest.mark.parametrize(
    "texts",
    [[], [" "], ["a"], [" a  b ", "\u00e9\u3000\u4e2d "], ["\U0001f600 x", "\xff"], ["a\x00b"],
     [" ", "a", "\t", "b", ""], ["\u4e2d", "  ", "\U0001f600"]],
)  # fmt: skip
def test_both_collapses_agree_on_the_edges(texts: list[str]) -> None:
    collapse_agrees(texts)


# Texts around the 32-character stretches the compiled passes check at once: the
# separators and needles at every place, the wide characters (2 and 4 bytes) too.
PIECES = st.sampled_from(
    ["a", "b", " ", "\x00", END, "item", "type", "itemtype", "x" * 31, "\u00e9", "\u2014",
     "\U0001f600", "\ud800", "\x00\x00", "  "]
)  # fmt: skip


@examples(500)
@given(st.lists(PIECES, max_size=40), st.lists(st.integers(0, 30), max_size=10))
def test_both_parts_at_agree_on_random_text(pieces: list[str], picked: list[int]) -> None:
    text = "".join(pieces)
    for separator in (END, " ", "\x00", "ab", "\x00\x00"):
        parts = len(text.split(separator))
        indexes = sorted({index for index in picked if index < parts})
        parts_agree(text, separator, indexes)
        parts_agree(text, separator, list(range(parts)))


@pytest.mark.parametrize("pattern", ["", "x" * 65])
def test_the_passes_refuse_an_empty_or_too_long_pattern(pattern: str) -> None:
    with pytest.raises(ValueError, match=r"parts_at: a separator of 1 to 64 characters"):
        _text.parts_at("a b", pattern, [0])
    with pytest.raises(ValueError, match=r"occurrences: a needle of 1 to 64 characters"):
        _text.occurrences("a b", pattern)


def test_parts_at_refuses_an_index_past_the_last_part_or_out_of_order() -> None:
    with pytest.raises(IndexError):
        _text.parts_at("a" + END + "b", END, [2])
    with pytest.raises(IndexError):
        _text.parts_at("a" + END + "b", END, [1, 0])
    with pytest.raises(ValueError, match="separator"):
        _text.parts_at("a", "", [0])


@examples(500)
@given(st.lists(PIECES, max_size=40))
def test_both_occurrences_agree_on_random_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    for needle in ("itemtype", "a", "ab", "xx", "\x00\x00", "e\u2014", "\U0001f600b"):
        occurrences_agree(text, needle)


CURRENCY_PIECES = st.sampled_from(
    ["$", "\u20ac", "\u00a3", "EUR", "EU", "kr", "k", "z\u0142", "z", "12", ".", " ", "a", "\u2014",
     "\U0001f600", "\ud800", "krkr", "USDUSD"]
)  # fmt: skip


@examples(500)
@given(st.lists(CURRENCY_PIECES, max_size=40))
def test_both_starts_of_agree_on_random_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    for needles in (("$", "\u20ac", "\u00a3", "EUR", "USD", "kr", "z\u0142"), ("kr", "k"), ("a",)):
        assert _text.starts_of(text, needles) == reference.starts_of(text, needles)
