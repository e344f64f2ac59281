"""The hooks services and storage ask a field type (images, accounts, secrets, term aggregations): each
type answers for itself, every other type gives the neutral default."""

from __future__ import annotations

from pressroom.domain.fieldtypes.base import JsonDict, StoredImage, TermRule
from pressroom.domain.fieldtypes.registry import all_field_types, get_field_type
from pressroom.domain.passwords import verify_password

IMAGE: JsonDict = {
    "id": "a/b/photo.png",
    "fileName": "photo.png",
    "fileSize": 1234,
    "mimeType": "image/png",
    "width": 120,
    "height": 80,
    "alternativeText": "A kettle",
}
ACCOUNT: JsonDict = {"login": "ada", "email": "ada@example.com", "enabled": True, "maxLogin": 0}


def test_an_image_value_answers_its_stored_file_and_its_own_image_id() -> None:
    image = get_field_type("ezimage")
    assert image.image_file(IMAGE) == StoredImage("a/b/photo.png", 120, 80, 1234, "image/png", "A kettle")
    assert image.image_file({**IMAGE, "id": None}) is None  # no file stored
    assert image.image_file(None) is None
    assert image.shown_image_id(IMAGE, "1-2-3", {}) == "1-2-3"
    assert image.shown_image_id(None, "1-2-3", {}) is None
    assert image.image_sources(IMAGE) == []


def test_an_image_asset_shows_the_image_of_its_destination() -> None:
    asset = get_field_type("ibexa_image_asset")
    value: JsonDict = {"destinationContentId": 57, "alternativeText": "Cover"}
    assert asset.image_sources(value) == [57]
    assert asset.shown_image_id(value, "1-2-3", {57: "57-9-1"}) == "57-9-1"
    assert asset.shown_image_id(value, "1-2-3", {58: "58-9-1"}) is None  # the destination has no image
    assert asset.image_file(value) is None


def test_the_user_type_seals_the_password_and_carries_the_account() -> None:
    user = get_field_type("ezuser")
    sealed = user.seal({**ACCOUNT, "password": "Secret-123456"})
    assert isinstance(sealed, dict) and "password" not in sealed
    assert verify_password(str(sealed["passwordHash"]), "Secret-123456")
    assert isinstance(sealed["passwordUpdatedAt"], int)
    assert user.seal(ACCOUNT) == ACCOUNT
    assert user.carries_account
    account = user.account({**ACCOUNT, "passwordHash": "h"}, 42)
    assert account is not None and (account.content_id, account.login, account.password_hash) == (
        42,
        "ada",
        "h",
    )
    assert user.account({"login": ""}, 42) is None
    assert user.with_owner(ACCOUNT, 42) == {**ACCOUNT, "contentId": 42}
    assert user.with_owner(None, 42) is None


def test_term_keys_and_rules_are_the_types_own() -> None:
    settings: JsonDict = {"options": ["Crimson", "Emerald"], "isMultiple": False}
    assert get_field_type("ezboolean").term_key("1", {}) is True
    assert get_field_type("ezboolean").term_key("0.0", {}) is False
    assert get_field_type("ezselection").term_key("1.0", settings) == "Emerald"
    assert get_field_type("ezselection").term_key("7", settings) == 7  # an option since removed
    assert get_field_type("ezcountry").term_key("no", {}) == "NO"
    assert get_field_type("ezcountry").term_rule == TermRule(length=2)
    assert get_field_type("ezauthor").term_rule == TermRule(excludes="@")
    assert get_field_type("ezkeyword").whole_values


def test_every_other_type_gives_the_neutral_answers() -> None:
    special = {"ezimage", "ezimageasset", "ezuser", "ezboolean", "ezselection", "ezcountry", "ezauthor"}
    for field_type in all_field_types():
        if field_type.identifier in special:
            continue
        assert field_type.image_file(IMAGE) is None, field_type.identifier
        assert field_type.shown_image_id(IMAGE, "1-2-3", {57: "x"}) is None, field_type.identifier
        assert field_type.image_sources({"destinationContentId": 57}) == [], field_type.identifier
        assert not field_type.carries_account and field_type.account(ACCOUNT, 1) is None
        assert field_type.seal({"password": "x"}) == {"password": "x"}
        assert field_type.with_owner(ACCOUNT, 1) == ACCOUNT
        assert field_type.term_key("Text", {}) == "Text" and field_type.term_rule is None
