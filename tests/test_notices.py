"""The copyright_notices rule (blockdensity.decide.notices): a page's short copyright line
and a picture's credit are not its text; prose and headings about copyright are."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockdensity import PUBLISHED_CONF, Conf, Reason, Rule, fit_text
from blockdensity.conf import ARTICLE_RULES
from blockdensity.decide.notices import NOTICE, NOTICE_WORDS, is_notice
from tests.helpers import page, seq

STORY = f"<p>{seq('a', 1, 50)}</p><p>{seq('b', 1, 45)}</p>"
WITHOUT = Conf(article_rules=ARTICLE_RULES - {Rule.COPYRIGHT_NOTICES})

# Each short enough for the tree to keep it after the story's text.
NOTICES = {
    "sign": "© 2019 Example News Network",
    "formula": "Example Media Group. All Rights Reserved.",
    "word": "Copyright 2019 Example News Now",
    "credit": "The harbour at dawn. | © Jane Doe / Example Images",
    "marks": "(Copyright: Example Press Agency)",
}


def _reasons(html: str, start: str) -> set[Reason]:
    return {block.reason for block in fit_text(html).blocks if block.text.startswith(start)}


@pytest.mark.parametrize("notice", sorted(NOTICES))
def test_a_short_copyright_notice_is_dropped_where_the_tree_kept_it(notice: str) -> None:
    line = NOTICES[notice]
    html = page(f"{STORY}<p>{line}</p>")
    fit = fit_text(html)
    assert seq("b", 1, 45) in fit.text
    assert line not in fit.text
    assert _reasons(html, line[:10]) == {Reason.COPYRIGHT_NOTICE}
    assert line not in fit.markdown
    # The rule off, and the published profile: the tree's verdict stands.
    assert line in fit_text(html, WITHOUT).text
    assert line in fit_text(html, PUBLISHED_CONF).text


def test_a_notice_is_short_and_a_longer_block_is_prose() -> None:
    words = [f"w{index:02d}" for index in range(1, NOTICE_WORDS)]
    at_most = "© " + " ".join(words)  # the sign is no word: NOTICE_WORDS - 1 words
    longer = "© " + " ".join([*words, "w98", "w99"])
    assert at_most not in fit_text(page(f"{STORY}<p>{at_most} end</p>")).text
    assert longer in fit_text(page(f"{STORY}<p>{longer}</p>")).text


@pytest.mark.parametrize(
    "line",
    [
        "The copyright law of 1976 changed that.",  # the word, not at the start
        "Copyrighted works enter the public domain.",  # another word
        "Rights reserved for members only.",
    ],
)
def test_a_short_line_that_is_no_notice_stays(line: str) -> None:
    html = page(f"{STORY}<p>{line}</p>")
    assert line in fit_text(html).text
    assert _reasons(html, line[:10]).isdisjoint({Reason.COPYRIGHT_NOTICE})


def test_a_heading_about_copyright_stays_over_its_section() -> None:
    html = page(f"{STORY}<h2>Copyright and fair use</h2><p>{seq('c', 1, 45)}</p>")
    fit = fit_text(html)
    assert "Copyright and fair use" in fit.text
    assert seq("c", 1, 45) in fit.text


# Texts made of the notices' words, their cases and what may stand around them.
_PIECES = st.sampled_from(
    ["©", "Copyright", "COPYRIGHT", "copyrighted", "All Rights Reserved", "rights reserved",
     "all rights", "reserved", " ", ".", "|", "(", "2019", "Example", "\n", "\u00a0"]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=8).map("".join))
def test_the_substring_tests_decide_as_the_pattern_does(text: str) -> None:
    assert is_notice(text) == (NOTICE.search(text) is not None)
