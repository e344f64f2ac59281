"""Purging a shared HTTP cache from the event log: an event consumer with its own cursor.

``PRESSROOM_HTTP_CACHE_PURGE`` names the endpoints (several, comma separated), each with its driver:

- ``varnish:http://127.0.0.1:6081``: one ``PURGEKEYS`` request per batch with an ``xkey-purge`` (or
  ``xkey-softpurge``) header, the protocol of the shipped VCL (deploy/varnish/pressroom.vcl);
- ``fastly:<service id>``: Fastly's purge by surrogate key, ``POST /service/<id>/purge`` with the keys in a
  JSON body (``{"surrogate_keys": [...]}``, at most 256 per request), the API token of
  ``PRESSROOM_FASTLY_API_TOKEN`` in ``Fastly-Key`` and ``Fastly-Soft-Purge: 1`` for soft purges. The API is
  ``https://api.fastly.com`` unless ``PRESSROOM_FASTLY_API_URL`` says otherwise (tests point it at a fake).

For each batch of committed events the purger sends the keys they invalidate (``domain/cache_tags.
event_keys``) to every endpoint. It returns only when every endpoint answered 2xx; otherwise it raises, the
dispatcher keeps the cursor where it was and the batch is sent again on its next round, so a purge is never
lost to a proxy that was down or to a crash. Errors name the endpoint, never the token.

A read that reached the application before the write committed can still be on its way back when the
purge arrives, and the proxy then stores its (old) answer after the purge. Each purge is therefore sent
once more ``repeat_after`` seconds later (best effort: a read takes far less than that), which closes that
window short of the TTL.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import re
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pressroom.domain.cache_tags import event_keys
from pressroom.domain.event import Event

log = logging.getLogger("pressroom.events")

NAME = "http-cache"
KEEP_SENT = 60.0  # seconds the keys of a purge are kept for send_again
FASTLY_API = "https://api.fastly.com"
EXAMPLES = "varnish:http://127.0.0.1:6081 or fastly:<service id>"


class PurgeFailed(RuntimeError):
    pass


class Endpoint(Protocol):
    """One purge endpoint: how it splits keys into requests, and how it sends one."""

    def batches(self, keys: set[str]) -> list[list[str]]: ...

    def send(self, keys: list[str], *, soft: bool, timeout: float) -> None: ...


def _request(
    name: str, url: str, method: str, headers: Mapping[str, str], body: bytes | None, timeout: float
) -> None:
    """One request; PurgeFailed (naming ``name``, not the headers) unless it is answered 2xx."""
    parsed = urllib.parse.urlsplit(url)
    kind = http.client.HTTPSConnection if parsed.scheme == "https" else http.client.HTTPConnection
    connection = kind(parsed.hostname or "", parsed.port, timeout=timeout)
    path = parsed.path or "/"
    try:
        connection.request(method, path, body=body, headers=dict(headers))
        answer = connection.getresponse()
        answer.read()
    except OSError as error:
        raise PurgeFailed(f"purging {name}: {type(error).__name__}: {error}") from error
    except http.client.HTTPException as error:
        raise PurgeFailed(f"purging {name}: {type(error).__name__}") from error
    finally:
        connection.close()
    if not 200 <= answer.status < 300:
        raise PurgeFailed(f"purging {name}: HTTP {answer.status}")


@dataclass(frozen=True)
class Varnish:
    url: str
    max_header: int = 6000  # bytes of keys per request: Varnish refuses header lines past its limit (8 KB)

    def batches(self, keys: set[str]) -> list[list[str]]:
        """The keys in groups whose header value stays under :attr:`max_header` bytes."""
        groups: list[list[str]] = []
        size = 0
        for key in sorted(keys):
            if not groups or size + len(key) + 1 > self.max_header:
                groups.append([])
                size = 0
            groups[-1].append(key)
            size += len(key) + 1
        return groups

    def send(self, keys: list[str], *, soft: bool, timeout: float) -> None:
        header = "xkey-softpurge" if soft else "xkey-purge"
        _request(self.url, self.url, "PURGEKEYS", {header: " ".join(keys)}, None, timeout)


@dataclass(frozen=True)
class Fastly:
    service_id: str
    token: str = field(repr=False)
    api_url: str = FASTLY_API
    max_keys: int = 256  # Fastly's limit per batch purge

    def batches(self, keys: set[str]) -> list[list[str]]:
        ordered = sorted(keys)
        return [ordered[start : start + self.max_keys] for start in range(0, len(ordered), self.max_keys)]

    def send(self, keys: list[str], *, soft: bool, timeout: float) -> None:
        url = f"{self.api_url.rstrip('/')}/service/{self.service_id}/purge"
        headers = {"fastly-key": self.token, "content-type": "application/json", "accept": "application/json"}
        if soft:
            headers["fastly-soft-purge"] = "1"
        body = json.dumps({"surrogate_keys": keys}).encode()
        _request(f"fastly service {self.service_id}", url, "POST", headers, body, timeout)


_SERVICE_ID = re.compile(r"[A-Za-z0-9]+")


def parse_endpoints(
    entries: Sequence[str], *, fastly_token: str = "", fastly_api_url: str = FASTLY_API
) -> tuple[Endpoint, ...]:
    """The endpoints of ``PRESSROOM_HTTP_CACHE_PURGE``; ValueError naming the setting at fault."""
    endpoints: list[Endpoint] = []
    for entry in entries:
        driver, _, rest = entry.partition(":")
        if driver == "varnish":
            parsed = urllib.parse.urlsplit(rest)
            if parsed.scheme in ("http", "https") and parsed.hostname:
                endpoints.append(Varnish(rest))
                continue
        elif driver == "fastly" and _SERVICE_ID.fullmatch(rest):
            if not fastly_token:
                raise ValueError(
                    f"PRESSROOM_HTTP_CACHE_PURGE entry '{entry}' needs PRESSROOM_FASTLY_API_TOKEN"
                )
            api = urllib.parse.urlsplit(fastly_api_url)
            if api.scheme not in ("http", "https") or not api.hostname:
                raise ValueError(f"PRESSROOM_FASTLY_API_URL '{fastly_api_url}' must be an http(s) URL")
            endpoints.append(Fastly(rest, fastly_token, fastly_api_url))
            continue
        raise ValueError(f"PRESSROOM_HTTP_CACHE_PURGE entry '{entry}' must look like {EXAMPLES}")
    return tuple(endpoints)


def uses_surrogate_key(entries: Sequence[str]) -> bool:
    """Whether answers must carry ``Surrogate-Key`` (Fastly's header) beside ``xkey`` (Varnish's)."""
    return any(entry.startswith("fastly:") for entry in entries)


class XkeyPurger:
    """An event publisher (storage/broker.py) whose broker is the HTTP cache: purges by surrogate key
    (xkey) at every endpoint."""

    name = NAME

    def __init__(
        self, endpoints: Sequence[Endpoint], *, soft: bool = False, timeout: float = 5.0,
        repeat_after: float = 2.0,
    ) -> None:  # fmt: skip
        self.endpoints = tuple(endpoints)
        self.soft = soft
        self.timeout = timeout
        self.repeat_after = repeat_after
        self._repeats: set[asyncio.Task[None]] = set()
        self._sent: list[tuple[float, set[str]]] = []  # (when, keys) of recent purges, for send_again

    async def publish(self, events: Sequence[Event]) -> None:
        keys: set[str] = set()
        for event in events:
            keys |= event_keys(event)
        await self._send_all(keys)
        now = time.monotonic()
        self._sent = [(when, sent) for when, sent in self._sent if when > now - KEEP_SENT] + [(now, keys)]
        if self.repeat_after > 0:
            repeat = asyncio.create_task(self._repeat(keys))
            self._repeats.add(repeat)
            repeat.add_done_callback(self._repeats.discard)

    async def send_again(self, since: float) -> None:
        """Send once more every key purged since ``since`` (``time.monotonic()``, at most
        :data:`KEEP_SENT` seconds ago); a failure is logged, the repetition being best effort."""
        keys = {key for when, sent in self._sent if when >= since for key in sent}
        if keys:
            try:
                await self._send_all(keys)
            except PurgeFailed as error:
                log.warning("repeated purge failed: %s", error)

    async def _send_all(self, keys: set[str]) -> None:
        await asyncio.gather(*(asyncio.to_thread(self._send, endpoint, keys) for endpoint in self.endpoints))

    def _send(self, endpoint: Endpoint, keys: set[str]) -> None:
        for batch in endpoint.batches(keys):
            endpoint.send(batch, soft=self.soft, timeout=self.timeout)

    async def _repeat(self, keys: set[str]) -> None:
        await asyncio.sleep(self.repeat_after)
        try:
            await self._send_all(keys)
        except PurgeFailed as error:
            log.warning("repeated purge failed: %s", error)

    async def close(self) -> None:
        for repeat in list(self._repeats):
            repeat.cancel()
