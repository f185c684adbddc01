"""What the clients share: a received message's properties, a plain connection, its close."""

from __future__ import annotations

import asyncio
import logging
from typing import Final

import aio_pika
from aio_pika.abc import AbstractConnection, AbstractIncomingMessage

from worker.amqp.errors import AMQP_FAILURES, SETTLE_FAILURES, ConnectFailedError
from worker.config import redact_url

__all__ = ["CLOSE_TIMEOUT", "Received", "close_quietly", "connect"]

log = logging.getLogger(__name__)

# Bound on a close: a lost node's connection may never answer it.
CLOSE_TIMEOUT: Final = 5.0


class Received:
    """What the stage and the collector read of a received message."""

    __slots__ = ("_message",)

    def __init__(self, message: AbstractIncomingMessage) -> None:
        self._message = message

    @property
    def body(self) -> bytes:
        return self._message.body

    @property
    def content_type(self) -> str | None:
        return self._message.content_type

    @property
    def message_id(self) -> str | None:
        return self._message.message_id

    @property
    def content_encoding(self) -> str | None:
        return self._message.content_encoding or None


async def connect(url: str, name: str) -> AbstractConnection:
    """A plain (not robust) connection, named `name` in the broker's listings;
    ConnectFailedError, naming the address without its password, if there is none."""
    try:
        return await aio_pika.connect(url, client_properties={"connection_name": name})
    except (*AMQP_FAILURES, OSError) as error:
        raise ConnectFailedError(f"cannot reach {redact_url(url)}: {error!r}") from None


async def close_quietly(connection: AbstractConnection | None) -> None:
    """Close `connection` if it is open, within CLOSE_TIMEOUT; a failure to close is no news
    (the broker requeues whatever is unacked either way)."""
    if connection is not None and not connection.is_closed:
        try:
            await asyncio.wait_for(connection.close(), CLOSE_TIMEOUT)
        except (*SETTLE_FAILURES, OSError, TimeoutError) as error:
            log.debug("closing a connection: %r", error)
