"""The word rule (blockdensity.words, docs/spec.md section 3).

`char_class`, `is_cjk`, `count_words`, `count_many`, `count_ended` and
`word_starts` are called directly on strings; a few cases then go through the
fit to show that block text is counted by the same rule. Each expected count
is worked out by hand from docs/spec.md section 3.
"""

from __future__ import annotations

import unicodedata

import pytest

from blockdensity.words import (
    CJK_WORD,
    DENSE_LETTER,
    DENSE_MARK,
    END,
    GLUE,
    JOINER,
    LETTER,
    SEPARATOR,
    char_class,
    count_ended,
    count_many,
    count_words,
    is_cjk,
    word_starts,
)
from tests.helpers import C, decisions, fit, measures

# --------------------------------------------------------------------------- one character


@pytest.mark.parametrize(
    ("char", "expected"),
    [
        ("a", LETTER),
        ("Z", LETTER),
        ("\u00e9", LETTER),  # Ll
        ("\u0416", LETTER),  # Cyrillic Lu
        ("7", LETTER),  # Nd
        ("\u00bd", LETTER),  # No: numbers are letters for the rule
        ("\u216b", LETTER),  # Nl
        ("_", JOINER),
        ("\u0301", JOINER),  # Mn: a word character that makes no word by itself
        ("\u0903", JOINER),  # Mc
        ("\u65e5", CJK_WORD),
        ("\u3005", CJK_WORD),  # the iteration mark SPEC names
        ("\u30fc", CJK_WORD),  # the prolonged sound mark (script Common)
        ("\uff70", CJK_WORD),  # its half-width form
        ("\ud55c", LETTER),  # Hangul is no CJK word: it follows the normal rule
        ("+", SEPARATOR),
        ("&", SEPARATOR),
        (" ", SEPARATOR),
        ("\u00a0", SEPARATOR),
        ("\u00bb", SEPARATOR),
        ("\u2019", SEPARATOR),  # the curly apostrophe is no glue
        ("\u30fb", SEPARATOR),  # KATAKANA MIDDLE DOT is script Common
        ("\U0001f600", SEPARATOR),
        ("\x00", SEPARATOR),
    ],
)
def test_char_class_of_each_kind_of_character(char: str, expected: str) -> None:
    assert char_class(char) == expected


def test_glue_is_the_spec_list_and_each_glue_character_is_its_own_class() -> None:
    assert set(GLUE) == set("\"'.,!@-:;$?()/")
    assert [char_class(char) for char in GLUE] == list(GLUE)


@pytest.mark.parametrize(
    ("code", "cjk"),
    [
        (0x4E00, True),  # the first unified ideograph
        (0x9FFF, True),
        (0x3041, True),  # HIRAGANA LETTER SMALL A
        (0x30A1, True),  # KATAKANA LETTER SMALL A
        (0x3005, True),
        (0x30FC, True),
        (0xFF70, True),
        (0x20000, True),  # CJK Extension B
        (0x3040, False),  # unassigned, between the punctuation and Hiragana
        (0x30FB, False),
        (0x3002, False),  # IDEOGRAPHIC FULL STOP
        (0xAC00, False),  # Hangul
        (ord("a"), False),
    ],
)
def test_is_cjk_for_han_kana_and_the_marks_spec_names(code: int, cjk: bool) -> None:
    assert is_cjk(code) is cjk


# --------------------------------------------------------------------------- SPEC examples

ONE_WORD = ["e.g.", "don't", "3.14", "foo-bar", "(paren)", "x_y", "[1]", "100%", "#tag", "C++"]
TWO_WORDS = ["foo+bar", "a&b", "don\u2019t", "em\u2014dash", "co\u00adop"]
NO_WORD = ["|", "\u00bb", "\u00a9", "\u2014"]


@pytest.mark.parametrize("text", ONE_WORD)
def test_spec_examples_of_one_word(text: str) -> None:
    assert count_words(text) == 1


@pytest.mark.parametrize("text", TWO_WORDS)
def test_spec_examples_of_two_words(text: str) -> None:
    assert count_words(text) == 2


@pytest.mark.parametrize("text", NO_WORD)
def test_spec_examples_of_no_word(text: str) -> None:
    assert count_words(text) == 0


@pytest.mark.parametrize("text", ONE_WORD + TWO_WORDS + NO_WORD)
def test_spec_word_examples_through_the_fit(text: str) -> None:
    """The same examples as block text (escaped), counted by the fit."""
    escaped = text.replace("&", "&amp;")
    result = fit(f"<p>{escaped}</p>")
    assert result.blocks[0].words == count_words(text)
    assert result.blocks[0].text == text


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("caf\u00e9", 1),
        ("nai\u0308ve", 1),  # a combining mark is a word character
        ("\u0301", 0),  # a combining mark alone has no letter
        ("__", 0),
        ("_a_", 1),
        ("...", 0),
        ("a...b", 1),
        ('$5 @user a/b a:b a;b a!b a?b a,b a"b', 9),
        ("\u00bd \u00b2 \u216b \u2460", 4),  # No, No, Nl, No: numbers
        ("\u0661\u0662\u0663", 1),  # Arabic-Indic digits (Nd)
        ("a\u200bb", 2),  # ZERO WIDTH SPACE is no word character
        ("a\U0001f600b", 2),  # an emoji separates
        ("\U0001f600", 0),
        ("\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440!", 2),
        ("a\u00a0b", 2),
        ("a\tb\nc", 3),
        ("a<b>c", 3),
        ("", 0),
    ],
)
def test_word_rule(text: str, count: int) -> None:
    assert count_words(text) == count


# --------------------------------------------------------------------------- CJK


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("\u65e5\u672c\u8a9e", 3),  # Han
        ("\u3072\u3089\u304c\u306a", 4),  # Hiragana
        ("\u30e9\u30fc\u30e1\u30f3", 4),  # Katakana with U+30FC
        ("\u6642\u3005", 2),  # U+3005 iteration mark
        ("\uff97\uff70\uff92\uff9d", 4),  # half-width katakana with U+FF70
        ("\uff71\uff72\uff73", 3),
        ("\u4e2d\u6587\uff0c\u6d4b\u8bd5\u3002", 4),  # CJK punctuation is no word
        ("\u4e2d\u30fb\u65e5", 2),  # U+30FB middle dot (script Common) is no word
        ("abc\u65e5\u672c", 3),  # a CJK character ends the Latin word before it
        ("Python3\u306f", 2),
        ("\u65e5_\u672c", 2),  # underscore between two CJK words is no third word
        ("\ud55c\uad6d\uc5b4 \ubb38\uc7a5\uc785\ub2c8\ub2e4", 2),  # Hangul: by spaces
        ("\ud55c\uad6d\uc5b4\ubb38\uc7a5", 1),
        ("\uff21\uff22\uff23", 1),  # full-width Latin letters are letters
    ],
)
def test_cjk_counting(text: str, count: int) -> None:
    assert count_words(text) == count


def test_every_han_kana_letter_is_one_word() -> None:
    """Every ideograph and kana letter in Unicode counts one word, even side by side."""
    prefixes = (
        "CJK UNIFIED IDEOGRAPH-",
        "CJK COMPATIBILITY IDEOGRAPH-",
        "HIRAGANA LETTER",
        "KATAKANA LETTER",
        "HALFWIDTH KATAKANA LETTER",
    )
    chars = [
        chr(code)
        for code in range(0x2E80, 0x32400)
        if code < 0xD800 or code > 0xDFFF
        if unicodedata.name(chr(code), "").startswith(prefixes)
    ]
    assert len(chars) > 80_000
    text = "".join(chars)
    assert count_words(text) == len(chars)
    assert word_starts(text) == list(range(len(chars)))
    sample = chars[:: len(chars) // 50]
    assert [count_words(f"a{char}b") for char in sample] == [3] * len(sample)


def test_cjk_through_the_fit() -> None:
    text = "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3067\u3059\u3002" * 3  # 8 words a sentence
    result = fit(f"<p>{text}</p><p>{text}</p>")
    assert measures(result) == [(24, 0), (24, 0)]
    assert decisions(result) == [C, C]


# --------------------------------------------------------------------------- batches and paths


def test_count_many_matches_count_words() -> None:
    items = [*ONE_WORD, *TWO_WORDS, *NO_WORD, "\u65e5\u672c", "", "a b c", "\u0430 \u0431"]
    assert count_many(items) == [count_words(text) for text in items]
    assert count_many([]) == []


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("plain ascii words", 3),  # ASCII: one byte translation
        ("don\u2019t stop", 3),  # Windows-1252 covers it: don, t, stop
        ("\u03b1\u03b2\u03b3 \u03b4\u03b5", 2),  # Greek: the cp1253 table
        ("\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd", 2),  # Hebrew: cp1255
        ("\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645", 2),  # Arabic
        ("\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35", 1),  # Thai: ICU's one word (tests/test_scripts.py)
        # Devanagari and Malayalam: no code page holds them, counted by tokens.
        ("\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e", 2),
        ("\u0d2e\u0d32\u0d2f\u0d3e\u0d33\u0d02 \u0d2d\u0d3e\u0d37", 2),
        ("\u65e5\u672c\u8a9e\u3002abc", 4),  # three ideographs, the full stop, one Latin word
        ("caf\u00e9\ufffdx", 2),  # U+FFFD (an undecodable byte) separates
    ],
)
def test_each_counting_path_follows_the_rule(text: str, count: int) -> None:
    """The counter picks a code page by the text's script; every path counts alike."""
    assert count_words(text) == count
    assert len(word_starts(text)) == count
    dense = f"{text} " * 40  # mostly this script: the dense-text paths
    assert count_words(dense) == 40 * count
    assert count_many([dense, text, "a b"]) == [40 * count, count, 2]


def test_count_ended_counts_each_part_of_a_batch() -> None:
    """A batch is texts each ended by END; an empty part counts 0, an empty batch nothing."""
    assert count_ended(f"a b{END}{END}x y z{END}") == [2, 0, 3]
    assert count_ended("") == []
    latin = f"caf\u00e9 \u2014 na\u00efve{END}"
    cyrillic = f"\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440{END}"
    assert count_ended(latin + cyrillic) == [2, 2]


def test_count_many_keeps_one_count_per_text_even_with_nul_inside() -> None:
    """NUL ends a text inside a batch; in a text it is a separator, not an end."""
    assert count_many(["a\x00b", "c", ""]) == [2, 1, 0]


# --------------------------------------------------------------------------- word starts


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ("foo bar", [0, 4]),
        ("(paren) e.g.", [0, 8]),
        ("| \u00bb x", [4]),
        ("\u65e5\u672cab", [0, 1, 2]),
        ("a+b", [0, 2]),
    ],
)
def test_word_starts(text: str, starts: list[int]) -> None:
    assert word_starts(text) == starts


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ("", []),
        ("  a", [2]),
        ("caf\u00e9 \u0444\u0443", [0, 5]),  # non-ASCII: offsets are in characters
        ("\u65e5a", [0, 1]),
        ("__x", [0]),  # a word begins at its first word character, glue or not
        ("\u0301a", [0]),
    ],
)
def test_word_starts_are_character_offsets(text: str, starts: list[int]) -> None:
    assert word_starts(text) == starts


def test_word_starts_finds_as_many_words_as_count_words() -> None:
    samples = [*ONE_WORD, *TWO_WORDS, *NO_WORD, "\u65e5\u672c\u8a9e", "a\u0301b c", "x" * 5]
    assert [len(word_starts(text)) for text in samples] == [count_words(t) for t in samples]


# --------------------------------------------------------------------------- hostile text


def test_count_words_treats_nul_as_a_separator() -> None:
    """NUL is a control character (Cc): it separates `a` and `b`, two words."""
    assert count_words("a\x00b") == 2
    assert count_words("\x00foo bar") == 2


def test_counting_is_linear_on_long_punctuation_and_underscores() -> None:
    """1 MB runs that a backtracking pattern would choke on count correctly."""
    assert count_words("_" * 1_000_000) == 0
    assert count_words("-." * 500_000) == 0
    assert count_words("_" * 500_000 + "a" + "(" * 500_000) == 1
    assert word_starts("." * 200_000 + "x") == [0]


def test_every_unicode_character_has_a_class() -> None:
    """No code point (surrogates aside) makes char_class or the counter raise."""
    chars = [chr(code) for code in range(0x110000) if not 0xD800 <= code <= 0xDFFF]
    classes = {char_class(char) for char in chars[::97]}
    assert classes <= {LETTER, JOINER, SEPARATOR, CJK_WORD, DENSE_LETTER, DENSE_MARK, *GLUE}
    text = "".join(chars[::7])
    assert count_words(text) == len(word_starts(text)) > 0
