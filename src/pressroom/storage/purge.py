"""Purging a shared HTTP cache from the event log: an event consumer with its own cursor.

``PRESSROOM_HTTP_CACHE_PURGE=varnish:http://127.0.0.1:6081`` (several, comma separated): for each batch of
committed events the purger sends the keys they invalidate (``domain/cache_tags.event_keys``) to every
endpoint as one ``PURGEKEYS`` request with an ``xkey-purge`` (or ``xkey-softpurge``) header, the protocol of
the shipped VCL (deploy/varnish/pressroom.vcl). It returns only when every endpoint answered 2xx; otherwise
it raises, the dispatcher keeps the cursor where it was and the batch is sent again on its next round, so
a purge is never lost to a proxy that was down or to a crash.

A read that reached the application before the write committed can still be on its way back when the
purge arrives, and the proxy then stores its (old) answer after the purge. Each purge is therefore sent
once more ``repeat_after`` seconds later (best effort: a read takes far less than that), which closes that
window short of the TTL.
"""

from __future__ import annotations

import asyncio
import http.client
import logging
import urllib.parse
from collections.abc import Sequence

from pressroom.domain.cache_tags import event_keys
from pressroom.domain.event import Event

log = logging.getLogger("pressroom.events")

NAME = "http-cache"
DRIVERS = ("varnish",)
MAX_HEADER = 6000  # bytes of keys per request: Varnish refuses header lines past its limit (8 KB)


class PurgeFailed(RuntimeError):
    pass


def parse_endpoints(entries: Sequence[str]) -> tuple[str, ...]:
    """``varnish:http://host:port`` -> base URLs; ValueError naming the setting for anything else."""
    urls = []
    for entry in entries:
        driver, _, url = entry.partition(":")
        parsed = urllib.parse.urlsplit(url)
        if driver not in DRIVERS or parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(
                f"PRESSROOM_HTTP_CACHE_PURGE entry '{entry}' must look like varnish:http://127.0.0.1:6081"
            )
        urls.append(url)
    return tuple(urls)


def batches(keys: set[str]) -> list[str]:
    """The keys as header values, each under :data:`MAX_HEADER` bytes."""
    values: list[str] = []
    current: list[str] = []
    size = 0
    for key in sorted(keys):
        if current and size + len(key) + 1 > MAX_HEADER:
            values.append(" ".join(current))
            current, size = [], 0
        current.append(key)
        size += len(key) + 1
    if current:
        values.append(" ".join(current))
    return values


class XkeyPurger:
    """An event publisher (storage/broker.py) whose broker is the HTTP cache."""

    name = NAME

    def __init__(
        self, endpoints: Sequence[str], *, soft: bool = False, timeout: float = 5.0, repeat_after: float = 2.0
    ) -> None:
        self.endpoints = parse_endpoints(endpoints)
        self.header = "xkey-softpurge" if soft else "xkey-purge"
        self.timeout = timeout
        self.repeat_after = repeat_after
        self._repeats: set[asyncio.Task[None]] = set()

    async def publish(self, events: Sequence[Event]) -> None:
        keys: set[str] = set()
        for event in events:
            keys |= event_keys(event)
        values = batches(keys)
        await self._send_all(values)
        if self.repeat_after > 0:
            repeat = asyncio.create_task(self._repeat(values))
            self._repeats.add(repeat)
            repeat.add_done_callback(self._repeats.discard)

    async def _send_all(self, values: list[str]) -> None:
        for value in values:
            await asyncio.gather(*(asyncio.to_thread(self.send, url, value) for url in self.endpoints))

    async def _repeat(self, values: list[str]) -> None:
        await asyncio.sleep(self.repeat_after)
        try:
            await self._send_all(values)
        except PurgeFailed as error:
            log.warning("repeated purge failed: %s", error)

    def send(self, url: str, keys: str) -> None:
        parsed = urllib.parse.urlsplit(url)
        kind = http.client.HTTPSConnection if parsed.scheme == "https" else http.client.HTTPConnection
        connection = kind(parsed.hostname or "", parsed.port, timeout=self.timeout)
        try:
            connection.request("PURGEKEYS", parsed.path or "/", headers={self.header: keys})
            answer = connection.getresponse()
            answer.read()
        except OSError as error:
            raise PurgeFailed(f"purging {url}: {type(error).__name__}: {error}") from error
        finally:
            connection.close()
        if not 200 <= answer.status < 300:
            raise PurgeFailed(f"purging {url}: HTTP {answer.status}")

    async def close(self) -> None:
        for repeat in list(self._repeats):
            repeat.cancel()
