"""The words of Thai, Lao, Khmer and Myanmar (docs/spec.md section 3): ICU's dictionary word break.

A run of these scripts' letters and marks counts as the words ICU's word break
iterator finds in it. The expected counts here are ICU's own, asked directly
of icu4py over the whole text (each segment holding a letter or number is a
word), never of blockdensity.wordbreak. The real text is the UDHR's in each
script (devkit/realtext/, from the gflanguages package).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from icu4py.breakers import WordBreaker

from blockdensity import PUBLISHED_CONF, Decision, Reason, cli, fit_text
from blockdensity.words import (
    DENSE_LETTER,
    DENSE_MARK,
    END,
    JOINER,
    LETTER,
    SEPARATOR,
    char_class,
    count_ended,
    count_many,
    count_words,
    word_starts,
)
from devkit.realtext import SCRIPTS, udhr
from tests.reference.text import count_ended as reference_count_ended


def icu_words(text: str) -> list[str]:
    """ICU's words of `text`: its word break segments that hold a letter or a number."""
    return [
        text[start:end]
        for start, end in WordBreaker(text, "root").segments()
        if any(unicodedata.category(char)[0] in "LN" for char in text[start:end])
    ]


def icu_starts(text: str) -> list[int]:
    return [
        start
        for start, end in WordBreaker(text, "root").segments()
        if any(unicodedata.category(char)[0] in "LN" for char in text[start:end])
    ]


# --------------------------------------------------------------------------- characters


@pytest.mark.parametrize(
    ("char", "expected"),
    [
        ("\u0e01", DENSE_LETTER),  # THAI CHARACTER KO KAI
        ("\u0e34", DENSE_MARK),  # THAI CHARACTER SARA I (Mn)
        ("\u0e46", DENSE_LETTER),  # THAI CHARACTER MAIYAMOK (Lm)
        ("\u0e52", DENSE_LETTER),  # THAI DIGIT TWO (Nd)
        ("\u0e4f", SEPARATOR),  # THAI CHARACTER FONGMAN (Po): punctuation
        ("\u0e81", DENSE_LETTER),  # LAO LETTER KO
        ("\u0eb4", DENSE_MARK),
        ("\u1780", DENSE_LETTER),  # KHMER LETTER KA
        ("\u17b6", DENSE_MARK),  # KHMER VOWEL SIGN AA (Mc)
        ("\u17d4", SEPARATOR),  # KHMER SIGN KHAN (Po): the full stop
        ("\u19e0", SEPARATOR),  # KHMER SYMBOL PATHAMASAT (So)
        ("\u1000", DENSE_LETTER),  # MYANMAR LETTER KA
        ("\u102c", DENSE_MARK),  # MYANMAR VOWEL SIGN AA (Mc)
        ("\u104b", SEPARATOR),  # MYANMAR SIGN SECTION (Po)
        ("\uaa60", DENSE_LETTER),  # MYANMAR LETTER KHAMTI GA (Extended-A)
        ("\u0915", LETTER),  # Devanagari is written with spaces: the normal rule
        ("\u093e", JOINER),
    ],
)
def test_char_class_of_the_scripts_written_without_spaces(char: str, expected: str) -> None:
    assert char_class(char) == expected


# --------------------------------------------------------------------------- real text


@pytest.mark.parametrize("lang", sorted(SCRIPTS))
def test_real_text_of_each_script_counts_as_icu_counts_it(lang: str) -> None:
    paragraphs = udhr(lang)
    assert len(paragraphs) >= 3
    expected = [len(icu_words(paragraph)) for paragraph in paragraphs]
    assert count_many(paragraphs) == expected
    assert [len(word_starts(paragraph)) for paragraph in paragraphs] == expected
    assert [word_starts(paragraph) for paragraph in paragraphs] == [
        icu_starts(paragraph) for paragraph in paragraphs
    ]
    # The space rule alone counted a few phrases a paragraph (Burmese has the most spaces).
    assert sum(expected) > 2 * sum(len(paragraph.split()) for paragraph in paragraphs)


@pytest.mark.parametrize("lang", sorted(SCRIPTS))
def test_the_counter_and_the_plain_reference_agree_on_real_text(lang: str) -> None:
    texts = "".join(paragraph + END for paragraph in udhr(lang))
    assert count_ended(texts) == reference_count_ended(texts)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35", 1),  # sawatdi: one word
        ("\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22", 2),  # phasa thai: two
        ("iPad \u0e23\u0e38\u0e48\u0e19\u0e43\u0e2b\u0e21\u0e48", 3),  # iPad, run, mai
        # A run separates the Latin word before it and after it, like a CJK character.
        ("iPad\u0e23\u0e38\u0e48\u0e19\u0e43\u0e2b\u0e21\u0e48x", 4),
        ("(\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22)", 2),  # glue alone makes no word
        ("\u0e34\u0e01", 1),  # a mark before a run's first letter makes no word
        ("a\u0e34b", 1),  # a Thai mark between Latin letters joins them, like any mark
        ("\u0e01\u0e34a", 2),  # the run's mark is the run's, not the Latin word's
        ("\u0e4f\u0e4f", 0),  # punctuation only
        ("\u0e52\u0e55\u0e56\u0e57", 1),  # Thai digits: one number
    ],
)
def test_runs_and_their_neighbours(text: str, count: int) -> None:
    assert count_words(text) == count
    assert len(word_starts(text)) == count
    assert reference_count_ended(text + END) == count_ended(text + END) == [count]


def test_word_starts_places_a_runs_words_and_its_neighbours() -> None:
    thai = "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22"  # phasa | thai
    assert word_starts(f"ab{thai}\u0e34cd") == [0, 2, 6, 10]
    assert word_starts("\u0e01\u0e34a") == [0, 2]


def test_runs_in_a_batch_count_for_their_own_text() -> None:
    thai = "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22"
    assert count_many([thai, "a b", "", f"{thai} {thai}", thai[:4]]) == [2, 2, 0, 4, 1]
    # What follows the last END is no text, runs included.
    assert count_ended(f"{thai}{END}{thai}") == [2]
    assert reference_count_ended(f"{thai}{END}{thai}") == [2]


# --------------------------------------------------------------------------- pages


def script_page(paragraphs: list[str], nav: list[str]) -> str:
    items = "".join(f'<li><a href="/{n}">{label}</a></li>' for n, label in enumerate(nav))
    body = "".join(f"<p>{paragraph}</p>" for paragraph in paragraphs)
    return f"<html><body><ul class=menu>{items}</ul><div>{body}</div></body></html>"


@pytest.mark.parametrize("lang", sorted(SCRIPTS))
def test_a_page_of_each_script_keeps_its_article_and_drops_its_navigation(lang: str) -> None:
    paragraphs = udhr(lang)
    # The navigation's labels: the script's own words, one to three a link.
    words = icu_words(paragraphs[0])
    nav = [words[0], "".join(words[1:3]), "".join(words[3:6]), words[6], "".join(words[7:9])]
    html = script_page(paragraphs, nav)
    for conf in (PUBLISHED_CONF, None):
        result = fit_text(html) if conf is None else fit_text(html, conf)
        assert result.fallback_reason is None
        assert result.text == "\n".join(paragraphs)
        navigation = [block for block in result.blocks if block.link_words]
        assert len(navigation) == len(nav)
        assert all(block.decision is not Decision.CONTENT for block in navigation)
        article = [block for block in result.blocks if not block.link_words]
        assert [block.words for block in article] == [len(icu_words(p)) for p in paragraphs]


def test_a_thai_paragraph_of_about_sixty_words_is_no_longer_short() -> None:
    # The case: a Thai news paragraph counted 6 words and was dropped
    # short_isolated. Here two UDHR paragraphs after a navigation bar, the
    # longer one first.
    first, second = udhr("th")[1], udhr("th")[0]
    html = script_page([first, second], ["\u0e2b\u0e19\u0e49\u0e32\u0e41\u0e23\u0e01"])
    result = fit_text(html, PUBLISHED_CONF)
    assert [block.words for block in result.blocks[1:]] == [
        len(icu_words(first)),
        len(icu_words(second)),
    ]
    assert len(icu_words(first)) > 40
    assert result.blocks[1].reason is Reason.AFTER_LINKS_LONG


def test_explain_shows_the_words_of_the_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paragraphs = udhr("km")
    page = tmp_path / "km.html"
    page.write_text(script_page(paragraphs, ["\u1780"]), encoding="utf-8")
    assert cli.main(["--explain", "--profile", "published", str(page)]) == 0
    # The kept, confidence and page type lines after.
    rows = capsys.readouterr().out.splitlines()[3:-3]
    words = [int(row.split()[2]) for row in rows]
    assert words == [1] + [len(icu_words(paragraph)) for paragraph in paragraphs]
