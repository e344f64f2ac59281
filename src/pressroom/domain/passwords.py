"""Password hashing: argon2id for new hashes; bcrypt hashes (as imported from eZ/Ibexa) still verify."""

from __future__ import annotations

import bcrypt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# Moderate cost: a login stays around 20 ms on one core, and Basic-auth results are cached by the caller.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)


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


def needs_rehash(password_hash: str) -> bool:
    return not password_hash.startswith("$argon2") or _HASHER.check_needs_rehash(password_hash)
