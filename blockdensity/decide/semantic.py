"""The semantic drop (docs/spec.md section 5): blocks in nav, footer, aside and their ARIA roles.

Applied after the tree has classified the full sequence (a navigation bar is
still the previous neighbour of the paragraph after it). A dropped element
whose blocks hold more than half of the page's CONTENT words is not dropped:
a navigation bar is never most of a page's text, an unclosed <nav> stretched
over it is.
"""

from __future__ import annotations

from typing import Final

from blockdensity.article import is_region
from blockdensity.decide.board import Board
from blockdensity.decide.outcome import Outcome

__all__ = ["apply", "semantic_scopes"]

_KEPT: Final = Outcome.KEPT


def semantic_scopes(labels: list[str], parents: list[int]) -> list[int]:
    """Per scope, the nearest scope at or above it that is a semantic drop, or -1."""
    nearest: list[int] = []
    for index, label in enumerate(labels):
        if not is_region(label):
            nearest.append(index)
        else:
            parent = parents[index]
            nearest.append(nearest[parent] if parent >= 0 else -1)
    return nearest


def apply(board: Board, outcomes: list[Outcome]) -> None:
    """Drop the blocks inside a dropped element, unless it holds most of the kept words."""
    if not board.labels:
        return
    semantic = semantic_scopes(board.labels, board.parents)
    drops = [semantic[scope] if scope >= 0 else -1 for scope in board.scopes]
    scoped = [index for index, drop in enumerate(drops) if drop >= 0]
    if not scoped:
        return
    words = board.words
    content_words = sum(w for w, outcome in zip(words, outcomes, strict=True) if outcome is _KEPT)
    per_scope: dict[int, int] = {}
    for index in scoped:
        if outcomes[index] is _KEPT:
            scope = drops[index]
            per_scope[scope] = per_scope.get(scope, 0) + words[index]
    majority = {scope for scope, count in per_scope.items() if 2 * count > content_words}
    for index in scoped:
        if drops[index] not in majority:
            outcomes[index] = Outcome.DROPPED
        elif outcomes[index] is _KEPT:
            outcomes[index] = Outcome.MAJORITY
