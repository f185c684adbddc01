"""HTML files in (`.html`, `.htm`): each file one page, its URL the base URL and the file's path
below the folder given."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final
from urllib.parse import quote

from worker.feed.inputs import InputFormat, Item, Source, body_fetch_id, msgpack_message
from worker.schemas import FetchedPage

__all__ = ["HTML"]


def _items(source: Source, start: int, max_body: int) -> Iterator[Item]:
    if start > 0:  # the one item of the file was fed already
        return
    body = source.path.read_bytes()
    if len(body) > max_body:
        yield Item(0, "too_large", "text/html", problem=f"{len(body)} bytes, over {max_body}")
        return
    relative = source.path.relative_to(source.base).as_posix()
    url = source.base_url.rstrip("/") + "/" + quote(relative)
    fetch_id = body_fetch_id(body)
    message = msgpack_message(FetchedPage(url=url, body=body, fetch_id=fetch_id), fetch_id)
    yield Item(0, "page", "text/html", 200, message=message)


HTML: Final = InputFormat("html", (".html", ".htm"), _items)
