"""Work that must not run on the event loop: password hashing and verification (argon2, ~20 ms of CPU),
and rendering an image variation (up to seconds of CPU and hundreds of MiB for a large image).

Handlers run on the event loop, so one argon2 check or one rendition there stalls every other request of
the worker. The handlers of :data:`OFF_LOOP_ROUTES` run on a small dedicated pool instead: argon2, bcrypt
and Pillow's decoders release the GIL, so the loop keeps answering, and the pool's size bounds how many
hashes (19 MiB of memory each) and renditions (bounded by the pixel bound) run at once; further requests
wait their turn without holding a thread.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

# Logins and token requests verify a password; the first request of a variation renders it.
OFF_LOOP_ROUTES = frozenset({"session.create", "token.create", "image.variation"})
OFF_LOOP_THREADS = max(2, min(8, os.cpu_count() or 2))
_POOL = ThreadPoolExecutor(max_workers=OFF_LOOP_THREADS, thread_name_prefix="pressroom-offload")


async def off_loop(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``function`` on the pool and wait for it without blocking the loop."""
    loop = asyncio.get_running_loop()
    # the request's caller goes with the request's user (domain/caller.py): no context to carry over
    return await loop.run_in_executor(_POOL, functools.partial(function, *args, **kwargs))
