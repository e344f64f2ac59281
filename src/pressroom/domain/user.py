"""Users and user groups.

A user is a content item with an account: the ``users`` row holding login, e-mail, password hash and the
enabled flag (the authentication side, :class:`User`). A user group is a content item of the user group
type; a user's groups are the parents of its locations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from pressroom.domain.content import FieldInput, Version
from pressroom.domain.location import Location

if TYPE_CHECKING:
    from pressroom.domain.caller import RequestCaller

USER_GROUP_TYPE = "user_group"
USER_TYPE = "user"


@dataclass(frozen=True, slots=True)
class User:
    id: int  # the content id of the user
    login: str
    email: str
    enabled: bool
    is_anonymous: bool = False
    # The request this user is the caller of (set by the REST layer; None outside a request): services
    # open their transactions with it, so that the request's own statements confirm the caller.
    request: RequestCaller | None = field(default=None, compare=False, repr=False)

    def serving(self, request: RequestCaller) -> User:
        """This user as the caller of ``request`` (``dataclasses.replace``, at a third of its cost: once
        per request)."""
        return User(self.id, self.login, self.email, self.enabled, self.is_anonymous, request)


@dataclass(frozen=True, slots=True)
class Account:
    """A row of the ``users`` table as the account field of a published user version describes it."""

    content_id: int
    login: str
    email: str
    password_hash: str | None  # None keeps the stored hash
    enabled: bool
    max_login: int
    password_updated_at: int | None


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    user_id: int
    csrf_token: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class LoginFailures:
    """Failed logins counted under one throttle key (times in Unix seconds)."""

    failures: int
    last_failure_at: int
    blocked_until: int


@dataclass(frozen=True, slots=True)
class UserContent:
    """A user as the REST API shows it: the account and the content item with its current version."""

    account: User
    version: Version


@dataclass(frozen=True, slots=True)
class UserGroup:
    """A user group: its content item with the current version, and its main location."""

    version: Version
    location: Location


@dataclass(frozen=True, slots=True)
class ContentParts:
    """What user and group input shares with content: None leaves a value unchanged on update."""

    main_language_code: str | None = None
    fields: tuple[FieldInput, ...] = ()
    section_id: int | None = None
    remote_id: str | None = None


@dataclass(frozen=True, slots=True)
class UserCreate:
    login: str
    email: str
    password: str
    parts: ContentParts
    enabled: bool = True
    max_login: int | None = None
    content_type_id: int | None = None  # None: the ``user`` type


@dataclass(frozen=True, slots=True)
class UserUpdate:
    """None leaves a value unchanged; the login cannot change."""

    email: str | None = None
    password: str | None = None
    enabled: bool | None = None
    max_login: int | None = None
    parts: ContentParts = ContentParts()


@dataclass(frozen=True, slots=True)
class UserGroupCreate:
    parts: ContentParts
    content_type_id: int | None = None  # None: the ``user_group`` type
