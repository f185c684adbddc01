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

The model is a multinomial logistic regression over hand-made features
(`features`): indicator features for the declarations, the URL's path and
host words, the title words and the short blocks' phrases, and a few bounded numbers
for the shape of the text. Its weights are the tables at the end, fitted on
WCXB's development split by bench/pagetype_train.py (k-fold cross-validated;
the figures are in its report). Two tables: one with the URL's features, one
without, chosen by whether the evidence has a URL, so a page without one is
judged by a model that never learned to lean on it. Cost: the features of
one page and a sparse dot product over a hundred weights, tens of
microseconds in Python.
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
    if evidence.phrases:
        for group, phrases in _PHRASES.items():
            count = sum(1 for phrase in phrases if phrase in evidence.phrases)
            if count:
                found["phrases_" + group] = min(count, 5) / 5.0


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
    odds = probabilities(evidence)
    kind = max(odds, key=odds.__getitem__)
    return kind, odds[kind]


# Weights: feature name -> one weight per kind, in TYPES' order (article, forum,
# product, collection, listing, documentation, service). Written by
# bench/pagetype_train.py; edit there, not here.
# BEGIN WEIGHTS
_WEIGHTS_URL: Final[dict[str, tuple[float, ...]]] = {
    "authors": (0.844, 0.366, -0.528, -0.315, -0.049, -0.033, -0.284),
    "bias": (0.463, -0.763, -1.126, -0.746, 0.327, -0.489, 0.009),
    "code_50": (-0.494, -0.017, -0.155, -0.160, -0.358, 1.207, -0.023),
    "code_share": (-0.019, -0.024, -0.022, -0.020, -0.061, 0.135, 0.011),
    "few_words": (-0.040, 0.104, 0.062, 0.226, -0.170, -0.115, -0.067),
    "gen_blog": (0.607, -0.343, -0.060, -0.324, 0.200, -0.350, 0.271),
    "gen_builder": (0.253, -0.137, -0.106, -0.062, -0.187, -0.183, 0.422),
    "gen_docs": (-0.289, -0.085, -0.156, -0.204, 0.178, 0.716, -0.160),
    "gen_forum": (-0.069, 0.256, -0.040, -0.020, -0.070, -0.029, -0.030),
    "gen_shop": (-0.072, -0.016, 0.157, 0.352, -0.157, -0.017, -0.246),
    "headings_per_100": (-0.019, -0.662, 0.285, 0.206, 0.086, -0.234, 0.337),
    "host_article": (0.301, -0.162, -0.044, 0.087, 0.151, -0.078, -0.256),
    "host_collection": (-0.163, -0.071, 0.270, 0.301, -0.139, -0.044, -0.153),
    "host_docs": (-0.705, -0.118, -0.237, -0.257, 0.074, 1.437, -0.193),
    "host_forum": (-0.459, 0.831, -0.089, -0.109, -0.019, -0.074, -0.081),
    "host_listing": (0.089, -0.038, -0.040, -0.043, 0.122, -0.021, -0.070),
    "host_product": (-0.058, -0.016, -0.037, 0.192, -0.036, -0.008, -0.038),
    "ld_any": (-0.459, -0.114, 0.424, 0.202, 0.352, -0.533, 0.127),
    "ld_article": (1.221, -0.289, -0.259, -0.358, -0.083, 0.037, -0.269),
    "ld_blog": (0.193, -0.023, -0.015, -0.015, -0.056, -0.009, -0.075),
    "ld_breadcrumb": (-0.093, 0.174, -0.138, 0.255, -0.276, -0.064, 0.142),
    "ld_business": (-0.165, -0.079, -0.123, -0.200, 0.066, -0.087, 0.588),
    "ld_collection": (-0.242, -0.032, -0.116, 0.209, 0.449, -0.033, -0.235),
    "ld_course": (-0.108, -0.051, 0.068, -0.151, 0.256, -0.041, 0.028),
    "ld_faq": (0.127, -0.157, -0.052, 0.170, -0.236, -0.134, 0.283),
    "ld_forum": (-0.440, 0.781, -0.091, -0.052, -0.097, -0.025, -0.076),
    "ld_howto": (0.005, -0.001, -0.000, -0.000, -0.001, -0.001, -0.002),
    "ld_itemlist": (-0.003, -0.041, -0.157, -0.003, 0.497, -0.048, -0.245),
    "ld_product": (-0.601, -0.171, 1.590, -0.328, -0.244, -0.135, -0.110),
    "ld_profile": (0.091, 0.717, -0.197, -0.189, -0.294, -0.117, -0.011),
    "ld_qa": (-0.090, 0.191, -0.039, -0.073, -0.051, -0.149, 0.211),
    "ld_software": (-0.054, -0.017, -0.070, -0.032, -0.083, -0.030, 0.287),
    "ld_tech": (-0.152, -0.022, -0.015, -0.032, 0.080, 0.258, -0.116),
    "li_share": (0.543, -0.229, -0.107, 0.135, -0.693, 0.355, -0.005),
    "link_share": (-0.730, -0.302, -0.236, 0.702, 1.017, -0.045, -0.406),
    "linked_heading_share": (-0.295, 0.304, -0.413, 0.169, 0.840, 0.182, -0.788),
    "log_linked_headings": (0.209, 0.183, -0.385, 0.041, 0.333, -0.160, -0.221),
    "log_prices": (-0.489, -0.446, 0.602, 1.644, -0.678, -0.536, -0.099),
    "log_words": (0.004, -0.093, -0.077, -0.019, 0.017, 0.092, 0.076),
    "log_words_per_block": (0.352, 0.007, -0.057, -0.209, -0.054, 0.012, -0.050),
    "long_share": (0.799, 0.267, -0.083, -0.242, -0.416, -0.194, -0.131),
    "og_article": (0.813, -0.159, -0.282, -0.524, -0.168, 0.158, 0.162),
    "og_book": (-0.113, -0.007, -0.002, -0.001, -0.027, 0.162, -0.006),
    "og_other": (0.058, -0.016, 0.021, 0.276, -0.202, -0.119, -0.017),
    "og_product": (-0.467, -0.089, 1.044, 0.144, -0.087, -0.133, -0.411),
    "og_profile": (-0.063, -0.004, -0.018, 0.180, -0.039, -0.013, -0.043),
    "og_website": (-0.178, 0.026, 0.133, -0.116, -0.069, -0.109, 0.313),
    "p_share": (0.983, -0.061, -0.400, -0.360, -0.740, 0.293, 0.284),
    "phrases_docs": (-0.240, -0.136, 0.039, 0.070, -0.290, 0.899, -0.342),
    "phrases_forum": (0.018, 0.605, 0.036, -0.233, -0.103, -0.145, -0.178),
    "phrases_listing": (-0.441, 0.352, 0.126, 0.695, -0.139, -0.227, -0.366),
    "phrases_service": (-0.414, -0.148, -0.060, -0.156, -0.344, -0.127, 1.250),
    "phrases_shop": (-0.592, -0.167, 1.726, 0.109, -0.413, -0.013, -0.649),
    "price_one": (-0.366, -0.096, 0.110, -0.027, 0.125, -0.202, 0.456),
    "published": (0.185, 0.418, 0.161, -0.176, -0.138, -0.263, -0.186),
    "table_share": (-0.108, -0.077, -0.121, -0.189, 0.463, 0.076, -0.044),
    "title_docs": (0.504, -0.162, -0.069, -0.329, -0.304, 0.953, -0.592),
    "title_forum": (-0.486, 1.053, 0.028, -0.178, -0.188, -0.107, -0.121),
    "title_listing": (0.281, -0.106, 0.110, -0.259, 0.539, -0.326, -0.239),
    "title_service": (-0.181, -0.121, -0.205, -0.162, -0.151, -0.196, 1.017),
    "title_shop": (0.064, -0.127, -0.371, 0.433, 0.233, -0.311, 0.079),
    "url_article": (1.309, -0.021, -0.286, -0.289, 0.447, -0.457, -0.704),
    "url_collection": (-0.480, -0.172, -0.298, 1.170, 0.416, -0.381, -0.256),
    "url_date": (0.667, -0.087, -0.089, -0.053, -0.156, -0.108, -0.174),
    "url_depth": (0.027, 0.031, 0.265, 0.012, -0.324, 0.436, -0.447),
    "url_docs": (0.109, -0.180, -0.306, -0.297, -0.120, 1.272, -0.478),
    "url_ext": (-0.379, 0.312, 0.485, -0.369, -0.310, 0.439, -0.178),
    "url_forum": (-0.503, 1.738, -0.083, 0.061, -0.485, -0.266, -0.462),
    "url_listing": (0.594, -0.098, -0.381, -0.155, 0.511, -0.087, -0.384),
    "url_number": (-0.088, 0.734, 0.565, -0.405, -0.025, -0.274, -0.507),
    "url_product": (-0.424, -0.155, 1.353, -0.127, -0.326, -0.066, -0.254),
    "url_query": (-0.087, 0.346, -0.125, 0.805, 0.152, -0.435, -0.655),
    "url_root": (-0.663, -0.165, -0.283, 0.202, 0.386, -0.279, 0.801),
    "url_service": (-0.327, -0.091, -0.113, -0.289, -0.096, -0.143, 1.059),
    "url_slug_words": (1.345, 0.407, 0.474, -0.564, -0.625, -0.455, -0.582),
}  # fmt: skip
_WEIGHTS_NO_URL: Final[dict[str, tuple[float, ...]]] = {
    "authors": (0.906, 0.500, -0.561, -0.383, 0.033, -0.145, -0.350),
    "bias": (0.299, 0.043, -0.583, -0.698, 0.037, -0.235, -0.389),
    "code_50": (-0.628, 0.060, -0.254, -0.281, -0.485, 1.684, -0.097),
    "code_share": (-0.006, -0.061, -0.035, -0.036, -0.074, 0.221, -0.009),
    "few_words": (-0.017, 0.168, 0.105, 0.234, -0.211, -0.148, -0.131),
    "gen_blog": (0.698, -0.496, -0.097, -0.266, 0.238, -0.473, 0.396),
    "gen_builder": (0.277, -0.219, -0.103, -0.013, -0.183, -0.255, 0.497),
    "gen_docs": (-0.372, -0.136, -0.201, -0.228, 0.185, 0.944, -0.193),
    "gen_forum": (-0.176, 0.494, -0.063, -0.044, -0.111, -0.041, -0.058),
    "gen_shop": (-0.160, -0.024, 0.278, 0.422, -0.159, -0.032, -0.326),
    "headings_per_100": (-0.058, -0.717, 0.323, 0.210, 0.095, -0.248, 0.395),
    "ld_any": (-0.591, -0.016, 0.418, 0.222, 0.354, -0.622, 0.234),
    "ld_article": (1.448, -0.559, -0.263, -0.440, 0.006, 0.078, -0.271),
    "ld_blog": (0.243, -0.038, -0.016, -0.016, -0.052, -0.013, -0.108),
    "ld_breadcrumb": (-0.041, 0.199, 0.026, 0.115, -0.366, -0.036, 0.104),
    "ld_business": (-0.087, -0.166, -0.191, -0.237, 0.080, -0.101, 0.701),
    "ld_collection": (-0.293, -0.054, -0.168, 0.295, 0.488, -0.040, -0.228),
    "ld_course": (-0.052, -0.055, 0.031, -0.151, 0.255, -0.022, -0.006),
    "ld_faq": (0.231, -0.319, -0.086, 0.235, -0.216, -0.150, 0.304),
    "ld_forum": (-0.532, 1.037, -0.089, -0.073, -0.148, -0.036, -0.160),
    "ld_howto": (0.003, -0.000, -0.000, -0.000, -0.000, -0.000, -0.001),
    "ld_itemlist": (-0.092, -0.066, -0.257, 0.109, 0.574, -0.062, -0.206),
    "ld_product": (-0.735, -0.247, 1.962, -0.408, -0.252, -0.162, -0.160),
    "ld_profile": (0.035, 1.106, -0.186, -0.265, -0.384, -0.206, -0.099),
    "ld_qa": (-0.226, 0.484, -0.085, -0.033, -0.120, -0.230, 0.210),
    "ld_software": (-0.100, -0.053, -0.040, -0.030, -0.048, -0.049, 0.321),
    "ld_tech": (-0.296, -0.057, -0.022, -0.036, 0.130, 0.353, -0.072),
    "li_share": (0.738, -0.307, -0.129, 0.265, -0.817, 0.478, -0.229),
    "link_share": (-0.879, -0.387, -0.247, 0.855, 1.078, -0.067, -0.353),
    "linked_heading_share": (-0.518, 0.648, -0.548, 0.187, 0.809, 0.299, -0.877),
    "log_linked_headings": (0.327, 0.334, -0.461, -0.065, 0.325, -0.102, -0.359),
    "log_prices": (-0.571, -0.576, 0.618, 1.972, -0.603, -0.691, -0.148),
    "log_words": (0.201, -0.195, -0.164, -0.042, 0.006, 0.173, 0.021),
    "log_words_per_block": (0.570, -0.037, -0.030, -0.343, -0.059, -0.006, -0.094),
    "long_share": (0.981, 0.315, 0.004, -0.347, -0.469, -0.259, -0.225),
    "og_article": (0.996, -0.298, -0.379, -0.504, -0.138, 0.138, 0.186),
    "og_book": (-0.087, -0.009, -0.002, -0.006, -0.016, 0.131, -0.003),
    "og_other": (0.172, -0.046, -0.070, 0.363, -0.199, -0.152, -0.068),
    "og_product": (-0.556, -0.115, 1.176, 0.348, -0.131, -0.177, -0.545),
    "og_profile": (-0.050, -0.008, -0.028, 0.178, -0.036, -0.016, -0.040),
    "og_website": (-0.044, 0.037, -0.067, -0.113, 0.023, -0.189, 0.353),
    "p_share": (1.414, -0.364, -0.622, -0.454, -0.703, 0.424, 0.305),
    "phrases_docs": (-0.264, -0.235, 0.022, -0.018, -0.379, 1.448, -0.575),
    "phrases_forum": (0.006, 0.942, 0.163, -0.369, -0.208, -0.217, -0.319),
    "phrases_listing": (-0.574, 0.488, 0.113, 0.745, -0.166, -0.314, -0.292),
    "phrases_service": (-0.183, -0.214, -0.104, -0.118, -0.357, -0.375, 1.351),
    "phrases_shop": (-0.868, -0.263, 2.021, 0.236, -0.474, 0.121, -0.773),
    "price_one": (-0.364, -0.148, 0.250, -0.069, 0.125, -0.180, 0.386),
    "published": (0.265, 0.537, 0.100, -0.236, -0.162, -0.333, -0.171),
    "table_share": (-0.067, -0.123, -0.107, -0.249, 0.510, 0.105, -0.069),
    "title_docs": (0.553, -0.274, -0.212, -0.447, -0.368, 1.475, -0.727),
    "title_forum": (-0.780, 1.812, -0.028, -0.250, -0.296, -0.189, -0.271),
    "title_listing": (0.699, -0.174, -0.055, -0.313, 0.695, -0.386, -0.467),
    "title_service": (-0.136, -0.138, -0.321, -0.222, -0.131, -0.293, 1.240),
    "title_shop": (-0.061, -0.150, -0.386, 0.531, 0.265, -0.284, 0.085),
}  # fmt: skip
# END WEIGHTS
