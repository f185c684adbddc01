"""Logging: plain text or JSON lines, with the structured fields of each record.

Fields passed with `extra=` (url, outcome, fit_seconds, ...) appear as
key=value pairs in text, as keys in JSON. Per-page records are DEBUG, so the
default level (INFO) logs only the lifecycle and what went wrong.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, Final

__all__ = ["setup_command_logging", "setup_logging"]

# Bound on a record's message and on each field's text, in characters: a url
# (logged with requeues and dead letters) can be as long as a message body.
TEXT_LIMIT: Final = 1000
# Line breaks and other control characters, escaped in text format: a url with
# a newline would otherwise forge a log line of its own.
_CONTROLS: Final = {code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F, 0x85)} | {
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}

# Attributes every LogRecord has: anything else came from `extra=`.
_STANDARD: Final = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys() | {"message", "asctime"}
)


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {key: value for key, value in vars(record).items() if key not in _STANDARD}


def _bounded(text: str) -> str:
    if len(text) <= TEXT_LIMIT:
        return text
    return f"{text[:TEXT_LIMIT]}...[{len(text) - TEXT_LIMIT} more characters]"


def _one_line(text: str) -> str:
    return _bounded(text).translate(_CONTROLS)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, then the fields."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": _bounded(record.getMessage()),
        }
        data.update(
            (key, _bounded(value) if isinstance(value, str) else value)
            for key, value in _fields(record).items()
        )
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        record.message = _one_line(record.message)
        return super().formatMessage(record)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = _fields(record)
        if fields:
            text += " " + " ".join(
                f"{key}={_one_line(str(value))}" for key, value in fields.items()
            )
        return text


def setup_logging(level: str, fmt: str) -> None:
    """Configure the root logger once, to stderr."""
    handler = logging.StreamHandler(sys.stderr)
    formatter = JsonFormatter() if fmt == "json" else TextFormatter()
    formatter.converter = time.gmtime  # the "Z" in the timestamps
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # aiormq/aio-pika report each reconnect attempt at INFO and WARNING
    # already; their DEBUG is per frame.
    if level == "DEBUG":
        logging.getLogger("aiormq").setLevel(logging.INFO)
        logging.getLogger("aio_pika").setLevel(logging.INFO)


class _OneLineFromTheAmqpStack(logging.Filter):
    """The AMQP libraries log a lost connection with its traceback; a command reports the
    loss itself, in one line, so theirs keep only their message."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.partition(".")[0] in {"aiormq", "aio_pika"}:
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
        return True


def setup_command_logging(prog: str) -> None:
    """Logging of a console script (blockdensity-feed, -collect): INFO and above to
    stderr, each line `prog: message`, no traceback from the AMQP stack."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"{prog}: %(message)s"))
    handler.addFilter(_OneLineFromTheAmqpStack())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
