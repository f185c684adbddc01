"""The WCXB pages on which the fit returns (almost) nothing, and where their text is.

For each page of WCXB's development split whose output has fewer than
`--max-words` `\\w+` tokens while its ground truth has more: its type, URL,
generator, the words in its <noscript> elements and in its hidden elements
(`[hidden]`, where a streaming page keeps its rendered content until a
script moves it), and the F1 of three simulated readings: the fit's, the
text of the noscript elements (parsed as HTML, rendered by
blockdensity.html_to_text), and the fit run on the page with every
noscript element's content put in its place and the hidden attributes
removed (what a walk that read noscript content, with scripting off, and
did not skip hidden elements would see).

    python -m bench.pagetype_empty [--max-words 20]
"""

from __future__ import annotations

import argparse
import re
import statistics

from selectolax.lexbor import LexborHTMLParser

from bench.wcxb import tokens, wcxb_score
from blockdensity import fit_text, html_to_text
from devkit.corpus import PAGE_TYPE_SETS, load_pages

_NOSCRIPT = re.compile(r"<noscript\b[^>]*>(.*?)</noscript\s*>", re.I | re.S)
_HIDDEN = re.compile(r"(<[a-z][^>]*?)\shidden(?:=\"[^\"]*\"|='[^']*'|=[^\s>]*)?", re.I)


def noscript_html(html: str) -> str:
    return "\n".join(match[1] for match in _NOSCRIPT.finditer(html))


def unhidden(html: str) -> str:
    """The page with each noscript element's content in its place and hidden attributes
    removed."""
    html = _NOSCRIPT.sub(lambda match: match[1], html)
    return _HIDDEN.sub(lambda match: match[1], html)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--max-words", type=int, default=20)
    args = parser.parse_args(argv)
    rows = []
    for page in load_pages(sets=PAGE_TYPE_SETS):
        truth_words = len(tokens(page.truth))
        fit = fit_text(page.html, url=page.url)
        if len(tokens(fit.text)) >= args.max_words or truth_words < args.max_words:
            continue
        tree = LexborHTMLParser(page.html)
        generator = ""
        for meta in tree.css('meta[name="generator"]'):
            generator = (meta.attributes.get("content") or "")[:24]
        noscript = html_to_text(noscript_html(page.html)) if "<noscript" in page.html else ""
        hidden_words = sum(len(tokens(node.text(separator=" "))) for node in tree.css("[hidden]"))
        opened = fit_text(unhidden(page.html), url=page.url).text
        rows.append(
            (
                page.page_type,
                page.page_id,
                (page.url or "")[:60],
                generator,
                truth_words,
                len(tokens(noscript)),
                hidden_words,
                wcxb_score(fit.text, page.truth)[2],
                wcxb_score(noscript, page.truth)[2],
                wcxb_score(opened, page.truth)[2],
            )
        )
    print(
        "| type | page | url | generator | truth words | noscript words | hidden words"
        " | F1 fit | F1 noscript text | F1 fit, noscript and hidden opened |"
    )
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    for row in sorted(rows):
        print(
            "| "
            + " | ".join(f"{cell:.3f}" if isinstance(cell, float) else str(cell) for cell in row)
            + " |"
        )
    if rows:
        print(
            f"\n{len(rows)} pages; mean F1: fit {statistics.mean(r[7] for r in rows):.3f},"
            f" noscript text {statistics.mean(r[8] for r in rows):.3f},"
            f" opened {statistics.mean(r[9] for r in rows):.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
