"""Fuzz campaign: fit_text and html_to_text on hostile HTML; the worker's message decoder.

Part 1, the fit. Hypothesis (property-based, with `target()` steering towards
the slowest input per KB) generates HTML of five shapes:

- soup: tests/test_properties.py's tag soup (every tag class, attributes,
  entities, markup fragments, text of many scripts), several pieces joined;
- tree: well-formed-ish element trees, nesting capped at MAX_DEPTH, with
  hidden/role attributes, comments, entities, scripts of many languages;
- mutated: a development-corpus page with 1-8 byte-level mutations (cut,
  splice, duplicate, delete, insert a tag, an entity, a markup fragment or
  invalid UTF-8), so the parser meets real markup broken in odd places;
- encoded: a tree encoded as bytes in one of many codecs (UTF-16 with and
  without BOM, Shift_JIS, GB18030, KOI8-R, ...), with or without a matching,
  wrong or bogus <meta charset>, invalid bytes sprinkled in, and a random
  `charset` argument (real labels, bogus ones, None);
- deep: nesting from 100 to 3,000 levels. The lexbor parser is quadratic in
  nesting depth (BENCHMARKS.md); this shape is reported separately.

Each input goes through fit_text(html, charset=...) (blocks and to_dict()
read too) and html_to_text; any exception and any broken invariant (no NUL,
no lone surrogate in the text, fallback text equal to html_to_text, kept
lines a subset of html_to_text's; bench/robustness.py's checks) is recorded.
Time is CPU time (process_time) per input, reported per KB (1,000 bytes) for
inputs of at least 1 KB.

Part 2, the decoder. Random and mutated JSON / MessagePack payloads (valid
FetchedPage messages mutated by bit flips, truncation, splices, wrong types,
huge numbers, deep nesting, invalid UTF-8, extension types) go through the
worker's own decode path, `decode_page(body, encoding_for(content_type))`:
each must decode or raise InvalidMessageError (dead-lettered `invalid`);
anything else would have reached the worker's catch-all (requeue as
`crashed`).

    python bench/fuzz.py [--inputs 100000] [--decoder-inputs 100000] [--seed 1] [--jobs 2]
                         [--save-corpus tests/fuzz_corpus]

The interesting inputs (failures, the slowest per KB of each shape, one per
fallback reason) are written to --save-corpus with MANIFEST.json, which
tests/reliability/test_fuzz.py replays.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from html.entities import html5
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import robustness
from corpus import DEFAULT_DATA
from hypothesis import HealthCheck, Phase, given, seed, settings, target
from hypothesis import strategies as st

# robustness puts bench/ first on sys.path; the repository goes before it, since
# bench/worker.py would shadow the worker package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blockdensity import fit_text, html_to_text
from tests.test_properties import ALL_TAGS, ATTRIBUTES, ENTITIES, MARKUP_BITS, POOLS
from worker.schemas import FetchedPage, InvalidMessageError, decode_page, encoding_for

KB = 1_000
MAX_DEPTH = 24  # nesting cap of the shapes other than "deep"
SHAPES = ("soup", "tree", "entities", "mutated", "encoded", "deep")
CORPUS_DIR = Path(__file__).resolve().parents[1] / "tests" / "fuzz_corpus"

# ------------------------------------------------------------------------ HTML shapes
#
# Hypothesis draws a small recipe (shape, seed, size, depth, codec, charset,
# mutations); a seeded random.Random expands it into the page. Drawing whole
# pages through Hypothesis costs 10-200 ms an input (measured); a recipe costs
# well under one, and Hypothesis still steers (target()) and shrinks recipes.

CODECS = (
    "utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "windows-1252", "iso-8859-1",
    "shift_jis", "euc-jp", "iso-2022-jp", "gb18030", "big5", "euc-kr", "koi8-r", "windows-1251",
    "iso-8859-7", "cp437", "utf-32",
)  # fmt: skip
CHARSET_ARGS = (
    None, None, None, "utf-8", "UTF8", "latin1", "windows-1252", "shift_jis", "utf-16",
    "x-user-defined", "replacement", "bogus-charset", "", " utf-8 ", "ISO-2022-KR", "gbk",
)  # fmt: skip
INVALID_BYTES = (*robustness.INVALID_UTF8, b"\xfe\xff", b"\xff\xfe", b"\xef\xbb\xbf", b"\x00")
INLINE = ("a", "b", "i", "span", "em", "strong", "sup", "sub", "code", "font", "q")
BLOCK = ("div", "p", "li", "ul", "td", "tr", "table", "section", "blockquote", "article", "dd")
POOL_NAMES = sorted(POOLS)
ENTITY_NAMES = sorted(html5)  # the HTML5 named character references
# A fuzzer's dictionary: the references that stand for two code points (about 90).
MULTI_NAMES = sorted(name for name, chars in html5.items() if len(chars) > 1)
CLOSES = ("", "</p>", "</div>", "</a>", "</table>", "</li>")


class Pages:
    """The development corpus's raw pages, loaded once (the mutated shape starts from them)."""

    pages: ClassVar[list[bytes]] = []

    @classmethod
    def load(cls, data: Path) -> None:
        if data.is_dir() and not cls.pages:
            cls.pages[:] = [page.raw for page in robustness.Corpus(data).pages()]


class Gen:
    """HTML-shaped text from a seeded generator: tags, attributes, entities, many scripts."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def text(self) -> str:
        rng = self.rng
        runs = []
        for _ in range(rng.randint(1, 6)):
            pool = POOLS[rng.choice(POOL_NAMES)] + " "
            runs.append("".join(rng.choices(pool, k=rng.randint(1, 30))))
        return "".join(runs)

    def tag(self) -> str:
        rng = self.rng
        name = rng.choice(ALL_TAGS)
        kind = rng.randrange(4)
        if kind == 0:
            return f"</{name}>"
        attributes = "".join(rng.choices(ATTRIBUTES, k=rng.randint(0, 2)))
        return f"<{name}{attributes}{'/' if kind == 1 else ''}>"

    def token(self) -> str:
        rng = self.rng
        kind = rng.randrange(10)
        if kind < 4:
            return self.tag()
        if kind < 7:
            return self.text()
        if kind == 7:
            return " ".join(f"w{n}" for n in range(rng.randint(1, 45)))
        if kind == 8:
            return rng.choice(ENTITIES)
        return rng.choice(MARKUP_BITS)

    def soup(self, size: int) -> str:
        parts: list[str] = []
        length = 0
        while length < size:
            token = self.token()
            parts.append(token)
            length += len(token)
        return "".join(parts)

    def element(self, depth: int, max_depth: int) -> str:
        rng = self.rng
        name = rng.choice(ALL_TAGS)
        attributes = "".join(rng.choices(ATTRIBUTES, k=rng.randint(0, 3)))
        children = []
        for _ in range(rng.randint(0, 5) if depth < max_depth else 0):
            kind = rng.randrange(10)
            if kind < 4:
                children.append(self.element(depth + 1, max_depth))
            elif kind < 8:
                children.append(self.text())
            elif kind == 8:
                children.append(rng.choice(ENTITIES))
            else:
                children.append(rng.choice(MARKUP_BITS))
        close = f"</{name}>" if rng.random() < 0.8 else rng.choice(CLOSES)
        return f"<{name}{attributes}>{''.join(children)}{close}"

    def tree(self, size: int, max_depth: int) -> str:
        head = self.rng.choice(
            ("", "<!DOCTYPE html>", "<html><head><title>t</title></head><body>", '<html lang="fr">')
        )
        parts = [head]
        length = 0
        while length < size:
            part = self.element(0, max_depth)
            parts.append(part)
            length += len(part) + 1
        return "".join(parts)

    def entities(self, size: int) -> str:
        """Character references: one repeated (as a fuzzer's repeat operator would), or a mix."""
        rng = self.rng
        if rng.random() < 0.5:
            unit = self.reference() + rng.choice(("", "", "", " ", "x", "<b>"))
            return unit * max(1, size // len(unit))
        parts: list[str] = []
        length = 0
        while length < size:
            part = self.reference() if rng.random() < 0.8 else self.token()
            parts.append(part)
            length += len(part)
        return "".join(parts)

    def reference(self) -> str:
        rng = self.rng
        kind = rng.randrange(6)
        if kind < 3:  # any of the 2,231 named references, with or without ";"
            name = rng.choice(MULTI_NAMES if rng.random() < 0.3 else ENTITY_NAMES)
            return "&" + (name if kind < 2 else name.rstrip(";"))
        if kind == 3:
            return f"&#{rng.choice((0, 9, 128, 159, 0xD800, 0xFFFE, 0x10FFFF, 0x110000, 10**9))};"
        if kind == 4:
            return f"&#x{rng.randrange(0x110000 + 100):X}" + rng.choice((";", ""))
        return rng.choice(ENTITIES)

    def deep(self, depth: int) -> str:
        rng = self.rng
        name = rng.choice((*BLOCK, *INLINE))
        word = rng.choice(("", "w ", "a word "))
        close = f"</{name}>" * depth if rng.random() < 0.5 else ""
        return f"<{name}>{word}" * depth + self.text() + close

    def mutate(self, data: bytes, count: int, max_depth: int) -> bytes:
        rng = self.rng
        out = bytearray(data)
        for _ in range(count):
            size = len(out)
            at = rng.randint(0, size)
            length = rng.randint(0, min(4096, size - at))
            how = rng.randrange(6)
            if how == 0:  # cut
                del out[at:]
            elif how == 1:  # delete a range
                del out[at : at + length]
            elif how == 2:  # duplicate a range
                out[at:at] = out[at : at + length]
            elif how == 3:  # splice in a range from elsewhere
                other = rng.randint(0, size)
                out[at:at] = out[other : other + length]
            elif how == 4:  # insert markup
                token = (
                    self.token() if rng.random() < 0.7 else self.element(max_depth - 3, max_depth)
                )
                out[at:at] = token.encode("utf-8", "surrogatepass")
            else:  # insert invalid bytes
                out[at:at] = rng.choice(INVALID_BYTES)
        return bytes(out)

    def encoded(self, html: str, codec: str) -> bytes:
        rng = self.rng
        declared = rng.choice(("", codec, "utf-8", "windows-1251", "bogus", "utf-16"))
        if declared:
            html = f'<meta charset="{declared}">' + html
        data = bytearray(html.encode(codec, "replace"))
        for _ in range(rng.randint(0, 5)):
            at = rng.randint(0, len(data))
            data[at:at] = rng.choice(INVALID_BYTES)
        return bytes(data)


@dataclass(frozen=True)
class Recipe:
    shape: str
    seed: int
    size: int  # characters of markup to aim for (soup, tree, encoded)
    depth: int  # nesting cap (tree); levels (deep)
    mutations: int
    codec: str
    charset: str | None


@dataclass(frozen=True)
class Input:
    shape: str
    html: str | bytes
    charset: str | None

    @property
    def size(self) -> int:
        html = self.html
        return len(html) if isinstance(html, bytes) else len(html.encode("utf-8", "surrogatepass"))


def expand(recipe: Recipe) -> Input:
    gen = Gen(random.Random(recipe.seed))
    shape = recipe.shape
    if recipe.seed % 2:  # Hypothesis favours small sizes; half the inputs get a uniform one
        recipe = replace(recipe, size=100 + random.Random(~recipe.seed).randrange(60_000))
    html: str | bytes
    if shape == "soup":
        html = gen.soup(recipe.size)
    elif shape == "tree":
        html = gen.tree(recipe.size, recipe.depth)
    elif shape == "deep":
        html = gen.deep(recipe.depth)
    elif shape == "entities":
        html = gen.entities(recipe.size)
    elif shape == "mutated" and Pages.pages:
        page = Pages.pages[recipe.seed % len(Pages.pages)]
        html = gen.mutate(page, recipe.mutations, MAX_DEPTH)
    elif shape == "mutated":  # no corpus here: mutate a generated page
        html = gen.mutate(gen.tree(recipe.size, MAX_DEPTH).encode(), recipe.mutations, MAX_DEPTH)
    else:
        markup = gen.tree(recipe.size, recipe.depth) if recipe.seed % 2 else gen.soup(recipe.size)
        html = gen.encoded(markup, recipe.codec)
    if isinstance(html, str) and recipe.seed % 3 == 0:
        html = html.encode("utf-8", "surrogatepass")  # as bytes a third of the time
    return Input(shape, html, recipe.charset)


def recipes(shapes: tuple[str, ...] = SHAPES) -> st.SearchStrategy[Recipe]:
    return st.builds(
        Recipe,
        shape=st.sampled_from(shapes),
        seed=st.integers(0, 2**32 - 1),
        size=st.integers(100, 60_000),
        depth=st.integers(1, MAX_DEPTH) | st.integers(100, 3_000),
        mutations=st.integers(1, 8),
        codec=st.sampled_from(CODECS),
        charset=st.sampled_from(CHARSET_ARGS),
    ).map(_clamp)


def _clamp(recipe: Recipe) -> Recipe:
    # Only the deep shape nests past MAX_DEPTH.
    if recipe.shape == "deep":
        return replace(recipe, depth=max(100, recipe.depth))
    return replace(recipe, depth=min(recipe.depth, MAX_DEPTH))


def inputs(shapes: tuple[str, ...] = SHAPES) -> st.SearchStrategy[Input]:
    return recipes(shapes).map(expand)


# ------------------------------------------------------------------------ running one input


@dataclass
class Outcome:
    seconds: float  # fit_text + html_to_text, CPU
    problems: list[str]  # exceptions and broken invariants
    fallback: str | None


def check(item: Input) -> Outcome:
    """Run the fit and html_to_text on one input; never raises."""
    problems: list[str] = []
    fallback = None
    start = time.process_time()
    try:
        fit = fit_text(item.html, charset=item.charset)
        text = html_to_text(item.html, charset=item.charset)
        fit.to_dict()
        blocks = fit.blocks
        if len(blocks) != fit.blocks_total:
            problems.append(f"{len(blocks)} blocks listed, blocks_total {fit.blocks_total}")
        fallback = None if fit.fallback_reason is None else str(fit.fallback_reason)
    except Exception:  # noqa: BLE001 - recorded: finding these is the point
        problems.append(traceback.format_exc())
    else:
        problems += robustness._invariants(fit, text)  # the same checks
    return Outcome(time.process_time() - start, problems, fallback)


class IsolatedChecker:
    """`check` in a child process: a crash of the parser (a signal) is a finding, not the end.

    The worker runs the fit in pool processes for the same reason. The child
    is forked, so it shares the loaded corpus; it is replaced after a death.
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def check(self, item: Input) -> Outcome:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
        try:
            return self._pool.submit(check, item).result()
        except BrokenProcessPool:
            self.close()
        # Heap corruption can kill a process inputs later: the verdict is a fresh process's.
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as fresh:
            try:
                outcome = fresh.submit(check, item).result()
            except BrokenProcessPool:
                return Outcome(0.0, ["the fit's process died (a signal: a crash in C code)"], None)
        outcome.problems.append("a process died on this input, a fresh one did not: suspect")
        return outcome

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> IsolatedChecker:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


# ------------------------------------------------------------------------ the campaign


@dataclass
class Campaign:
    seen: Counter[str] = field(default_factory=Counter)
    sizes: dict[str, list[int]] = field(default_factory=dict)
    rates: dict[str, list[float]] = field(default_factory=dict)  # us/KB of inputs >= 1 KB
    slowest: dict[str, list[tuple[float, Input]]] = field(default_factory=dict)
    slowest_total: dict[str, tuple[float, Input]] = field(default_factory=dict)
    slowest_big: dict[str, tuple[float, Input]] = field(default_factory=dict)  # >= 10 KB
    failures: list[tuple[Input, list[str]]] = field(default_factory=list)
    fallbacks: dict[str, Input] = field(default_factory=dict)

    def record(self, item: Input, outcome: Outcome) -> None:
        shape = item.shape
        self.seen[shape] += 1
        self.sizes.setdefault(shape, []).append(item.size)
        if outcome.problems:
            self.failures.append((item, outcome.problems))
        if outcome.fallback and outcome.fallback not in self.fallbacks:
            self.fallbacks[outcome.fallback] = item
        top = self.slowest_total.get(shape)
        if top is None or outcome.seconds > top[0]:
            self.slowest_total[shape] = (outcome.seconds, item)
        if item.size >= KB:
            rate = outcome.seconds * 1e6 / (item.size / KB)
            self.rates.setdefault(shape, []).append(rate)
            ranked = self.slowest.setdefault(shape, [])
            ranked.append((rate, item))
            ranked.sort(key=lambda pair: -pair[0])
            del ranked[5:]
            target(rate, label=f"us/KB {shape}")
            big = self.slowest_big.get(shape)
            if item.size >= 10 * KB and (big is None or rate > big[0]):
                self.slowest_big[shape] = (rate, item)


def merge(campaigns: list[Campaign]) -> Campaign:
    """One campaign of several run in parallel."""
    total = Campaign()
    for campaign in campaigns:
        total.seen.update(campaign.seen)
        for shape, sizes in campaign.sizes.items():
            total.sizes.setdefault(shape, []).extend(sizes)
        for shape, rates in campaign.rates.items():
            total.rates.setdefault(shape, []).extend(rates)
        for shape, ranked in campaign.slowest.items():
            merged = total.slowest.setdefault(shape, [])
            merged.extend(ranked)
            merged.sort(key=lambda pair: -pair[0])
            del merged[5:]
        for shape, top in campaign.slowest_total.items():
            if shape not in total.slowest_total or top[0] > total.slowest_total[shape][0]:
                total.slowest_total[shape] = top
        for shape, top in campaign.slowest_big.items():
            if shape not in total.slowest_big or top[0] > total.slowest_big[shape][0]:
                total.slowest_big[shape] = top
        total.failures += campaign.failures
        for reason, item in campaign.fallbacks.items():
            total.fallbacks.setdefault(reason, item)
    return total


def _fit_job(args: tuple[int, int, tuple[str, ...]]) -> Campaign:
    return run_fit_campaign(*args)


def _decoder_job(args: tuple[int, int]) -> DecoderCampaign:
    return run_decoder_campaign(*args)


def run_fit_campaign(
    count: int, random_seed: int, shapes: tuple[str, ...] = SHAPES, *, targeting: bool = True
) -> Campaign:
    """`count` inputs; with `targeting`, Hypothesis also steers towards slow inputs per KB
    (which follows measured time, so the inputs vary from run to run)."""
    campaign = Campaign()

    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        phases=(Phase.generate, Phase.target) if targeting else (Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @seed(random_seed)  # the same inputs every run (on the same Hypothesis version)
    @given(inputs(shapes))
    def one(item: Input) -> None:
        campaign.record(item, checker.check(item))

    with IsolatedChecker() as checker:
        one()
    return campaign


# ------------------------------------------------------------------------ the decoder

FIELDS = ("url", "body", "charset", "content_type", "status", "fetched_at", "fetch_id")
CONTENT_TYPES = (
    "application/json", "application/msgpack", "application/x-msgpack",
    "application/json; charset=utf-8", "APPLICATION/MSGPACK", "text/html", "", None,
)  # fmt: skip
STRINGS = (
    "", "https://e.org/", "u", "x" * 300, "https://e.org/\n\x00", "\u202e\ufeff",
    "2026-11-30T12:00:00Z", "2026-13-45T99:99:99Z", "yesterday", "1e400", "text/html",
    "application/pdf", "utf-8", "bogus",
)  # fmt: skip


class PayloadGen:
    """Message bodies: valid FetchedPage skeletons with odd fields, mutated; junk; deep nesting."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def scalar(self) -> Any:
        rng = self.rng
        options: tuple[Callable[[], Any], ...] = (
            lambda: None,
            lambda: rng.random() < 0.5,
            lambda: rng.choice((0, -1, 200, 599, 600, 2**63 - 1, -(2**63), 2**64 - 1)),
            lambda: rng.choice((0.5, float("inf"), float("-inf"), float("nan"), 1e308)),
            lambda: rng.randbytes(rng.randint(0, 40)),
            lambda: "".join(chr(rng.randint(1, 0x2FFFF)) for _ in range(rng.randint(0, 20))),
            lambda: rng.choice(STRINGS),
            lambda: rng.choice(STRINGS),
        )
        return rng.choice(options)()

    def value(self, depth: int = 0) -> Any:
        rng = self.rng
        kind = rng.randrange(6)
        if depth < 4 and kind == 0:
            return [self.value(depth + 1) for _ in range(rng.randint(0, 4))]
        if depth < 4 and kind == 1:
            return {self.scalar_key(): self.value(depth + 1) for _ in range(rng.randint(0, 4))}
        return self.scalar()

    def scalar_key(self) -> str:
        return self.rng.choice((*FIELDS, "extra", "x" * 70, ""))

    def page(self) -> dict[str, Any]:
        rng = self.rng
        fields: dict[str, Any] = {}
        if rng.random() < 0.9:  # mostly a valid skeleton
            fields["url"] = rng.choice(("https://e.org/", "u", "https://e.org/\n\x00"))
            fields["body"] = rng.choice((b"<p>x</p>", "<p>x</p>", rng.randbytes(50)))
        for _ in range(rng.randint(0, 5)):
            fields[self.scalar_key()] = self.value()
        return fields

    def nested(self, json_like: bool) -> bytes:
        depth = self.rng.choice((10, 100, 500, 1_000, 5_000, 100_000))
        if json_like:
            return b'{"url":"u","body":"b","x":' + b"[" * depth + b"]" * depth + b"}"
        return b"\x83\xa3url\xa1u\xa4body\xc4\x01b\xa1x" + b"\x91" * depth + b"\xc0"

    def payload(self) -> tuple[bytes, str | None]:
        rng = self.rng
        content_type = rng.choice(CONTENT_TYPES)
        json_like = "json" in (content_type or "") or rng.random() < 0.2
        kind = rng.randrange(10)
        if kind == 0:
            return rng.randbytes(rng.randint(0, 300)), content_type
        if kind == 1:
            return self.nested(json_like), content_type
        fields = self.page()
        try:
            body = (msgspec.json.encode if json_like else msgspec.msgpack.encode)(fields)
        except (TypeError, ValueError, OverflowError):
            body = repr(fields).encode("utf-8", "surrogatepass")
        return (self.mutate(body) if kind > 5 else body), content_type

    def mutate(self, body: bytes) -> bytes:
        rng = self.rng
        data = bytearray(body)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, max(0, len(data) - 1))
            how = rng.randrange(4)
            if how == 0 and data:
                data[at] ^= 1 << rng.randrange(8)
            elif how == 1:
                del data[at:]
            elif how == 2:
                data[at:at] = rng.randbytes(rng.randint(1, 8))
            else:
                data[at:at] = data[: rng.randint(0, len(data))]
        return bytes(data)


def payloads() -> st.SearchStrategy[tuple[bytes, str | None]]:
    """A message body and its AMQP content_type, from a Hypothesis-drawn seed."""
    return st.integers(0, 2**32 - 1).map(lambda n: PayloadGen(random.Random(n)).payload())


@dataclass
class DecoderCampaign:
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[tuple[bytes, str | None, str]] = field(default_factory=list)
    slowest: float = 0.0

    def record(self, body: bytes, content_type: str | None) -> None:
        start = time.process_time()
        outcome = classify(body, content_type)
        self.slowest = max(self.slowest, time.process_time() - start)
        self.outcomes[outcome.split(":")[0]] += 1
        if outcome.startswith("BUG"):
            self.failures.append((body, content_type, outcome))


def merge_decoder(campaigns: list[DecoderCampaign]) -> DecoderCampaign:
    total = DecoderCampaign()
    for campaign in campaigns:
        total.outcomes.update(campaign.outcomes)
        total.failures += campaign.failures
        total.slowest = max(total.slowest, campaign.slowest)
    return total


def classify(body: bytes, content_type: str | None) -> str:
    """What the worker's decode path makes of a message: decoded, invalid, or BUG: <error>."""
    try:
        page = decode_page(body, encoding_for(content_type))
    except InvalidMessageError as error:
        return "invalid:" + str(error)[:60]
    except Exception as error:  # noqa: BLE001 - the finding
        return f"BUG: {type(error).__name__}: {error}"
    return "decoded" if isinstance(page, FetchedPage) else "BUG: not a FetchedPage"


def run_decoder_campaign(count: int, random_seed: int) -> DecoderCampaign:
    campaign = DecoderCampaign()

    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @seed(random_seed)
    @given(payloads())
    def one(message: tuple[bytes, str | None]) -> None:
        campaign.record(*message)

    one()
    return campaign


# ------------------------------------------------------------------------ the corpus


def save(directory: Path, item: Input, why: str, manifest: dict[str, dict[str, Any]]) -> None:
    html = item.html
    data = html if isinstance(html, bytes) else html.encode("utf-8", "surrogatepass")
    name = f"{item.shape}-{hashlib.sha256(data).hexdigest()[:12]}.html"
    (directory / name).write_bytes(data)
    manifest[name] = {
        "shape": item.shape,
        "type": "bytes" if isinstance(html, bytes) else "str",
        "charset": item.charset,
        "why": why,
    }


def save_corpus(campaign: Campaign, directory: Path) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "MANIFEST.json"
    manifest: dict[str, dict[str, Any]] = json.loads(path.read_text()) if path.exists() else {}
    before = len(manifest)
    for item, problems in campaign.failures[:50]:
        save(directory, item, "failed: " + problems[0].strip().splitlines()[-1][:200], manifest)
    for shape, ranked in campaign.slowest.items():
        for rate, item in ranked[:3]:
            if item.size <= 256 * KB:
                save(directory, item, f"slowest per KB of {shape}: {rate:.0f} us/KB", manifest)
    for reason, item in campaign.fallbacks.items():
        if item.size <= 64 * KB:
            save(directory, item, f"fallback {reason}", manifest)
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return len(manifest) - before


# ------------------------------------------------------------------------ printing


def print_fit(campaign: Campaign, seconds: float) -> None:
    total = sum(campaign.seen.values())
    print(f"fit campaign: {total} inputs in {seconds:.0f} s, {len(campaign.failures)} failures")
    print(
        "| shape | inputs | median size | max size | median us/KB | slowest us/KB, >= 1 KB "
        "(its size) | slowest us/KB, >= 10 KB (its size) | slowest input (s) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for shape in SHAPES:
        if not campaign.seen[shape]:
            continue
        sizes = campaign.sizes[shape]
        rates = campaign.rates.get(shape, [])
        ranked = campaign.slowest.get(shape, [])
        worst = f"{ranked[0][0]:.0f} ({ranked[0][1].size / KB:.1f} KB)" if ranked else "-"
        median = f"{statistics.median(rates):.0f}" if rates else "-"
        seconds_max = campaign.slowest_total[shape][0]
        big = campaign.slowest_big.get(shape)
        worst_big = f"{big[0]:.0f} ({big[1].size / KB:.1f} KB)" if big else "-"
        print(
            f"| {shape} | {campaign.seen[shape]} | {statistics.median(sizes) / KB:.1f} KB "
            f"| {max(sizes) / KB:.1f} KB | {median} | {worst} | {worst_big} | {seconds_max:.3f} |"
        )
    for item, problems in campaign.failures[:10]:
        head = item.html[:80]
        print(
            f"FAILURE ({item.shape}, {item.size} bytes, charset={item.charset!r}, "
            f"starts {head!r}): {problems[0][-300:]}"
        )


def print_decoder(campaign: DecoderCampaign, seconds: float) -> None:
    total = sum(campaign.outcomes.values())
    print(
        f"decoder campaign: {total} payloads in {seconds:.0f} s: "
        + ", ".join(f"{key} {value}" for key, value in sorted(campaign.outcomes.items()))
        + f"; slowest decode {campaign.slowest * 1000:.1f} ms"
    )
    kinds = Counter(outcome.split(":")[1].strip() for _, _, outcome in campaign.failures)
    for kind, count in kinds.most_common():
        example = next(f for f in campaign.failures if f[2].split(":")[1].strip() == kind)
        print(f"BUG x{count}: {example[2][:200]} (e.g. {len(example[0])} bytes, {example[1]!r})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--decoder-inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--save-corpus", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=1, help="processes (seeds seed .. seed+jobs-1)")
    args = parser.parse_args()
    Pages.load(args.data)  # before the jobs fork: they inherit it
    jobs = max(1, args.jobs)
    shapes = tuple(args.shapes.split(","))
    status = 0
    if args.inputs:
        start = time.monotonic()
        fit_args = [(args.inputs // jobs, args.seed + n, shapes) for n in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            campaign = merge(list(pool.map(_fit_job, fit_args)))
        print(f"seeds {args.seed}..{args.seed + jobs - 1}, {jobs} processes")
        print_fit(campaign, time.monotonic() - start)
        status |= bool(campaign.failures)
        if args.save_corpus:
            added = save_corpus(campaign, args.save_corpus)
            print(f"corpus: {added} inputs added to {args.save_corpus}")
    if args.decoder_inputs:
        start = time.monotonic()
        decoder_args = [(args.decoder_inputs // jobs, args.seed + n) for n in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            decoder = merge_decoder(list(pool.map(_decoder_job, decoder_args)))
        print_decoder(decoder, time.monotonic() - start)
        status |= bool(decoder.failures)
    sys.exit(status)


if __name__ == "__main__":
    main()
