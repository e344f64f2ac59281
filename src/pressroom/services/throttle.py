"""Login throttling: a few failed logins, then 429 with ``Retry-After``, per login and per client address.

The counts live in the database (``login_failures``), so every worker process and every host on one
database sees the same ones: an attacker gains nothing by spreading guesses over workers. A login is blocked
after ``LOGIN.allowed`` failures in a row, an address after ``ADDRESS.allowed`` (an address may be shared by
an office or a NAT: more room). Each block doubles with every further failure, up to ``max_block``; while
blocked, no password is checked at all, so guessing costs the server one indexed SELECT. A count is forgotten
after ``FORGET_AFTER`` seconds without failures; a successful login clears the count of its login, never the
one of its address (else an attacker with one account of his own could reset it between guesses).
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from dataclasses import dataclass

from pressroom.domain.errors import TooManyRequests
from pressroom.storage.spi import Store


@dataclass(frozen=True, slots=True)
class Policy:
    allowed: int  # failures before the first block
    first_block: int  # seconds; doubled by each failure after that
    max_block: int

    def block_for(self, failures: int) -> int:
        if failures < self.allowed:
            return 0
        return min(self.max_block, self.first_block << min(failures - self.allowed, 16))


LOGIN = Policy(allowed=5, first_block=30, max_block=900)
ADDRESS = Policy(allowed=20, first_block=30, max_block=900)
FORGET_AFTER = 3600


def _now() -> int:
    return int(time.time())


def address_key(address: str) -> str:
    """IPv6 clients are counted per /64 (one host usually owns the whole prefix)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return "address:" + address[:100]
    if ip.version == 6:
        return "address:" + str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return "address:" + str(ip)


def login_key(login: str) -> str:
    """Logins are case-insensitive; hashed so that any client text makes a short key."""
    digest = hashlib.blake2b(login.lower().encode("utf-8", "surrogateescape"), digest_size=16)
    return "login:" + digest.hexdigest()


@dataclass(frozen=True, slots=True)
class Attempt:
    """One login attempt's keys (login first) with their policies, and which already count failures."""

    keys: tuple[tuple[str, Policy], ...]
    counted: frozenset[str]


class LoginThrottle:
    def __init__(self, store: Store) -> None:
        self.store = store

    def begin(self, login: str, address: str | None) -> Attempt:
        """Raises TooManyRequests while the login or the address is blocked."""
        keys = [(login_key(login), LOGIN)]
        if address:
            keys.append((address_key(address), ADDRESS))
        now = _now()
        with self.store.read() as tx:
            found = tx.login_failures.get([key for key, _ in keys])
        blocked_until = max((f.blocked_until for f in found.values()), default=0)
        if blocked_until > now:
            wait = blocked_until - now
            raise TooManyRequests(f"Too many failed logins; try again in {wait} seconds", wait)
        return Attempt(tuple(keys), frozenset(found))

    def failed(self, attempt: Attempt) -> None:
        now = _now()
        with self.store.write() as tx:
            gateway = tx.login_failures
            gateway.purge(now - FORGET_AFTER, now)
            for key, policy in attempt.keys:
                seconds = policy.block_for(gateway.add(key, now, now - FORGET_AFTER))
                if seconds:
                    gateway.block(key, now + seconds)

    def succeeded(self, attempt: Attempt) -> None:
        key = attempt.keys[0][0]
        if key in attempt.counted:
            with self.store.write() as tx:
                tx.login_failures.clear(key)
