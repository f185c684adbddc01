"""What the decide stage's passes read: the page's blocks as columns, and its kind."""

from __future__ import annotations

from blockdensity.article import CONTAINER_SCOPES
from blockdensity.conf import Rule
from blockdensity.pagetype import PageType
from blockdensity.segment import Page
from blockdensity.structure import Structure

__all__ = ["Board"]


class Board:
    """One page's blocks as the decide stage reads them: a column per figure, one entry
    per block in document order, and the page's scopes (the semantic elements and the
    regions the walk met). Read-only by convention: the passes change outcomes only."""

    __slots__ = (
        "_structure",
        "controls",
        "elements",
        "kind",
        "labels",
        "leaves",
        "links",
        "page",
        "parents",
        "rules",
        "scopes",
        "words",
    )

    def __init__(  # noqa: PLR0913 - the columns of one table
        self,
        *,
        words: list[int],
        links: list[int],
        leaves: list[int],
        elements: list[str],
        scopes: list[int],
        labels: list[str],
        parents: list[int],
        rules: frozenset[Rule],
        page: Page,
        kind: PageType = PageType.ARTICLE,
        controls: list[bool] | None = None,
    ) -> None:
        self.words = words  # each block's words (docs/spec.md section 3)
        self.links = links  # each block's words inside links
        self.leaves = leaves  # each block's leaf of the published tree (tree.LEAVES)
        self.elements = elements  # each block's boundary element (segment.ELEMENT)
        # Each block's innermost scope at its first visible text (an index into
        # labels), or -1.
        self.scopes = scopes
        # The scopes met on the page, e.g. "nav", "role=navigation", or an article
        # region ("article:comments"), and per scope the scope around it (or -1).
        self.labels = labels
        self.parents = parents
        # The rules that run after the tree (none: the published fit), those of
        # other kinds of page already taken out (decide.kinds).
        self.rules = rules
        # The kind of page whose rules run (decide.kinds): the classifier's, or an
        # article where it is unsure.
        self.kind = kind
        # The walk's page, for the rules that read its structure (decide.tables).
        self.page = page
        # Per block, whether it sits in a button, a label or a dialog (form_controls:
        # decide.controls, whose scopes `scopes` and `parents` pass over); None
        # when the page has none or the rule does not run.
        self.controls = controls
        self._structure: Structure | None = None

    def with_rules(self, rules: frozenset[Rule], kind: PageType) -> Board:
        """This page's board under other rules, those of `kind`'s pages (a second look,
        the published verdict): the same columns, and the structure once built, shared."""
        other = Board(
            words=self.words,
            links=self.links,
            leaves=self.leaves,
            elements=self.elements,
            scopes=self.scopes,
            labels=self.labels,
            parents=self.parents,
            rules=rules,
            kind=kind,
            page=self.page,
            controls=self.controls,
        )
        other._structure = self._structure
        return other

    def in_container(self, block: int) -> bool:
        """Whether the block's innermost scope is the trusted main or content container
        (blockdensity.article), whose text the rules by kind of page trust."""
        scope = self.scopes[block]
        return scope >= 0 and self.labels[scope] in CONTAINER_SCOPES

    def structure(self) -> Structure:
        """The page's structure (blockdensity.structure), built when a pass first asks:
        the passes that read it (tables, grids, titles, related items, duplicates) share
        one, and a page none of them reads never builds it."""
        structure = self._structure
        if structure is None:
            structure = self._structure = Structure(self.page)
        return structure

    def built_structure(self) -> Structure | None:
        """The page's structure if a pass built it, else None (nothing is built here)."""
        return self._structure
