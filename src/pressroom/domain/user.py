"""Users as the authentication layer sees them, and sessions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class User:
    id: int  # the content id of the user
    login: str
    email: str
    enabled: bool
    is_anonymous: bool = False


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    user_id: int
    csrf_token: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class LoginFailures:
    """Failed logins counted for one login or one client address (times in Unix seconds)."""

    failures: int
    blocked_until: int
