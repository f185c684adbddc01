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
preformatted blocks, headings), two counts of repeated structure (the
largest run of sibling "cards": short linked items of one shape; the
largest run of sibling "posts": items of one shape that each hold prose),
the words of its class and id attributes, and its URL when the caller knows
it. Nothing here reads HTML: the caller fills the evidence.

The model is a multinomial logistic regression over hand-made features
(`features`): indicator features for the declarations, the URL's path and
host words, the class words and the title words, and a few bounded numbers
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
    # Repeated structure.
    cards: int = 0  # largest run of same-shaped siblings, each a short linked item
    posts: int = 0  # largest run of same-shaped siblings, each holding prose
    prices: int = 0  # price-like strings in the text ($12.99, 12,99 €)
    time_elements: int = 0  # <time> elements
    class_words: frozenset[str] = frozenset()  # the words of class and id attributes, lowercase
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

# Words of class and id attributes that tell a kind of page.
_CLASS_WORDS: Final = (
    "product", "price", "cart", "basket", "sku", "variant", "checkout", "quantity", "qty",
    "post", "posts", "comment", "reply", "replies", "thread", "topic", "forum", "message",
    "avatar", "username", "vote", "votes", "answer", "question", "signature", "postbody",
    "card", "cards", "grid", "tile", "tiles", "listing", "results", "pagination", "pager",
    "filter", "filters", "facet", "sort", "toc", "sidebar", "highlight", "docs", "doc",
    "api", "sphinxsidebar", "md", "theme", "markdown", "hero", "pricing", "testimonial",
    "testimonials", "cta", "feature", "features", "plan", "plans", "faq", "logos",
    "article", "entry", "blog", "byline", "share", "related", "breadcrumb", "breadcrumbs",
    "shopify", "woocommerce", "discourse", "crawler", "xenforo", "phpbb", "gallery", "swatch",
    "collection", "category", "author", "date", "tags", "course", "event", "wiki", "mw",
    "rst", "section", "container", "btn", "button",
)  # fmt: skip
_CLASS_WORD_SET: Final = frozenset(_CLASS_WORDS)

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
    """The features of the page's words: its title's, its class names', its short blocks'."""
    for word in set(_WORD.findall(evidence.title.lower())):
        group = _TITLE_GROUP_OF.get(word)
        if group is not None:
            found["title_" + group] = 1.0
    for word in _CLASS_WORD_SET & evidence.class_words:
        found["class_" + word] = 1.0
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
    found["log_cards"] = math.log1p(evidence.cards) / 4.0
    found["log_posts"] = math.log1p(evidence.posts) / 4.0
    found["log_prices"] = math.log1p(evidence.prices) / 4.0
    found["log_linked_headings"] = math.log1p(evidence.linked_headings) / 4.0
    if evidence.heading_blocks:
        found["linked_heading_share"] = evidence.linked_headings / evidence.heading_blocks
    if words < 100:
        found["few_words"] = 1.0
    found["log_times"] = math.log1p(evidence.time_elements) / 4.0
    if evidence.cards >= 8:
        found["cards_8"] = 1.0
    if evidence.posts >= 3:
        found["posts_3"] = 1.0
    if evidence.code_words >= 50:
        found["code_50"] = 1.0
    if evidence.prices == 1:
        found["price_one"] = 1.0


def _url(url: str, found: dict[str, float]) -> None:
    parts = urlsplit(url.strip().lower())
    path = parts.path
    segments = [segment for segment in path.split("/") if segment]
    found["url_depth"] = min(len(segments), 6) / 6.0
    if not segments:
        found["url_root"] = 1.0
    host = parts.hostname or ""
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
    "authors": (0.819, 0.080, -0.341, -0.256, 0.057, -0.020, -0.338),
    "bias": (0.079, -0.008, -1.046, -0.817, 0.509, 0.105, 0.341),
    "cards_8": (-0.270, -0.234, -0.225, 0.643, 0.440, -0.054, -0.300),
    "class_answer": (-0.211, 0.266, 0.125, -0.007, -0.081, -0.052, -0.040),
    "class_api": (0.071, -0.057, 0.129, -0.143, -0.194, 0.084, 0.111),
    "class_article": (0.546, -0.266, -0.147, -0.022, 0.046, 0.249, -0.407),
    "class_author": (0.628, 0.225, -0.130, -0.026, -0.023, -0.276, -0.399),
    "class_avatar": (-0.045, 0.595, 0.267, -0.317, -0.208, -0.166, -0.126),
    "class_basket": (0.011, -0.019, -0.076, 0.177, 0.078, -0.030, -0.142),
    "class_blog": (0.393, -0.134, -0.186, -0.106, 0.362, -0.179, -0.150),
    "class_breadcrumb": (0.238, -0.156, -0.080, 0.136, 0.020, -0.191, 0.033),
    "class_breadcrumbs": (-0.008, -0.178, 0.065, 0.045, 0.012, 0.286, -0.223),
    "class_btn": (0.298, -0.085, -0.091, -0.285, 0.337, -0.304, 0.130),
    "class_button": (0.109, 0.254, -0.289, 0.146, 0.031, -0.270, 0.019),
    "class_byline": (0.167, 0.046, -0.062, -0.008, 0.160, -0.120, -0.183),
    "class_card": (0.129, 0.078, -0.211, -0.016, 0.225, -0.373, 0.168),
    "class_cards": (-0.218, -0.135, -0.019, 0.016, -0.096, -0.028, 0.479),
    "class_cart": (-0.217, -0.301, 0.558, 0.701, -0.039, -0.281, -0.421),
    "class_category": (-0.215, -0.024, 0.067, 0.453, 0.112, -0.270, -0.123),
    "class_checkout": (0.222, -0.069, -0.136, 0.152, 0.066, -0.054, -0.182),
    "class_collection": (-0.265, -0.104, -0.049, 0.196, 0.022, 0.075, 0.125),
    "class_comment": (-0.138, 0.451, 0.180, 0.175, -0.296, 0.061, -0.433),
    "class_container": (-0.274, -0.230, 0.322, 0.233, 0.082, -0.121, -0.012),
    "class_course": (-0.027, -0.033, 0.032, -0.198, 0.223, 0.061, -0.058),
    "class_cta": (0.236, -0.079, 0.198, -0.022, -0.068, -0.452, 0.188),
    "class_date": (0.146, 0.104, 0.275, -0.116, -0.049, -0.256, -0.103),
    "class_discourse": (-0.003, -0.000, -0.000, -0.001, -0.001, -0.002, 0.007),
    "class_doc": (-0.175, -0.000, -0.060, -0.063, -0.195, 0.595, -0.102),
    "class_docs": (-0.295, -0.037, -0.009, -0.117, -0.118, 0.524, 0.052),
    "class_entry": (0.318, -0.027, -0.139, -0.008, -0.056, -0.166, 0.077),
    "class_event": (-0.087, -0.075, -0.097, 0.099, 0.087, 0.143, -0.070),
    "class_facet": (-0.016, -0.007, -0.081, 0.101, 0.055, -0.008, -0.044),
    "class_faq": (0.002, -0.072, 0.143, -0.339, 0.110, -0.001, 0.156),
    "class_feature": (-0.292, -0.091, 0.424, -0.013, -0.030, -0.122, 0.123),
    "class_features": (-0.133, -0.123, 0.606, -0.041, -0.213, -0.085, -0.010),
    "class_filter": (-0.264, 0.136, -0.172, 0.052, 0.335, 0.384, -0.472),
    "class_filters": (-0.037, 0.056, -0.004, 0.223, 0.456, -0.131, -0.564),
    "class_forum": (-0.328, 0.486, -0.026, -0.027, -0.054, -0.037, -0.014),
    "class_gallery": (-0.422, -0.056, 0.723, -0.061, 0.060, -0.129, -0.115),
    "class_grid": (0.360, -0.203, 0.015, 0.110, -0.220, -0.274, 0.212),
    "class_hero": (0.095, -0.280, -0.161, 0.320, -0.165, -0.326, 0.517),
    "class_highlight": (0.143, -0.100, 0.413, -0.090, -0.563, 0.445, -0.247),
    "class_listing": (-0.094, 0.078, -0.219, 0.190, 0.171, -0.024, -0.102),
    "class_logos": (0.161, -0.068, -0.040, 0.088, -0.232, -0.072, 0.163),
    "class_markdown": (-0.053, -0.055, -0.050, -0.094, -0.021, 0.258, 0.015),
    "class_md": (-0.030, -0.127, 0.115, 0.053, 0.021, 0.059, -0.092),
    "class_message": (-0.299, 0.178, 0.100, 0.134, -0.046, -0.124, 0.058),
    "class_mw": (-0.263, -0.057, -0.003, -0.100, 0.462, 0.012, -0.050),
    "class_pager": (-0.339, 0.007, -0.043, 0.300, 0.161, -0.040, -0.047),
    "class_pagination": (-0.593, -0.126, 0.129, 0.444, 0.377, -0.081, -0.148),
    "class_phpbb": (-0.008, 0.047, -0.003, -0.008, -0.018, -0.006, -0.003),
    "class_plan": (0.054, -0.054, -0.029, -0.128, -0.004, 0.164, -0.004),
    "class_plans": (-0.078, 0.116, 0.018, -0.036, 0.112, -0.013, -0.119),
    "class_post": (0.370, 0.388, -0.183, -0.147, 0.012, -0.471, 0.030),
    "class_postbody": (0.013, 0.194, -0.029, -0.028, -0.062, -0.046, -0.041),
    "class_posts": (0.221, 0.053, -0.123, -0.229, 0.020, 0.014, 0.044),
    "class_price": (-0.433, -0.207, 0.708, 0.634, -0.406, -0.156, -0.141),
    "class_pricing": (-0.158, -0.014, 0.052, -0.130, -0.068, 0.100, 0.218),
    "class_product": (-0.357, -0.329, 0.309, 0.650, -0.278, 0.263, -0.259),
    "class_qty": (-0.045, -0.032, 0.191, -0.039, -0.010, -0.026, -0.040),
    "class_quantity": (-0.098, -0.061, 0.358, -0.018, -0.131, -0.037, -0.014),
    "class_question": (-0.092, 0.404, 0.045, 0.137, -0.136, -0.156, -0.201),
    "class_related": (0.260, 0.175, 0.405, -0.503, -0.266, 0.043, -0.113),
    "class_replies": (-0.203, 0.282, -0.024, -0.007, -0.021, -0.010, -0.017),
    "class_reply": (0.279, 0.174, 0.063, -0.118, -0.199, -0.004, -0.194),
    "class_results": (-0.131, -0.117, -0.162, -0.001, 0.468, -0.060, 0.003),
    "class_rst": (-0.014, -0.001, -0.000, -0.000, -0.000, 0.016, -0.000),
    "class_section": (0.154, -0.350, -0.182, -0.053, 0.022, -0.066, 0.475),
    "class_share": (0.338, 0.283, 0.213, -0.387, -0.205, 0.051, -0.293),
    "class_shopify": (0.348, -0.040, -0.000, -0.026, -0.084, -0.074, -0.123),
    "class_sidebar": (0.129, 0.018, -0.222, -0.486, 0.030, 0.578, -0.046),
    "class_signature": (-0.156, 0.266, -0.054, 0.001, -0.097, -0.042, 0.083),
    "class_sku": (-0.149, -0.023, 0.340, -0.209, 0.205, -0.022, -0.142),
    "class_sort": (-0.258, 0.179, -0.153, -0.065, 0.445, -0.060, -0.087),
    "class_sphinxsidebar": (-0.033, -0.003, -0.002, -0.000, -0.001, 0.041, -0.002),
    "class_swatch": (-0.048, -0.015, 0.310, 0.348, -0.238, -0.028, -0.328),
    "class_tags": (-0.053, 0.064, 0.048, -0.057, 0.057, -0.168, 0.109),
    "class_testimonial": (-0.422, -0.039, -0.127, 0.160, -0.100, 0.076, 0.453),
    "class_testimonials": (-0.365, -0.023, 0.082, 0.249, 0.111, -0.037, -0.016),
    "class_theme": (-0.310, -0.315, 0.046, 0.148, -0.056, 0.397, 0.090),
    "class_thread": (-0.021, 0.169, -0.011, 0.160, -0.142, -0.069, -0.086),
    "class_tile": (0.138, -0.069, 0.155, 0.108, -0.087, -0.127, -0.118),
    "class_tiles": (-0.180, -0.013, 0.190, -0.143, 0.188, -0.020, -0.021),
    "class_toc": (0.258, -0.105, -0.205, -0.234, -0.195, 0.767, -0.285),
    "class_topic": (0.171, 0.294, 0.006, -0.062, -0.072, 0.049, -0.386),
    "class_username": (-0.168, 0.540, -0.058, -0.068, -0.130, -0.092, -0.023),
    "class_variant": (0.009, -0.081, 0.245, -0.132, 0.019, -0.072, 0.013),
    "class_vote": (-0.280, 0.222, 0.104, -0.116, 0.252, -0.036, -0.146),
    "class_votes": (-0.176, 0.159, 0.088, -0.094, 0.069, -0.008, -0.037),
    "class_wiki": (-0.150, 0.201, -0.025, -0.023, -0.052, 0.092, -0.043),
    "class_woocommerce": (-0.089, 0.022, 0.042, 0.146, -0.113, -0.033, 0.025),
    "code_50": (-0.272, -0.078, -0.106, -0.109, -0.248, 0.841, -0.027),
    "code_share": (-0.023, -0.023, -0.014, -0.014, -0.048, 0.116, 0.006),
    "few_words": (-0.067, 0.075, 0.120, 0.284, -0.125, -0.175, -0.111),
    "gen_blog": (0.452, -0.341, -0.000, -0.289, 0.191, -0.241, 0.228),
    "gen_builder": (0.361, -0.161, -0.224, -0.038, -0.109, -0.116, 0.287),
    "gen_docs": (-0.167, -0.062, -0.080, -0.131, 0.093, 0.430, -0.083),
    "gen_forum": (-0.046, 0.242, -0.040, -0.029, -0.057, -0.018, -0.053),
    "gen_shop": (0.079, -0.019, 0.041, 0.181, -0.100, -0.014, -0.168),
    "headings_per_100": (0.014, -0.473, 0.215, 0.131, 0.054, -0.181, 0.240),
    "host_article": (0.280, -0.140, -0.026, 0.075, 0.074, -0.075, -0.189),
    "host_collection": (-0.164, -0.040, 0.185, 0.320, -0.159, -0.037, -0.106),
    "host_docs": (-0.507, -0.076, -0.147, -0.172, 0.062, 0.977, -0.136),
    "host_forum": (-0.353, 0.591, -0.069, -0.045, -0.019, -0.037, -0.069),
    "host_listing": (0.039, -0.016, -0.008, -0.042, 0.098, -0.012, -0.059),
    "host_product": (-0.031, -0.017, -0.045, 0.218, -0.057, -0.030, -0.038),
    "ld_any": (-0.502, -0.045, 0.323, -0.102, 0.533, -0.505, 0.298),
    "ld_article": (0.941, -0.260, -0.163, -0.240, 0.039, -0.103, -0.213),
    "ld_blog": (-0.024, 0.053, -0.009, -0.009, -0.053, -0.008, 0.050),
    "ld_breadcrumb": (-0.038, 0.159, 0.096, 0.132, -0.371, -0.150, 0.172),
    "ld_business": (-0.098, -0.060, -0.144, -0.212, 0.146, -0.045, 0.414),
    "ld_collection": (-0.154, -0.019, -0.098, 0.131, 0.350, -0.015, -0.195),
    "ld_course": (-0.105, -0.023, 0.090, -0.099, 0.095, -0.020, 0.061),
    "ld_faq": (0.179, -0.105, -0.054, 0.166, -0.202, -0.077, 0.093),
    "ld_forum": (-0.384, 0.699, -0.064, -0.055, -0.082, -0.024, -0.090),
    "ld_howto": (0.003, -0.001, -0.000, -0.000, -0.000, -0.000, -0.000),
    "ld_itemlist": (0.140, 0.017, -0.203, -0.055, 0.371, -0.048, -0.223),
    "ld_product": (-0.468, -0.105, 1.224, -0.327, -0.271, -0.082, 0.030),
    "ld_profile": (-0.023, 0.431, -0.107, -0.097, -0.286, -0.055, 0.137),
    "ld_qa": (0.031, 0.094, -0.092, -0.048, -0.046, -0.080, 0.141),
    "ld_software": (-0.028, -0.004, -0.051, -0.020, -0.089, -0.009, 0.200),
    "ld_tech": (-0.126, -0.008, -0.007, -0.013, 0.069, 0.152, -0.067),
    "li_share": (0.452, -0.147, -0.137, 0.026, -0.537, 0.233, 0.111),
    "link_share": (-0.601, -0.169, -0.059, 0.378, 0.654, -0.035, -0.168),
    "linked_heading_share": (-0.310, 0.122, -0.277, 0.098, 0.683, 0.189, -0.505),
    "log_cards": (-0.230, -0.341, -0.217, 0.393, 0.645, -0.001, -0.250),
    "log_linked_headings": (0.103, 0.078, -0.254, -0.026, 0.200, -0.085, -0.015),
    "log_posts": (0.768, -0.096, -0.284, 0.060, -0.373, 0.139, -0.214),
    "log_prices": (-0.443, -0.245, 0.511, 0.875, -0.313, -0.283, -0.103),
    "log_times": (-0.208, 0.504, -0.129, 0.021, 0.349, -0.129, -0.409),
    "log_words": (0.049, -0.061, -0.155, -0.074, -0.024, 0.151, 0.115),
    "log_words_per_block": (0.233, 0.012, -0.040, -0.120, 0.032, -0.001, -0.116),
    "long_share": (0.579, 0.178, -0.096, -0.194, -0.197, -0.125, -0.146),
    "og_article": (0.653, -0.223, -0.268, -0.343, -0.140, 0.192, 0.129),
    "og_book": (-0.117, -0.009, -0.001, -0.002, -0.013, 0.162, -0.020),
    "og_other": (0.131, -0.027, 0.021, 0.200, -0.203, -0.046, -0.076),
    "og_product": (-0.341, -0.068, 0.862, 0.133, -0.135, -0.109, -0.342),
    "og_profile": (-0.063, -0.007, -0.019, 0.206, -0.046, -0.012, -0.060),
    "og_website": (0.093, -0.047, 0.138, -0.236, -0.086, -0.168, 0.306),
    "p_share": (0.694, 0.053, -0.267, -0.361, -0.577, 0.257, 0.200),
    "phrases_docs": (-0.089, -0.052, -0.006, 0.051, -0.276, 0.586, -0.213),
    "phrases_forum": (0.022, 0.325, -0.044, -0.104, -0.081, -0.078, -0.039),
    "phrases_listing": (-0.158, 0.225, -0.046, 0.404, -0.166, -0.123, -0.135),
    "phrases_service": (-0.123, -0.112, -0.152, -0.297, -0.188, 0.034, 0.838),
    "phrases_shop": (-0.248, -0.062, 0.828, -0.054, -0.204, 0.074, -0.334),
    "posts_3": (0.022, 0.082, -0.169, -0.331, -0.322, 0.215, 0.503),
    "price_one": (-0.201, -0.137, 0.105, -0.271, 0.403, -0.153, 0.253),
    "published": (0.161, 0.220, 0.054, 0.096, -0.076, -0.308, -0.147),
    "table_share": (-0.116, -0.037, -0.078, -0.154, 0.388, 0.033, -0.036),
    "title_docs": (0.395, -0.139, -0.002, -0.283, -0.315, 0.901, -0.557),
    "title_forum": (-0.429, 0.844, 0.083, -0.127, -0.233, -0.072, -0.066),
    "title_listing": (0.350, -0.082, -0.038, -0.283, 0.578, -0.293, -0.231),
    "title_service": (-0.063, -0.084, -0.190, -0.165, -0.213, -0.243, 0.958),
    "title_shop": (0.282, -0.079, -0.358, 0.114, 0.188, -0.212, 0.064),
    "url_article": (1.013, -0.032, -0.230, -0.247, 0.510, -0.402, -0.612),
    "url_collection": (-0.366, -0.075, -0.260, 0.993, 0.248, -0.276, -0.264),
    "url_date": (0.422, -0.151, -0.025, -0.019, -0.098, -0.056, -0.071),
    "url_depth": (0.267, 0.059, 0.279, 0.022, -0.428, 0.266, -0.465),
    "url_docs": (0.227, -0.147, -0.175, -0.270, -0.114, 0.920, -0.440),
    "url_ext": (-0.405, 0.057, 0.347, -0.332, -0.048, 0.443, -0.062),
    "url_forum": (-0.426, 1.240, 0.046, 0.234, -0.501, -0.217, -0.377),
    "url_listing": (0.712, -0.031, -0.289, -0.224, 0.329, -0.103, -0.394),
    "url_number": (-0.204, 0.657, 0.571, -0.314, -0.091, -0.187, -0.433),
    "url_product": (-0.215, -0.116, 1.047, -0.279, -0.137, -0.049, -0.251),
    "url_query": (0.100, 0.242, -0.111, 0.532, 0.065, -0.259, -0.570),
    "url_root": (-0.509, -0.163, -0.305, 0.256, 0.333, -0.260, 0.649),
    "url_service": (-0.316, -0.092, -0.134, -0.192, -0.076, -0.104, 0.914),
    "url_slug_words": (1.362, 0.189, 0.377, -0.463, -0.573, -0.280, -0.614),
}  # fmt: skip
_WEIGHTS_NO_URL: Final[dict[str, tuple[float, ...]]] = {
    "authors": (0.857, 0.127, -0.360, -0.252, 0.097, -0.100, -0.368),
    "bias": (0.089, 0.395, -0.661, -0.861, 0.217, 0.207, -0.073),
    "cards_8": (-0.269, -0.263, -0.284, 0.668, 0.476, -0.025, -0.303),
    "class_answer": (-0.335, 0.332, 0.195, -0.035, -0.095, -0.058, -0.004),
    "class_api": (0.089, -0.098, 0.130, -0.179, -0.154, 0.155, 0.057),
    "class_article": (0.637, -0.288, -0.222, -0.047, 0.014, 0.327, -0.421),
    "class_author": (0.753, 0.333, -0.156, -0.142, -0.020, -0.349, -0.420),
    "class_avatar": (-0.116, 0.692, 0.396, -0.462, -0.205, -0.189, -0.115),
    "class_basket": (0.016, -0.023, -0.041, 0.124, 0.072, -0.022, -0.125),
    "class_blog": (0.739, -0.204, -0.250, -0.132, 0.428, -0.351, -0.231),
    "class_breadcrumb": (0.283, -0.105, -0.086, 0.184, -0.045, -0.171, -0.058),
    "class_breadcrumbs": (-0.070, -0.234, 0.106, 0.032, -0.019, 0.486, -0.299),
    "class_btn": (0.266, -0.121, -0.083, -0.234, 0.372, -0.387, 0.187),
    "class_button": (0.140, 0.246, -0.373, 0.220, 0.034, -0.305, 0.038),
    "class_byline": (0.157, 0.008, -0.042, 0.012, 0.175, -0.123, -0.189),
    "class_card": (0.142, 0.093, -0.254, -0.043, 0.256, -0.406, 0.212),
    "class_cards": (-0.248, -0.174, 0.041, 0.016, -0.056, -0.066, 0.489),
    "class_cart": (-0.209, -0.299, 0.628, 0.723, -0.066, -0.332, -0.445),
    "class_category": (-0.165, -0.056, 0.084, 0.452, 0.148, -0.291, -0.172),
    "class_checkout": (0.138, -0.079, -0.128, 0.309, 0.082, -0.064, -0.258),
    "class_collection": (-0.293, -0.120, -0.115, 0.307, 0.046, 0.093, 0.081),
    "class_comment": (-0.077, 0.478, 0.244, 0.113, -0.324, 0.076, -0.511),
    "class_container": (-0.287, -0.203, 0.404, 0.273, 0.091, -0.212, -0.067),
    "class_course": (0.023, -0.047, -0.000, -0.220, 0.230, 0.083, -0.069),
    "class_cta": (0.217, -0.076, 0.188, 0.018, -0.082, -0.477, 0.211),
    "class_date": (0.276, 0.112, 0.376, -0.223, -0.053, -0.345, -0.144),
    "class_discourse": (-0.016, -0.000, -0.001, -0.001, -0.001, -0.007, 0.026),
    "class_doc": (-0.313, 0.001, -0.062, -0.093, -0.204, 0.766, -0.095),
    "class_docs": (-0.262, -0.039, -0.053, -0.155, -0.144, 0.627, 0.027),
    "class_entry": (0.241, -0.139, -0.161, 0.114, -0.031, -0.215, 0.192),
    "class_event": (-0.155, -0.103, -0.151, 0.056, 0.109, 0.203, 0.041),
    "class_facet": (-0.010, -0.007, -0.121, 0.121, 0.077, -0.012, -0.048),
    "class_faq": (0.005, -0.066, 0.123, -0.306, 0.138, -0.020, 0.126),
    "class_feature": (-0.202, -0.165, 0.517, -0.074, -0.102, -0.162, 0.188),
    "class_features": (-0.143, -0.149, 0.687, -0.050, -0.246, -0.109, 0.009),
    "class_filter": (-0.305, 0.093, -0.252, 0.167, 0.365, 0.414, -0.482),
    "class_filters": (-0.042, 0.029, 0.010, 0.291, 0.470, -0.167, -0.590),
    "class_forum": (-0.526, 0.766, -0.026, -0.028, -0.086, -0.061, -0.038),
    "class_gallery": (-0.449, -0.055, 0.808, -0.137, 0.075, -0.155, -0.087),
    "class_grid": (0.428, -0.225, -0.064, 0.069, -0.171, -0.327, 0.290),
    "class_hero": (0.047, -0.299, -0.170, 0.302, -0.129, -0.384, 0.632),
    "class_highlight": (0.085, -0.150, 0.449, -0.124, -0.564, 0.523, -0.220),
    "class_listing": (-0.114, 0.085, -0.234, 0.233, 0.174, 0.025, -0.168),
    "class_logos": (0.060, -0.098, -0.110, 0.118, -0.191, -0.091, 0.312),
    "class_markdown": (-0.150, -0.059, -0.050, -0.079, 0.041, 0.311, -0.013),
    "class_md": (-0.067, -0.104, 0.217, 0.020, 0.001, -0.030, -0.038),
    "class_message": (-0.307, 0.264, 0.057, 0.209, -0.062, -0.108, -0.054),
    "class_mw": (-0.297, -0.054, -0.018, -0.108, 0.441, 0.032, 0.003),
    "class_pager": (-0.351, -0.030, -0.036, 0.321, 0.185, -0.034, -0.054),
    "class_pagination": (-0.581, -0.105, 0.060, 0.490, 0.412, -0.139, -0.136),
    "class_phpbb": (-0.023, 0.090, -0.004, -0.007, -0.032, -0.014, -0.010),
    "class_plan": (0.051, -0.072, -0.009, -0.150, 0.040, 0.135, 0.005),
    "class_plans": (-0.081, 0.165, 0.014, -0.046, 0.109, -0.030, -0.131),
    "class_post": (0.358, 0.476, -0.266, -0.127, 0.029, -0.615, 0.145),
    "class_postbody": (0.059, 0.233, -0.026, -0.024, -0.085, -0.076, -0.082),
    "class_posts": (0.225, 0.072, -0.155, -0.252, 0.011, -0.018, 0.118),
    "class_price": (-0.457, -0.239, 0.735, 0.646, -0.396, -0.132, -0.158),
    "class_pricing": (-0.232, -0.054, 0.011, -0.117, -0.076, 0.080, 0.388),
    "class_product": (-0.402, -0.392, 0.378, 0.657, -0.225, 0.313, -0.329),
    "class_qty": (-0.039, -0.044, 0.239, -0.023, -0.020, -0.050, -0.062),
    "class_quantity": (-0.097, -0.089, 0.402, -0.021, -0.118, -0.042, -0.035),
    "class_question": (-0.142, 0.502, 0.120, 0.098, -0.182, -0.120, -0.275),
    "class_related": (0.295, 0.257, 0.362, -0.568, -0.292, 0.119, -0.171),
    "class_replies": (-0.298, 0.377, -0.011, -0.008, -0.026, -0.010, -0.024),
    "class_reply": (0.233, 0.203, 0.050, -0.100, -0.216, -0.003, -0.168),
    "class_results": (-0.154, -0.158, -0.181, 0.103, 0.509, -0.125, 0.006),
    "class_rst": (-0.054, -0.003, -0.001, -0.000, -0.001, 0.059, -0.001),
    "class_section": (0.104, -0.275, -0.294, 0.032, -0.012, -0.009, 0.456),
    "class_share": (0.376, 0.447, 0.329, -0.439, -0.306, 0.004, -0.410),
    "class_shopify": (0.438, -0.052, -0.042, 0.045, -0.103, -0.091, -0.193),
    "class_sidebar": (0.101, 0.033, -0.212, -0.520, 0.049, 0.675, -0.126),
    "class_signature": (-0.231, 0.422, -0.053, 0.008, -0.158, -0.092, 0.104),
    "class_sku": (-0.150, -0.039, 0.317, -0.186, 0.211, -0.024, -0.130),
    "class_sort": (-0.306, 0.280, -0.219, -0.010, 0.421, -0.068, -0.097),
    "class_sphinxsidebar": (-0.087, -0.005, -0.003, -0.001, -0.002, 0.103, -0.005),
    "class_swatch": (-0.047, -0.018, 0.269, 0.440, -0.258, -0.030, -0.355),
    "class_tags": (0.043, -0.026, 0.075, -0.098, 0.118, -0.235, 0.122),
    "class_testimonial": (-0.523, -0.062, -0.197, 0.166, -0.060, 0.064, 0.612),
    "class_testimonials": (-0.347, -0.046, 0.056, 0.274, 0.100, -0.096, 0.059),
    "class_theme": (-0.400, -0.398, -0.005, 0.177, -0.057, 0.535, 0.148),
    "class_thread": (0.055, 0.163, 0.025, 0.147, -0.160, -0.100, -0.129),
    "class_tile": (0.025, -0.061, 0.153, 0.066, -0.051, -0.179, 0.048),
    "class_tiles": (-0.239, -0.020, 0.241, -0.122, 0.174, -0.026, -0.007),
    "class_toc": (0.278, -0.122, -0.232, -0.269, -0.255, 0.963, -0.361),
    "class_topic": (0.095, 0.392, -0.005, -0.028, -0.105, 0.030, -0.378),
    "class_username": (-0.128, 0.713, -0.036, -0.135, -0.204, -0.126, -0.083),
    "class_variant": (0.049, -0.067, 0.252, -0.136, 0.017, -0.135, 0.019),
    "class_vote": (-0.209, 0.206, 0.182, -0.189, 0.227, -0.060, -0.158),
    "class_votes": (-0.174, 0.196, 0.063, -0.069, 0.050, -0.011, -0.054),
    "class_wiki": (-0.241, 0.319, -0.039, -0.023, -0.064, 0.113, -0.065),
    "class_woocommerce": (-0.192, -0.008, 0.052, 0.212, -0.115, -0.053, 0.104),
    "code_50": (-0.336, -0.097, -0.145, -0.153, -0.303, 1.112, -0.078),
    "code_share": (-0.041, -0.041, -0.019, -0.021, -0.056, 0.179, -0.002),
    "few_words": (-0.015, 0.172, 0.173, 0.279, -0.165, -0.228, -0.216),
    "gen_blog": (0.502, -0.473, -0.025, -0.275, 0.235, -0.292, 0.327),
    "gen_builder": (0.337, -0.221, -0.206, -0.049, -0.098, -0.125, 0.362),
    "gen_docs": (-0.204, -0.077, -0.102, -0.109, 0.076, 0.489, -0.073),
    "gen_forum": (-0.119, 0.421, -0.048, -0.048, -0.084, -0.023, -0.099),
    "gen_shop": (0.069, -0.030, 0.081, 0.232, -0.103, -0.031, -0.218),
    "headings_per_100": (-0.023, -0.475, 0.236, 0.138, 0.038, -0.157, 0.244),
    "ld_any": (-0.610, 0.012, 0.314, -0.094, 0.513, -0.566, 0.431),
    "ld_article": (1.115, -0.379, -0.173, -0.293, 0.063, -0.092, -0.241),
    "ld_blog": (-0.032, 0.059, -0.009, -0.010, -0.058, -0.009, 0.058),
    "ld_breadcrumb": (0.014, 0.185, 0.286, 0.023, -0.429, -0.163, 0.085),
    "ld_business": (-0.112, -0.095, -0.188, -0.229, 0.152, -0.055, 0.527),
    "ld_collection": (-0.220, -0.018, -0.142, 0.198, 0.361, -0.015, -0.163),
    "ld_course": (-0.032, -0.024, 0.065, -0.116, 0.078, -0.015, 0.046),
    "ld_faq": (0.173, -0.144, -0.104, 0.198, -0.173, -0.089, 0.140),
    "ld_forum": (-0.492, 0.895, -0.065, -0.062, -0.115, -0.033, -0.128),
    "ld_howto": (0.001, -0.001, -0.000, -0.000, -0.000, -0.000, -0.000),
    "ld_itemlist": (0.073, 0.051, -0.233, 0.013, 0.397, -0.068, -0.235),
    "ld_product": (-0.550, -0.121, 1.460, -0.394, -0.278, -0.100, -0.017),
    "ld_profile": (-0.090, 0.648, -0.094, -0.110, -0.356, -0.076, 0.078),
    "ld_qa": (-0.010, 0.164, -0.141, -0.028, -0.076, -0.097, 0.188),
    "ld_software": (-0.041, -0.006, -0.031, -0.021, -0.082, -0.013, 0.194),
    "ld_tech": (-0.213, -0.013, -0.013, -0.013, 0.105, 0.194, -0.047),
    "li_share": (0.608, -0.167, -0.157, 0.056, -0.620, 0.262, 0.018),
    "link_share": (-0.627, -0.178, -0.052, 0.426, 0.669, -0.119, -0.119),
    "linked_heading_share": (-0.425, 0.204, -0.322, 0.127, 0.709, 0.269, -0.561),
    "log_cards": (-0.418, -0.394, -0.271, 0.406, 0.728, 0.089, -0.139),
    "log_linked_headings": (0.170, 0.130, -0.303, -0.067, 0.217, -0.068, -0.080),
    "log_posts": (0.988, -0.191, -0.285, -0.006, -0.368, 0.206, -0.345),
    "log_prices": (-0.347, -0.304, 0.589, 0.889, -0.328, -0.368, -0.130),
    "log_times": (-0.420, 0.645, -0.160, 0.012, 0.403, -0.168, -0.312),
    "log_words": (0.106, -0.115, -0.220, -0.075, -0.021, 0.207, 0.118),
    "log_words_per_block": (0.330, -0.018, -0.013, -0.180, 0.033, 0.015, -0.166),
    "long_share": (0.624, 0.194, -0.018, -0.252, -0.228, -0.117, -0.203),
    "og_article": (0.864, -0.257, -0.307, -0.401, -0.131, 0.160, 0.073),
    "og_book": (-0.106, -0.010, -0.001, -0.002, -0.011, 0.144, -0.013),
    "og_other": (0.217, -0.039, -0.043, 0.276, -0.214, -0.078, -0.117),
    "og_product": (-0.389, -0.081, 1.073, 0.201, -0.201, -0.126, -0.478),
    "og_profile": (-0.051, -0.009, -0.025, 0.204, -0.049, -0.011, -0.058),
    "og_website": (0.193, -0.034, 0.012, -0.258, -0.050, -0.198, 0.335),
    "p_share": (1.050, -0.085, -0.418, -0.412, -0.586, 0.272, 0.179),
    "phrases_docs": (-0.106, -0.077, 0.009, -0.013, -0.330, 0.813, -0.296),
    "phrases_forum": (-0.003, 0.442, -0.014, -0.126, -0.107, -0.093, -0.099),
    "phrases_listing": (-0.251, 0.234, -0.032, 0.392, -0.188, -0.136, -0.018),
    "phrases_service": (-0.035, -0.158, -0.187, -0.281, -0.221, -0.048, 0.929),
    "phrases_shop": (-0.370, -0.067, 0.975, -0.050, -0.242, 0.163, -0.408),
    "posts_3": (0.113, -0.005, -0.137, -0.379, -0.341, 0.265, 0.484),
    "price_one": (-0.067, -0.148, 0.085, -0.241, 0.422, -0.202, 0.152),
    "published": (0.230, 0.346, 0.026, 0.062, -0.116, -0.376, -0.172),
    "table_share": (-0.085, -0.050, -0.062, -0.204, 0.413, 0.050, -0.063),
    "title_docs": (0.454, -0.196, -0.097, -0.350, -0.381, 1.246, -0.677),
    "title_forum": (-0.615, 1.258, 0.062, -0.146, -0.285, -0.072, -0.202),
    "title_listing": (0.700, -0.102, -0.177, -0.307, 0.630, -0.354, -0.389),
    "title_service": (-0.058, -0.066, -0.250, -0.245, -0.220, -0.313, 1.151),
    "title_shop": (0.182, -0.100, -0.375, 0.191, 0.213, -0.180, 0.069),
}  # fmt: skip
# END WEIGHTS
