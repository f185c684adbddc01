"""docs/spec.md section 2's element names (inline, block, never text), and the article
profile's words.

Plain sets of names with no imports, so that every module can read them: the
tag table (tags.py) turns them into flags by lexbor tag id; the scan before
the parse (nesting.py) reads which tags never separate words, and which
class or id words name the regions the article profile removes (article.py,
where each group's measurement is).
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ARTICLE_TYPES",
    "BLOCK_DISPLAY_EXTRA",
    "BOX_TOKENS",
    "COMMENT_TOKENS",
    "CONTENT_OWNERS",
    "CONTENT_PARTS",
    "CONTENT_TOKENS",
    "DEFAULT_BOUNDARIES",
    "DEFAULT_DROP_ELEMENTS",
    "HEADINGS",
    "HEADING_LEVELS",
    "INLINE",
    "REMOVED",
    "SEED_BOUNDARIES",
    "VOID",
]

# The heading elements, h1 to h6, and each one's level.
HEADING_LEVELS: Final = {f"h{level}": level for level in range(1, 7)}
HEADINGS: Final = frozenset(HEADING_LEVELS)

# docs/spec.md section 2: inline elements never split a block and never split a word.
INLINE: Final = frozenset(
    {
        "a", "abbr", "acronym", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn",
        "em", "font", "i", "ins", "kbd", "mark", "q", "s", "samp", "small", "span",
        "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
    }
)  # fmt: skip

# docs/spec.md section 2: the seed's boundary list. `br` is deliberately absent (it
# costs 0.24 F1 points as a boundary); it is a line break inside a block.
SEED_BOUNDARIES: Final = frozenset(
    {
        "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article",
        "aside", "nav", "header", "footer", "main", "table", "tr", "td", "th",
        "blockquote", "pre", "ul", "ol", "dl", "dt", "dd", "figure", "figcaption",
        "form", "hr", "body",
    }
)  # fmt: skip

# Other block-display elements SPEC leaves to measurement. They join the
# default: on the development corpus they change F1 by +0.0001 (scrapinghub)
# and 0 (readability) (BENCHMARKS.md), and every browser breaks lines at
# them, so the rendered text reads as the page does.
BLOCK_DISPLAY_EXTRA: Final = frozenset(
    {
        "address", "center", "details", "summary", "fieldset", "legend", "caption",
        "dialog", "menu", "hgroup",
    }
)  # fmt: skip

DEFAULT_BOUNDARIES: Final = SEED_BOUNDARIES | BLOCK_DISPLAY_EXTRA

# docs/spec.md section 2: contribute no text and no words anywhere. `head` is handled
# here too (its title is reported separately). noembed and noframes are what
# a browser with plugins and frames never shows, like noscript.
REMOVED: Final = frozenset(
    {
        "script", "style", "noscript", "template", "svg", "math", "option", "object",
        "embed", "applet", "iframe", "head", "noembed", "noframes", "title",
    }
)  # fmt: skip

DEFAULT_DROP_ELEMENTS: Final = frozenset({"nav", "footer", "aside"})

# Elements that never have children: the walk does not descend into them.
VOID: Final = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
     "source", "track", "wbr"}
)  # fmt: skip

# The article profile's regions, by a word in their class or id (a substring,
# any case): user comments, and the boxes around an article.
COMMENT_TOKENS: Final = ("comment", "disqus")
BOX_TOKENS: Final = (
    "share", "sharing", "social",  # share buttons
    "newsletter", "subscribe", "signup", "sign-up",  # sign-up forms
    "related", "recommend", "more-stories", "trending", "popular", "outbrain", "taboola",
    "cookie",  # cookie notices (consent_notices takes the surer words on every page)
    "byline", "author", "dateline", "timestamp",  # who and when: metadata, not text
    "promo", "advert", "sponsor", "banner",  # promotions
    "gallery",  # photo galleries: a slide per photo, each a caption and a story's summary
)  # fmt: skip
# A cookie-consent notice, by a word in its class or id (a substring, any
# case): the consent platforms' own names (OneTrust, Cookiebot) and the
# notice's usual names. Marked on every page (the consent_notices rule): a
# consent notice is no page's text. Not "cookie" alone, which a recipe's
# classes hold ("cookie-recipe"); it stays a box word, on articles only.
CONSENT_TOKENS: Final = (
    "consent", "gdpr", "onetrust", "cookiebot", "cookie-banner", "cookiebanner",
    "cookie-notice", "cookienotice", "cookie_notice", "cookie-bar", "cookie-law",
    "cookie-popup",
)  # fmt: skip
# The content container a CMS names (class or id, any case, "-" and "_"
# ignored, so entry-content, post__body and articleBody all match): where the
# article's text is on a page that declares nothing (the content_container
# rule, blockdensity.article). Each word measured alone on the three sets
# (BENCHMARKS.md): the part word "text" costs scrapinghub 0.12 F1 points and
# gains nothing elsewhere, so it is out; "story" and "blog" change no page of
# the corpus and stay as the common conventions they are.
CONTENT_OWNERS: Final = ("article", "post", "entry", "story", "news", "blog")
CONTENT_PARTS: Final = ("body", "content")
CONTENT_TOKENS: Final = tuple(
    f"{owner}{part}" for owner in CONTENT_OWNERS for part in CONTENT_PARTS
)
# schema.org types of a JSON-LD block that declare the page an article.
ARTICLE_TYPES: Final = (
    "Article", "NewsArticle", "BlogPosting", "ReportageNewsArticle", "OpinionNewsArticle",
    "AnalysisNewsArticle", "TechArticle", "ScholarlyArticle", "Report",
)  # fmt: skip
