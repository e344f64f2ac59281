"""Password hashing: argon2id for new hashes; bcrypt hashes (as imported from eZ/Ibexa) still verify."""

from __future__ import annotations

import functools
import secrets

import bcrypt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# Moderate cost: a login stays around 20 ms on one core, and Basic-auth results are cached by the caller.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
# Stored for accounts that must never log in (anonymous): no password verifies against it.
UNUSABLE_HASH = "!unusable"


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    if password_hash.startswith(("$2y$", "$2b$", "$2a$")):
        try:
            return bcrypt.checkpw(password.encode("utf-8"), password_hash.replace("$2y$", "$2b$", 1).encode())
        except ValueError:
            return False
    try:
        return _HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


@functools.cache
def _dummy_hash() -> str:
    return _HASHER.hash(secrets.token_urlsafe(16))


def verify_nothing(password: str) -> None:
    """Spend what verifying ``password`` against a real hash costs (for logins that do not exist)."""
    verify_password(_dummy_hash(), password)


def needs_rehash(password_hash: str) -> bool:
    return not password_hash.startswith("$argon2") or _HASHER.check_needs_rehash(password_hash)
