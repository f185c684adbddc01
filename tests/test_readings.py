"""The other readings of a page (blockdensity.parse, blockdensity.read).

A crawler runs no script. A page that shows (almost) no text to a browser
with scripting on, and serves its text to clients without script in a
<noscript> (Discourse's crawler view) or sends it hidden for a script to move
into place (React's streamed `<div hidden id="S:n">`), is read again that
way under the article profile, and its fallback reason says so. The
published profile reads the page as SPEC says, and so does the article
profile on a page that shows enough text.
"""

from __future__ import annotations

import pytest

from blockdensity import PUBLISHED_CONF, Conf, FallbackReason, Rule, fit_text, html_to_text
from blockdensity.decode import Source
from blockdensity.highlight import highlight
from blockdensity.parse import (
    NOSCRIPT_WORDS,
    Reading,
    deferred_content,
    hidden_content,
    noscript_content,
    parse,
)
from blockdensity.read import REREAD_WORDS
from tests.helpers import NO_DROPS, page, seq

POSTS = "".join(
    f'<div class="topic-body"><span class="creator">user{n}</span>'
    f"<p>{seq(f'p{n}x', 1, 30)}</p></div>"
    for n in range(1, 4)
)
HEADER = "<header><a href=/>Community</a></header>"


def discourse(posts: str = POSTS) -> str:
    """A thread as Discourse serves it: an empty app, the crawler view in a noscript."""
    return page(
        f'{HEADER}<div id="app"></div><noscript data-path="/t/x/1">'
        f'<div id="main-outlet">{posts}</div></noscript>'
        "<noscript><style>#d-splash { display: none; }</style></noscript>"
    )


def test_a_thread_served_in_a_noscript_is_read_as_the_page() -> None:
    fit = fit_text(discourse())
    assert fit.fallback_reason is FallbackReason.NOSCRIPT
    for n in range(1, 4):
        assert seq(f"p{n}x", 1, 30) in fit.text
    assert "display" not in fit.text  # the style noscript stays raw text, unread


def test_the_published_profile_reads_the_page_as_spec_says() -> None:
    fit = fit_text(discourse(), PUBLISHED_CONF)
    assert fit.fallback_reason is not FallbackReason.NOSCRIPT
    assert "p1x01" not in fit.text


def test_a_page_that_shows_its_text_keeps_its_noscripts_unread() -> None:
    body = f"<article><h1>{seq('h', 1, 5)}</h1><p>{seq('a', 1, REREAD_WORDS)}</p></article>" + (
        f"<noscript><div><p>{seq('n', 1, 40)}</p></div></noscript>"
    )
    fit = fit_text(page(body))
    assert fit.fallback_reason is None
    assert "n01" not in fit.text
    assert seq("a", 1, REREAD_WORDS) in fit.text


def test_a_short_noscript_message_is_not_the_page() -> None:
    message = seq("m", 1, NOSCRIPT_WORDS - 1)
    html = page(f"{HEADER}<noscript><div>{message}</div></noscript>")
    assert noscript_content(parse(Source(html, None), NO_DROPS)) is None
    fit = fit_text(html)
    assert fit.fallback_reason is not FallbackReason.NOSCRIPT
    assert "m01" not in fit.text


def test_a_noscript_of_words_without_markup_is_not_unwrapped() -> None:
    html = page(f"{HEADER}<noscript>{seq('w', 1, 60)}</noscript>")
    assert noscript_content(parse(Source(html, None), NO_DROPS)) is None


def test_only_the_noscripts_with_text_are_unwrapped_in_place() -> None:
    html = page(
        "<noscript><img src=pixel></noscript><p>before</p>"
        f"<noscript><div><p>{seq('n', 1, NOSCRIPT_WORDS)}</p></div></noscript><p>after</p>"
    )
    reading = noscript_content(parse(Source(html.encode(), None), NO_DROPS))
    assert reading is not None
    assert reading.reading is Reading.NOSCRIPT
    assert isinstance(reading.markup, str)
    assert "<noscript><img src=pixel></noscript>" in reading.markup
    assert f"<p>before</p><div><p>{seq('n', 1, NOSCRIPT_WORDS)}</p></div><p>after</p>" in (
        reading.markup
    )


def test_a_reading_that_shows_little_more_is_not_taken() -> None:
    # The first reading shows 30 words; the noscript adds 26: under twice as many.
    first = seq("a", 1, 30)
    html = page(f"<p>{first}</p><noscript><div><p>{seq('n', 1, 26)}</p></div></noscript>")
    fit = fit_text(html)
    assert fit.fallback_reason is not FallbackReason.NOSCRIPT
    assert "n01" not in fit.text


def streamed(placeholder: bool = True) -> str:
    template = '<template id="B:0"></template>' if placeholder else ""
    return page(
        f'<div id="root">{HEADER}{template}</div>'
        f'<div hidden id="S:0"><article><h1>{seq("h", 1, 5)}</h1>'
        f"<p>{seq('a', 1, 40)}</p><p>{seq('b', 1, 30)}</p></article></div>"
    )


def test_streamed_deferred_content_is_read_where_it_is() -> None:
    fit = fit_text(streamed())
    assert fit.fallback_reason is FallbackReason.DEFERRED_CONTENT
    assert f"{seq('a', 1, 40)}\n{seq('b', 1, 30)}" in fit.text


def test_hidden_content_without_a_placeholder_is_no_deferred_content() -> None:
    assert deferred_content(parse(Source(streamed(placeholder=False), None), NO_DROPS)) is None
    # Without the hidden reading it stays hidden; with it, as a page whose hidden
    # elements hold its text, it is shown, and no fallback reason says so.
    assert "a01" not in fit_text(streamed(placeholder=False), WITHOUT_HIDDEN_TEXT).text
    fit = fit_text(streamed(placeholder=False))
    assert f"{seq('a', 1, 40)}\n{seq('b', 1, 30)}" in fit.text
    assert fit.fallback_reason is None


# ------------------------------------------------------------- the hidden reading

WITHOUT_HIDDEN_TEXT = Conf(article_rules=frozenset(Rule) - {Rule.HIDDEN_TEXT})
STORY = f"<article><h1>{seq('h', 1, 5)}</h1><p>{seq('a', 1, 40)}</p><p>{seq('b', 1, 30)}</p>"


def hiding(hidden_words: int, shown_words: int, extra: str = "") -> str:
    """A page that shows `shown_words` words and hides a story and `hidden_words` more."""
    return page(
        f"{HEADER}<p>{seq('s', 1, shown_words)}</p><div hidden class=app>{STORY}"
        f"<p>{seq('c', 1, hidden_words)}</p></article></div>{extra}"
    )


def test_a_page_whose_hidden_elements_hold_its_text_is_read_with_them_shown() -> None:
    html = hiding(20, 30)  # 95 words hidden, 30 shown
    fit = fit_text(html)
    assert f"{seq('a', 1, 40)}\n{seq('b', 1, 30)}" in fit.text
    assert "a01" not in fit_text(html, WITHOUT_HIDDEN_TEXT).text
    assert "a01" not in fit_text(html, PUBLISHED_CONF).text
    # The whole text and --highlight follow the reading the fit takes.
    assert seq("a", 1, 40) in html_to_text(html)
    assert seq("a", 1, 40) in highlight(html)


def test_hidden_elements_holding_less_than_the_page_shows_stay_hidden() -> None:
    # 75 words hidden against 80 shown: the reading shows under twice the words.
    html = hiding(0, 80)
    assert "a01" not in fit_text(html).text
    reading = hidden_content(parse(Source(html, None), NO_DROPS))
    assert reading.reading is Reading.HIDDEN


def test_the_hidden_reading_leaves_a_pop_up_hidden() -> None:
    # A dialog, a menu, a list box or a tooltip is hidden until opened: not the page.
    popups = "".join(
        f"<div hidden role='x {role}'><p>{seq(role[:3], 1, 30)}</p></div>"
        for role in ("Dialog", "alertdialog", "menu", "listbox", "tooltip")
    )
    fit = fit_text(hiding(20, 30, popups))
    assert seq("a", 1, 40) in fit.text
    for role in ("Dia", "ale", "men", "lis", "too"):
        assert f"{role}01" not in fit.text


@pytest.mark.parametrize(
    ("tag", "shown"),
    [
        ('<div hidden id="S:3">', '<div id="S:3">'),
        ("<div id='S:12' hidden=''>", "<div id='S:12'>"),
        ('<div class=x hidden="hidden" id=S:1 >', "<div class=x id=S:1 >"),
        ('<div hidden id="main">', '<div hidden id="main">'),  # not deferred content
    ],
)
def test_only_deferred_divs_lose_their_hidden_attribute(tag: str, shown: str) -> None:
    html = page(f'<template id="B:0"></template>{tag}<p>x</p></div>')
    reading = deferred_content(parse(Source(html, None), NO_DROPS))
    if tag == shown:
        assert reading is None
    else:
        assert reading is not None
        assert shown in str(reading.markup)


def test_a_reading_is_no_whole_page_fallback() -> None:
    fit = fit_text(discourse())
    assert fit.fallback_reason is FallbackReason.NOSCRIPT
    assert not fit.fallback  # the text is the fit's choice of the reading's blocks


def test_the_whole_text_of_a_page_follows_the_reading_the_fit_takes() -> None:
    # docs/spec.md section 1's identity, for the reading taken: every line the fit
    # keeps is a line of html_to_text's under the same configuration.
    html = discourse()
    whole = html_to_text(html)
    assert seq("p1x", 1, 30) in whole
    assert set(fit_text(html).text.split("\n")) <= set(whole.split("\n"))
    published = html_to_text(html, PUBLISHED_CONF)
    assert "p1x01" not in published
    assert fit_text(html, PUBLISHED_CONF).text == published  # its fallback: the whole page


def test_highlight_marks_the_reading_the_fit_takes() -> None:
    marked = highlight(discourse())
    assert '<mark class="bd-content"' in marked
    assert seq("p1x", 1, 30) in marked
