"""Users (their login side), sessions and key/value settings in SQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

from pressroom.domain.location import Location
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.user import Account, Session, User
from pressroom.storage.sql.engine import upsert
from pressroom.storage.sql.functions import in_values
from pressroom.storage.sql.location import _query as location_query
from pressroom.storage.sql.location import location_of as row_to_location
from pressroom.storage.sql.schema import (
    content,
    locations,
    role_assignments,
    sessions,
    settings,
    token_epochs,
    users,
)

_USER_BY_ID = select(users).where(users.c.content_id == bindparam("id"))
_USER_BY_LOGIN = select(users).where(users.c.login_normalized == bindparam("login"))
_TOKEN_EPOCH = select(token_epochs.c.epoch).where(token_epochs.c.user_id == bindparam("id"))
_USERS_BY_EMAIL = (
    select(users).where(func.lower(users.c.email) == bindparam("email")).order_by(users.c.content_id)
)
_child_location = locations.alias("member")
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

    def by_email(self, email: str) -> list[User]:
        """Every user with this e-mail address (case-insensitive), by id."""
        return [self._user(r) for r in self.c.execute(_USERS_BY_EMAIL, {"email": email.lower()})]

    def with_role(self, role_id: int) -> list[User]:
        """The users a role is assigned to directly (not through a group), by id."""
        assigned = select(role_assignments.c.assignee_id).where(role_assignments.c.role_id == role_id)
        query = select(users).where(users.c.content_id.in_(assigned)).order_by(users.c.content_id)
        return [self._user(r) for r in self.c.execute(query)]

    def list_all(self, offset: int = 0, limit: int | None = None) -> list[User]:
        query = select(users).order_by(users.c.content_id).offset(offset).limit(limit)
        return [self._user(r) for r in self.c.execute(query)]

    def below(self, location_id: int, offset: int = 0, limit: int | None = None) -> list[User]:
        """The users with a location directly below ``location_id``, by id."""
        query = (
            select(users)
            .where(
                users.c.content_id.in_(
                    select(locations.c.content_id).where(
                        locations.c.parent_id == location_id, locations.c.id != location_id
                    )
                )
            )
            .order_by(users.c.content_id)
            .offset(offset)
            .limit(limit)
        )
        return [self._user(r) for r in self.c.execute(query)]

    def save(self, account: Account) -> None:
        """Insert or update the row of ``account.content_id``; a None hash keeps the stored one."""
        values: dict[str, Any] = {
            "login": account.login,
            "login_normalized": account.login.lower(),
            "email": account.email,
            "enabled": account.enabled,
            "max_login": account.max_login,
        }
        if account.password_hash is not None:
            values["password_hash"] = account.password_hash
            values["password_updated_at"] = account.password_updated_at
        row = {"content_id": account.content_id, "password_hash": "", **values}
        self.c.execute(upsert(self.c, users, row, values))

    def delete(self, content_ids: Sequence[int]) -> None:
        if content_ids:
            self.c.execute(delete(users).where(in_values(users.c.content_id, content_ids)))

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        self.c.execute(update(users).where(users.c.content_id == user_id).values(password_hash=password_hash))

    def token_epoch(self, user_id: int) -> int:
        return int(self.c.execute(_TOKEN_EPOCH, {"id": user_id}).scalar() or 0)

    def end_token_epoch(self, user_id: int) -> None:
        values = {"user_id": user_id, "epoch": 1}
        self.c.execute(upsert(self.c, token_epochs, values, {"epoch": token_epochs.c.epoch + 1}))

    # -- user groups: locations whose content is of the user group type -----------------------------
    def group_locations_below(
        self, location_id: int, group_type_id: int, offset: int = 0, limit: int | None = None
    ) -> list[Location]:
        """The locations directly below ``location_id`` holding a user group, by location id."""
        query = (
            location_query(UNRESTRICTED)
            .join(content, content.c.id == locations.c.content_id)
            .where(
                locations.c.parent_id == location_id,
                locations.c.id != location_id,
                content.c.content_type_id == group_type_id,
            )
            .order_by(locations.c.id)
            .offset(offset)
            .limit(limit)
        )
        return [row_to_location(r) for r in self.c.execute(query)]

    def parent_locations(self, content_id: int) -> list[Location]:
        """The parents of the locations of ``content_id`` (a user's groups), in the order it got them."""
        query = (
            location_query(UNRESTRICTED)
            .join(_child_location, _child_location.c.parent_id == locations.c.id)
            .where(_child_location.c.content_id == content_id, _child_location.c.id != locations.c.id)
            .order_by(_child_location.c.id)
        )
        return [row_to_location(r) for r in self.c.execute(query)]


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
