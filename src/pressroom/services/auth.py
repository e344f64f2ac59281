"""Authentication: passwords, sessions kept in the database, JWTs. No permission logic here.

Sessions live in the database so that every server process (and every machine on one PostgreSQL)
sees the same ones. Verified Basic credentials are remembered for a short time in-process, keyed by an
HMAC of login and password, so that a client sending Basic on every request does not pay for argon2 each
time; a password change takes effect in every process within that time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from datetime import UTC, datetime, timedelta

import jwt

from pressroom.domain.errors import BadRequest, NotFound, Unauthorized
from pressroom.domain.passwords import hash_password, needs_rehash, verify_password
from pressroom.domain.user import Session, User
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store

INVALID_LOGIN = "Invalid login or password"
BASIC_CACHE_SECONDS = 60.0
BASIC_CACHE_SIZE = 1024


class AuthService:
    def __init__(
        self,
        store: Store,
        permissions: Permissions,
        *,
        secret_key: str,
        anonymous_user_id: int,
        session_ttl: int,
        jwt_ttl: int,
    ) -> None:
        self.store = store
        self.permissions = permissions
        self.secret_key = secret_key
        self.anonymous_user_id = anonymous_user_id
        self.session_ttl = session_ttl
        self.jwt_ttl = jwt_ttl
        self._basic_cache: dict[bytes, tuple[float, User]] = {}
        self._lock = threading.Lock()
        self._anonymous: User | None = None

    # -- users -------------------------------------------------------------------------------------
    def anonymous(self) -> User:
        """The anonymous user (loaded once per process: its login side does not change at run time)."""
        if self._anonymous is None:
            with self.store.read() as tx:
                user = tx.users.get(self.anonymous_user_id)
            self._anonymous = user or User(self.anonymous_user_id, "anonymous", "", True, is_anonymous=True)
        return self._anonymous

    def load_user(self, user_id: int) -> User | None:
        with self.store.read() as tx:
            return tx.users.get(user_id)

    def check_password(self, login: str, password: str) -> User:
        """The enabled user with these credentials allowed to log in; Unauthorized otherwise."""
        if not login or not password:
            raise Unauthorized(INVALID_LOGIN)
        with self.store.read() as tx:
            found = tx.users.by_login(login)
        if found is None:
            hash_password(password)  # spend the same time as a real check: no user enumeration by timing
            raise Unauthorized(INVALID_LOGIN)
        user, password_hash = found
        if not verify_password(password_hash, password) or not user.enabled:
            raise Unauthorized(INVALID_LOGIN)
        if needs_rehash(password_hash):
            with self.store.write() as tx:
                tx.users.set_password_hash(user.id, hash_password(password))
        self.permissions.require(user, "user", "login")
        return user

    def basic(self, login: str, password: str) -> User:
        key = hmac.new(self.secret_key.encode(), f"{login}\x00{password}".encode(), hashlib.sha256).digest()
        now = time.monotonic()
        with self._lock:
            cached = self._basic_cache.get(key)
        if cached is not None and cached[0] > now:
            return cached[1]
        user = self.check_password(login, password)
        with self._lock:
            if len(self._basic_cache) >= BASIC_CACHE_SIZE:
                self._basic_cache.clear()
            self._basic_cache[key] = (now + BASIC_CACHE_SECONDS, user)
        return user

    # -- sessions ----------------------------------------------------------------------------------
    def start_session(self, user: User) -> Session:
        session = Session(
            id=secrets.token_urlsafe(24),
            user_id=user.id,
            csrf_token=secrets.token_urlsafe(32),
            expires_at=datetime.now(UTC) + timedelta(seconds=self.session_ttl),
        )
        with self.store.write() as tx:
            tx.sessions.purge_expired(int(time.time()))
            tx.sessions.create(session)
        return session

    def session(self, session_id: str) -> Session | None:
        with self.store.read() as tx:
            return tx.sessions.get(session_id, int(time.time()))

    def end_session(self, session_id: str) -> None:
        with self.store.write() as tx:
            if tx.sessions.get(session_id, int(time.time())) is None:
                raise NotFound.of("Session", session_id)
            tx.sessions.delete(session_id)

    # -- JWT ---------------------------------------------------------------------------------------
    def issue_token(self, user: User) -> str:
        now = int(time.time())
        payload = {"iat": now, "exp": now + self.jwt_ttl, "roles": ["ROLE_USER"], "username": user.login}
        return jwt.encode(payload, self.secret_key, algorithm="HS256")

    def user_from_token(self, token: str) -> User:
        try:
            payload = jwt.decode(token, self.secret_key, algorithms=["HS256"], options={"require": ["exp"]})
        except jwt.ExpiredSignatureError:
            raise Unauthorized("The JWT has expired") from None
        except jwt.PyJWTError:
            raise Unauthorized("Invalid JWT") from None
        login = payload.get("username")
        if not isinstance(login, str):
            raise BadRequest("The JWT carries no username")
        with self.store.read() as tx:
            found = tx.users.by_login(login)
        if found is None or not found[0].enabled:
            raise Unauthorized("Invalid JWT")
        return found[0]
