"""A minimal OpenID Connect provider for the tests: discovery and a JWKS served over HTTP on a free port,
access tokens signed with authlib.jose, and keys that can be rotated."""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.server
import json
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

with warnings.catch_warnings():  # authlib points at joserfc; authlib.jose is what it ships for now
    warnings.simplefilter("ignore")
    from authlib.jose import JsonWebKey
    from authlib.jose import jwt as jose_jwt

from cryptography.hazmat.primitives import serialization

from tests.helpers import local_http_server

AUDIENCE = "pressroom-api"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class IdentityProvider:
    """Serves ``/.well-known/openid-configuration`` and ``/jwks`` for the keys it holds; counts the JWKS
    requests."""

    def __init__(self, port: int) -> None:
        self.issuer = f"http://127.0.0.1:{port}"
        self.port = port
        self.keys: list[Any] = []
        self.jwks_requests = 0
        self.discovery_issuer: str | None = None  # another issuer to announce (a hostile discovery)
        self._lock = threading.Lock()
        self._serial = 0
        self.add_key()

    def add_key(self, kty: str = "RSA") -> Any:
        """A new signing key (the newest signs by default), published from now on."""
        self._serial += 1
        crv_or_size: Any = 2048 if kty == "RSA" else "P-256"
        key = JsonWebKey.generate_key(
            kty, crv_or_size, is_private=True, options={"kid": f"key{self._serial}"}
        )
        with self._lock:
            self.keys.append(key)
        return key

    def remove_key(self, key: Any) -> None:
        with self._lock:
            self.keys.remove(key)

    def jwks(self) -> dict[str, Any]:
        with self._lock:
            keys = list(self.keys)
        published = []
        for key in keys:
            public = key.as_dict(is_private=False)
            public.update(use="sig", alg="RS256" if public["kty"] == "RSA" else "ES256")
            published.append(public)
        return {"keys": published}

    def claims(self, login: str, **overrides: Any) -> dict[str, Any]:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "aud": AUDIENCE,
            "sub": f"sub-{login}",
            "preferred_username": login,
            "email": f"{login}@example.com",
            "iat": now,
            "exp": now + 300,
        }
        claims.update(overrides)
        return {name: value for name, value in claims.items() if value is not None}

    def token(self, login: str, *, key: Any = None, alg: str | None = None, **overrides: Any) -> str:
        """An access token for ``login`` signed with ``key`` (the newest key by default)."""
        key = key or self.keys[-1]
        kty = key.as_dict(is_private=False)["kty"]
        header = {"alg": alg or ("RS256" if kty == "RSA" else "ES256"), "kid": key.as_dict()["kid"]}
        signed: bytes = jose_jwt.encode(header, self.claims(login, **overrides), key)
        return signed.decode()

    @contextmanager
    def serving(self) -> Iterator[IdentityProvider]:
        provider = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path == "/.well-known/openid-configuration":
                    body: dict[str, Any] = {
                        "issuer": provider.discovery_issuer or provider.issuer,
                        "jwks_uri": provider.issuer + "/jwks",
                        "id_token_signing_alg_values_supported": ["RS256", "ES256"],
                    }
                elif self.path == "/jwks":
                    with provider._lock:
                        provider.jwks_requests += 1
                    body = provider.jwks()
                else:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: Any) -> None:
                pass

        with local_http_server(Handler, self.port):
            yield self


def unsigned(token_claims: dict[str, Any], header: dict[str, Any]) -> str:
    """A JWT with ``header`` and the claims, and an empty signature (``alg: none``)."""
    head = b64url(json.dumps(header).encode())
    body = b64url(json.dumps(token_claims).encode())
    return f"{head}.{body}."


def hmac_signed(token_claims: dict[str, Any], header: dict[str, Any], secret: bytes) -> str:
    """A JWT signed with HMAC-SHA256 under ``secret`` (HS/RS confusion: the provider's public key)."""
    head = b64url(json.dumps(header).encode())
    body = b64url(json.dumps(token_claims).encode())
    signature = hmac.new(secret, f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64url(signature)}"


def public_pem(key: Any) -> bytes:
    pem: bytes = key.get_public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return pem
