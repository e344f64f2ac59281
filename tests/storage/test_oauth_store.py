"""The OAuth rows on SQLite and PostgreSQL: a code and a refresh token are taken once, revoking a family
takes its refresh tokens, a token is alive only while its client exists and nothing revoked it, keys come
newest first and deleting a client takes its grants."""

from __future__ import annotations

from pressroom.domain.oauth import AuthorizationCode, OAuthClient, RefreshToken, SigningKey
from pressroom.storage.sql.store import SqlStore

NOW = 1_800_000_000
CLIENT = OAuthClient("c1", "App", ("https://app.example/cb",), "hash", None, NOW)


def code(code_hash: str = "code1") -> AuthorizationCode:
    return AuthorizationCode(
        code_hash, "c1", 14, "https://app.example/cb", "default", "ch", "S256", "fam1", NOW + 60
    )


def refresh(token_hash: str, family: str = "fam1") -> RefreshToken:
    return RefreshToken(token_hash, family, "c1", 14, "default", 0, NOW + 3600, False)


def test_codes_and_refresh_tokens_are_taken_once(store: SqlStore) -> None:
    with store.write() as tx:
        tx.oauth.create_client(CLIENT)
        tx.oauth.add_code(code())
        tx.oauth.add_refresh_token(refresh("r1"))
    with store.write() as tx:
        assert tx.oauth.take_code("code1") == (code(), True)
        assert tx.oauth.take_code("code1") == (code(), False)  # a replay: seen, not taken
        assert tx.oauth.take_code("unknown") is None
        assert tx.oauth.use_refresh_token("r1") is True
        assert tx.oauth.use_refresh_token("r1") is False
        found = tx.oauth.refresh_token("r1")
        assert found is not None and found.used and found.family_id == "fam1"


def test_revoking_a_family_takes_its_refresh_tokens_and_its_access_tokens(store: SqlStore) -> None:
    with store.write() as tx:
        tx.oauth.create_client(CLIENT)
        for name, family in (("r1", "fam1"), ("r2", "fam1"), ("r3", "fam2")):
            tx.oauth.add_refresh_token(refresh(name, family))
    with store.write() as tx:
        assert tx.oauth.token_alive("j1", "fam1", "c1", NOW)
        tx.oauth.revoke("family:fam1", NOW + 100, NOW)
        tx.oauth.revoke("jti:j9", NOW + 100, NOW)
    with store.read() as tx:
        assert tx.oauth.refresh_token("r1") is None and tx.oauth.refresh_token("r2") is None
        assert tx.oauth.refresh_token("r3") is not None
        assert not tx.oauth.token_alive("j1", "fam1", "c1", NOW)
        assert not tx.oauth.token_alive("j9", "fam2", "c1", NOW)
        assert tx.oauth.token_alive("j1", "fam2", "c1", NOW)
        assert tx.oauth.token_alive("j1", "fam1", "c1", NOW + 101)  # the revocation outlived what it named
        assert not tx.oauth.token_alive("j1", "fam2", "gone", NOW)


def test_deleting_a_client_takes_its_grants(store: SqlStore) -> None:
    with store.write() as tx:
        tx.oauth.create_client(CLIENT)
        tx.oauth.add_code(code())
        tx.oauth.add_refresh_token(refresh("r1"))
        assert tx.oauth.set_redirect_uris("c1", ["https://b.example/cb"])
    with store.write() as tx:
        assert tx.oauth.clients()[0].redirect_uris == ("https://b.example/cb",)
        assert tx.oauth.delete_client("c1") is True
        assert tx.oauth.delete_client("c1") is False
        assert tx.oauth.take_code("code1") is None and tx.oauth.refresh_token("r1") is None


def test_keys_come_newest_first_and_old_ones_go(store: SqlStore) -> None:
    with store.write() as tx:
        for kid, made in (("k1", NOW - 1000), ("k2", NOW - 10), ("k3", NOW)):
            tx.oauth.add_key(SigningKey(kid, b"wrapped", "{}", made), drop_before=NOW - 500)
    with store.read() as tx:
        assert [key.kid for key in tx.oauth.signing_keys()] == ["k3", "k2"]
        assert tx.oauth.signing_keys()[0].private_key == b"wrapped"
