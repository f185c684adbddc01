"""What failed when a program spoke to the broker, and what the AMQP stack raises.

Each program catches `BrokerError` where any broker failure ends the same
way, and a subclass where it matters which: a publish the broker did not
confirm makes the stage requeue the input, while a connect that fails makes
it retry.
"""

from __future__ import annotations

from typing import Final

import aio_pika
import aiormq.exceptions

__all__ = [
    "AMQP_FAILURES",
    "SETTLE_FAILURES",
    "AckFailedError",
    "BrokerError",
    "ConnectFailedError",
    "ConnectionLostError",
    "PublishFailedError",
]


class BrokerError(Exception):
    """The broker could not be used; the subclass says for what."""


class ConnectFailedError(BrokerError):
    """No connection to the broker (it did not answer, refused us, or the topology
    could not be declared)."""


class ConnectionLostError(BrokerError):
    """The connection in use was lost."""


class PublishFailedError(BrokerError):
    """The broker did not confirm a publish (nacked, returned unroutable, timed out, lost)."""


class AckFailedError(BrokerError):
    """An acknowledgement could not be sent (the channel is gone: the broker delivers the
    messages again)."""


# What a failed connect, declare or publish raises: the broker's refusal, a
# nack or return, a closed channel or connection, a timeout.
AMQP_FAILURES: Final = (
    aio_pika.exceptions.AMQPError,
    aiormq.exceptions.AMQPError,
    ConnectionError,
    TimeoutError,
    RuntimeError,
)
# What a failed ack, reject or cancel raises (a closed channel).
SETTLE_FAILURES: Final = (
    aio_pika.exceptions.AMQPError,
    aiormq.exceptions.AMQPError,
    ConnectionError,
    RuntimeError,
)
