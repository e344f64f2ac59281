"""Users (their login side), sessions and key/value settings in SQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, select, update

from pressroom.domain.user import Session, User
from pressroom.storage.sql.engine import upsert
from pressroom.storage.sql.schema import sessions, settings, token_epochs, users

_USER_BY_ID = select(users).where(users.c.content_id == bindparam("id"))
_USER_BY_LOGIN = select(users).where(users.c.login_normalized == bindparam("login"))
_TOKEN_EPOCH = select(token_epochs.c.epoch).where(token_epochs.c.user_id == bindparam("id"))
_SESSION = select(sessions).where(sessions.c.id == bindparam("id"), sessions.c.expires_at > bindparam("now"))


class SqlUserGateway:
    def __init__(self, connection: Connection, anonymous_user_id: int) -> None:
        self.c = connection
        self.anonymous_user_id = anonymous_user_id

    def _user(self, row: Any) -> User:
        return User(
            row.content_id, row.login, row.email, bool(row.enabled), row.content_id == self.anonymous_user_id
        )

    def get(self, user_id: int) -> User | None:
        row = self.c.execute(_USER_BY_ID, {"id": user_id}).first()
        return self._user(row) if row else None

    def by_login(self, login: str) -> tuple[User, str] | None:
        row = self.c.execute(_USER_BY_LOGIN, {"login": login.lower()}).first()
        return (self._user(row), row.password_hash) if row else None

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        self.c.execute(update(users).where(users.c.content_id == user_id).values(password_hash=password_hash))

    def token_epoch(self, user_id: int) -> int:
        return int(self.c.execute(_TOKEN_EPOCH, {"id": user_id}).scalar() or 0)

    def end_token_epoch(self, user_id: int) -> None:
        values = {"user_id": user_id, "epoch": 1}
        self.c.execute(upsert(self.c, token_epochs, values, {"epoch": token_epochs.c.epoch + 1}))


class SqlSessionGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def create(self, session: Session) -> None:
        now = int(datetime.now(UTC).timestamp())
        self.c.execute(
            insert(sessions).values(
                id=session.id,
                user_id=session.user_id,
                csrf_token=session.csrf_token,
                created_at=now,
                expires_at=int(session.expires_at.timestamp()),
            )
        )

    def get(self, session_id: str, now: int) -> Session | None:
        row = self.c.execute(_SESSION, {"id": session_id, "now": now}).first()
        if row is None:
            return None
        return Session(row.id, row.user_id, row.csrf_token, datetime.fromtimestamp(row.expires_at, UTC))

    def delete(self, session_id: str) -> None:
        self.c.execute(delete(sessions).where(sessions.c.id == session_id))

    def purge_expired(self, now: int) -> None:
        self.c.execute(delete(sessions).where(sessions.c.expires_at <= now))


class SqlSettingGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def get(self, name: str) -> str | None:
        value = self.c.execute(select(settings.c.value).where(settings.c.name == name)).scalar()
        return None if value is None else str(value)

    def put(self, name: str, value: str) -> None:
        if self.get(name) is None:
            self.c.execute(insert(settings).values(name=name, value=value))
        else:
            self.c.execute(update(settings).where(settings.c.name == name).values(value=value))
