"""JSONL out: the clean pages one a line, and the dead letters one a line, ready to feed back.

A dead letter's line is the page as a FetchedPage in JSON (its body decoded
to text as a browser would) and a "dead_letter" object with the reason, the
error and where it came from. The stage ignores unknown fields, so after a
fix the file feeds back as it is (blockdensity-feed OUT/dead-letters-00001.jsonl).
A message that cannot be decoded keeps its bytes in "body_base64" instead.
"""

from __future__ import annotations

import base64
from typing import Any, Final

from worker.amqp.reader import Incoming
from worker.amqp.topology import HEADER_ERROR, HEADER_QUEUE, HEADER_REASON
from worker.collect.records import OutputFormat, decoded
from worker.collect.rotation import repair_lines
from worker.content import ContentCodingError, decode_content_encoding
from worker.schemas import InvalidMessageError, decode_page, encode_json, encoding_for

__all__ = ["DEAD_LETTERS", "JSONL"]

# Bound on a dead letter's decompressed body: the stage's own limit is at most this.
_MAX_BODY: Final = 1 << 30


def _clean_line(message: Incoming) -> bytes:
    try:
        return encode_json(decoded(message)) + b"\n"
    except InvalidMessageError as error:
        # Not a CleanPage: kept, as the dead letters keep what they cannot decode.
        return encode_json(_undecodable(message, str(error))) + b"\n"


def _dead_letter_line(message: Incoming) -> bytes:
    headers = message.headers
    why: dict[str, Any] = {
        "reason": headers.get(HEADER_REASON) or _death_reason(headers),
        "error": headers.get(HEADER_ERROR),
        "queue": headers.get(HEADER_QUEUE),
        "message_id": message.message_id,
        "content_type": message.content_type,
        "content_encoding": message.content_encoding,
    }
    try:
        body = decode_content_encoding(message.body, message.content_encoding, _MAX_BODY)
        page = decode_page(body, encoding_for(message.content_type))
    except (ContentCodingError, InvalidMessageError) as error:
        return encode_json(_undecodable(message, str(error), why)) + b"\n"
    if isinstance(page.body, str):
        text = page.body
    else:
        # The fit's decoder, as the stage would have read the page. Imported
        # here, for a dead letter's raw bytes alone: the collector imports no
        # part of the library otherwise (blockdensity's package loads the fit).
        from blockdensity.decode import decode_html  # noqa: PLC0415 - see above

        text = decode_html(page.body, page.charset)[0]
    line = {
        "url": page.url,
        "body": text,
        "content_type": page.content_type,
        "status": page.status,
        "fetched_at": page.fetched_at,
        "fetch_id": page.fetch_id,
        "dead_letter": why,
    }
    return encode_json(line) + b"\n"


def _undecodable(
    message: Incoming, error: str, why: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "dead_letter": {**(why or {}), "collector_error": error},
        "body_base64": base64.b64encode(message.body).decode(),
    }


def _death_reason(headers: dict[str, Any]) -> str | None:
    """The broker's own reason (x-death), for a page dead-lettered by the delivery limit."""
    deaths = headers.get("x-death")
    if isinstance(deaths, list) and deaths and isinstance(deaths[0], dict):
        reason = deaths[0].get("reason")
        return str(reason) if reason is not None else None
    return None


JSONL: Final = OutputFormat("jsonl", ".jsonl", _clean_line, repair_lines)
DEAD_LETTERS: Final = OutputFormat("dead-letters", ".jsonl", _dead_letter_line, repair_lines)
