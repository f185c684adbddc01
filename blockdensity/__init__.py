"""blockdensity: keep a web page's main text, drop the boilerplate around it.

The density fit of Kohlschuetter, Fankhauser and Nejdl (WSDM 2010): per text
block, word count and word-based link density, classified by the published
decision tree (boilerpipe's NumWordsRulesClassifier), rendered by the one
HTML-to-text renderer. Pure: no I/O, and no state that changes once imported
(the only process-wide thing it sets up at import is two codec error handlers
under its own names, words.py), so it is safe in many threads and processes.
"""

from __future__ import annotations

from blockdensity.conf import DEFAULT_CONF, PUBLISHED_CONF, Comments, Conf, Profile, Rule
from blockdensity.fit import fit_text
from blockdensity.pagetype import PageType
from blockdensity.render import html_to_text
from blockdensity.result import (
    Block,
    BlockKind,
    Decision,
    FallbackReason,
    Fit,
    Metadata,
    Reason,
    Summary,
)

__all__ = [
    "DEFAULT_CONF",
    "PUBLISHED_CONF",
    "Block",
    "BlockKind",
    "Comments",
    "Conf",
    "Decision",
    "FallbackReason",
    "Fit",
    "Metadata",
    "PageType",
    "Profile",
    "Reason",
    "Rule",
    "Summary",
    "__version__",
    "fit_text",
    "html_to_text",
]


def __getattr__(name: str) -> str:
    # Read lazily so importing the package costs no metadata lookup.
    if name == "__version__":
        from importlib.metadata import version  # noqa: PLC0415 - only when asked

        return version("blockdensity")
    raise AttributeError(f"module 'blockdensity' has no attribute {name!r}")
