"""The caller's account and access stamp as extra columns of a statement a request runs anyway.

``with_caller`` adds to a FROM clause outer joins to the caller's ``users`` row, token epoch and session
(point lookups bound to ``caller_id`` and ``caller_session``), and ``CALLER_COLUMNS`` selects them;
``ACCESS_COLUMNS`` adds the role revision and the paths of the caller's locations. ``take`` hands what
a row says to the request's :class:`~pressroom.domain.caller.RequestCaller`: it confirms a pending
check (raising StaleCaller when the cache was wrong). See domain/caller.py.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, FromClause, bindparam, func, literal, select

from pressroom.domain.caller import AccessStamp, CallerRow, RequestCaller
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import locations, sequences, sessions, token_epochs, users
from pressroom.storage.sql.sequences import EPOCH_COLUMN, ROLES_REVISION

_account = users.alias("caller_account")
_tokens = token_epochs.alias("caller_tokens")
_session = sessions.alias("caller_session")


def with_caller(from_clause: FromClause) -> FromClause:
    """``from_clause`` with the caller's account, token epoch and session joined (none when absent)."""
    return (
        from_clause.outerjoin(_account, _account.c.content_id == bindparam("caller_id"))
        .outerjoin(_tokens, _tokens.c.user_id == bindparam("caller_id"))
        .outerjoin(_session, _session.c.id == bindparam("caller_session"))
    )


CALLER_COLUMNS = (
    _account.c.login.label("caller_login"),
    _account.c.email.label("caller_email"),
    _account.c.enabled.label("caller_enabled"),
    _account.c.password_hash.label("caller_password_hash"),
    _tokens.c.epoch.label("caller_token_epoch"),
    _session.c.user_id.label("caller_session_user"),
    _session.c.expires_at.label("caller_session_expires"),
)


def access_columns(user: Any) -> tuple[Any, ...]:
    """The role revision and the location paths of ``user`` (a bound parameter or a column)."""
    revision = select(sequences.c.value).where(sequences.c.name == ROLES_REVISION).scalar_subquery()
    paths = (
        select(func.aggregate_strings(locations.c.path_string, " "))
        .where(locations.c.content_id == user)
        .scalar_subquery()
    )
    return revision.label("access_revision"), paths.label("access_paths")


ACCESS_COLUMNS = access_columns(bindparam("caller_id"))
# With the cache epoch: the first read of the cached tables confirms the caller too (storage/sql/cache.py).
_CHECK = Prepared(
    select(EPOCH_COLUMN, *CALLER_COLUMNS).select_from(with_caller(select(literal(1).label("one")).subquery()))
)


def params(caller: RequestCaller) -> dict[str, Any]:
    return {"caller_id": caller.user_id, "caller_session": caller.session_id}


def access_stamp(row: Any) -> AccessStamp:
    return int(row.access_revision or 0), row.access_paths or ""


def take(caller: RequestCaller, row: Any) -> None:
    """Confirm the caller's pending check (if any) with the caller columns of ``row``."""
    check = caller.pending()
    if check is not None:
        check.confirm(
            CallerRow(
                row.caller_login,
                row.caller_email,
                None if row.caller_enabled is None else bool(row.caller_enabled),
                row.caller_password_hash,
                int(row.caller_token_epoch or 0),
                row.caller_session_user,
                row.caller_session_expires,
            )
        )


def confirm(connection: Connection, caller: RequestCaller) -> int:
    """Confirm the pending check with a statement of its own (a request that ran none carrying it);
    returns the cache epoch."""
    row = _CHECK.first(connection, params(caller))
    take(caller, row)
    return int(row.cache_epoch)
