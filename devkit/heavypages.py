"""Pages built to be heavy: one tiny construction repeated up to a size (the body limit).

`<td>a` (in a table), `<div>a`, `<tr>` (in a table), `<p>a</p>`, `a<br>`,
elements carrying six attributes each, nested tables, and one element with
an attribute per 8 bytes: what a fit process's memory and time were measured
on (bench.page_memory, RELIABILITY.md) and what the worker is run on inside a
memory limit (tests/reliability/test_memory.py).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Final

__all__ = ["CONSTRUCTIONS", "ENVELOPE", "MIB", "build"]

MIB: Final = 1024 * 1024
# The message's envelope (url, headers, MessagePack framing) under the body limit.
ENVELOPE: Final = 4096


def _attributes_each(index: int) -> bytes:
    return b'<i class="c" id="i%d" title="t" lang="en" dir="ltr" data-x="1">a</i>' % index


def _nested_table(_index: int) -> bytes:
    return b"<table><tr><td>a"


CONSTRUCTIONS: Final[dict[str, tuple[str, Callable[[int], bytes]]]] = {
    "td": ("<td>a, in a table", lambda _i: b"<td>a"),
    "div": ("<div>a", lambda _i: b"<div>a"),
    "tr": ("<tr>, in a table", lambda _i: b"<tr>"),
    "p": ("<p>a</p>", lambda _i: b"<p>a</p>"),
    "br": ("a<br>", lambda _i: b"a<br>"),
    "attributes": ("<i with 6 attributes>a</i>", _attributes_each),
    "one-element": ("<div> with 1 attribute per 8 bytes", lambda i: b" a%x=1" % i),
    "tables": ("<table><tr><td>a, nested", _nested_table),
}


def build(name: str, size: int) -> bytes:
    """The page of construction `name`, at most `size` bytes."""
    _, unit = CONSTRUCTIONS[name]
    head = b"<!doctype html><html><head><title>heavy</title></head><body>"
    tail = b"</body></html>"
    if name == "one-element":
        head, tail = head + b"<div", b">text</div>" + tail
    elif name in ("td", "tr"):  # outside a table the tree builder ignores them
        head, tail = head + b"<table>", b"</table>" + tail
    # Written into one buffer: a list of a million small bytes objects would
    # raise the process's peak before the fit is measured.
    page = io.BytesIO()
    page.write(head)
    total = len(head) + len(tail)
    index = 0
    while True:
        part = unit(index)
        if total + len(part) > size:
            break
        page.write(part)
        total += len(part)
        index += 1
    page.write(tail)
    return page.getvalue()
