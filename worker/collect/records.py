"""A collector format: the files of one kind of record, and a message made a record."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from worker.amqp.reader import Incoming
from worker.schemas import decode_untyped, encoding_for

__all__ = ["OutputFormat", "decoded"]


@dataclass(frozen=True, slots=True)
class OutputFormat:
    """One kind of output file: its suffix, a message's record in it, how much of a file left
    by a crash is whole records (the rest is cut on the next start), and the record each
    file begins with, if any."""

    name: str
    suffix: str  # e.g. ".jsonl"
    record: Callable[[Incoming], bytes]
    whole: Callable[[bytes], int]
    header: Callable[[str], bytes] | None = None  # given the file's name


def decoded(message: Incoming) -> Any:
    """The message's body as plain data; InvalidMessageError if it is not JSON or MessagePack
    (as its content_type says)."""
    return decode_untyped(message.body, encoding_for(message.content_type))
