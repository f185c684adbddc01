"""The blockdensity command: the density fit on HTML files or stdin.

    blockdensity PAGE.html [PAGE2.html ...]      the clean text ('-' reads stdin)
    blockdensity --format markdown PAGE.html     the clean text as Markdown (Fit.markdown)
    blockdensity --format json PAGE.html         the Fit as JSON (one line per page; or --json)
    blockdensity --explain PAGE.html             why each block was kept or dropped
    blockdensity --highlight OUT.html PAGE.html  the page with every block marked

Exit status: 0 on success, 1 when an input cannot be read, 2 on a bad option.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from blockdensity.conf import DEFAULT_CONF, Comments, Profile
from blockdensity.confidence import figures_of, terms
from blockdensity.decide.kinds import (
    LISTING_DOUBT,
    LISTING_GAIN,
    SCANT_WORDS,
    TYPE_CONFIDENCE,
    judged_kind,
)
from blockdensity.fit import fit_text
from blockdensity.highlight import highlight
from blockdensity.pagetype import PageType
from blockdensity.result import Fit

__all__ = ["main"]

_EXPLAIN_TEXT = 48  # characters of each block's text shown by --explain
_REASON_WIDTH = 38  # "outside_inner_container (article:main)"
_FORMATS = ("text", "markdown", "json")


class _InputError(Exception):
    """An input that cannot be read; the message says which and why."""


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    conf = dataclasses.replace(
        DEFAULT_CONF, profile=Profile(args.profile), comments=Comments(args.comments)
    )
    if args.no_drop:
        conf = conf.without_drops()
    if args.highlight is not None and len(args.pages) != 1:
        _parser().error("--highlight takes exactly one PAGE")
    out = sys.stdout
    try:
        for number, page in enumerate(args.pages):
            data = _read(page)
            if args.highlight is not None:
                _write(args.highlight, highlight(data, conf, charset=args.charset))
                continue
            fit = fit_text(data, conf, charset=args.charset, url=args.url)
            if args.format == "json":
                out.write(json.dumps({"page": page, **fit.to_dict()}, ensure_ascii=False))
                out.write("\n")
            elif args.explain:
                _explain(out, page, fit, first=number == 0)
            else:
                if len(args.pages) > 1:
                    out.write(f"{'' if number == 0 else chr(10)}==> {page} <==\n")
                text = fit.markdown if args.format == "markdown" else fit.text
                if text:
                    out.write(text + "\n")
    except _InputError as error:
        print(f"blockdensity: error: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. piped into head: not an error of ours
        sys.stderr.close()
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="blockdensity",
        description="Keep a web page's main text and drop the boilerplate around it "
        "(Kohlschuetter et al.'s density fit).",
    )
    parser.add_argument("pages", nargs="+", metavar="PAGE", help="HTML file, or - for stdin")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--format",
        choices=_FORMATS,
        default="text",
        help="text (the default): the clean text; markdown: the same blocks as Markdown "
        "(headings, lists, tables, code, quotes); json: the fit as JSON, a line a page",
    )
    mode.add_argument(
        "--json",
        dest="format",
        action="store_const",
        const="json",
        help="print the fit as JSON, a line a page (--format json)",
    )
    mode.add_argument(
        "--explain",
        action="store_true",
        help="print every block with its figures and why it was kept or dropped",
    )
    mode.add_argument(
        "--highlight",
        metavar="OUT.html",
        type=Path,
        help="write the page with every block marked by its decision, to view in a browser",
    )
    parser.add_argument(
        "--charset",
        metavar="CHARSET",
        help="the page's charset from its HTTP Content-Type (bytes are otherwise "
        "decoded as a browser would: BOM, <meta>, UTF-8, detection)",
    )
    parser.add_argument(
        "--url",
        metavar="URL",
        help="the page's URL, against which --json resolves its metadata's URLs "
        "(canonical, image); without it, relative ones are printed as the page wrote them",
    )
    parser.add_argument(
        "--profile",
        choices=[str(profile) for profile in Profile],
        default=str(DEFAULT_CONF.profile),
        help="article (the default): the published fit, then the article rules (main, inner "
        "and content container, comments, boxes, linked prose, list headings, text between; "
        "on a page that declares no article, comments, the content container, list headings "
        "and text between only); published: SPEC exactly",
    )
    parser.add_argument(
        "--comments",
        choices=[str(choice) for choice in Comments],
        default=str(DEFAULT_CONF.comments),
        help="where user comments go (article profile): separate (the default: --json's "
        "comments field, not the text), include (the text too, after the article), drop",
    )
    parser.add_argument(
        "--no-drop",
        action="store_true",
        help="do not drop nav/footer/aside and ARIA landmark blocks; the tree alone decides",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - for --version only

    try:
        return version("blockdensity")
    except PackageNotFoundError:
        return "unknown"


def _read(page: str) -> bytes:
    if page == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(page).read_bytes()
    except OSError as error:
        raise _InputError(f"cannot read {page!r}: {error.strerror or error}") from None


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise _InputError(f"cannot write {str(path)!r}: {error.strerror or error}") from None


def _explain(out: TextIO, page: str, fit: Fit, *, first: bool) -> None:
    if not first:
        out.write("\n")
    out.write(f"==> {page} <==\n")
    out.write(f"title: {fit.title!r}  lang: {fit.lang}  profile: {fit.profile}\n")
    header = f"{'#':>4} {'element':<10} {'words':>5} {'links':>5} {'ld‰':>5} {'decision':<11}"
    out.write(f"{header} {'reason':<{_REASON_WIDTH}} text\n")
    for block in fit.blocks:
        text = " ".join(block.text.split())
        if len(text) > _EXPLAIN_TEXT:
            text = text[: _EXPLAIN_TEXT - 1] + "\u2026"
        reason = block.reason.value + (f" ({block.scope})" if block.scope else "")
        out.write(
            f"{block.index:>4} {block.element:<10} {block.words:>5} {block.link_words:>5}"
            f" {block.link_density:>5} {block.decision.value:<11}"
            f" {reason:<{_REASON_WIDTH}} {text}\n"
        )
    verdict = f"fallback: {fit.fallback_reason}" if fit.fallback_reason else "no fallback"
    out.write(
        f"kept {fit.blocks_kept} of {fit.blocks_total} blocks "
        f"({fit.blocks_with_words} with words), {fit.words_kept} of {fit.words_total} words; "
        f"{verdict}\n"
    )
    # The score's terms, largest first: what raised and what lowered the confidence.
    why = ", ".join(
        f"{name} {value:.2f} ({term:+.2f})" for name, value, term in terms(figures_of(fit))
    )
    shown = "unknown" if fit.confidence is None else f"{fit.confidence:.3f}"
    out.write(f"confidence {shown} (the fit's estimate of its F1): {why}\n")
    out.write(_page_type_line(fit))


def _page_type_line(fit: Fit) -> str:
    """--explain's line on the page's kind: what it is, how sure, whether its rules ran."""
    kind, sure = fit.page_type, fit.page_type_confidence
    if kind is None or sure is None:
        return "page type: not classified (the published profile runs no rules by kind)\n"
    judged = judged_kind(kind, sure)
    if fit.profile is Profile.PUBLISHED:
        ran = "given; the published profile runs no rules by kind of page"
    elif fit.rules_kind is None:
        ran = "no rules configured"
    elif kind is PageType.ARTICLE:
        ran = "judged as an article"
    elif judged is kind:
        ran = f"the rules for {kind.value} pages ran"
    else:
        ran = f"under {TYPE_CONFIDENCE}: judged as an article"
    if kind is PageType.ARTICLE and fit.rules_kind is PageType.LISTING:
        # Only the listing look (decide.kinds.listing_look) reads an article as a listing.
        ran += (
            f"; under {LISTING_DOUBT}, a listing next likeliest: the rules for listing pages"
            f" kept {LISTING_GAIN} times the words or more, and ran"
        )
    elif fit.rules_kind not in (None, judged):
        # A second look (decide.kinds.second_looks) took another kind's verdict.
        ran += (
            f"; under {SCANT_WORDS} words kept as such, the rules for"
            f" {fit.rules_kind.value} pages ran"
        )
    return f"page type: {kind.value} {sure:.3f} ({ran})\n"


def run() -> None:
    """Console-script entry point."""
    raise SystemExit(main())
