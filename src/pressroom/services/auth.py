"""Authentication: passwords, sessions kept in the database, JWTs. No permission logic here.

Sessions live in the database so that every server process (and every machine on one PostgreSQL)
sees the same ones. Verified Basic credentials are remembered for a short time in-process, keyed by an
HMAC of login and password, so that a client sending Basic on every request does not pay for argon2 each
time; so are the sessions, the JWT users and the users of client certificates seen. A remembered caller is
confirmed by the request's own statements (domain/caller.py: the account row, token epoch and session come
back with them), so disabling a user, changing a password, logging out or deleting a user takes effect at
once in every process.

Every password check goes through the login throttle (services/throttle.py), and an unknown login costs the
same argon2 verification as a known one. The anonymous account never logs in. A JWT carries its user's token
epoch: logging out moves the epoch on, so every JWT issued to that user before the logout is refused.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Hashable
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt

from pressroom.domain.caller import CallerCheck, RequestCaller
from pressroom.domain.errors import BadRequest, NotFound, Unauthorized
from pressroom.domain.passwords import hash_password, needs_rehash, verify_nothing, verify_password
from pressroom.domain.permission import Target
from pressroom.domain.user import Session, User
from pressroom.services.oidc import OidcService
from pressroom.services.permissions import Permissions
from pressroom.services.throttle import LoginThrottle
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
        previous_secret_keys: tuple[str, ...] = (),
        session_ttl: int,
        jwt_ttl: int,
    ) -> None:
        self.store = store
        self.permissions = permissions
        self.secret_key = secret_key
        self._basic_key_secret = secret_key.encode()
        self.verification_keys = (secret_key, *(key for key in previous_secret_keys if key != secret_key))
        self.anonymous_user_id = anonymous_user_id
        self.session_ttl = session_ttl
        self.jwt_ttl = jwt_ttl
        self._basic_cache: dict[Hashable, tuple[float, str, User]] = {}  # -> (expiry, hash checked, user)
        self._sessions: dict[Hashable, tuple[Session, User]] = {}
        self._token_users: dict[Hashable, User] = {}
        self._certificate_users: dict[Hashable, tuple[float, User]] = {}  # -> (expiry, user)
        self._lock = threading.Lock()
        self._anonymous: User | None = None
        self.throttle = LoginThrottle(store)
        self.oidc: OidcService | None = None  # an external provider's tokens (PRESSROOM_OIDC_ISSUER)

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

    def check_password(
        self, login: str, password: str, address: str | None = None, *, siteaccess: str
    ) -> User:
        """The enabled user with these credentials allowed to log in on ``siteaccess`` (``user/login``,
        which a SiteAccess limitation narrows).

        Raises Unauthorized for wrong credentials, TooManyRequests while this login from this client
        address is blocked or paused after failures (services/throttle.py: never for an address that has
        not failed on the login). Costs an argon2 verification: call it off the event loop.
        """
        return self._checked(login, password, address, siteaccess)[0]

    def _checked(self, login: str, password: str, address: str | None, siteaccess: str) -> tuple[User, str]:
        """``check_password``, with the password hash the password was verified against."""
        attempt = self.throttle.begin(login, address)
        try:
            user, password_hash = self._verified(login, password)
        except Unauthorized:
            self.throttle.failed(attempt)
            raise
        self.throttle.succeeded(attempt)
        self.permissions.require(user, "user", "login", target=Target(siteaccess=siteaccess))
        return user, password_hash

    def _verified(self, login: str, password: str) -> tuple[User, str]:
        if not login or not password:
            raise Unauthorized(INVALID_LOGIN)
        with self.store.read() as tx:
            found = tx.users.by_login(login)
        if found is None:
            verify_nothing(password)  # the same time as a real check: no user enumeration by timing
            raise Unauthorized(INVALID_LOGIN)
        user, password_hash = found
        if not verify_password(password_hash, password) or not user.enabled or user.is_anonymous:
            raise Unauthorized(INVALID_LOGIN)
        if needs_rehash(password_hash):
            password_hash = hash_password(password)
            with self.store.write() as tx:
                tx.users.set_password_hash(user.id, password_hash)
        return user, password_hash

    def cached_basic(self, login: str, password: str, siteaccess: str) -> CallerCheck | None:
        """The user of Basic credentials verified on this siteaccess in the last minute, without argon2
        and without a statement, to be confirmed by the request (a user disabled or deleted since, or
        whose password changed, is not taken); None otherwise."""
        key = self._basic_key(login, password, siteaccess)
        cached = self._basic_cache.get(key)
        if cached is None or cached[0] <= time.monotonic():
            return None
        return CallerCheck(cached[2], password_hash=cached[1], key=key)

    def forget(self, check: CallerCheck) -> None:
        """Drop the cache entry a check found stale."""
        with self._lock:
            for cache in (self._basic_cache, self._sessions, self._token_users, self._certificate_users):
                cache.pop(check.key, None)
        if self.oidc is not None:
            self.oidc.forget(check.key)

    def _keep(self, cache: dict[Hashable, Any], key: Hashable, value: Any) -> None:
        with self._lock:
            if len(cache) >= BASIC_CACHE_SIZE:
                cache.clear()
            cache[key] = value

    def confirm_caller(self, caller: RequestCaller) -> None:
        """Confirm the request's cached caller with a statement of its own (raises StaleCaller)."""
        with self.store.read(caller=caller) as tx:
            tx.confirm_caller()

    def _basic_key(self, login: str, password: str, siteaccess: str) -> bytes:
        message = f"{login}\x00{password}\x00{siteaccess}".encode("utf-8", "surrogateescape")
        return hmac.digest(self._basic_key_secret, message, "sha256")

    def basic(
        self, login: str, password: str, address: str | None = None, *, siteaccess: str, cached: bool = True
    ) -> User | CallerCheck:
        """Basic credentials checked like a login (throttled, argon2); with ``cached``, from the cache
        when another request verified them while this one waited (for the request to confirm)."""
        check = self.cached_basic(login, password, siteaccess) if cached else None
        if check is not None:
            return check
        key = self._basic_key(login, password, siteaccess)
        self._basic_cache.pop(key, None)  # a stale entry must not outlive a failed check
        user, password_hash = self._checked(login, password, address, siteaccess)
        self._keep(self._basic_cache, key, (time.monotonic() + BASIC_CACHE_SECONDS, password_hash, user))
        return user

    def certificate_user(
        self, kind: str, value: str, *, siteaccess: str, cached: bool = True
    ) -> User | CallerCheck:
        """The user a client certificate verified by a trusted proxy names: ``kind`` ``cn`` takes ``value``
        as a login, ``email`` as the e-mail address of exactly one user. Enabled, not anonymous, and allowed
        to log in on ``siteaccess``, or Unauthorized (the same answer for each, not telling which). With
        ``cached``, a user found in the last minute, for the request to confirm (a user disabled, deleted,
        renamed or given another e-mail since is not taken)."""
        key = ("certificate", kind, value.lower(), siteaccess)
        known = self._certificate_users.get(key)
        if cached and known is not None and known[0] > time.monotonic():
            return CallerCheck(known[1], key=key)
        with self.store.read() as tx:
            if kind == "email":
                users = tx.users.by_email(value)
            else:
                found = tx.users.by_login(value)
                users = [found[0]] if found is not None else []
        if len(users) != 1 or not users[0].enabled or users[0].is_anonymous:
            raise Unauthorized(f"The client certificate's {kind} '{value}' names no user who may log in")
        self.permissions.require(users[0], "user", "login", target=Target(siteaccess=siteaccess))
        self._keep(self._certificate_users, key, (time.monotonic() + BASIC_CACHE_SECONDS, users[0]))
        return users[0]

    # -- sessions ----------------------------------------------------------------------------------
    def start_session(self, user: User, replaces: Session | None = None) -> Session:
        """A new session with a fresh id; the one the client came with (if any) ends in the same
        transaction, so an id known before the login is never the id of a logged-in session."""
        session = Session(
            id=secrets.token_urlsafe(24),
            user_id=user.id,
            csrf_token=secrets.token_urlsafe(32),
            expires_at=datetime.now(UTC) + timedelta(seconds=self.session_ttl),
        )
        with self.store.write(caller=user.request) as tx:
            tx.sessions.purge_expired(int(time.time()))
            if replaces is not None:
                tx.sessions.delete(replaces.id)
            tx.sessions.create(session)
        return session

    def session(self, session_id: str) -> Session | None:
        with self.store.read() as tx:
            return tx.sessions.get(session_id, int(time.time()))

    def cached_session(self, session_id: str) -> tuple[Session, CallerCheck] | None:
        """A session seen alive before and its user, to be confirmed by the request; None otherwise."""
        key = ("session", session_id)
        cached = self._sessions.get(key)
        now = int(time.time())
        if cached is None or cached[0].expires_at.timestamp() <= now:
            return None
        return cached[0], CallerCheck(cached[1], session_id=session_id, now=now, key=key)

    def session_user(self, session_id: str) -> tuple[Session, User] | None:
        """The live session and its enabled user, read (and remembered for ``cached_session``)."""
        session = self.session(session_id)
        if session is None:
            return None
        user = self.load_user(session.user_id)
        if user is None or not user.enabled:  # a disabled user's session is dead
            return None
        self._keep(self._sessions, ("session", session_id), (session, user))
        return session, user

    def end_session(self, viewer: User, session_id: str) -> None:
        """Log out: the session ends, and so does every JWT issued to its user until now."""
        with self.store.write(caller=viewer.request) as tx:
            session = tx.sessions.get(session_id, int(time.time()))
            if session is None:
                raise NotFound.of("Session", session_id)
            tx.sessions.delete(session_id)
            tx.users.end_token_epoch(session.user_id)

    # -- JWT ---------------------------------------------------------------------------------------
    def issue_token(self, user: User) -> str:
        now = int(time.time())
        with self.store.read(caller=user.request) as tx:
            epoch = tx.users.token_epoch(user.id)
        payload = {
            "iat": now,
            "exp": now + self.jwt_ttl,
            "roles": ["ROLE_USER"],
            "username": user.login,
            "epoch": epoch,
        }
        return jwt.encode(payload, self.secret_key, algorithm="HS256")

    def _decoded(self, token: str) -> dict[str, Any]:
        """The claims of a token signed with the current secret or one of the previous ones."""
        for key in self.verification_keys:
            try:
                payload: dict[str, Any] = jwt.decode(
                    token, key, algorithms=["HS256"], options={"require": ["exp"]}
                )
            except jwt.InvalidSignatureError:
                continue  # perhaps signed with the next key
            except jwt.ExpiredSignatureError:
                raise Unauthorized("The JWT has expired") from None
            except jwt.PyJWTError:
                raise Unauthorized("Invalid JWT") from None
            return payload
        raise Unauthorized("Invalid JWT")

    def user_from_token(self, token: str, *, cached: bool = False) -> User | CallerCheck:
        """The user a JWT names, read; with ``cached``, a user seen before, to be confirmed by the
        request."""
        payload = self._decoded(token)
        login = payload.get("username")
        if not isinstance(login, str):
            raise BadRequest("The JWT carries no username")
        epoch = payload.get("epoch", 0)
        key = ("jwt", login)
        known = self._token_users.get(key)
        if cached and known is not None and isinstance(epoch, int):
            return CallerCheck(known, token_epoch=epoch, key=key)
        with self.store.read() as tx:
            found = tx.users.by_login(login)
            current = tx.users.token_epoch(found[0].id) if found is not None else None
        if found is None or not found[0].enabled or epoch != current:
            raise Unauthorized("Invalid JWT")
        self._keep(self._token_users, key, found[0])
        return found[0]
