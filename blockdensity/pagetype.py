"""What kind of page this is: article, forum, product, collection, listing, documentation, service.

The kinds are WCXB's (the page-type set of ../shared/data): what a page keeps
as its main content depends on its kind (every post of a forum thread, the
item cards of a listing, the code of a documentation page), so the fit may
weigh its rules by it. `classify(evidence)` returns the kind and a
probability-like confidence in [0, 1].

The evidence (`Evidence`) is plain data the fit already has or can count on
its walk: what the page says about itself (its JSON-LD and microdata types,
og:type, the software named by <meta name=generator>), its <title>, the
shape of its text (words, link words, words in list items, table cells,
preformatted blocks, headings), the prices and the known phrases among its
short blocks (buttons, labels), and its URL when the caller knows it.
Nothing here reads HTML: the caller fills the evidence (blockdensity.evidence,
from the fit's stages). The words of the class and id attributes, the <time>
elements and runs of same-shaped siblings were tried and left out: the
first cost half a fit to read, the others added nothing (BENCHMARKS.md).

The model is a multinomial logistic regression over hand-made features (`features`):
indicator features for the declarations, the URL's path and host words, the title words
and the short blocks' phrases, the shape of the title (a short head before the site's
name) and of the URL (a section's short path, a query of results), and a few bounded
numbers for the shape of the text and the layout of its blocks (linked titles against
the longest run of prose, dates beside items). Its weights are the tables at the end,
fitted on WCXB's development split by bench/pagetype_train.py (k-fold cross-validated;
the figures are in its report). Two tables: one with the URL's features, one without,
chosen by whether the evidence has a URL, so a page without one is judged by a model
that never learned to lean on it. Cost: the features of one page and a sparse dot
product over a hundred weights, tens of microseconds in Python.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final
from urllib.parse import urlsplit

__all__ = [
    "EDGE_PUNCTUATION",
    "KNOWN_PHRASES",
    "Evidence",
    "PageType",
    "classify",
    "features",
    "phrase",
    "probabilities",
    "ranked",
]


class PageType(StrEnum):
    """WCXB's kinds of page."""

    ARTICLE = "article"  # blog posts, news, editorials, guides, reviews
    FORUM = "forum"  # discussion threads, Q&A, community posts
    PRODUCT = "product"  # one product: specs, description, price
    COLLECTION = "collection"  # category pages, product grids, browse pages
    LISTING = "listing"  # content indexes, course catalogues, review lists
    DOCUMENTATION = "documentation"  # API docs, tutorials, wikis, references
    SERVICE = "service"  # SaaS and marketing pages, feature lists, pricing


# The order of the weights in each row of the tables below.
TYPES: Final = tuple(PageType)


@dataclass(frozen=True, slots=True, kw_only=True)
class Evidence:
    """What the classifier reads of a page. Every field has a neutral default: a caller
    fills what it knows (counts over the blocks of the walk, the names the metadata
    reader found)."""

    # What the page says about itself.
    schema_types: frozenset[str] = frozenset()  # JSON-LD @type and microdata itemtype names
    og_type: str = ""  # <meta property=og:type>
    published: bool = False  # the page declares when it was published (Metadata.published)
    authors: int = 0  # author names it declares (Metadata.authors)
    generator: str = ""  # <meta name=generator>, all of them joined by spaces
    title: str = ""  # <title>
    url: str = ""  # the page's URL; "" when not known
    # The shape of its text: words (as the fit counts them) over all blocks, and
    # where they sit.
    words: int = 0
    link_words: int = 0
    blocks: int = 0  # blocks with words
    li_words: int = 0  # in li, dt, dd blocks
    table_words: int = 0  # in td, th blocks
    code_words: int = 0  # in pre blocks
    heading_blocks: int = 0  # h1-h6 blocks
    linked_headings: int = 0  # h1-h6 blocks more than half of whose words are linked
    p_words: int = 0  # in p blocks
    long_block_words: int = 0  # in blocks of LONG_BLOCK words or more
    prices: int = 0  # price-like strings in the text ($12.99, 12,99 €)
    # The layout of the blocks: a listing is a run of linked titles with a line each, an
    # article a run of prose.
    linked_titles: int = 0  # blocks of 3-20 words more than half of them linked
    linked_medium: int = 0  # blocks of 10-39 words more than half of them linked
    prose_run: int = 0  # words of the longest run of prose blocks (blockdensity.evidence)
    longest_block: int = 0  # words of the longest block
    dates: int = 0  # dates among the short blocks ("Mar 3, 2025", "2025-03-03", "3 days ago")
    # The texts of the page's short blocks (PHRASE_WORDS words or fewer) as `phrase`
    # writes them: the buttons and labels a kind of page has ("add to cart", "reply",
    # "get started", "next").
    phrases: frozenset[str] = frozenset()


LONG_BLOCK: Final = 40  # words: a block at least this long is prose
PHRASE_WORDS: Final = 4  # words: a block this short may be a button or a label

# Declarations, grouped: one feature per group (the schema.org names as written,
# compared lowercased).
_SCHEMA_GROUPS: Final = {
    "product": ("product", "productgroup", "individualproduct", "productmodel", "offer",
                "aggregateoffer", "vehicle", "car"),
    "forum": ("discussionforumposting", "socialmediaposting"),
    "qa": ("qapage", "question", "answer"),
    "itemlist": ("itemlist", "offercatalog", "searchresultspage"),
    "collection": ("collectionpage",),
    "article": ("article", "newsarticle", "blogposting", "reportagenewsarticle",
                "opinionnewsarticle", "analysisnewsarticle", "scholarlyarticle", "report",
                "review", "recipe", "liveblogposting"),
    "tech": ("techarticle", "apireference", "softwaresourcecode"),
    "software": ("softwareapplication", "webapplication", "mobileapplication"),
    "business": ("service", "professionalservice", "localbusiness", "corporation",
                 "financialservice", "legalservice", "medicalbusiness", "store"),
    "faq": ("faqpage",),
    "course": ("course", "courseinstance", "event"),
    "blog": ("blog",),
    "breadcrumb": ("breadcrumblist",),
    "howto": ("howto",),
    "profile": ("profilepage", "person", "aboutpage", "contactpage"),
}  # fmt: skip
_SCHEMA_GROUP_OF: Final = {name: group for group, names in _SCHEMA_GROUPS.items() for name in names}

_OG_TYPES: Final = frozenset({"article", "product", "website", "book", "profile", "video"})

# Software that names itself in <meta name=generator>, by what it builds.
_GENERATORS: Final = {
    "forum": ("discourse", "phpbb", "vbulletin", "xenforo", "invision", "mybb", "simple machines",
              "smf", "vanilla", "nodebb", "flarum", "khoros", "lithium", "askbot", "discuz"),
    "shop": ("shopify", "woocommerce", "magento", "prestashop", "opencart", "bigcommerce",
             "shopware", "oxid", "ecwid", "nopcommerce", "salesforce commerce", "plentymarkets"),
    "docs": ("sphinx", "mkdocs", "docusaurus", "gitbook", "read the docs", "readthedocs",
             "docfx", "vitepress", "vuepress", "mediawiki", "confluence", "doxygen", "javadoc",
             "antora", "nextra", "starlight", "mintlify", "dokuwiki", "jsdoc", "pkgdown",
             "rustdoc", "hexo", "gatsby"),
    "builder": ("webflow", "framer", "wix", "squarespace", "hubspot", "elementor", "divi",
                "unbounce", "duda", "site kit", "instapage", "leadpages"),
    "blog": ("wordpress", "ghost", "blogger", "medium", "substack", "drupal", "joomla", "typo3"),
}  # fmt: skip

# Words of the URL (path segments split at punctuation, and the host's labels).
_URL_WORDS: Final = {
    "forum": ("forum", "forums", "thread", "threads", "topic", "topics", "viewtopic",
              "showthread", "questions", "question", "community", "discussion", "discussions",
              "discuss", "board", "boards", "answers", "comments", "reddit", "stackexchange",
              "stackoverflow", "t"),
    "product": ("product", "products", "p", "dp", "item", "itm", "sku", "buy", "gp", "pd"),
    "collection": ("collections", "collection", "category", "categories", "c", "catalog",
                   "catalogue", "browse", "department", "shop", "store", "cat", "b"),
    "listing": ("tag", "tags", "archive", "archives", "author", "search", "courses", "list",
                "lists", "reviews", "best", "top", "page", "resources", "events", "jobs",
                "directory", "index"),
    "docs": ("docs", "doc", "documentation", "api", "reference", "guide", "guides", "manual",
             "wiki", "learn", "kb", "help", "support", "tutorial", "tutorials", "sdk",
             "latest", "stable", "readthedocs", "developer", "developers", "dev", "man",
             "library", "reference", "howto", "handbook", "spec"),
    "article": ("blog", "news", "article", "articles", "post", "posts", "story", "stories",
                "insights", "press", "magazine", "opinion"),
    "service": ("pricing", "features", "feature", "solutions", "solution", "services",
                "service", "platform", "enterprise", "integrations", "about", "contact",
                "plans", "demo", "customers", "why", "use", "industries", "teams"),
}  # fmt: skip
_URL_GROUP_OF: Final = {word: group for group, words in _URL_WORDS.items() for word in words}
_URL_SPLIT: Final = re.compile(r"[^a-z0-9]+")
_DATE_PATH: Final = re.compile(r"/(?:19|20)\d\d/(?:[01]?\d/)?")
_NUMBER: Final = re.compile(r"^\d+$")
# The query of a page of results: its page, its search, its order, its filter.
_LIST_QUERY: Final = re.compile(
    r"(?:^|&)(?:page|p|pg|q|query|s|search|sort|order|filter|category|cat|c|tag)="
)
# Between a title's parts: "Dinner Recipes | Site", "Science : NPR", "News - Site".
_TITLE_SEPARATOR: Final = re.compile(r"\s[|\u2013\u2014:\u00b7-]\s|\s[|:]|[|]")

# Short block texts that tell a kind of page (buttons, labels, pagination), by kind.
_PHRASES: Final = {
    "shop": ("add to cart", "add to basket", "add to bag", "buy now", "in stock", "out of stock",
             "add to wishlist", "add to wish list", "quantity", "qty", "sku", "in den warenkorb",
             "free shipping", "reviews", "write a review", "description", "specifications",
             "size guide", "select size", "size", "color", "colour"),
    "forum": ("reply", "quote", "report", "share", "like", "likes", "replies", "views",
              "posts", "joined", "member", "solved", "answer", "answers", "votes", "permalink",
              "flag", "edited", "accepted answer", "add a comment", "reply with quote",
              "original poster", "thread starter", "op"),
    "listing": ("read more", "continue reading", "next", "previous", "older posts",
                "newer posts", "load more", "show more", "next page", "view all", "page 2",
                "2", "3", "older entries", "sort by", "filter", "filters",
                "view details", "learn more"),
    "service": ("get started", "book a demo", "request a demo", "get a demo", "start free trial",
                "free trial", "try for free", "try it free", "contact us", "contact sales",
                "sign up", "get in touch", "talk to sales", "schedule a call", "get a quote",
                "pricing", "features", "how it works", "testimonials", "faq", "faqs",
                "our services", "case studies", "book a call", "start now"),
    "docs": ("on this page", "table of contents", "contents", "edit this page", "parameters",
             "returns", "example", "examples", "note", "warning", "see also", "syntax",
             "arguments", "copy", "return type", "raises", "previous", "next"),
}  # fmt: skip

# Every phrase a feature looks for: the only ones Evidence.phrases needs to hold.
KNOWN_PHRASES: Final = frozenset(phrase for group in _PHRASES.values() for phrase in group)

_TITLE_WORDS: Final = {
    "forum": ("forum", "forums", "thread", "community", "discussion", "reddit", "question"),
    "docs": ("documentation", "docs", "api", "reference", "guide", "manual", "wiki", "tutorial"),
    "shop": ("buy", "shop", "store", "sale", "price", "kaufen", "online"),
    "listing": ("best", "top", "list", "archives", "category", "courses", "reviews", "page"),
    "service": ("software", "platform", "solution", "solutions", "pricing", "services",
                "agency", "company", "tool", "app"),
}  # fmt: skip
_TITLE_GROUP_OF: Final = {word: group for group, words in _TITLE_WORDS.items() for word in words}
_WORD: Final = re.compile(r"[^\W_]+")


# Quotes, bullets, dashes and arrows, as escapes: \u2039 \u203a single guillemets, \u2013
# \u2014 en and em dash.
EDGE_PUNCTUATION: Final = " \t\n:;,.!?|/\\()[]{}<>\"'«»\u2039\u203a·•*#-\u2013\u2014→←↑↓+"


def phrase(text: str) -> str:
    """A short block's text as Evidence.phrases holds it: lowercase, whitespace runs made
    one space, punctuation and arrows at either end taken off ("Reply »" -> "reply")."""
    return " ".join(text.lower().split()).strip(EDGE_PUNCTUATION)


def features(evidence: Evidence, *, with_url: bool | None = None) -> dict[str, float]:
    """The page's features, by name (absent: 0). `with_url`: whether to include the URL's
    features (default: when the evidence has a URL)."""
    found: dict[str, float] = {"bias": 1.0}
    _declared(evidence, found)
    _shape(evidence, found)
    if evidence.url and (with_url is None or with_url):
        _url(evidence.url, found)
    return found


def _declared(evidence: Evidence, found: dict[str, float]) -> None:
    """The features of what the page declares: types, og:type, generator, dates."""
    for name in evidence.schema_types:
        group = _SCHEMA_GROUP_OF.get(name.lower())
        if group is not None:
            found["ld_" + group] = 1.0
    if evidence.schema_types:
        found["ld_any"] = 1.0
    if evidence.published:
        found["published"] = 1.0
    if evidence.authors:
        found["authors"] = 1.0
    og_type = evidence.og_type.strip().lower()
    if og_type:
        found["og_" + (og_type if og_type in _OG_TYPES else "other")] = 1.0
        if "product" in og_type:
            found["og_product"] = 1.0
    generator = evidence.generator.lower()
    if generator:
        for group, names in _GENERATORS.items():
            if any(name in generator for name in names):
                found["gen_" + group] = 1.0
    _words(evidence, found)


def _words(evidence: Evidence, found: dict[str, float]) -> None:
    """The features of the page's words: its title's and its short blocks'."""
    for word in set(_WORD.findall(evidence.title.lower())):
        group = _TITLE_GROUP_OF.get(word)
        if group is not None:
            found["title_" + group] = 1.0
    _title(evidence.title, found)
    if evidence.phrases:
        for group, phrases in _PHRASES.items():
            count = sum(1 for phrase in phrases if phrase in evidence.phrases)
            if count:
                found["phrases_" + group] = min(count, 5) / 5.0


def _title(title: str, found: dict[str, float]) -> None:
    """The features of the title's shape: a section's or a listing's title is short
    before the site's name ("Science : NPR", "Dinner Recipes | Site"), an article's long."""
    parts = _TITLE_SEPARATOR.split(title.strip())
    head = parts[0].split()
    if not head:
        return
    found["title_head_words"] = min(len(head), 12) / 12.0
    found["title_parts"] = min(len(parts), 4) / 4.0
    if len(head) <= 3:
        found["title_head_short"] = 1.0
    # A plural noun ends the head: "Recipes", "Jobs", "Headphones" (English, as most
    # of the pages are; elsewhere the feature stays 0).
    if len(head[-1]) > 3 and head[-1].lower().endswith("s"):
        found["title_head_plural"] = 1.0


def _shape(evidence: Evidence, found: dict[str, float]) -> None:
    words = evidence.words
    found["log_words"] = min(math.log1p(words) / 10.0, 1.5)
    if words:
        found["link_share"] = evidence.link_words / words
        found["li_share"] = evidence.li_words / words
        found["table_share"] = evidence.table_words / words
        found["code_share"] = evidence.code_words / words
        found["p_share"] = evidence.p_words / words
        found["long_share"] = evidence.long_block_words / words
        found["headings_per_100"] = min(100.0 * evidence.heading_blocks / words, 5.0)
    if evidence.blocks:
        found["log_words_per_block"] = math.log1p(words / evidence.blocks) / 5.0
    found["log_prices"] = math.log1p(evidence.prices) / 4.0
    found["log_linked_headings"] = math.log1p(evidence.linked_headings) / 4.0
    if evidence.heading_blocks:
        found["linked_heading_share"] = evidence.linked_headings / evidence.heading_blocks
    if words < 100:
        found["few_words"] = 1.0
    if evidence.code_words >= 50:
        found["code_50"] = 1.0
    if evidence.prices == 1:
        found["price_one"] = 1.0
    _layout(evidence, found)


def _layout(evidence: Evidence, found: dict[str, float]) -> None:
    """The features of the blocks' layout: linked titles (a listing's items) against a
    run of prose (an article's body), dates beside the items."""
    titles = evidence.linked_titles
    run = evidence.prose_run
    found["log_linked_titles"] = math.log1p(titles) / 4.0
    found["log_linked_medium"] = math.log1p(evidence.linked_medium) / 4.0
    found["log_longest_block"] = math.log1p(evidence.longest_block) / 6.0
    found["log_prose_run"] = math.log1p(run) / 8.0
    if evidence.words:
        found["linked_titles_per_100"] = min(100.0 * titles / evidence.words, 15.0) / 5.0
        found["prose_run_share"] = run / evidence.words
    if run < 100:
        found["prose_run_under_100"] = 1.0
    elif run >= 300:
        found["prose_run_300"] = 1.0
    if evidence.dates:
        found["log_dates"] = math.log1p(evidence.dates) / 3.0
        if evidence.dates >= 3:
            found["dates_3"] = 1.0


def _section(segments: list[str], query: str, found: dict[str, float]) -> None:
    """The features of a section's, a category's or a result page's URL: a short path
    whose last segment is a word or two ("/news", "/technology/", "/recipes/air-fryer"),
    often a plural, or a query of pages, searches, orders and filters."""
    if segments:
        stem = [word for word in _URL_SPLIT.split(segments[-1].rsplit(".", 1)[0]) if word]
        if len(stem) == 1 and stem[0].endswith("s") and not stem[0].isdigit():
            found["url_last_plural"] = 1.0
        if len(segments) <= 2 and len(stem) <= 2:
            found["url_section"] = 1.0
    if _LIST_QUERY.search(query):
        found["url_list_query"] = 1.0


def _url(url: str, found: dict[str, float]) -> None:
    try:
        parts = urlsplit(url.strip().lower())
        host = parts.hostname or ""
    except ValueError:  # not a URL urllib can split ("http://[x/"): no URL features
        return
    path = parts.path
    segments = [segment for segment in path.split("/") if segment]
    found["url_depth"] = min(len(segments), 6) / 6.0
    if not segments:
        found["url_root"] = 1.0
    for label in host.split(".")[:-1]:
        group = _URL_GROUP_OF.get(label)
        if group is not None:
            found["host_" + group] = 1.0
    words = [word for segment in segments for word in _URL_SPLIT.split(segment) if word]
    for word in set(words):
        group = _URL_GROUP_OF.get(word)
        if group is not None:
            found["url_" + group] = 1.0
    if segments:
        last = segments[-1]
        slug = [word for word in _URL_SPLIT.split(last) if word and not _NUMBER.match(word)]
        found["url_slug_words"] = min(len(slug), 12) / 12.0
        if last.split(".")[-1] in {"html", "htm", "php", "aspx", "asp", "jsp"}:
            found["url_ext"] = 1.0
        if _NUMBER.match(last) or any(len(word) >= 6 and word.isdigit() for word in words):
            found["url_number"] = 1.0
    _section(segments, parts.query, found)
    if _DATE_PATH.search(path):
        found["url_date"] = 1.0
    if parts.query:
        found["url_query"] = 1.0


def probabilities(evidence: Evidence) -> dict[PageType, float]:
    """The model's probability of each kind for the page."""
    with_url = bool(evidence.url)
    table = _WEIGHTS_URL if with_url else _WEIGHTS_NO_URL
    scores = [0.0] * len(TYPES)
    for name, value in features(evidence, with_url=with_url).items():
        row = table.get(name)
        if row is not None and value:
            for index, weight in enumerate(row):
                scores[index] += weight * value
    top = max(scores)
    exps = [math.exp(score - top) for score in scores]
    total = sum(exps)
    return {kind: exp / total for kind, exp in zip(TYPES, exps, strict=True)}


def classify(evidence: Evidence) -> tuple[PageType, float]:
    """The most probable kind of page and its probability."""
    kind, confidence, _ = ranked(evidence)
    return kind, confidence


def ranked(evidence: Evidence) -> tuple[PageType, float, PageType]:
    """The most probable kind of page, its probability, and the next most probable kind
    (where the first is uncertain, decide.kinds reads the page as the second too)."""
    odds = probabilities(evidence)
    first, second = sorted(TYPES, key=odds.__getitem__, reverse=True)[:2]
    return first, odds[first], second


# Weights: feature name -> one weight per kind, in TYPES' order (article, forum,
# product, collection, listing, documentation, service). Written by
# bench/pagetype_train.py; edit there, not here.
# BEGIN WEIGHTS
_WEIGHTS_URL: Final[dict[str, tuple[float, ...]]] = {
    "authors": (0.715, 0.217, -0.536, -0.286, 0.083, 0.026, -0.219),
    "bias": (0.836, -0.837, -1.097, -1.234, -0.709, -0.608, -0.039),
    "code_50": (-0.479, -0.054, -0.152, -0.145, -0.257, 1.143, -0.057),
    "code_share": (-0.022, -0.021, -0.023, -0.017, -0.038, 0.116, 0.006),
    "dates_3": (-0.395, 0.552, 0.031, -0.195, 0.196, -0.147, -0.042),
    "few_words": (-0.026, 0.140, 0.022, 0.164, -0.149, -0.111, -0.041),
    "gen_blog": (0.730, -0.336, -0.005, -0.363, 0.107, -0.361, 0.228),
    "gen_builder": (0.282, -0.135, -0.106, -0.047, -0.249, -0.159, 0.414),
    "gen_docs": (-0.180, -0.096, -0.156, -0.202, 0.148, 0.617, -0.131),
    "gen_forum": (-0.099, 0.272, -0.055, -0.021, -0.044, -0.025, -0.027),
    "gen_shop": (-0.080, -0.012, 0.163, 0.322, -0.130, -0.015, -0.248),
    "headings_per_100": (0.051, -0.606, 0.275, 0.180, 0.054, -0.274, 0.321),
    "host_article": (0.327, -0.178, -0.037, 0.080, 0.048, -0.050, -0.190),
    "host_collection": (-0.081, -0.101, 0.242, 0.312, -0.189, -0.041, -0.141),
    "host_docs": (-0.585, -0.084, -0.240, -0.244, 0.028, 1.350, -0.225),
    "host_forum": (-0.393, 0.791, -0.122, -0.095, -0.015, -0.084, -0.082),
    "host_listing": (0.043, -0.029, -0.041, -0.029, 0.159, -0.027, -0.076),
    "host_product": (-0.029, -0.013, -0.048, 0.163, -0.035, -0.010, -0.028),
    "ld_any": (-0.363, -0.142, 0.469, 0.136, 0.296, -0.531, 0.133),
    "ld_article": (1.084, -0.268, -0.252, -0.338, -0.015, 0.053, -0.264),
    "ld_blog": (0.137, -0.022, -0.015, -0.007, -0.030, -0.007, -0.057),
    "ld_breadcrumb": (-0.140, 0.190, -0.116, 0.265, -0.235, -0.097, 0.133),
    "ld_business": (-0.157, -0.074, -0.103, -0.198, 0.060, -0.079, 0.551),
    "ld_collection": (-0.173, -0.023, -0.103, 0.156, 0.423, -0.037, -0.244),
    "ld_course": (-0.126, -0.039, 0.059, -0.121, 0.266, -0.042, 0.003),
    "ld_faq": (0.124, -0.132, -0.078, 0.152, -0.242, -0.117, 0.292),
    "ld_forum": (-0.441, 0.719, -0.084, -0.041, -0.069, -0.018, -0.067),
    "ld_howto": (0.005, -0.001, -0.000, -0.000, -0.000, -0.001, -0.003),
    "ld_itemlist": (0.138, -0.046, -0.184, -0.037, 0.371, -0.038, -0.204),
    "ld_product": (-0.634, -0.201, 1.537, -0.240, -0.182, -0.134, -0.146),
    "ld_profile": (0.051, 0.576, -0.178, -0.157, -0.210, -0.092, 0.010),
    "ld_qa": (-0.010, 0.150, -0.053, -0.073, -0.082, -0.132, 0.200),
    "ld_software": (-0.059, -0.011, -0.058, -0.039, -0.070, -0.037, 0.273),
    "ld_tech": (-0.111, -0.017, -0.014, -0.027, 0.049, 0.203, -0.083),
    "li_share": (0.567, -0.153, 0.020, 0.049, -0.663, 0.293, -0.113),
    "link_share": (-0.125, -0.187, 0.003, 0.365, 0.284, -0.094, -0.246),
    "linked_heading_share": (-0.150, 0.280, -0.296, 0.088, 0.608, 0.144, -0.673),
    "linked_titles_per_100": (-0.169, -0.189, -0.460, 0.180, 0.347, 0.215, 0.075),
    "log_dates": (0.230, 0.628, -0.153, -0.137, 0.101, -0.146, -0.523),
    "log_linked_headings": (0.159, 0.118, -0.284, 0.024, 0.237, -0.110, -0.144),
    "log_linked_medium": (-0.005, -0.030, -0.135, 0.381, 0.698, -0.423, -0.486),
    "log_linked_titles": (-0.201, -0.238, -0.048, 0.224, 0.210, -0.017, 0.069),
    "log_longest_block": (-0.169, 0.039, 0.332, -0.124, 0.133, -0.017, -0.195),
    "log_prices": (-0.515, -0.397, 0.621, 1.574, -0.709, -0.499, -0.077),
    "log_prose_run": (0.340, -0.011, 0.039, -0.425, -0.333, 0.159, 0.231),
    "log_words": (-0.104, -0.150, -0.008, 0.025, 0.055, 0.134, 0.048),
    "log_words_per_block": (0.150, -0.032, -0.086, -0.099, 0.053, 0.063, -0.047),
    "long_share": (0.324, 0.183, -0.123, -0.024, 0.061, -0.137, -0.284),
    "og_article": (0.729, -0.189, -0.264, -0.496, -0.064, 0.145, 0.139),
    "og_book": (-0.122, -0.014, -0.001, -0.003, -0.020, 0.165, -0.006),
    "og_other": (0.060, -0.011, 0.015, 0.269, -0.213, -0.105, -0.014),
    "og_product": (-0.444, -0.089, 1.022, 0.142, -0.092, -0.120, -0.419),
    "og_profile": (-0.024, -0.004, -0.028, 0.172, -0.050, -0.017, -0.045),
    "og_website": (-0.182, -0.017, 0.064, -0.050, -0.102, -0.079, 0.365),
    "p_share": (0.789, -0.112, -0.426, -0.225, -0.427, 0.259, 0.143),
    "phrases_docs": (-0.180, -0.102, 0.016, 0.073, -0.226, 0.780, -0.361),
    "phrases_forum": (-0.038, 0.516, 0.043, -0.188, -0.090, -0.118, -0.124),
    "phrases_listing": (-0.494, 0.307, 0.175, 0.658, -0.179, -0.154, -0.314),
    "phrases_service": (-0.412, -0.129, -0.015, -0.190, -0.282, -0.129, 1.157),
    "phrases_shop": (-0.683, -0.183, 1.544, 0.249, -0.296, 0.004, -0.635),
    "price_one": (-0.359, -0.090, 0.143, -0.049, 0.040, -0.154, 0.469),
    "prose_run_300": (0.241, 0.093, -0.119, 0.067, -0.204, -0.170, 0.093),
    "prose_run_share": (0.591, 0.170, -0.130, -0.240, -0.183, -0.150, -0.057),
    "prose_run_under_100": (-0.462, -0.119, 0.264, 0.334, 0.763, -0.346, -0.434),
    "published": (0.168, 0.345, 0.114, -0.081, -0.139, -0.204, -0.203),
    "table_share": (-0.074, -0.069, -0.108, -0.188, 0.365, 0.084, -0.010),
    "title_docs": (0.383, -0.142, -0.051, -0.272, -0.326, 0.952, -0.544),
    "title_forum": (-0.453, 0.987, 0.011, -0.172, -0.199, -0.099, -0.074),
    "title_head_plural": (-0.313, -0.281, -0.534, 0.637, 0.605, -0.214, 0.100),
    "title_head_short": (-0.440, -0.230, -0.179, 0.334, -0.048, 0.483, 0.080),
    "title_head_words": (0.897, 0.238, 0.175, -0.310, -0.447, -0.431, -0.121),
    "title_listing": (0.276, -0.106, 0.095, -0.244, 0.503, -0.281, -0.243),
    "title_parts": (-0.322, 0.212, 0.153, -0.255, -0.174, 0.074, 0.312),
    "title_service": (-0.209, -0.135, -0.167, -0.183, -0.167, -0.148, 1.008),
    "title_shop": (0.166, -0.080, -0.405, 0.398, 0.139, -0.258, 0.040),
    "url_article": (1.220, -0.054, -0.267, -0.249, 0.328, -0.362, -0.616),
    "url_collection": (-0.529, -0.124, -0.222, 1.074, 0.410, -0.330, -0.280),
    "url_date": (0.616, -0.092, -0.091, -0.047, -0.136, -0.096, -0.154),
    "url_depth": (-0.058, 0.100, 0.240, 0.022, -0.229, 0.407, -0.482),
    "url_docs": (0.063, -0.155, -0.293, -0.276, -0.110, 1.282, -0.511),
    "url_ext": (-0.360, 0.234, 0.474, -0.343, -0.282, 0.455, -0.178),
    "url_forum": (-0.346, 1.604, -0.110, 0.091, -0.565, -0.251, -0.423),
    "url_last_plural": (-0.392, -0.114, -0.251, 0.257, 0.243, 0.197, 0.058),
    "url_list_query": (-0.023, -0.017, -0.026, -0.173, 0.335, -0.045, -0.051),
    "url_listing": (0.569, -0.123, -0.376, -0.136, 0.429, -0.012, -0.351),
    "url_number": (-0.131, 0.629, 0.522, -0.343, 0.032, -0.250, -0.459),
    "url_product": (-0.442, -0.132, 1.331, -0.151, -0.288, -0.073, -0.244),
    "url_query": (-0.046, 0.284, -0.043, 0.788, 0.131, -0.427, -0.688),
    "url_root": (-0.768, -0.167, -0.322, 0.238, 0.458, -0.290, 0.851),
    "url_section": (-0.627, -0.091, -0.162, 0.227, 0.458, 0.122, 0.074),
    "url_service": (-0.338, -0.080, -0.110, -0.277, -0.045, -0.170, 1.020),
    "url_slug_words": (0.791, 0.337, 0.363, -0.411, -0.371, -0.288, -0.421),
}  # fmt: skip
_WEIGHTS_NO_URL: Final[dict[str, tuple[float, ...]]] = {
    "authors": (0.758, 0.317, -0.551, -0.329, 0.143, -0.078, -0.261),
    "bias": (0.575, -0.129, -0.471, -1.156, -0.750, -0.333, -0.264),
    "code_50": (-0.580, -0.017, -0.247, -0.253, -0.386, 1.595, -0.113),
    "code_share": (-0.002, -0.045, -0.037, -0.032, -0.056, 0.179, -0.007),
    "dates_3": (-0.246, 0.708, -0.004, -0.289, 0.175, -0.256, -0.088),
    "few_words": (-0.003, 0.211, 0.070, 0.161, -0.202, -0.143, -0.094),
    "gen_blog": (0.773, -0.503, -0.027, -0.306, 0.195, -0.461, 0.330),
    "gen_builder": (0.211, -0.226, -0.105, 0.002, -0.206, -0.215, 0.539),
    "gen_docs": (-0.346, -0.140, -0.176, -0.240, 0.126, 0.925, -0.150),
    "gen_forum": (-0.158, 0.494, -0.084, -0.055, -0.094, -0.042, -0.060),
    "gen_shop": (-0.163, -0.019, 0.263, 0.394, -0.128, -0.025, -0.322),
    "headings_per_100": (0.018, -0.675, 0.306, 0.191, 0.049, -0.275, 0.386),
    "ld_any": (-0.508, -0.030, 0.481, 0.151, 0.329, -0.639, 0.217),
    "ld_article": (1.328, -0.489, -0.260, -0.403, 0.025, 0.076, -0.276),
    "ld_blog": (0.179, -0.038, -0.017, -0.010, -0.033, -0.008, -0.074),
    "ld_breadcrumb": (-0.062, 0.218, 0.014, 0.112, -0.323, -0.045, 0.087),
    "ld_business": (-0.159, -0.147, -0.176, -0.204, 0.133, -0.092, 0.646),
    "ld_collection": (-0.188, -0.037, -0.150, 0.228, 0.447, -0.049, -0.250),
    "ld_course": (-0.057, -0.050, 0.011, -0.118, 0.277, -0.023, -0.040),
    "ld_faq": (0.175, -0.255, -0.108, 0.223, -0.196, -0.139, 0.299),
    "ld_forum": (-0.506, 0.921, -0.081, -0.052, -0.117, -0.027, -0.139),
    "ld_howto": (0.003, -0.001, -0.000, -0.000, -0.000, -0.000, -0.002),
    "ld_itemlist": (-0.002, -0.073, -0.248, 0.060, 0.470, -0.048, -0.160),
    "ld_product": (-0.797, -0.273, 1.906, -0.304, -0.194, -0.162, -0.177),
    "ld_profile": (-0.043, 0.897, -0.164, -0.216, -0.296, -0.153, -0.025),
    "ld_qa": (-0.177, 0.380, -0.101, -0.016, -0.107, -0.197, 0.218),
    "ld_software": (-0.087, -0.030, -0.039, -0.033, -0.048, -0.075, 0.311),
    "ld_tech": (-0.179, -0.047, -0.024, -0.025, 0.074, 0.270, -0.069),
    "li_share": (0.757, -0.176, 0.046, 0.093, -0.795, 0.380, -0.306),
    "link_share": (-0.219, -0.192, 0.132, 0.367, 0.256, -0.151, -0.193),
    "linked_heading_share": (-0.397, 0.561, -0.368, 0.086, 0.652, 0.242, -0.776),
    "linked_titles_per_100": (-0.091, -0.162, -0.571, 0.266, 0.360, 0.158, 0.040),
    "log_dates": (0.353, 0.879, -0.138, -0.242, 0.164, -0.325, -0.691),
    "log_linked_headings": (0.146, 0.245, -0.313, -0.034, 0.250, -0.047, -0.246),
    "log_linked_medium": (0.145, -0.133, -0.098, 0.256, 0.734, -0.455, -0.450),
    "log_linked_titles": (-0.282, -0.365, -0.146, 0.310, 0.276, 0.099, 0.108),
    "log_longest_block": (-0.298, 0.101, 0.422, -0.120, 0.109, 0.010, -0.224),
    "log_prices": (-0.631, -0.556, 0.640, 1.926, -0.597, -0.659, -0.124),
    "log_prose_run": (0.360, -0.076, -0.057, -0.415, -0.319, 0.236, 0.271),
    "log_words": (-0.053, -0.240, -0.068, 0.036, 0.076, 0.228, 0.020),
    "log_words_per_block": (0.268, -0.072, -0.097, -0.173, 0.070, 0.077, -0.073),
    "long_share": (0.375, 0.221, -0.077, -0.063, 0.067, -0.166, -0.358),
    "og_article": (0.876, -0.247, -0.348, -0.511, -0.082, 0.145, 0.168),
    "og_book": (-0.103, -0.026, -0.001, -0.003, -0.019, 0.153, -0.002),
    "og_other": (0.104, -0.052, -0.046, 0.347, -0.206, -0.111, -0.036),
    "og_product": (-0.537, -0.104, 1.178, 0.273, -0.136, -0.158, -0.515),
    "og_profile": (-0.021, -0.009, -0.042, 0.172, -0.036, -0.023, -0.042),
    "og_website": (-0.098, -0.028, -0.119, -0.077, -0.021, -0.106, 0.449),
    "p_share": (1.156, -0.359, -0.624, -0.332, -0.409, 0.399, 0.169),
    "phrases_docs": (-0.168, -0.165, 0.006, -0.017, -0.320, 1.234, -0.570),
    "phrases_forum": (-0.155, 0.788, 0.146, -0.267, -0.151, -0.157, -0.204),
    "phrases_listing": (-0.641, 0.398, 0.150, 0.744, -0.190, -0.214, -0.248),
    "phrases_service": (-0.241, -0.203, -0.053, -0.131, -0.297, -0.334, 1.259),
    "phrases_shop": (-0.920, -0.259, 1.870, 0.363, -0.373, 0.114, -0.796),
    "price_one": (-0.329, -0.177, 0.286, -0.088, 0.052, -0.151, 0.406),
    "prose_run_300": (0.350, 0.028, -0.141, 0.077, -0.241, -0.155, 0.083),
    "prose_run_share": (0.546, 0.165, -0.112, -0.179, -0.133, -0.247, -0.040),
    "prose_run_under_100": (-0.611, -0.032, 0.247, 0.387, 0.846, -0.358, -0.479),
    "published": (0.250, 0.421, 0.066, -0.103, -0.176, -0.263, -0.196),
    "table_share": (-0.034, -0.114, -0.095, -0.242, 0.389, 0.132, -0.037),
    "title_docs": (0.431, -0.232, -0.180, -0.385, -0.384, 1.423, -0.673),
    "title_forum": (-0.710, 1.681, -0.034, -0.240, -0.330, -0.180, -0.186),
    "title_head_plural": (-0.331, -0.367, -0.526, 0.637, 0.598, -0.080, 0.069),
    "title_head_short": (-0.650, -0.117, -0.325, 0.410, -0.015, 0.529, 0.168),
    "title_head_words": (1.246, 0.298, 0.232, -0.328, -0.507, -0.631, -0.310),
    "title_listing": (0.625, -0.187, -0.070, -0.281, 0.621, -0.353, -0.356),
    "title_parts": (-0.311, 0.332, 0.126, -0.237, -0.244, 0.146, 0.189),
    "title_service": (-0.214, -0.124, -0.288, -0.226, -0.153, -0.239, 1.245),
    "title_shop": (0.044, -0.123, -0.398, 0.486, 0.200, -0.282, 0.073),
}  # fmt: skip
# END WEIGHTS
