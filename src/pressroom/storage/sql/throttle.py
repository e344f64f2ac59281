"""Failed logins per throttle key (login and address pair, login, address), in SQL for every process."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, and_, bindparam, case, delete, select, update

from pressroom.domain.user import LoginFailures
from pressroom.storage.sql.engine import upsert
from pressroom.storage.sql.schema import login_failures as t

_GET = select(t.c.key, t.c.failures, t.c.last_failure_at, t.c.blocked_until).where(
    t.c.key.in_(bindparam("keys", expanding=True))
)


class SqlLoginFailureGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def get(self, keys: Sequence[str]) -> dict[str, LoginFailures]:
        rows = self.c.execute(_GET, {"keys": list(keys)})
        return {row.key: LoginFailures(row.failures, row.last_failure_at, row.blocked_until) for row in rows}

    def add(self, key: str, now: int, forget_before: int) -> int:
        """Count one failure and return the count; a count last touched before ``forget_before`` restarts."""
        stale = t.c.last_failure_at < forget_before
        statement = upsert(
            self.c,
            t,
            {"key": key, "failures": 1, "last_failure_at": now, "blocked_until": 0},
            {"failures": case((stale, 1), else_=t.c.failures + 1), "last_failure_at": now},
        ).returning(t.c.failures)
        return int(self.c.execute(statement).scalar_one())

    def block(self, key: str, until: int) -> None:
        self.c.execute(update(t).where(t.c.key == key).values(blocked_until=until))

    def clear(self, key: str) -> None:
        self.c.execute(delete(t).where(t.c.key == key))

    def purge(self, forget_before: int, now: int) -> None:
        self.c.execute(delete(t).where(and_(t.c.last_failure_at < forget_before, t.c.blocked_until <= now)))
