"""The caller of the request being served, and what is still to be confirmed about it.

A caller recognised from a per-process cache (Basic credentials verified a moment ago, a known session,
a JWT whose user was seen) is not re-read on its own: the account row, the session row and the token
epoch come back as extra columns of a statement the request runs anyway (the content read of a GET, the
caller's role assignments), and :meth:`CallerCheck.confirm` compares them with what the cache assumed.
A request that runs no such statement confirms with one statement of its own, before its write
transaction commits or before its answer leaves (see ``storage/sql/caller.py`` and ``rest/app.py``).
When the rows say the cache was wrong, :class:`StaleCaller` ends the attempt (rolling back its writes);
the request is identified again without the cache and served again.

The same statements return the caller's access stamp (the role revision and the paths of the caller's
locations), under which the resolver keeps the caller's grants per process (services/permissions.py).
"""

from __future__ import annotations

import hmac
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from pressroom.domain.user import User


class StaleCaller(Exception):
    """The caller's cached account, session or token epoch is no longer what the database holds."""


@dataclass(frozen=True, slots=True)
class CallerRow:
    """The caller's account as a statement read it: ``login`` is None when no such user exists."""

    login: str | None
    email: str | None
    enabled: bool | None
    password_hash: str | None
    token_epoch: int
    session_user_id: int | None  # None when the session does not exist (or none was asked about)
    session_expires_at: int | None


AccessStamp = tuple[int, str]
"""The role revision and the caller's location paths: the caller's grants depend on nothing else (a
location swap, which changes what sits above a path, bumps the role revision)."""


@dataclass(slots=True)
class CallerCheck:
    """What a request assumed about its caller from a cache, until a statement confirms it."""

    user: User
    password_hash: str | None = None  # Basic: the hash the password was verified against
    token_epoch: int | None = None  # JWT: the epoch the token carries
    session_id: str | None = None  # session cookie: the session, alive until ``now``
    now: int = 0
    key: Hashable = None  # the cache entry it came from (dropped when found stale)
    confirmed: bool = False

    def confirm(self, row: CallerRow) -> None:
        """Raise StaleCaller unless ``row`` shows the account (and session, token epoch) assumed."""
        if self.confirmed:
            return
        user = self.user
        if (
            row.login != user.login
            or row.email != user.email
            or not row.enabled
            or (self.password_hash is not None and not _same(row.password_hash, self.password_hash))
            or (self.token_epoch is not None and row.token_epoch != self.token_epoch)
            or (
                self.session_id is not None
                and (row.session_user_id != user.id or (row.session_expires_at or 0) <= self.now)
            )
        ):
            raise StaleCaller(f"The cached account of user {user.id} is out of date")
        self.confirmed = True


def _same(stored: str | None, assumed: str) -> bool:
    return stored is not None and hmac.compare_digest(stored.encode(), assumed.encode())


@dataclass(slots=True)
class RequestCaller:
    """The caller of the request being served. The REST layer makes one per request and hands it on with
    the request's user (``User.request``); services open their transactions with it
    (``store.read(caller=...)``), whose statements confirm it (storage/sql/caller.py)."""

    user_id: int
    check: CallerCheck | None = None
    access_stamp: AccessStamp | None = None  # as the request's content read returned it
    # Users' grants as the permission resolver derived them, kept for the request (services/permissions.py).
    grants: dict[int, Any] = field(default_factory=dict)

    @property
    def session_id(self) -> str | None:
        return self.check.session_id if self.check is not None else None

    def pending(self) -> CallerCheck | None:
        check = self.check
        return check if check is not None and not check.confirmed else None
