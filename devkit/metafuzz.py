"""Fuzzing the metadata reader: hostile <meta>, <link>, microdata and JSON-LD.

MetaGen builds, from a seeded random.Random, pages whose head and body are
full of declarations: the names blockdensity.metadata reads and junk ones,
contents that are dates (valid, impossible, huge, human), URLs (relative,
absolute, bogus, broken IPv6 hosts, other schemes) and text with
references and control characters; JSON-LD blocks built from the shapes
pages use (@graph, arrays, authors as strings, objects and lists, images as
objects) and then broken (truncated, bytes flipped, quotes and commas
inserted, wrapped in comments or CDATA, nested thousands deep, arrays of
tens of thousands of items); microdata elements with dates and authors.

Each page is parsed and walked once (segment), then `read_metadata` runs
on the tree and the declarations the walk met, timed alone (CPU time); one
page in ten also goes through fit_text, whose record must carry the same
metadata. Any exception is a failure; time is
reported per KB by size bucket, so a superlinear case shows as a rate that
grows with size.

`python -m bench.fuzz --metadata-inputs 100000` runs the long campaign;
tests/reliability/test_fuzz.py a small one.
"""

from __future__ import annotations

import json
import random
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from blockdensity import DEFAULT_CONF, fit_text
from blockdensity.metadata import read_metadata
from blockdensity.segment import trace_segment

__all__ = ["MetaGen", "MetadataCampaign", "merge_metadata", "run_metadata_campaign"]

KB = 1_000
# Size buckets (bytes of HTML, lower bounds) for the per-KB rates.
BUCKETS = (0, 1 * KB, 10 * KB, 100 * KB)

NAMES = (
    "og:title", "og:description", "og:site_name", "og:type", "og:image", "og:url",
    "og:image:secure_url", "twitter:title", "twitter:image", "description", "author",
    "article:author", "article:published_time", "article:modified_time", "keywords",
    "news_keywords", "article:tag", "dc.title dc:creator", "datePublished", "dateModified",
    "parsely-pub-date", "sailthru.date", "pubdate", "date", "byl", "x-junk", "", " ",
)  # fmt: skip
DATES = (
    "2019-05-02T10:30:00Z", "2019-05-02", "20190502T103000+0200", "Thu, 02 May 2019 10:30:00 GMT",
    "Nov 20, 2019 01:38 PM", "05/29/2007 09:49:00", "0001-01-01T00:00:00Z", "9999-99-99",
    "2019-02-30", "yesterday", "2019-05-02T10:30:00" + "0" * 200, "-" * 79, "2019-W53-7",
    "13:99 PM Nov 20, 2019", "1e400", "",
)  # fmt: skip
URLS = (
    "/a/b", "b?x=1#f", "https://e.example/p", "//cdn.example/i.png", "javascript:alert(1)",
    "data:text/html,x", "http://[::1", "https://[zz]/", "http://", "mailto:a@b", "\x00\x01",
    "https://e.example/" + "a" * 5_000, "../../../x", "",
)  # fmt: skip
TYPES = ("Article", "NewsArticle", "BlogPosting", "WebPage", "Organization", "WebSite", 7, None)


class MetaGen:
    """Pages of declarations, from a seeded random source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def text(self, limit: int = 60) -> str:
        rng = self.rng
        alphabet = "ab &;#<>\"'\\\n\t\x00\x01\x7f\u00e9\u202e\ufeff\U0001f600,"
        parts = [rng.choice(alphabet) for _ in range(rng.randrange(limit))]
        if rng.random() < 0.2:
            parts.append(rng.choice(("&amp;", "&#8217;", "&#x0;", "&#99999999;", "&nGt;", "&")))
        return "".join(parts)

    def value(self) -> str:
        choice = self.rng.random()
        if choice < 0.3:
            return self.rng.choice(DATES)
        if choice < 0.5:
            return self.rng.choice(URLS)
        return self.text()

    def attribute(self, text: str) -> str:
        return text.replace("&", "&amp;").replace('"', "&quot;")

    def meta(self) -> str:
        rng = self.rng
        attribute = rng.choice(("name", "property", "itemprop", "http-equiv", "NAME"))
        name = rng.choice(NAMES) if rng.random() < 0.9 else self.text(20)
        return (
            f'<meta {attribute}="{self.attribute(name)}" content="{self.attribute(self.value())}">'
        )

    def link(self) -> str:
        rel = self.rng.choice(("canonical", "image_src", "CANONICAL alternate", "", "author"))
        return f'<link rel="{rel}" href="{self.attribute(self.rng.choice(URLS))}">'

    def person(self) -> Any:
        rng = self.rng
        return rng.choice(
            (
                self.text(30),
                {"@type": "Person", "name": self.text(30)},
                {"name": [self.text(10), 3]},
                [{"name": self.text(20)} for _ in range(rng.randrange(5))],
                {"name": None},
                42,
            )
        )

    def entity(self, depth: int = 0) -> dict[str, Any]:
        rng = self.rng
        entity: dict[str, Any] = {"@type": rng.choice(TYPES)}
        for key in ("headline", "name", "description"):
            if rng.random() < 0.5:
                entity[key] = self.text()
        for key in ("datePublished", "dateModified", "dateCreated"):
            if rng.random() < 0.5:
                entity[key] = rng.choice(DATES)
        if rng.random() < 0.6:
            entity["author"] = self.person()
        if rng.random() < 0.3:
            entity["publisher"] = self.person()
        if rng.random() < 0.4:
            entity["image"] = rng.choice(
                (rng.choice(URLS), {"url": rng.choice(URLS)}, [rng.choice(URLS)], {"url": 5})
            )
        if rng.random() < 0.3:
            entity["keywords"] = rng.choice((self.text(), [self.text(10) for _ in range(5)], 9))
        if depth < 2 and rng.random() < 0.2:
            entity["@graph"] = [self.entity(depth + 1) for _ in range(rng.randrange(4))]
        return entity

    def jsonld(self) -> str:
        rng = self.rng
        shape = rng.random()
        if shape < 0.05:
            depth = rng.randrange(10, 5_000)
            body = '{"@type":"Article","a":' * depth + "1" + "}" * depth
        elif shape < 0.1:
            count = rng.randrange(1_000, 30_000)
            body = json.dumps({"@type": "Article", "author": [{"name": "n"}] * count})
        else:
            value: Any = self.entity()
            if rng.random() < 0.3:
                value = [value, self.entity()]
            body = json.dumps(value, ensure_ascii=rng.random() < 0.5)
            body = self.broken(body) if rng.random() < 0.5 else body
        if rng.random() < 0.2:
            body = rng.choice(
                ("<!--{}-->", "//<![CDATA[\n{}\n//]]>", "<![CDATA[{}]]>", "{};")
            ).format(body)
        kind = rng.choice(("application/ld+json", "APPLICATION/LD+JSON ", "text/javascript"))
        escaped = body.replace("</", "<\\/")  # the script ends at its own end tag only
        return f'<script type="{kind}">{escaped}</script>'

    def broken(self, body: str) -> str:
        rng = self.rng
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(body) + 1)
            move = rng.random()
            if move < 0.3:
                body = body[:at]
            elif move < 0.6:
                body = (
                    body[:at]
                    + rng.choice(('"', ",", "}", "]", "\n", "\x00", "\\", ":"))
                    + body[at:]
                )
            else:
                body = body[:at] + body[at + 1 :]
        return body

    def microdata(self) -> str:
        rng = self.rng
        prop = rng.choice(("datePublished", "dateModified", "author", "author name", "x"))
        tag = rng.choice(("time", "abbr", "span", "div", "meta"))
        attribute = rng.choice(("datetime", "title", "content", "data-x"))
        inner = (
            f'<span itemprop="name">{self.attribute(self.text(20))}</span>'
            if rng.random() < 0.3
            else ""
        )
        value = self.attribute(self.value())
        text = self.attribute(self.text(20))
        return f'<{tag} itemprop="{prop}" {attribute}="{value}">{text}{inner}</{tag}>'

    def page(self) -> str:
        rng = self.rng
        count = rng.choice((1, 5, 20, 100, 1_000))
        makers = (self.meta, self.link, self.jsonld, self.microdata)
        weights = (5, 1, 2, 2)
        head: list[str] = []
        body: list[str] = []
        for _ in range(rng.randrange(1, count + 1)):
            piece = rng.choices(makers, weights)[0]()
            (head if rng.random() < 0.6 else body).append(piece)
        base = f'<base href="{self.attribute(rng.choice(URLS))}">' if rng.random() < 0.1 else ""
        text = " ".join(f"w{n}" for n in range(rng.randrange(60)))
        head_html, body_html = "".join(head), "".join(body)
        return f"<html><head>{base}{head_html}</head><body>{body_html}<p>{text}</p></body></html>"


@dataclass
class MetadataCampaign:
    seen: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    # bucket -> (worst us/KB, its size), and all rates for the median
    worst: dict[int, tuple[float, int]] = field(default_factory=dict)
    rates: dict[int, list[float]] = field(default_factory=dict)
    slowest: float = 0.0
    sizes: Counter[int] = field(default_factory=Counter)

    def record(self, html: str, url: str | None, full: bool) -> None:
        self.seen += 1
        size = len(html.encode("utf-8", "surrogatepass"))
        try:
            page, doc = trace_segment(html, DEFAULT_CONF, None)
            start = time.process_time()
            metadata = read_metadata(doc, page.declarations, url)
            seconds = time.process_time() - start
            if full and fit_text(html, url=url).metadata != metadata:
                self.failures.append((html, "fit_text's metadata differs from read_metadata's"))
        except Exception:  # noqa: BLE001 - the finding
            self.failures.append((html, traceback.format_exc()))
            return
        bucket = max(b for b in BUCKETS if size >= b)
        self.sizes[bucket] += 1
        self.slowest = max(self.slowest, seconds)
        if size >= KB:
            rate = seconds * 1e6 / (size / KB)
            self.rates.setdefault(bucket, []).append(rate)
            if rate > self.worst.get(bucket, (0.0, 0))[0]:
                self.worst[bucket] = (rate, size)


def merge_metadata(campaigns: list[MetadataCampaign]) -> MetadataCampaign:
    total = MetadataCampaign()
    for campaign in campaigns:
        total.seen += campaign.seen
        total.failures += campaign.failures
        total.slowest = max(total.slowest, campaign.slowest)
        total.sizes.update(campaign.sizes)
        for bucket, rates in campaign.rates.items():
            total.rates.setdefault(bucket, []).extend(rates)
        for bucket, worst in campaign.worst.items():
            if worst[0] > total.worst.get(bucket, (0.0, 0))[0]:
                total.worst[bucket] = worst
    return total


def run_metadata_campaign(count: int, random_seed: int) -> MetadataCampaign:
    rng = random.Random(random_seed)
    generator = MetaGen(rng)
    campaign = MetadataCampaign()
    for number in range(count):
        url = rng.choice(("https://news.example/a/b.html", None, "not a url", "http://[::1"))
        campaign.record(generator.page(), url, full=number % 10 == 0)
    return campaign
