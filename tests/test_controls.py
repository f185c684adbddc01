"""The form_controls rule (blockdensity.decide.controls): a control's caption, a form's
labels and a pop-up window are not the page's text; a heading in a toggle is."""

from __future__ import annotations

import pytest

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, Reason, Rule, fit_text
from blockdensity.conf import ARTICLE_RULES
from blockdensity.decide.controls import lift
from blockdensity.fit import read_page
from tests.helpers import page, seq

STORY = f"<p>{seq('a', 1, 50)}</p><p>{seq('b', 1, 45)}</p>"
WITHOUT = Conf(article_rules=ARTICLE_RULES - {Rule.FORM_CONTROLS})

# Each control long enough that the tree keeps its block (over 40 words).
CONTROLS = {
    "button": f"<div><button type=button>{seq('c', 1, 45)}</button></div>",
    "label": f"<div><label><input type=checkbox> {seq('c', 1, 45)}</label></div>",
    "legend": f"<fieldset><legend>{seq('c', 1, 45)}</legend><input></fieldset>",
    "dialog": f'<div role="dialog" aria-modal="true"><p>{seq("c", 1, 45)}</p></div>',
    "alertdialog": f'<section role="AlertDialog"><p>{seq("c", 1, 45)}</p></section>',
}


@pytest.mark.parametrize("control", sorted(CONTROLS))
def test_a_control_is_dropped_where_the_tree_kept_it(control: str) -> None:
    html = page(STORY + CONTROLS[control])
    fit = fit_text(html)
    assert seq("a", 1, 50) in fit.text
    assert seq("c", 1, 3) not in fit.text
    reasons = {block.reason for block in fit.blocks if block.text.startswith("c01")}
    assert reasons == {Reason.FORM_CONTROL}
    # The rule off, and the published profile: the tree's verdict stands.
    assert seq("c", 1, 45) in fit_text(html, WITHOUT).text
    assert seq("c", 1, 45) in fit_text(html, PUBLISHED_CONF).text


def test_a_heading_in_a_toggle_stays_with_the_answer_it_heads() -> None:
    # An accordion: the question in its toggle button (or the button in the heading),
    # the answer in the panel after it; and the toggle's other caption goes.
    question = f"<h3>{seq('q', 1, 6)}?</h3>"
    answer = f"<div><p>{seq('r', 1, 45)}</p></div>"
    for toggle in (
        f"<button>{question}</button>",
        f"<h3><button>{seq('q', 1, 6)}?</button></h3>",
    ):
        fit = fit_text(page(STORY + toggle + answer))
        assert f"{seq('q', 1, 6)}?" in fit.text, toggle
        assert seq("r", 1, 45) in fit.text


def test_a_block_whose_words_begin_outside_a_control_stays() -> None:
    # A paragraph that ends with a button: its first words are the text's, and the
    # block stays whole, the button's caption with it.
    html = page(f"{STORY}<p>{seq('p', 1, 45)} <button>Read more</button></p>")
    assert f"{seq('p', 1, 45)} Read more" in fit_text(html).text


def test_the_walk_opens_a_scope_for_the_controls_only_under_the_rule() -> None:
    html = page(STORY + "".join(CONTROLS.values()))
    scopes = set(read_page(html, DEFAULT_CONF).page.drop_scopes)
    assert {"button", "label", "legend", "role=dialog", "role=alertdialog"} <= scopes
    for conf in (PUBLISHED_CONF, WITHOUT):
        scopes = set(read_page(html, conf).page.drop_scopes)
        assert not scopes & {"button", "label", "legend", "role=dialog", "role=alertdialog"}


def test_an_element_the_semantic_drop_drops_stays_its_scope() -> None:
    # A configuration that drops <button> as nav is dropped: the semantic drop's,
    # not the rule's (Conf.control_labels leaves it out).
    conf = Conf(drop_elements=DEFAULT_CONF.drop_elements | {"button"})
    assert "button" not in conf.control_labels
    assert {"label", "legend", "role=dialog", "role=alertdialog"} <= conf.control_labels
    fit = fit_text(page(STORY + CONTROLS["button"]), conf)
    reasons = {block.reason for block in fit.blocks if block.text.startswith("c01")}
    assert reasons == {Reason.SEMANTIC_DROP}


def test_lift_passes_over_the_controls_scopes() -> None:
    # Scopes: 0 the main container, 1 a button in it, 2 a nav in the button, 3 a dialog.
    labels = ["article:main", "button", "nav", "role=dialog"]
    parents = [-1, 0, 1, -1]
    blocks = [0, 1, 2, -1, 3]
    controls = frozenset({"button", "role=dialog"})
    assert lift(blocks, labels, parents, controls) == (
        [0, 0, 2, -1, -1],  # a block in the button is in the main container
        [-1, 0, 0, -1],  # the nav in the button is in the main container
        [False, True, True, False, True],
    )
    assert lift(blocks, labels, parents, frozenset({"label"})) is None
