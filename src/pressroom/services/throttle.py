"""Login throttling: blocks per (login, client address) pair and a slower pace under wide attack, no lockout.

The counts live in the database (``login_failures``), so every worker process and every host on one
database sees the same ones: an attacker gains nothing by spreading guesses over workers. Each attempt
counts its failure three times:

- under its **pair** (login, address): after ``PAIR.allowed`` failures in a row the pair is blocked (429 with
  ``Retry-After``), the block doubling with every further failure up to ``max_block``. While blocked, no
  password is checked at all, so guessing costs the server one indexed SELECT. A success clears the pair.
- under its **login**, over every address: with ``LOGIN.allowed`` failures the login is under wide attack,
  and an address that has failed on it may try it again only ``LOGIN.block_for`` seconds after its own last
  failure there (a short, doubling pause; 429 with that ``Retry-After`` until then).
- under its **address**, over every login (``ADDRESS``, more room: an office or a NAT shares one): the
  same pause, for the logins that address has failed on.

Only a pair that has failed is ever held back: the right password from an address that has not failed on
that login always gets in, however many others guess at it, and nobody behind a shared address is locked
out by a neighbour's failures on other logins. The login and address counts are not cleared by a success
(else an attacker with one account of his own could reset them between guesses); every count is
forgotten after ``FORGET_AFTER`` seconds without failures. A pair's block reaching its maximum, and a login
or an address coming under wide attack, are logged (``pressroom.throttle``, WARNING) for operators.
Clients without an address (no peer known) share one pair per login.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import time
from dataclasses import dataclass

from pressroom.domain.errors import TooManyRequests
from pressroom.domain.user import LoginFailures
from pressroom.storage.spi import Store

log = logging.getLogger("pressroom.throttle")


@dataclass(frozen=True, slots=True)
class Policy:
    allowed: int  # failures before the first block (or pause)
    first_block: int  # seconds; doubled by each failure after that
    max_block: int

    def block_for(self, failures: int) -> int:
        if failures < self.allowed:
            return 0
        return min(self.max_block, self.first_block << min(failures - self.allowed, 16))


PAIR = Policy(allowed=5, first_block=30, max_block=900)
LOGIN = Policy(allowed=20, first_block=10, max_block=60)
ADDRESS = Policy(allowed=50, first_block=10, max_block=60)
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


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def login_key(login: str) -> str:
    """Logins are case-insensitive; hashed so that any client text makes a short key."""
    return "login:" + _digest(login.lower())


def pair_key(login: str, address: str | None) -> str:
    return "pair:" + _digest(login.lower() + "\x00" + (address_key(address) if address else ""))


@dataclass(frozen=True, slots=True)
class Paced:
    """A count that paces the failed pairs under it: its key, policy and name in the log."""

    key: str
    policy: Policy
    name: str


@dataclass(frozen=True, slots=True)
class Attempt:
    """One login attempt: its pair's key, the counts that pace it, and whether the pair has failed before."""

    login: str
    address: str | None
    pair: str
    paced: tuple[Paced, ...]
    counted: bool


def _recent(found: LoginFailures | None, now: int) -> int:
    """The failures of a count still remembered at ``now``."""
    return found.failures if found is not None and found.last_failure_at >= now - FORGET_AFTER else 0


def _shown(login: str) -> str:
    """A client's login as the log shows it: quoted, escaped, cut short."""
    return repr(login[:100])


class LoginThrottle:
    def __init__(self, store: Store) -> None:
        self.store = store

    def begin(self, login: str, address: str | None) -> Attempt:
        """Raises TooManyRequests while the pair is blocked, or paused on a login or address under attack."""
        pair = pair_key(login, address)
        paced = [Paced(login_key(login), LOGIN, f"Login {_shown(login)}")]
        if address:
            paced.append(Paced(address_key(address), ADDRESS, f"Address {address}"))
        now = _now()
        with self.store.read() as tx:
            found = tx.login_failures.get([pair, *(count.key for count in paced)])
        own = found.get(pair)
        if own is not None:
            pause = max(count.policy.block_for(_recent(found.get(count.key), now)) for count in paced)
            wait = max(own.blocked_until, own.last_failure_at + pause) - now
            if wait > 0:
                raise TooManyRequests(f"Too many failed logins; try again in {wait} seconds", wait)
        return Attempt(login, address, pair, tuple(paced), own is not None)

    def failed(self, attempt: Attempt) -> None:
        now = _now()
        with self.store.write() as tx:
            gateway = tx.login_failures
            gateway.purge(now - FORGET_AFTER, now)
            seconds = PAIR.block_for(gateway.add(attempt.pair, now, now - FORGET_AFTER))
            if seconds:
                gateway.block(attempt.pair, now + seconds)
            attacked = [
                c for c in attempt.paced if gateway.add(c.key, now, now - FORGET_AFTER) == c.policy.allowed
            ]
        if seconds == PAIR.max_block:
            log.warning(
                "Login %s from %s blocked for %d s, the longest block: its failures go on",
                _shown(attempt.login),
                attempt.address,
                seconds,
            )
        for count in attacked:
            log.warning(
                "%s under wide attack: %d failed logins, its failed pairs are paced",
                count.name,
                count.policy.allowed,
            )

    def succeeded(self, attempt: Attempt) -> None:
        if attempt.counted:
            with self.store.write() as tx:
                tx.login_failures.clear(attempt.pair)
