"""ezuser: the account of a user content item (login, e-mail, password, enabled flag).

``from_wire`` keeps the plain ``password`` under the key ``password``; :meth:`UserType.seal` hashes it
into ``passwordHash`` and ``passwordUpdatedAt``, and :meth:`UserType.with_owner` adds ``contentId``.
None of the password keys ever go out on the wire. ``requireNewPassword`` (compare with the old hash) and
``requireNotCompromisedPassword`` are kept as settings but enforced by the service, not here.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from pressroom.domain.errors import FieldError
from pressroom.domain.fieldtypes.base import FieldType, IndexScalar, WireContext
from pressroom.domain.fieldtypes.coerce import (
    as_bool,
    as_dict,
    as_int,
    dict_or_none,
    int_or_none,
    is_email,
    optional_str,
    str_or_empty,
)
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.fieldtypes.params import boolean, integer, regex
from pressroom.domain.fieldtypes.pattern import search
from pressroom.domain.integers import INT32_MAX, INT32_MIN
from pressroom.domain.passwords import hash_password
from pressroom.domain.user import Account

VALIDATOR = "PasswordValueValidator"
LOGIN_ERROR = "UsernamePatternValidator"
EMAIL_ERROR = "EmailAddressValidator"
DEFAULT_USERNAME_PATTERN = "^[^@]+$"
_STORED_PASSWORD_KEYS = ("contentId", "passwordHash", "passwordUpdatedAt")
_PASSWORD_RULES = (
    ("requireAtLeastOneUpperCaseCharacter", str.isupper, "at least one upper case letter"),
    ("requireAtLeastOneLowerCaseCharacter", str.islower, "at least one lower case letter"),
    ("requireAtLeastOneNumericCharacter", str.isdigit, "at least one number"),
    (
        "requireAtLeastOneNonAlphanumericCharacter",
        lambda char: not char.isalnum(),
        "at least one special character",
    ),
)


class UserType(FieldType):
    identifier = "ezuser"
    aliases = ("ibexa_user",)
    singular = True
    addable_with_instances = False
    searchable_supported = False
    carries_account = True
    settings_schema = {
        "PasswordTTL": integer(None, minimum=0),
        "PasswordTTLWarning": integer(None, minimum=0),
        "RequireUniqueEmail": boolean(True),
        "UsernamePattern": regex(DEFAULT_USERNAME_PATTERN),
    }
    validators_schema = {
        VALIDATOR: {
            "requireAtLeastOneUpperCaseCharacter": boolean(True),
            "requireAtLeastOneLowerCaseCharacter": boolean(True),
            "requireAtLeastOneNumericCharacter": boolean(True),
            "requireAtLeastOneNonAlphanumericCharacter": boolean(False),
            "requireNewPassword": boolean(False),
            "requireNotCompromisedPassword": boolean(False),
            "minLength": integer(10, minimum=0),
        }
    }

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """``{"login", "email", "password"?, "enabled"?, "maxLogin"?}``; a client-sent hash is ignored."""
        if raw is None:
            return None
        hash_ = as_dict(raw, "fieldValue")
        value: JsonDict = {
            "login": optional_str(hash_.get("login"), "fieldValue 'login'").strip(),
            "email": optional_str(hash_.get("email"), "fieldValue 'email'").strip(),
            "enabled": True
            if hash_.get("enabled") is None
            else as_bool(hash_["enabled"], "fieldValue 'enabled'"),
            "maxLogin": 0
            if hash_.get("maxLogin") is None
            else as_int(hash_["maxLogin"], "fieldValue 'maxLogin'", INT32_MIN, INT32_MAX),
        }
        password = hash_.get("password")
        if password not in (None, ""):
            value["password"] = optional_str(password, "fieldValue 'password'")
        return value

    def is_empty(self, value: JsonValue) -> bool:
        return not str_or_empty((dict_or_none(value) or {}).get("login"))

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        hash_ = dict_or_none(value) or {}
        errors = []
        pattern = settings.get("UsernamePattern")
        login = str_or_empty(hash_.get("login"))
        if not search(pattern if isinstance(pattern, str) else DEFAULT_USERNAME_PATTERN, login):
            errors.append(FieldError(LOGIN_ERROR, "Invalid login format"))
        email = str_or_empty(hash_.get("email"))
        if not email:
            errors.append(FieldError(EMAIL_ERROR, "An e-mail address is required."))
        elif not is_email(email):
            errors.append(FieldError(EMAIL_ERROR, f"The e-mail address '{email}' is invalid."))
        password = hash_.get("password")
        if isinstance(password, str):
            rules = dict_or_none(validators.get(VALIDATOR)) or {}
            errors.extend(password_errors(password, rules))
        elif not hash_.get("passwordHash") and hash_.get("contentId") is None:  # a new account
            errors.append(FieldError(VALIDATOR, "A password is required."))
        return errors

    def carry_over(self, new: JsonValue, old: JsonValue) -> JsonValue:
        """An edit keeps the stored login (it never changes), the content id and, unless a new
        password is given, the password hash."""
        new_hash, old_hash = dict_or_none(new), dict_or_none(old)
        if new_hash is None or old_hash is None or not old_hash.get("login"):
            return new
        kept: JsonDict = {**new_hash, "login": old_hash["login"]}
        carried = ("contentId",) if "password" in new_hash else _STORED_PASSWORD_KEYS
        kept.update((key, old_hash[key]) for key in carried if key in old_hash)
        return kept

    def seal(self, value: JsonValue) -> JsonValue:
        """A plain password never stays: it becomes ``passwordHash`` (and ``passwordUpdatedAt``)."""
        if isinstance(value, dict) and isinstance(value.get("password"), str):
            hashed = {k: v for k, v in value.items() if k != "password"}
            hashed["passwordHash"] = hash_password(str(value["password"]))
            hashed["passwordUpdatedAt"] = int(time.time())
            return hashed
        return value

    def account(self, value: JsonValue, content_id: int) -> Account | None:
        return account_of(value, content_id)

    def with_owner(self, value: JsonValue, content_id: int) -> JsonValue:
        """The account learns its content id (shown as fieldValue.contentId)."""
        if isinstance(value, dict) and value.get("contentId") != content_id:
            return {**value, "contentId": content_id}
        return value

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        hash_ = dict_or_none(value)
        if hash_ is None:
            return None
        return {
            "hasStoredLogin": bool(hash_.get("login")),
            "contentId": int_or_none(hash_.get("contentId")),
            "login": hash_.get("login"),
            "email": hash_.get("email"),
            "passwordUpdatedAt": int_or_none(hash_.get("passwordUpdatedAt")),
            "enabled": hash_.get("enabled", True) is True,
            "maxLogin": int_or_none(hash_.get("maxLogin")) or 0,
            "plainPassword": None,
        }

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return str_or_empty((dict_or_none(value) or {}).get("login"))

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return self.name(value).lower() or None

    def match_values(self, value: JsonValue) -> list[IndexScalar]:
        """The login and the email (never the password hash)."""
        hash_ = dict_or_none(value) or {}
        return [text for text in (str_or_empty(hash_.get(key)) for key in ("login", "email")) if text]


def password_errors(password: str, rules: Mapping[str, JsonValue]) -> list[FieldError]:
    """The ``PasswordValueValidator`` failures of a new plain password."""
    errors = [
        FieldError(VALIDATOR, f"User password must include {description}")
        for key, test, description in _PASSWORD_RULES
        if rules.get(key) is True and not any(test(char) for char in password)
    ]
    min_length = int_or_none(rules.get("minLength"))
    if min_length and len(password) < min_length:
        errors.append(FieldError(VALIDATOR, f"User password must be at least {min_length} characters long"))
    return errors


def account_of(value: JsonValue, content_id: int) -> Account | None:
    """The ``users`` row a stored account value describes; None for an empty value."""
    hash_ = dict_or_none(value) or {}
    login = str_or_empty(hash_.get("login"))
    if not login:
        return None
    password_hash = hash_.get("passwordHash")
    return Account(
        content_id=content_id,
        login=login,
        email=str_or_empty(hash_.get("email")),
        password_hash=password_hash if isinstance(password_hash, str) else None,
        enabled=hash_.get("enabled", True) is True,
        max_login=int_or_none(hash_.get("maxLogin")) or 0,
        password_updated_at=int_or_none(hash_.get("passwordUpdatedAt")),
    )
