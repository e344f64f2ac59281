"""ezuser."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.base import JsonDict
from pressroom.domain.fieldtypes.ezuser import account_of
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.user import Account

from .conftest import FakeContext

USER = get_field_type("ezuser")


def _definition(**validator: object) -> tuple[JsonDict, JsonDict]:
    return USER.normalize_definition(None, {"PasswordValueValidator": validator})  # type: ignore[dict-item]


def test_user_flags() -> None:
    assert USER.singular is True
    assert USER.addable_with_instances is False


def test_user_from_wire_keeps_password_but_never_outputs_it(ctx: FakeContext) -> None:
    value = USER.from_wire(
        {"login": "jdoe", "email": "j@x.org", "password": "Secret1234", "passwordHash": "injected"}
    )
    assert value == {
        "login": "jdoe",
        "email": "j@x.org",
        "enabled": True,
        "maxLogin": 0,
        "password": "Secret1234",
    }
    assert isinstance(value, dict)
    value.update({"contentId": 14, "passwordHash": "$argon2...", "passwordUpdatedAt": 1700000000})
    wire = USER.to_wire(value, ctx)
    assert wire == {
        "hasStoredLogin": True,
        "contentId": 14,
        "login": "jdoe",
        "email": "j@x.org",
        "passwordUpdatedAt": 1700000000,
        "enabled": True,
        "maxLogin": 0,
        "plainPassword": None,
    }
    assert "Secret1234" not in repr(wire)
    assert USER.name(value) == "jdoe"


def test_user_empty(ctx: FakeContext) -> None:
    assert USER.from_wire(None) is None
    assert USER.is_empty(None)
    assert USER.is_empty(USER.from_wire({"login": ""}))
    assert USER.to_wire(None, ctx) is None
    with pytest.raises(InvalidArgument, match="fieldValue 'enabled' must be a boolean"):
        USER.from_wire({"login": "x", "enabled": "yes please"})


def test_user_password_rules() -> None:
    settings, validators = _definition(requireAtLeastOneNonAlphanumericCharacter=True)
    value = USER.from_wire({"login": "jdoe", "email": "j@x.org", "password": "short"})
    messages = [e.message for e in USER.validate(value, settings, validators)]
    assert messages == [
        "User password must include at least one upper case letter",
        "User password must include at least one number",
        "User password must include at least one special character",
        "User password must be at least 10 characters long",
    ]
    good = USER.from_wire({"login": "jdoe", "email": "j@x.org", "password": "Secret1234!"})
    assert USER.validate(good, settings, validators) == []


def test_user_login_and_email_checks() -> None:
    settings, validators = _definition()
    value = USER.from_wire({"login": "j@doe", "email": "not-mail", "password": "Secret1234"})
    errors = USER.validate(value, settings, validators)
    assert [e.type for e in errors] == ["UsernamePatternValidator", "EmailAddressValidator"]
    stored: JsonDict = {"login": "admin", "email": "admin@link.invalid", "passwordHash": "$2y$..."}
    assert USER.validate(stored, settings, validators) == []
    no_password = USER.from_wire({"login": "admin", "email": "admin@link.invalid"})
    assert [e.message for e in USER.validate(no_password, settings, validators)] == [
        "A password is required."
    ]


def test_user_custom_username_pattern() -> None:
    settings, validators = USER.normalize_definition({"UsernamePattern": "^[a-z]+$"}, None)
    value = USER.from_wire({"login": "JDoe", "email": "j@x.org", "password": "Secret1234"})
    assert [e.message for e in USER.validate(value, settings, validators)] == ["Invalid login format"]


def test_user_edit_keeps_login_content_id_and_hash_unless_a_new_password_is_given() -> None:
    stored: JsonDict = {
        "login": "admin",
        "email": "admin@link.invalid",
        "contentId": 14,
        "passwordHash": "stored-hash",
        "passwordUpdatedAt": 1700000000,
    }
    edit = USER.from_wire({"login": "renamed", "email": "new@example.com"})
    assert USER.carry_over(edit, stored) == {
        "login": "admin",
        "email": "new@example.com",
        "enabled": True,
        "maxLogin": 0,
        "contentId": 14,
        "passwordHash": "stored-hash",
        "passwordUpdatedAt": 1700000000,
    }
    new_password = USER.from_wire({"login": "admin", "email": "a@b.c", "password": "Another12345"})
    kept = USER.carry_over(new_password, stored)
    assert kept == {**new_password, "contentId": 14}
    assert USER.carry_over(edit, None) == edit  # nothing stored yet


def test_user_stored_account_needs_no_new_password() -> None:
    settings, validators = USER.normalize_definition(None, None)
    seeded: JsonDict = {"login": "anonymous", "email": "anonymous@link.invalid", "contentId": 10}
    assert USER.validate(seeded, settings, validators) == []


def test_user_account_row_of_a_value() -> None:
    value: JsonDict = {
        "login": "jdoe",
        "email": "j@x.org",
        "enabled": False,
        "maxLogin": 3,
        "passwordHash": "h",
    }
    assert account_of(value, 52) == Account(52, "jdoe", "j@x.org", "h", False, 3, None)
    assert account_of({"login": "", "email": "x@y.z"}, 52) is None
    assert account_of(None, 52) is None
