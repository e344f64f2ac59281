"""OAuth 2.0 records of the authorization server (services/oauth.py): clients, authorization codes,
refresh tokens and the keys that sign access tokens. Secrets are kept only as hashes."""

from __future__ import annotations

from dataclasses import dataclass, field

# The scopes a client can ask for: ``default`` is the user's own rights; ``read`` narrows them to the safe
# methods (GET, HEAD, OPTIONS).
SCOPES = ("default", "read")


@dataclass(frozen=True, slots=True)
class OAuthClient:
    id: str  # the client_id
    name: str
    redirect_uris: tuple[str, ...]
    secret_hash: str | None  # None: a public client (PKCE, no secret)
    user_id: int | None  # client credentials act as this user; None: no client credentials grant
    created_at: int

    @property
    def public(self) -> bool:
        return self.secret_hash is None


@dataclass(frozen=True, slots=True)
class AuthorizationCode:
    code_hash: str = field(repr=False)
    client_id: str
    user_id: int
    redirect_uri: str
    scope: str
    code_challenge: str | None
    code_challenge_method: str | None
    family_id: str  # the token family the exchange starts: revoked if the code is presented again
    expires_at: int


@dataclass(frozen=True, slots=True)
class RefreshToken:
    token_hash: str = field(repr=False)
    family_id: str
    client_id: str
    user_id: int
    scope: str
    epoch: int  # the user's token epoch when the family began: a logout ends the family
    expires_at: int
    used: bool  # rotated already: presenting it again is a reuse


@dataclass(frozen=True, slots=True)
class SigningKey:
    kid: str
    private_key: bytes = field(repr=False)  # encrypted with a key derived from the server secret
    public_jwk: str  # JSON
    created_at: int
