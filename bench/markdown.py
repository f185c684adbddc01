"""Fit.markdown's structure on WCXB's dev pages, beside trafilatura's Markdown; and its cost.

WCXB's ground truth holds each page's main content as Markdown too. In the
truth and in an output alike, four kinds of element are taken:

- headings: lines of `#` to `######` and a space;
- list items: lines starting (indentation allowed) with `-`, `*`, `+`, or a
  number and `.` or `)`, then a space;
- table cells: the rows of a pipe table (lines starting and ending with `|`)
  between the outer pipes, split on `|`, the delimiter row left out;
- code: the text inside fenced blocks (``` or ~~~).

Outside code, each element becomes its lowercase `\\w+` tokens joined by one
space, and empty ones are dropped; code is one multiset of lowercase `\\w+`
tokens per page. Per kind, matches are the multiset intersection of the
output's and the truth's elements; precision = matches / output elements,
recall = matches / truth elements, each summed over all pages.

The fit's recall is bounded by what the fit keeps: "recall of kept" counts
only the truth's elements whose words the fit's text holds (an element's
tokens found in a row in the text's tokens; code tokens the text holds),
which is what the Markdown can render of the kept blocks. Symmetrically,
"precision in truth" counts only the output's elements whose words the
truth holds (found in a row in the truth's tokens; code tokens the truth
holds): what the Markdown renders as an element that the truth writes
otherwise, leaving out what the fit keeps and the truth does not.

Two pages' truths write a fence inside a line ("... running Pi-Hole: ```", a
table row's "1 2 3 | ```bash"), where CommonMark opens none: their fences pair
up wrongly and the prose between them counts as code, which no extractor's
fenced code holds. The code tokens are also scored without such pages
(`stray_fences`), beside the figure over every page.

Some truths write a page's data table as lines of text (a row's cells
joined by spaces) or leave it out, where an extractor writes a pipe table:
every cell of it then counts against precision. The table cells are also
scored on the pages whose truth holds a pipe table (`holds_table`), the same
pages for every extractor.

Cost: each page's fit (CPU time, best of --rounds passes), then the first
read of its Fit.markdown (the Markdown rendered), summed over the pages.

WCXB's truth writes links as Markdown links, so an element that holds one
holds its target's tokens ("https en wikipedia org ..."), which the fit's
Markdown holds only with its links (Conf.markdown_links, off by default;
--links renders them): the script prints the share of such elements first.

trafilatura's Markdown: `extract(html, output_format="markdown",
include_tables=True, include_formatting=True)`, cached in
bench/out/markdown_trafilatura.json (delete it to rerun).

    python -m bench.markdown [--data ../shared/data] [--rounds 2] [--no-peer] [--links]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from blockdensity import DEFAULT_CONF, Conf, fit_text
from devkit.corpus import DEFAULT_DATA, PAGE_TYPE_SETS, Page, load_pages

KINDS: Final = ("headings", "list items", "table cells", "code tokens")
CACHE: Final = Path(__file__).resolve().parent / "out" / "markdown_trafilatura.json"

_HEADING: Final = re.compile(r"#{1,6} (.*)")
_ITEM: Final = re.compile(r"\s*(?:[-*+]|\d+[.)]) (.*)")
_FENCE: Final = re.compile(r"\s*(`{3,}|~{3,})")
# Where a fence may open in CommonMark: after indentation, quote markers and list markers.
_FENCE_START: Final = re.compile(r"(?:\s|>|[-*+]\s|\d+[.)]\s)*(?:`{3,}|~{3,})")
_DELIMITER: Final = re.compile(r"\s*:?-+:?\s*")
_WORD: Final = re.compile(r"\w+")
# A link's target as an element's tokens hold it ("... https en wikipedia org ...").
_LINKED: Final = re.compile(r"(?:^| )https? ")


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def elements(markdown: str) -> dict[str, Counter[str]]:
    """The headings, list items, table cells (normalised) and code tokens of `markdown`."""
    found: dict[str, Counter[str]] = {kind: Counter() for kind in KINDS}
    fence: str | None = None
    for line in markdown.split("\n"):
        opening = _FENCE.match(line)
        if fence is not None:
            run = opening[1] if opening is not None else ""
            if run[:1] == fence[0] and len(run) >= len(fence) and not line.strip().strip(fence[0]):
                fence = None
                continue
            found["code tokens"].update(_tokens(line))
            continue
        if opening is not None:
            fence = opening[1]
            continue
        texts: list[tuple[str, str]] = []
        if (heading := _HEADING.match(line)) is not None:
            texts.append(("headings", heading[1]))
        elif (item := _ITEM.match(line)) is not None:
            texts.append(("list items", item[1]))
        else:
            row = line.strip()
            if len(row) >= 2 and row[0] == "|" and row[-1] == "|":
                cells = row[1:-1].split("|")
                if not all(_DELIMITER.fullmatch(cell) for cell in cells):
                    texts.extend(("table cells", cell) for cell in cells)
        for kind, text in texts:
            normal = " ".join(_tokens(text))
            if normal:
                found[kind][normal] += 1
    return found


@dataclass
class Tally:
    """Per kind: matches, output elements, truth elements; and the truth's kept elements."""

    matches: Counter[str] = field(default_factory=Counter)
    output: Counter[str] = field(default_factory=Counter)
    truth: Counter[str] = field(default_factory=Counter)
    kept_matches: Counter[str] = field(default_factory=Counter)
    kept_truth: Counter[str] = field(default_factory=Counter)
    held_matches: Counter[str] = field(default_factory=Counter)
    held_output: Counter[str] = field(default_factory=Counter)

    def add(self, output: str, truth: str, text: str | None = None) -> None:
        got, want = elements(output), elements(truth)
        held = _tokens(text) if text is not None else []
        held_line = " " + " ".join(held) + " "
        held_counts = Counter(held)
        truth_tokens = _tokens(truth)
        truth_line = " " + " ".join(truth_tokens) + " "
        truth_counts = Counter(truth_tokens)
        for kind in KINDS:
            self.matches[kind] += sum((got[kind] & want[kind]).values())
            self.output[kind] += sum(got[kind].values())
            self.truth[kind] += sum(want[kind].values())
            if text is None:
                continue
            kept = _within(want[kind], held_line, held_counts, kind)
            self.kept_truth[kind] += sum(kept.values())
            self.kept_matches[kind] += sum((got[kind] & kept).values())
            in_truth = _within(got[kind], truth_line, truth_counts, kind)
            self.held_output[kind] += sum(in_truth.values())
            self.held_matches[kind] += sum((in_truth & want[kind]).values())

    def row(self, kind: str) -> tuple[float, float]:
        return _ratio(self.matches[kind], self.output[kind]), _ratio(
            self.matches[kind], self.truth[kind]
        )


def _within(found: Counter[str], line: str, counts: Counter[str], kind: str) -> Counter[str]:
    """The elements of `found` whose words another output holds: `line` is its tokens
    joined by spaces between spaces, `counts` the same as a multiset (for code)."""
    if kind == "code tokens":
        return found & counts
    return Counter({element: n for element, n in found.items() if f" {element} " in line})


def linked_shares(truths: Iterable[str]) -> dict[str, float]:
    """Per kind, the share of the truths' elements that hold a link's target (the truth
    writes links as Markdown links; without --links the fit writes a link's text alone)."""
    linked: Counter[str] = Counter()
    whole: Counter[str] = Counter()
    for truth in truths:
        for kind, found in elements(truth).items():
            whole[kind] += sum(found.values())
            linked[kind] += sum(n for element, n in found.items() if _LINKED.search(element))
    return {kind: _ratio(linked[kind], whole[kind]) for kind in KINDS}


def stray_fences(markdown: str) -> bool:
    """Whether `markdown` writes a fence where none can open: three backticks inside a
    line ("... on the system running Pi-Hole: ```", a table row's "1 2 3 | ```bash").
    Such a truth's fences pair up wrongly, and the prose between them counts as code."""
    for line in markdown.split("\n"):
        if "```" not in line and "~~~" not in line:
            continue
        start = _FENCE_START.match(line)
        rest = line[start.end() :] if start is not None else line
        if "```" in rest or "~~~" in rest:
            return True
    return False


def holds_table(markdown: str) -> bool:
    """Whether `markdown` holds a pipe table's cell (as `elements` reads them)."""
    return bool(elements(markdown)["table cells"])


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def fit_costs(
    pages: Iterable[Page], rounds: int, conf: Conf = DEFAULT_CONF
) -> tuple[float, float, list[tuple[str, str]]]:
    """The fit's CPU seconds and Markdown's (first read) under `conf`, best pass of `rounds`
    each; and each page's (Markdown, text)."""
    pages = list(pages)
    best_fit = best_markdown = float("inf")
    outputs: list[tuple[str, str]] = []
    for _ in range(rounds):
        fit_time = markdown_time = 0.0
        outputs = []
        for page in pages:
            start = time.process_time()
            fit = fit_text(page.html, conf, url=page.url)
            fitted = time.process_time()
            markdown = fit.markdown
            fit_time += fitted - start
            markdown_time += time.process_time() - fitted
            outputs.append((markdown, fit.text))
        best_fit, best_markdown = min(best_fit, fit_time), min(best_markdown, markdown_time)
    return best_fit, best_markdown, outputs


def trafilatura_markdown(pages: list[Page]) -> list[str]:
    """trafilatura's Markdown of each page (cached under bench/out)."""
    import trafilatura

    cached: dict[str, str] = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    out = []
    for page in pages:
        if page.page_id not in cached:
            cached[page.page_id] = (
                trafilatura.extract(
                    page.html,
                    url=page.url,
                    output_format="markdown",
                    include_tables=True,
                    include_formatting=True,
                )
                or ""
            )
        out.append(cached[page.page_id])
    CACHE.parent.mkdir(exist_ok=True)
    CACHE.write_text(json.dumps(cached))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-peer", action="store_true", help="leave trafilatura out")
    parser.add_argument(
        "--links",
        action="store_true",
        help="the fit's Markdown with its links (Conf.markdown_links), as the truth writes them",
    )
    args = parser.parse_args()
    pages = [page for page in load_pages(args.data, PAGE_TYPE_SETS) if page.truth_markdown]
    conf = dataclasses.replace(DEFAULT_CONF, markdown_links=args.links)
    fit_time, markdown_time, outputs = fit_costs(pages, args.rounds, conf)
    ours, ours_clean, ours_tabled = Tally(), Tally(), Tally()
    stray = [stray_fences(page.truth_markdown or "") for page in pages]
    tabled = [holds_table(page.truth_markdown or "") for page in pages]
    for page, (markdown, text), flawed, table in zip(pages, outputs, stray, tabled, strict=True):
        ours.add(markdown, page.truth_markdown or "", text)
        if not flawed:
            ours_clean.add(markdown, page.truth_markdown or "", text)
        if table:
            ours_tabled.add(markdown, page.truth_markdown or "")
    peer, peer_clean, peer_tabled = Tally(), Tally(), Tally()
    if not args.no_peer:
        peers = trafilatura_markdown(pages)
        for page, markdown, flawed, table in zip(pages, peers, stray, tabled, strict=True):
            peer.add(markdown, page.truth_markdown or "")
            if not flawed:
                peer_clean.add(markdown, page.truth_markdown or "")
            if table:
                peer_tabled.add(markdown, page.truth_markdown or "")
    print(f"WCXB dev: {len(pages)} pages with a Markdown truth")
    print("the fit's Markdown with its links (--links)" if args.links else "default settings")
    shares = linked_shares(page.truth_markdown or "" for page in pages)
    print(
        "the truth's elements that hold a link's target: "
        + ", ".join(f"{kind} {shares[kind]:.1%}" for kind in KINDS[:3])
    )
    print()
    header = (
        "| kind | truth | fit P | fit P in truth | fit R | fit R of kept | trafilatura P"
        " | trafilatura R |"
    )
    print(header)
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind in KINDS:
        precision, recall = ours.row(kind)
        kept = _ratio(ours.kept_matches[kind], ours.kept_truth[kind])
        in_truth = _ratio(ours.held_matches[kind], ours.held_output[kind])
        peer_p, peer_r = peer.row(kind)
        peer_cells = "| - | - |" if args.no_peer else f"| {peer_p:.2f} | {peer_r:.2f} |"
        print(
            f"| {kind} | {ours.truth[kind]} | {precision:.2f} | {in_truth:.2f} | {recall:.2f}"
            f" | {kept:.2f} " + peer_cells
        )
    strays = [page.page_id for page, flawed in zip(pages, stray, strict=True) if flawed]
    peer_recall = "-" if args.no_peer else f"{peer_clean.row('code tokens')[1]:.3f}"
    print(
        f"\ncode tokens without the {len(strays)} pages whose truth writes a fence inside a"
        f" line ({', '.join(strays)}): truth {ours_clean.truth['code tokens']},"
        f" fit P / R {ours_clean.row('code tokens')[0]:.3f} /"
        f" {ours_clean.row('code tokens')[1]:.3f}, trafilatura R {peer_recall}"
    )
    cells = "table cells"
    peer_cells = "-" if args.no_peer else "{:.3f} / {:.3f}".format(*peer_tabled.row(cells))
    print(
        f"table cells on the {sum(tabled)} pages whose truth holds a pipe table: truth"
        f" {ours_tabled.truth[cells]}, fit P / R {ours_tabled.row(cells)[0]:.3f} /"
        f" {ours_tabled.row(cells)[1]:.3f}, trafilatura P / R {peer_cells}"
    )
    print()
    print(
        f"cost: fit {fit_time * 1000 / len(pages):.2f} ms/page, Markdown (first read)"
        f" {markdown_time * 1000 / len(pages):.2f} ms/page = {markdown_time / fit_time:.1%}"
        " of the fit"
    )


if __name__ == "__main__":
    main()
