"""The form_controls rule: a control's caption and a pop-up window's form are not the text.

A shop's page is full of controls: "Add to cart", "Quick view", "Show all",
"Save this event", a filter's checkbox labels, a country picker, a size
guide or a sign-up form in a modal window. The published tree judges their
text as any other, and where it stands among kept blocks (a card's button,
a filter beside the grid) the rules that keep short text keep it too. The
page says what they are: a <button>, a <label>, a <legend> (the caption
of a group of form fields), an element whose role is dialog or
alertdialog. Under the rule, the walk opens a scope for each of them
(Conf.table, Conf.walk_roles), and a kept block whose first words are in
one is dropped, after every rule but duplicate_text; but a heading: an
accordion's question sits in its toggle button (or the button in it), and
is the title of the answer below. Measured on the four development sets
(BENCHMARKS.md): WCXB's pages gain on every kind (collections and listings
most), and the article sets lose nothing.

The rest of the decide stage reads the scopes as if the controls' were not
there (`lift`): a block in a button inside the trusted container is in that
container, so that a card's button does not make its grid no grid.
"""

from __future__ import annotations

from blockdensity.decide.board import Board
from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.elements import HEADINGS

__all__ = ["Lifted", "apply", "lift"]


# The blocks' scopes and the scopes' parents without the controls' scopes, and
# per block whether it sits in a control.
Lifted = tuple[list[int], list[int], list[bool]]


def lift(
    scopes: list[int], labels: list[str], parents: list[int], controls: frozenset[str]
) -> Lifted | None:
    """`scopes` (each block's innermost scope) and `parents` (each scope's) with the
    scopes labelled as `controls` passed over, and which blocks sit in one; None when
    the page has no such scope."""
    if controls.isdisjoint(labels):
        return None
    # Per scope: the nearest scope at or above it that is no control, and whether it
    # is in one.
    nearest: list[int] = []
    inside: list[bool] = []
    for index, label in enumerate(labels):
        parent = parents[index]
        if label in controls:
            nearest.append(nearest[parent] if parent >= 0 else -1)
            inside.append(True)
        else:
            nearest.append(index)
            inside.append(parent >= 0 and inside[parent])
    lifted_parents = [nearest[parent] if parent >= 0 else -1 for parent in parents]
    lifted = [nearest[scope] if scope >= 0 else -1 for scope in scopes]
    in_control = [scope >= 0 and inside[scope] for scope in scopes]
    return lifted, lifted_parents, in_control


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """Drop the kept blocks that sit in a control, but the headings."""
    controls = board.controls
    if controls is None:
        return
    elements = board.elements
    for index, inside in enumerate(controls):
        if inside and outcomes[index] in KEPT_OUTCOMES and elements[index] not in HEADINGS:
            outcomes[index] = Outcome.CONTROL
