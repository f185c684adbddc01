"""The queues and exchanges every program declares alike, and the dead-letter headers.

Each declaration is idempotent (the same arguments every time), so that the
stage, the feeder and the collector may start in any order: whichever comes
first declares what the others will use. The settings are taken by what
they must have (the Protocols below), which each program's settings type
(worker.config) has.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

import aio_pika
from aio_pika.abc import AbstractChannel, AbstractExchange, AbstractQueue

__all__ = [
    "ERROR_HEADER_LIMIT",
    "HEADER_ERROR",
    "HEADER_QUEUE",
    "HEADER_REASON",
    "PERSISTENT",
    "InputTopology",
    "OutputTopology",
    "declare_inputs",
    "declare_outputs",
    "find_inputs",
    "find_outputs",
    "input_queue_arguments",
]

# A dead letter's headers, set by the stage and read by the collector.
HEADER_REASON: Final = "x-blockdensity-reason"
HEADER_ERROR: Final = "x-blockdensity-error"
HEADER_QUEUE: Final = "x-blockdensity-queue"
# Bound on the error text carried in a dead letter's header.
ERROR_HEADER_LIMIT: Final = 1000

PERSISTENT: Final = 2  # AMQP delivery_mode
_QUORUM: Final[dict[str, Any]] = {"x-queue-type": "quorum"}
# The type of the exchange that spreads pages over several input queues by URL.
_CONSISTENT_HASH: Final = "x-consistent-hash"


class InputTopology(Protocol):
    """What the input side is declared from (StageSettings and FeedSettings have it)."""

    @property
    def amqp_urls(self) -> tuple[str, ...]: ...
    @property
    def input_queues(self) -> tuple[str, ...]: ...
    @property
    def input_exchange(self) -> str: ...
    @property
    def delivery_limit(self) -> int: ...
    @property
    def dead_letter_exchange(self) -> str: ...


class OutputTopology(Protocol):
    """What the output side is declared from (StageSettings and CollectSettings have it)."""

    @property
    def amqp_urls(self) -> tuple[str, ...]: ...
    @property
    def output_exchange(self) -> str: ...
    @property
    def output_routing_key(self) -> str: ...
    @property
    def output_queue(self) -> str: ...
    @property
    def dead_letter_exchange(self) -> str: ...
    @property
    def dead_letter_queue(self) -> str: ...


def input_queue_arguments(settings: InputTopology) -> dict[str, Any]:
    """The input queue's arguments: a quorum queue that dead-letters at least once.

    At-least-once dead-lettering (RabbitMQ 3.10+) moves a message to the
    dead-letter exchange with publisher confirms internally; it requires
    the reject-publish overflow mode (which, with no length limit, never
    rejects anything).
    """
    return {
        "x-queue-type": "quorum",
        "x-delivery-limit": settings.delivery_limit,
        "x-dead-letter-exchange": settings.dead_letter_exchange,
        "x-dead-letter-strategy": "at-least-once",
        "x-overflow": "reject-publish",
    }


async def declare_inputs(
    channel: AbstractChannel, settings: InputTopology
) -> tuple[list[AbstractQueue], AbstractExchange | None]:
    """The input queues and, if configured, the consistent-hash exchange that spreads
    pages over them by URL, every queue bound to it with weight 1 (an equal share)."""
    queues = [
        await channel.declare_queue(name, durable=True, arguments=input_queue_arguments(settings))
        for name in settings.input_queues
    ]
    if not settings.input_exchange:
        return queues, None
    spread = await channel.declare_exchange(settings.input_exchange, _CONSISTENT_HASH, durable=True)
    for queue in queues:
        await queue.bind(spread, routing_key="1")
    return queues, spread


async def declare_outputs(
    channel: AbstractChannel, settings: OutputTopology
) -> tuple[AbstractExchange, AbstractExchange]:
    """The dead-letter and output exchanges, with their queues bound, in dependency order."""
    dead_letters = await channel.declare_exchange(
        settings.dead_letter_exchange, aio_pika.ExchangeType.FANOUT, durable=True
    )
    dead = await channel.declare_queue(settings.dead_letter_queue, durable=True, arguments=_QUORUM)
    await dead.bind(dead_letters)
    output = await channel.declare_exchange(
        settings.output_exchange, aio_pika.ExchangeType.DIRECT, durable=True
    )
    clean = await channel.declare_queue(settings.output_queue, durable=True, arguments=_QUORUM)
    await clean.bind(output, settings.output_routing_key)
    return dead_letters, output


# --- finding what exists (a reconnection) -----------------------------------------------


async def find_inputs(channel: AbstractChannel, settings: InputTopology) -> list[AbstractQueue]:
    """The input queues, declared passively: they must exist already.

    A reconnection finds the topology instead of declaring it again: on
    RabbitMQ 3.x a binding, even one that exists, is a Mnesia transaction,
    which waits on every node of the cluster, a node cut off included, until
    the others declare it down (net_ticktime, a minute by default;
    RELIABILITY.md, "Partitions"). A passive declare asks only the node at hand.
    """
    return [await channel.declare_queue(name, passive=True) for name in settings.input_queues]


async def find_outputs(
    channel: AbstractChannel, settings: OutputTopology
) -> tuple[AbstractExchange, AbstractExchange]:
    """The dead-letter and output exchanges, declared passively (see `find_inputs`)."""
    dead_letters = await channel.declare_exchange(settings.dead_letter_exchange, passive=True)
    output = await channel.declare_exchange(settings.output_exchange, passive=True)
    return dead_letters, output
