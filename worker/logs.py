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

__all__ = ["setup_logging"]

# Attributes every LogRecord has: anything else came from `extra=`.
_STANDARD: Final = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys() | {"message", "asctime"}
)


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {key: value for key, value in vars(record).items() if key not in _STANDARD}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, then the fields."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        data.update(_fields(record))
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = _fields(record)
        if fields:
            text += " " + " ".join(f"{key}={value}" for key, value in fields.items())
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
