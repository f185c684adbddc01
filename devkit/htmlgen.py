"""The vocabulary of generated HTML: characters by script, tags by class, attributes, entities.

Also the markup fragments (comments, processing instructions, stray angle
brackets) a page can hold. tests/test_properties.py draws its tag soup from
these through Hypothesis, and devkit.fuzzing's generators build pages from
them through a seeded random.Random: one vocabulary, so that a tag or a
character added here reaches both.
"""

from __future__ import annotations

import string

__all__ = [
    "ALL_TAGS",
    "ATTRIBUTES",
    "BOUNDARY_TAGS",
    "DROP_TAGS",
    "ENTITIES",
    "INLINE_TAGS",
    "MARKUP_BITS",
    "OTHER_TAGS",
    "POOLS",
    "REMOVED_TAGS",
    "VOID_TAGS",
    "span",
]

# ----------------------------------------------------------------------------- characters


def span(first: int, stop: int) -> str:
    """The characters from code point `first` up to, not including, `stop`."""
    return "".join(chr(code) for code in range(first, stop))


# Pool name -> its characters: scripts, spaces, controls, marks, and what tells them apart.
POOLS: dict[str, str] = {
    "ascii": string.ascii_letters + string.digits,
    "punct": string.punctuation,
    "space": " \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2003\u2028\u2029\u202f\u3000",
    "control": "\x01\x07\x08\x0e\x1b\x7f\x80\x9f",
    "latin": "\u00e9\u00e8\u00e0\u00e7\u00f1\u00fc\u00f6\u00df\u00f8\u00e5\u00e6\u0153"
    "\u00c9\u00a9\u00bb\u00ab\u00ac\u00b1\u00d7\u00bf",
    "typographic": "\u2019\u2018\u201c\u201d\u2014\u2013\u2026\u2022\u2039\u203a\u201e"
    "\u2020\u2030\u2032",
    "cyrillic": span(0x0430, 0x0450) + "\u0416\u042f",
    "greek": span(0x03B1, 0x03CA) + "\u0391\u03a9\u0386",
    "arabic": span(0x0627, 0x063B) + span(0x0641, 0x064B) + "\u0660\u0661\u060c\u061b\u061f\u064b",
    "hebrew": span(0x05D0, 0x05EB) + "\u05b0\u05b8",
    "devanagari": span(0x0915, 0x0931) + span(0x093E, 0x094E) + "\u0902\u0966",
    "thai": span(0x0E01, 0x0E2F) + "\u0e30\u0e32\u0e34\u0e35\u0e38",
    "han": "\u65e5\u672c\u8a9e\u4e2d\u6587\u6f22\u5b57\u4f60\u597d\u4e16\u754c\u4e00"
    "\U00020000\U0002a6a5\uf900\u2f00",
    "hiragana": span(0x3041, 0x3097) + "\u309d\u309e",
    "katakana": span(0x30A1, 0x30FB) + "\u30fc\u30fd\u31f0",
    "halfwidth": span(0xFF66, 0xFF9E),
    "cjk_punct": "\u3001\u3002\u3003\u3008\u3009\u300c\u300d\u301c\u30fb\uff01\uff08"
    "\uff09\uff0c\uff1a\uff1f",
    "cjk_marks": "\u3005\u3006\u3007\u303b\u3099\u309b",
    "hangul": "\ud55c\uad6d\uc5b4\ubb38\uc7a5\uc785\ub2c8\ub2e4\uac00\ub098\u3131",
    "emoji": "\U0001f600\U0001f44d\U0001f3fd\u2764\ufe0f\U0001f1eb\U0001f1f7\u200d\U0001f389",
    "combining": "\u0300\u0301\u0302\u0308\u0327\u20dd\u0336",
    "numbers": "\u00b2\u00b3\u00bd\u00bc\u2153\u216b\u2163\u2460\u2469",
    "format": "\u00ad\u200b\u200c\u200d\u2060\ufeff\u200e",
    "fullwidth": "\uff21\uff22\uff41\uff42\uff10\uff11\uff3f",
    "private": "\ue000\uf8ff\U000f0000",
    "underscore": "_\u203f",
}


# ------------------------------------------------------------------------------ tag soup

# Tag names by how the fit treats them: block boundaries, semantic drops, inline,
# removed with their content, void, and the rest (custom, obsolete, foreign, table parts).
BOUNDARY_TAGS = [
    "p",
    "div",
    "li",
    "h1",
    "h3",
    "section",
    "article",
    "header",
    "main",
    "table",
    "tr",
    "td",
    "th",
    "blockquote",
    "pre",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "figure",
    "figcaption",
    "form",
    "body",
]
DROP_TAGS = ["nav", "footer", "aside"]
INLINE_TAGS = [
    "a",
    "a",
    "a",
    "b",
    "i",
    "span",
    "em",
    "strong",
    "sup",
    "sub",
    "code",
    "small",
    "q",
    "abbr",
    "font",
    "time",
    "wbr",
]
REMOVED_TAGS = [
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "math",
    "option",
    "object",
    "applet",
    "iframe",
    "select",
    "head",
    "title",
    "textarea",
    "noembed",
    "xmp",
]
VOID_TAGS = ["br", "br", "img", "hr", "input", "embed", "meta", "link", "area", "source"]
OTHER_TAGS = [
    "x-widget",
    "my-el",
    "label",
    "button",
    "address",
    "center",
    "details",
    "summary",
    "marquee",
    "frameset",
    "frame",
    "html",
    "caption",
    "colgroup",
    "tbody",
    "ruby",
    "rt",
    "plaintext",
    "mi",
    "mtext",
    "foreignObject",
    "desc",
    "image",
    "isindex",
]
ALL_TAGS = BOUNDARY_TAGS + DROP_TAGS + INLINE_TAGS + REMOVED_TAGS + VOID_TAGS + OTHER_TAGS

ATTRIBUTES = [
    "",
    " hidden",
    " hidden=hidden",
    " role=navigation",
    " role=contentinfo",
    ' role="complementary"',
    " role=main",
    " ROLE=Navigation",
    ' href="#"',
    " name=x",
    " lang=de",
    " class='x y'",
    ' style="display:none"',
    ' charset="koi8-r"',
    ' http-equiv="content-type" content="text/html; charset=windows-1251"',
]

ENTITIES = [
    "&amp;", "&nbsp;", "&lt;", "&gt;", "&#8217;", "&#x2014;", "&shy;", "&notit;", "&#0;",
    "&#xD800;", "&", "&#", "&copy", "&bogus;", "&#128;", "&#x10FFFF;",
]  # fmt: skip
MARKUP_BITS = [
    "<!-- c -->", "<!--", "-->", "<!---->", "<!-->", "<?php x ?>", "<?xml version='1.0'?>",
    "<!DOCTYPE html>", "<![CDATA[cdata]]>", "<", ">", "</", "<a", "<p ", '"', "'", "=", "</>",
    "\x00",
]  # fmt: skip
