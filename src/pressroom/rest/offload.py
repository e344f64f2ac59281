"""Work that must not run on the event loop: password hashing and verification (argon2, ~20 ms of CPU).

Handlers run on the event loop, so one argon2 check there stalls every other request of the worker. Password
work runs on a small dedicated pool instead: argon2 and bcrypt release the GIL, so the loop keeps answering,
and the pool's size bounds how many hashes (19 MiB of memory each) run at once; further logins wait their
turn without holding a thread.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

PASSWORD_THREADS = max(2, min(8, os.cpu_count() or 2))
_POOL = ThreadPoolExecutor(max_workers=PASSWORD_THREADS, thread_name_prefix="pressroom-password")


async def off_loop(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``function`` on the password pool and wait for it without blocking the loop."""
    loop = asyncio.get_running_loop()
    # in the request's context: the request's caller (domain/caller.py) is confirmed there too
    context = contextvars.copy_context()
    return await loop.run_in_executor(_POOL, functools.partial(context.run, function, *args, **kwargs))
