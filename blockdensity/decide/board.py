"""What the decide stage's passes read: the page's blocks as columns."""

from __future__ import annotations

from blockdensity.conf import Rule

__all__ = ["Board"]


class Board:
    """One page's blocks as the decide stage reads them: a column per figure, one entry
    per block in document order, and the page's scopes (the semantic elements and the
    regions the walk met). Read-only by convention: the passes change outcomes only."""

    __slots__ = ("labels", "leaves", "links", "parents", "rules", "scopes", "words")

    def __init__(  # noqa: PLR0913 - the columns of one table
        self,
        *,
        words: list[int],
        links: list[int],
        leaves: list[int],
        scopes: list[int],
        labels: list[str],
        parents: list[int],
        rules: frozenset[Rule],
    ) -> None:
        self.words = words  # each block's words (docs/spec.md section 3)
        self.links = links  # each block's words inside links
        self.leaves = leaves  # each block's leaf of the published tree (tree.LEAVES)
        # Each block's innermost scope at its first visible text (an index into
        # labels), or -1.
        self.scopes = scopes
        # The scopes met on the page, e.g. "nav", "role=navigation", or an article
        # region ("article:comments"), and per scope the scope around it (or -1).
        self.labels = labels
        self.parents = parents
        self.rules = rules  # the rules that run after the tree (none: the published fit)
