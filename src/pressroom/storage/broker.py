"""Message brokers that receive the event log: the interface, and NATS JetStream.

A publisher takes a batch in log order and returns once the broker has stored all of it; the event id is
the message id, so a batch sent again after a crash (or by two processes at once) is stored once within
the broker's de-duplication window. Kafka or RabbitMQ publishers implement the same two methods.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, Protocol

import orjson

from pressroom.domain.event import Event


class EventPublisher(Protocol):
    name: str  # the consumer name its cursor is kept under

    async def publish(self, events: Sequence[Event]) -> None:
        """Store every event of the batch, in order; raise when the broker did not take them all."""
        ...

    async def close(self) -> None: ...


class NatsPublisher:
    """Events to the JetStream stream ``stream`` as ``<subject>.<type without the prefix>``
    (``pressroom.events.content.published``), each a CloudEvents JSON document, ``Nats-Msg-Id`` = event id.
    The stream is created when missing, over ``<subject>.>``."""

    name = "nats"

    def __init__(self, url: str, stream: str, subject: str, source: str) -> None:
        self.url = url
        self.stream = stream
        self.subject = subject
        self.source = source
        self._client: Any = None
        self._jetstream: Any = None

    async def _connect(self) -> Any:
        if self._jetstream is None:
            import nats  # noqa: PLC0415 (an optional extra: imported only when a NATS URL is set)

            self._client = await nats.connect(self.url, connect_timeout=5, max_reconnect_attempts=1)
            jetstream = self._client.jetstream()
            try:
                await jetstream.stream_info(self.stream)
            except Exception:  # not there yet: create it (nats raises NotFoundError)
                await jetstream.add_stream(name=self.stream, subjects=[f"{self.subject}.>"])
            self._jetstream = jetstream
        return self._jetstream

    async def publish(self, events: Sequence[Event]) -> None:
        jetstream = await self._connect()
        try:
            for event in events:
                suffix = event.type.split(".", 1)[1]
                await jetstream.publish(
                    f"{self.subject}.{suffix}",
                    orjson.dumps(event.cloud_event(self.source)),
                    headers={"Nats-Msg-Id": str(event.id)},
                    timeout=5,
                )
        except Exception:
            await self.close()  # reconnect next time
            raise

    async def close(self) -> None:
        client, self._client, self._jetstream = self._client, None, None
        if client is not None:
            with contextlib.suppress(Exception):  # closing a broken connection: nothing left to do
                await client.close()
