"""The field definitions of the clean-install data (spec/install.md §5) normalize with our defaults."""

from __future__ import annotations

import pytest

from pressroom.domain.fieldtypes.base import JsonValue
from pressroom.domain.fieldtypes.registry import get_field_type


def _length(maximum: int | None) -> dict[str, JsonValue]:
    return {"StringLengthValidator": {"minStringLength": 0, "maxStringLength": maximum}}


PASSWORD_RULES: dict[str, JsonValue] = {
    "PasswordValueValidator": {
        "requireAtLeastOneUpperCaseCharacter": 1,
        "requireAtLeastOneLowerCaseCharacter": 1,
        "requireAtLeastOneNumericCharacter": 1,
        "requireAtLeastOneNonAlphanumericCharacter": 0,
        "requireNewPassword": 0,
        "minLength": 10,
    }
}
USER_SETTINGS: dict[str, JsonValue] = {
    "PasswordTTL": None,
    "PasswordTTLWarning": None,
    "RequireUniqueEmail": False,
    "UsernamePattern": "^[^@]+$",
}

# (type / field, fieldType, fieldSettings, validatorConfiguration, defaultValue)
INSTALL_FIELDS: list[tuple[str, str, dict[str, JsonValue], dict[str, JsonValue], JsonValue]] = [
    ("folder/name", "ezstring", {}, _length(255), "Folder"),
    ("folder/short_name", "ezstring", {}, _length(100), None),
    ("folder/short_description", "ezrichtext", {"numRows": 5}, {}, None),
    ("folder/description", "ezrichtext", {"numRows": 20}, {}, None),
    ("article/title", "ezstring", {}, _length(255), "New article"),
    ("article/short_title", "ezstring", {}, _length(255), None),
    ("article/author", "ezauthor", {"defaultAuthor": 1}, {}, None),
    ("article/intro", "ezrichtext", {"numRows": 10}, {}, None),
    ("article/body", "ezrichtext", {"numRows": 20}, {}, None),
    ("article/enable_comments", "ezboolean", {}, {}, False),
    (
        "article/image",
        "ezobjectrelation",
        {"selectionMethod": 0, "selectionRoot": "", "selectionContentTypes": []},
        {},
        None,
    ),
    ("user_group/name", "ezstring", {}, _length(255), None),
    ("user_group/description", "ezstring", {}, _length(255), None),
    ("user/first_name", "ezstring", {}, _length(255), None),
    ("user/last_name", "ezstring", {}, _length(255), None),
    ("user/user_account", "ezuser", USER_SETTINGS, PASSWORD_RULES, None),
    ("user/signature", "eztext", {"textRows": 10}, {}, None),
    ("user/image", "ezimage", {}, {"FileSizeValidator": {"maxFileSize": 10}}, None),
    ("image/name", "ezstring", {}, _length(150), None),
    ("image/caption", "ezrichtext", {"numRows": 10}, {}, None),
    ("image/image", "ezimage", {}, {"FileSizeValidator": {"maxFileSize": 10}}, None),
    ("file/name", "ezstring", {}, {"StringLengthValidator": {"maxStringLength": None}}, "New file"),
    ("file/description", "ezrichtext", {"numRows": 10}, {}, None),
    ("file/file", "ezbinaryfile", {}, {"FileSizeValidator": {"maxFileSize": None}}, None),
]


@pytest.mark.parametrize(("field", "type_id", "settings", "validators", "default"), INSTALL_FIELDS)
def test_install_definition_normalizes(
    field: str,
    type_id: str,
    settings: dict[str, JsonValue],
    validators: dict[str, JsonValue],
    default: JsonValue,
) -> None:
    field_type = get_field_type(type_id)
    normalized_settings, normalized_validators = field_type.normalize_definition(settings, validators)
    assert set(normalized_settings) == set(field_type.default_settings())
    assert set(normalized_validators) == set(field_type.default_validators())
    value = field_type.from_wire(default)
    if not field_type.is_empty(value):
        assert field_type.validate(value, normalized_settings, normalized_validators) == []


def test_install_user_rules_are_read_as_flags() -> None:
    _, validators = get_field_type("ezuser").normalize_definition(USER_SETTINGS, PASSWORD_RULES)
    rules = validators["PasswordValueValidator"]
    assert isinstance(rules, dict)
    assert rules["requireAtLeastOneUpperCaseCharacter"] is True
    assert rules["requireAtLeastOneNonAlphanumericCharacter"] is False
    assert rules["minLength"] == 10


def test_install_author_default_is_current_user() -> None:
    settings, _ = get_field_type("ezauthor").normalize_definition({"defaultAuthor": 1}, None)
    assert settings == {"defaultAuthor": "DEFAULT_CURRENT_USER"}


def test_install_name_maximum_applies() -> None:
    string = get_field_type("ezstring")
    settings, validators = string.normalize_definition({}, _length(150))
    assert string.validate("x" * 151, settings, validators)[0].type == "StringLengthValidator"
    assert string.validate("x" * 150, settings, validators) == []
