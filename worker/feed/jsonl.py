"""JSONL files in (`.jsonl`, `.ndjson`): each line a FetchedPage in JSON, published as it is
(the stage answers in JSON).

Unknown fields are ignored, as the stage ignores them: the collector's
dead-letter file (a FetchedPage and a "dead_letter" object a line) feeds
back as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from worker.content import is_html, media_type
from worker.feed.inputs import (
    JSON,
    InputFormat,
    Item,
    Message,
    Source,
    body_fetch_id,
    feed_message_id,
)
from worker.schemas import Encoding, InvalidMessageError, decode_page

__all__ = ["JSONL"]


def _items(source: Source, start: int, _max_body: int) -> Iterator[Item]:
    # The stage applies its own body limit to each line, as to any message.
    with source.path.open("rb") as lines:
        lines.seek(start)
        offset = start
        for line in lines:
            here, offset = offset, offset + len(line)
            text = line.strip()
            if not text:
                continue
            try:
                page = decode_page(text, Encoding.JSON)
            except InvalidMessageError as error:
                yield Item(here, "bad", problem=str(error))
                continue
            media = media_type(page.content_type)
            if not is_html(page.content_type):
                yield Item(here, "not_html", media, page.status)
                continue
            fetch_id = page.fetch_id or body_fetch_id(text)
            message = Message(text, JSON, feed_message_id(page.url, fetch_id), page.url)
            yield Item(here, "page", media, page.status, message=message)


JSONL: Final = InputFormat("jsonl", (".jsonl", ".ndjson"), _items)
