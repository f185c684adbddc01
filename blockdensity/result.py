"""What the fit returns: Fit, its per-block records, and the labels they carry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["Block", "Decision", "FallbackReason", "Fit", "Reason"]


class Decision(StrEnum):
    """What happened to a block."""

    CONTENT = "content"  # kept
    BOILERPLATE = "boilerplate"  # the decision tree rejected it
    DROPPED = "dropped"  # inside a semantic element the configuration drops


class Reason(StrEnum):
    """Which leaf of the decision tree decided a block, or which rule overrode it.

    The tree is boilerpipe's NumWordsRulesClassifier (SPEC section 4); the
    descriptions name the thresholds of the default configuration.
    """

    LINK_DENSE = "link_dense"
    LONG = "long"
    SHORT_BEFORE_TEXT = "short_before_text"
    SHORT_AFTER_TEXT = "short_after_text"
    SHORT_ISOLATED = "short_isolated"
    AFTER_LINKS_LONG = "after_links_long"
    AFTER_LINKS_BEFORE_TEXT = "after_links_before_text"
    AFTER_LINKS_SHORT = "after_links_short"
    SEMANTIC_DROP = "semantic_drop"
    SEMANTIC_MAJORITY = "semantic_majority"

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Reason.LINK_DENSE: "link density over 0.333333",
    Reason.LONG: "more than 16 words",
    Reason.SHORT_BEFORE_TEXT: "16 words or fewer, next block has more than 15",
    Reason.SHORT_AFTER_TEXT: "short, next short, previous block has more than 4 words",
    Reason.SHORT_ISOLATED: "short, next short, previous block has 4 words or fewer",
    Reason.AFTER_LINKS_LONG: "after a link-dense block (over 0.555556), more than 40 words",
    Reason.AFTER_LINKS_BEFORE_TEXT: "after a link-dense block, next block has more than 17 words",
    Reason.AFTER_LINKS_SHORT: "after a link-dense block, 40 words or fewer, next 17 or fewer",
    Reason.SEMANTIC_DROP: "inside an element the configuration drops",
    Reason.SEMANTIC_MAJORITY: "inside a dropped element that holds most of the page's "
    "content words, so not dropped",
}


class FallbackReason(StrEnum):
    """Why the fit returned the page's full text (SPEC section 6)."""

    SINGLE_BLOCK = "single_block"  # at most one block with words
    NOTHING_KEPT = "nothing_kept"  # no block with words survived
    NO_TEXT = "no_text"  # the page has no words at all


@dataclass(frozen=True, slots=True)
class Block:
    """One text block of the page and how the fit judged it."""

    index: int  # position among the page's blocks with visible text
    element: str  # the boundary element the block's text sits in
    text: str  # the block's text as the renderer renders it
    text_bytes: int  # UTF-8 length of `text` (whitespace runs collapsed)
    words: int
    link_words: int
    link_density: int  # permil, floored; 0 when words is 0 (reporting only)
    decision: Decision
    reason: Reason  # the tree's leaf, or the semantic rule that overrode it
    leaf: Reason  # the tree's leaf, always
    scope: str | None  # the dropped element in effect at the block, e.g. "nav"

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "element": self.element,
            "text": self.text,
            "text_bytes": self.text_bytes,
            "words": self.words,
            "link_words": self.link_words,
            "link_density": self.link_density,
            "decision": self.decision.value,
            "reason": self.reason.value,
            "leaf": self.leaf.value,
            "scope": self.scope,
        }


class Fit:
    """The result of fitting one page. Immutable.

    `blocks` is built on first access: the per-block records cost more than
    the rest of the result, and a pipeline that needs only the text and the
    counts never pays for them.
    """

    __slots__ = (
        "_block_factory",
        "_blocks",
        "blocks_kept",
        "blocks_total",
        "blocks_with_words",
        "encoding",
        "fallback",
        "fallback_reason",
        "lang",
        "text",
        "title",
        "words_kept",
        "words_total",
    )

    text: str  # the kept text, or the full text on fallback
    title: str
    lang: str | None  # as the page declares it (<html lang>), None if it does not
    fallback: bool
    fallback_reason: FallbackReason | None
    blocks_total: int  # blocks with visible text
    blocks_with_words: int
    blocks_kept: int  # blocks whose text is in `text`
    words_total: int
    words_kept: int  # words in `text`
    encoding: str | None  # what bytes were decoded as; None when given str
    _blocks: tuple[Block, ...] | None
    _block_factory: Callable[[], tuple[Block, ...]] | None

    def __init__(  # noqa: PLR0913 - a record
        self,
        *,
        text: str,
        title: str,
        lang: str | None,
        fallback_reason: FallbackReason | None,
        blocks: Callable[[], tuple[Block, ...]] | tuple[Block, ...],
        blocks_total: int,
        blocks_with_words: int,
        blocks_kept: int,
        words_total: int,
        words_kept: int,
        encoding: str | None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "text", text)
        setter(self, "title", title)
        setter(self, "lang", lang)
        setter(self, "fallback", fallback_reason is not None)
        setter(self, "fallback_reason", fallback_reason)
        if isinstance(blocks, tuple):
            setter(self, "_blocks", blocks)
            setter(self, "_block_factory", None)
        else:
            setter(self, "_blocks", None)
            setter(self, "_block_factory", blocks)
        setter(self, "blocks_total", blocks_total)
        setter(self, "blocks_with_words", blocks_with_words)
        setter(self, "blocks_kept", blocks_kept)
        setter(self, "words_total", words_total)
        setter(self, "words_kept", words_kept)
        setter(self, "encoding", encoding)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Fit is immutable: cannot set {name!r}")

    @property
    def blocks(self) -> tuple[Block, ...]:
        """Every block with visible text, in document order, with how it was judged."""
        blocks = self._blocks
        if blocks is None:
            factory = self._block_factory
            assert factory is not None  # noqa: S101 - set whenever _blocks is not
            blocks = factory()
            object.__setattr__(self, "_blocks", blocks)
            object.__setattr__(self, "_block_factory", None)
        return blocks

    def __repr__(self) -> str:
        return (
            f"Fit(title={self.title!r}, lang={self.lang!r}, fallback_reason="
            f"{self.fallback_reason!r}, blocks_kept={self.blocks_kept}/{self.blocks_total}, "
            f"words_kept={self.words_kept}/{self.words_total}, text={self.text[:60]!r})"
        )

    def to_dict(self, *, blocks: bool = True) -> dict[str, Any]:
        """The result as JSON-ready data (enums as their string values)."""
        data: dict[str, Any] = {
            "text": self.text,
            "title": self.title,
            "lang": self.lang,
            "fallback": self.fallback,
            "fallback_reason": self.fallback_reason.value if self.fallback_reason else None,
            "blocks_total": self.blocks_total,
            "blocks_with_words": self.blocks_with_words,
            "blocks_kept": self.blocks_kept,
            "words_total": self.words_total,
            "words_kept": self.words_kept,
            "encoding": self.encoding,
        }
        if blocks:
            data["blocks"] = [block.to_dict() for block in self.blocks]
        return data
