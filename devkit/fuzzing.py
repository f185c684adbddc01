"""Fuzzing the fit: hostile HTML of six shapes, checked one input at a time, in campaigns.

Hypothesis (property-based, with `target()` steering towards the slowest
input per KB) draws a small recipe and a seeded random.Random expands it
into a page of one of these shapes:

- soup: devkit.htmlgen's tag soup (every tag class, attributes, entities,
  markup fragments, text of many scripts), several pieces joined;
- tree: well-formed-ish element trees, nesting capped at MAX_DEPTH, with
  hidden/role attributes, comments, entities, scripts of many languages;
- entities: character references, one repeated or a mix;
- mutated: a development-corpus page with 1-8 byte-level mutations (cut,
  splice, duplicate, delete, insert a tag, an entity, a markup fragment or
  invalid UTF-8), so the parser meets real markup broken in odd places;
- encoded: a tree encoded as bytes in one of many codecs (UTF-16 with and
  without BOM, Shift_JIS, GB18030, KOI8-R, ...), with or without a matching,
  wrong or bogus <meta charset>, invalid bytes sprinkled in, and a random
  `charset` argument (real labels, bogus ones, None);
- deep: nesting from 100 to 3,000 levels. The lexbor parser is quadratic in
  nesting depth (BENCHMARKS.md); this shape is reported separately.

`check` runs fit_text(html, charset=...) (blocks and to_dict() read too) and
html_to_text on one input and records any exception and any broken
invariant (devkit.invariants); IsolatedChecker runs it in a child process,
so that a crash in C code is a finding, not the end. A Campaign tallies
inputs by shape, their CPU time per KB (1,000 bytes; inputs of at least
1 KB), the slowest, the failures and one input per fallback reason.

`python -m bench.fuzz` runs the long campaign and prints its tables;
tests/reliability/test_fuzz.py replays CORPUS_DIR and runs a small budget.
"""

from __future__ import annotations

import multiprocessing
import random
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from html.entities import html5
from pathlib import Path
from typing import ClassVar

from hypothesis import HealthCheck, Phase, given, seed, settings, target
from hypothesis import strategies as st

from blockdensity import fit_text, html_to_text
from devkit.corpus import load_pages
from devkit.hostile import INVALID_UTF8
from devkit.htmlgen import ALL_TAGS, ATTRIBUTES, ENTITIES, MARKUP_BITS, POOLS
from devkit.invariants import broken_invariants
from devkit.paths import ROOT

__all__ = [
    "CORPUS_DIR",
    "KB",
    "SHAPES",
    "Campaign",
    "Input",
    "IsolatedChecker",
    "Outcome",
    "Pages",
    "Recipe",
    "check",
    "inputs",
    "merge",
    "run_fit_campaign",
]

KB = 1_000
MAX_DEPTH = 24  # nesting cap of the shapes other than "deep"
SHAPES = ("soup", "tree", "entities", "mutated", "encoded", "deep")
# What the campaigns found worth keeping; tests/reliability/test_fuzz.py replays it.
CORPUS_DIR = ROOT / "tests" / "fuzz_corpus"

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
INVALID_BYTES = (*INVALID_UTF8, b"\xfe\xff", b"\xff\xfe", b"\xef\xbb\xbf", b"\x00")
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
            cls.pages[:] = [page.raw for page in load_pages(data)]


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
        problems += broken_invariants(fit, text)  # bench.robustness's checks too
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
