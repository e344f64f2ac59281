"""The request body: how much of it a caller may send, reading it under deadlines, and what is left of it
when the answer is ready.

An answer can come before the body is read (a 404, a 401, a 413 from Content-Length) or after only part
of it (a 413 counted, a 408). The connection carries the next request only once the rest of this body is
consumed: a small rest is read and dropped, and otherwise the answer says ``Connection: close`` so that a
keep-alive client opens a new connection rather than losing its next request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.datastructures import Headers

from pressroom.config import Settings
from pressroom.domain.errors import PayloadTooLarge, RequestTimeout
from pressroom.domain.integers import parse_int
from pressroom.domain.user import User
from pressroom.rest.media import FILE_INPUTS, parse_media_type

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]

# The most of an unread body dropped after an early answer, and the time it has to arrive; a larger or
# slower one closes the connection.
DRAIN_BYTES = 64 * 1024
DRAIN_SECONDS = 1.0


class RequestBody:
    """The ASGI ``receive`` of one request, remembering how far its body was read."""

    __slots__ = ("_receive", "declared", "done", "started")

    def __init__(self, receive: Receive, headers: Headers) -> None:
        self._receive = receive
        length = headers.get("content-length")
        self.declared = parse_int(length) if length else None  # most requests (reads) have none
        self.done = not announces_body(headers) or self.declared == 0
        self.started = False

    async def __call__(self) -> Message:
        self.started = True
        message = await self._receive()
        if message["type"] == "http.disconnect" or not message.get("more_body", False):
            self.done = True
        return message

    async def settle(self) -> bool:
        """Consume what is left of an unread body when it is small and at hand: False when the connection
        must close instead (part of the body was read and refused, or the rest is large or slow)."""
        if self.done:
            return True
        if self.started or (self.declared is not None and self.declared > DRAIN_BYTES):
            return False
        dropped = 0
        try:
            async with asyncio.timeout(DRAIN_SECONDS):
                while not self.done and dropped <= DRAIN_BYTES:
                    dropped += len((await self()).get("body", b""))
        except TimeoutError:
            return False
        return self.done and dropped <= DRAIN_BYTES


def announces_body(headers: Headers) -> bool:
    return "content-length" in headers or "transfer-encoding" in headers


def body_limit(settings: Settings, user: User, content_type: str | None) -> tuple[int, str]:
    """The largest body this caller may send with this Content-Type, and the reason for that limit.

    Only a logged-in caller sending a media type that can carry files (or a generic JSON/XML type, whose
    root element only names the input after decoding) gets ``max_body_bytes``.
    """
    limits = [(settings.max_body_bytes, "")]
    media = parse_media_type(content_type) if content_type else None
    if media is None or (media.name and media.name not in FILE_INPUTS):
        limits.append((settings.max_plain_body_bytes, ", the limit for input that carries no files"))
    if user.is_anonymous:
        limits.append((settings.max_anonymous_body_bytes, ", the limit for anonymous callers"))
    return min(limits, key=lambda limit: limit[0])


async def read_body(body: RequestBody, limit: tuple[int, str], settings: Settings) -> bytes:
    """The whole body, refused as soon as it is known to exceed ``limit`` (declared or counted so far),
    and ended with a 408 when the client sends nothing for ``body_read_timeout_seconds``, or when the
    body takes longer than ``body_deadline_seconds`` plus one second per ``body_min_rate`` bytes."""
    size_limit, reason = limit
    too_large = f"The request body exceeds {size_limit} bytes{reason}"
    if body.declared is not None and body.declared > size_limit:
        raise PayloadTooLarge(too_large)
    idle = settings.body_read_timeout_seconds
    deadline, rate = settings.body_deadline_seconds, settings.body_min_rate
    clock = asyncio.get_running_loop().time
    started = clock()
    chunks = []
    size = 0
    while True:
        left = started + deadline + (size / rate if rate > 0 else 0.0) - clock()
        try:
            async with asyncio.timeout(min(idle, left)):
                message = await body()
        except TimeoutError:
            if left > idle:
                raise RequestTimeout(f"The request body did not arrive within {idle:g} seconds") from None
            raise RequestTimeout(
                f"The request body took longer than {deadline:g} seconds, arriving slower than {rate} bytes"
                " per second"
            ) from None
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > size_limit:
            raise PayloadTooLarge(too_large)
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)
