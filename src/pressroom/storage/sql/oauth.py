"""OAuth 2.0 rows: clients, authorization codes, refresh tokens, revocations, signing keys.

Codes and refresh tokens are taken with a conditional UPDATE, so that of two requests presenting the same
one at once only one wins (the other sees it used: a replay or a reuse).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, bindparam, delete, exists, insert, or_, select, update

from pressroom.domain.oauth import AuthorizationCode, OAuthClient, RefreshToken, SigningKey
from pressroom.storage.sql.engine import upsert
from pressroom.storage.sql.schema import (
    oauth_clients,
    oauth_codes,
    oauth_keys,
    oauth_refresh_tokens,
    oauth_revocations,
)

_clients, _codes, _refresh, _revoked = oauth_clients, oauth_codes, oauth_refresh_tokens, oauth_revocations


# One statement per Bearer request, built once (bound parameters, no list to expand).
_ALIVE = select(
    exists().where(_clients.c.id == bindparam("client"))
    & ~exists().where(
        or_(_revoked.c.key == bindparam("jti"), _revoked.c.key == bindparam("family")),
        _revoked.c.expires_at >= bindparam("now"),
    )
)


_Record = TypeVar("_Record", AuthorizationCode, RefreshToken)


def _columns(record: OAuthClient | AuthorizationCode | RefreshToken) -> dict[str, Any]:
    """A record's fields as the columns of its row (the names are the same)."""
    return {field.name: getattr(record, field.name) for field in fields(record)}


def _record(kind: type[_Record], row: Mapping[Any, Any]) -> _Record:
    return kind(**{field.name: row[field.name] for field in fields(kind)})


def _client(row: Mapping[Any, Any]) -> OAuthClient:
    return OAuthClient(**{**row, "redirect_uris": tuple(orjson.loads(row["redirect_uris"]))})


class SqlOAuthGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    # -- clients ------------------------------------------------------------------------------------------
    def create_client(self, client: OAuthClient) -> None:
        uris = orjson.dumps(list(client.redirect_uris)).decode()
        self.c.execute(insert(_clients).values({**_columns(client), "redirect_uris": uris}))

    def client(self, client_id: str) -> OAuthClient | None:
        row = self.c.execute(select(_clients).where(_clients.c.id == client_id)).first()
        return None if row is None else _client(row._mapping)

    def clients(self) -> list[OAuthClient]:
        return [
            _client(row._mapping) for row in self.c.execute(select(_clients).order_by(_clients.c.created_at))
        ]

    def set_redirect_uris(self, client_id: str, uris: Sequence[str]) -> bool:
        changed = self.c.execute(
            update(_clients)
            .where(_clients.c.id == client_id)
            .values(redirect_uris=orjson.dumps(list(uris)).decode())
        )
        return bool(changed.rowcount)

    def delete_client(self, client_id: str) -> bool:
        self.c.execute(delete(_codes).where(_codes.c.client_id == client_id))
        self.c.execute(delete(_refresh).where(_refresh.c.client_id == client_id))
        return bool(self.c.execute(delete(_clients).where(_clients.c.id == client_id)).rowcount)

    # -- authorization codes ------------------------------------------------------------------------------
    def add_code(self, code: AuthorizationCode) -> None:
        self.c.execute(delete(_codes).where(_codes.c.expires_at < code.expires_at - 3600))
        self.c.execute(insert(_codes).values({**_columns(code), "used": False}))

    def take_code(self, code_hash: str) -> tuple[AuthorizationCode, bool] | None:
        """The code and whether this call took it (False: it was used before, a replay); None if
        unknown."""
        taken = self.c.execute(
            update(_codes).where(_codes.c.code_hash == code_hash, _codes.c.used.is_(False)).values(used=True)
        ).rowcount
        row = self.c.execute(select(_codes).where(_codes.c.code_hash == code_hash)).first()
        if row is None:
            return None
        return _record(AuthorizationCode, row._mapping), bool(taken)

    # -- refresh tokens -----------------------------------------------------------------------------------
    def add_refresh_token(self, token: RefreshToken) -> None:
        self.c.execute(delete(_refresh).where(_refresh.c.expires_at < token.expires_at - 86400 * 365))
        self.c.execute(insert(_refresh).values(_columns(token)))

    def refresh_token(self, token_hash: str) -> RefreshToken | None:
        row = self.c.execute(select(_refresh).where(_refresh.c.token_hash == token_hash)).first()
        if row is None:
            return None
        return _record(RefreshToken, row._mapping)

    def use_refresh_token(self, token_hash: str) -> bool:
        """Mark it rotated; False if it was already (another request rotated it first)."""
        used = self.c.execute(
            update(_refresh)
            .where(_refresh.c.token_hash == token_hash, _refresh.c.used.is_(False))
            .values(used=True)
        )
        return bool(used.rowcount)

    # -- revocation ---------------------------------------------------------------------------------------
    def revoke(self, key: str, expires_at: int, now: int) -> None:
        """Revoke an access token ("jti:<id>") or a whole family ("family:<id>", with its refresh tokens)
        until ``expires_at``; expired revocations are dropped."""
        self.c.execute(delete(_revoked).where(_revoked.c.expires_at < now))
        self.c.execute(
            upsert(self.c, _revoked, {"key": key, "expires_at": expires_at}, {"expires_at": expires_at})
        )
        if key.startswith("family:"):
            family = key.removeprefix("family:")
            self.c.execute(delete(_refresh).where(_refresh.c.family_id == family))

    def token_alive(self, jti: str, family_id: str, client_id: str, now: int) -> bool:
        """Neither the access token nor its family is revoked, and its client still exists."""
        params = {"jti": f"jti:{jti}", "family": f"family:{family_id}", "client": client_id, "now": now}
        return bool(self.c.execute(_ALIVE, params).scalar())

    def purge(self, now: int) -> None:
        self.c.execute(delete(_codes).where(_codes.c.expires_at < now))
        self.c.execute(delete(_refresh).where(_refresh.c.expires_at < now))
        self.c.execute(delete(_revoked).where(_revoked.c.expires_at < now))

    # -- signing keys -------------------------------------------------------------------------------------
    def signing_keys(self) -> list[SigningKey]:
        """Newest first."""
        rows = self.c.execute(select(oauth_keys).order_by(oauth_keys.c.created_at.desc(), oauth_keys.c.kid))
        return [SigningKey(row.kid, row.private_key.encode(), row.public_jwk, row.created_at) for row in rows]

    def add_key(self, key: SigningKey, drop_before: int) -> None:
        """Add a key; keys created before ``drop_before`` (retired long enough) go."""
        self.c.execute(delete(oauth_keys).where(oauth_keys.c.created_at < drop_before))
        self.c.execute(
            insert(oauth_keys).values(
                kid=key.kid,
                private_key=key.private_key.decode(),
                public_jwk=key.public_jwk,
                created_at=key.created_at,
            )
        )
