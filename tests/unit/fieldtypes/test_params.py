"""Definition normalization: defaults merged, every key type-checked, errors naming the key."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.registry import get_field_type


def test_defaults_are_merged_into_partial_input() -> None:
    settings, validators = get_field_type("ezstring").normalize_definition(
        None, {"StringLengthValidator": {"maxStringLength": 100}}
    )
    assert settings == {}
    assert validators == {"StringLengthValidator": {"minStringLength": 0, "maxStringLength": 100}}


def test_defaults_are_fresh_copies() -> None:
    selection = get_field_type("ezselection")
    first = selection.default_settings()
    first["options"].append("mutated")  # type: ignore[union-attr]
    assert selection.default_settings()["options"] == []


def test_unknown_validator_is_named() -> None:
    with pytest.raises(InvalidArgument, match="Unknown validator 'FooValidator'"):
        get_field_type("ezstring").normalize_definition({}, {"FooValidator": {}})


def test_unknown_validator_parameter_is_named() -> None:
    with pytest.raises(InvalidArgument, match="'maxLength' of validator 'StringLengthValidator'"):
        get_field_type("ezstring").normalize_definition({}, {"StringLengthValidator": {"maxLength": 3}})


def test_unknown_setting_is_named() -> None:
    with pytest.raises(InvalidArgument, match="Unknown fieldSettings key 'rows'"):
        get_field_type("eztext").normalize_definition({"rows": 3}, None)


def test_wrong_setting_type_is_named() -> None:
    with pytest.raises(InvalidArgument, match="fieldSettings 'textRows' must be an integer"):
        get_field_type("eztext").normalize_definition({"textRows": "many"}, None)


def test_wrong_validator_parameter_type_is_named() -> None:
    with pytest.raises(
        InvalidArgument, match="'IntegerValueValidator' parameter 'minIntegerValue' must be an"
    ):
        get_field_type("ezinteger").normalize_definition(
            None, {"IntegerValueValidator": {"minIntegerValue": []}}
        )


def test_validator_configuration_must_be_a_hash() -> None:
    with pytest.raises(
        InvalidArgument, match="validatorConfiguration 'StringLengthValidator' must be a hash"
    ):
        get_field_type("ezstring").normalize_definition(None, {"StringLengthValidator": 5})


def test_settings_must_be_a_hash() -> None:
    with pytest.raises(InvalidArgument, match="fieldSettings must be a hash"):
        get_field_type("eztext").normalize_definition(["x"], None)  # type: ignore[arg-type]


def test_enum_accepts_rest_name_and_core_value_and_stores_the_name() -> None:
    date = get_field_type("ezdate")
    assert date.normalize_definition({"defaultType": 1}, None)[0] == {"defaultType": "DEFAULT_CURRENT_DATE"}
    assert date.normalize_definition({"defaultType": "DEFAULT_EMPTY"}, None)[0] == {
        "defaultType": "DEFAULT_EMPTY"
    }
    assert date.normalize_definition({"defaultType": "1"}, None)[0] == {"defaultType": "DEFAULT_CURRENT_DATE"}


def test_bad_enum_value_lists_the_choices() -> None:
    with pytest.raises(
        InvalidArgument, match="'defaultType' must be one of DEFAULT_EMPTY, DEFAULT_CURRENT_DATE"
    ):
        get_field_type("ezdate").normalize_definition({"defaultType": 7}, None)
    with pytest.raises(InvalidArgument, match="defaultType"):
        get_field_type("ezdate").normalize_definition({"defaultType": True}, None)


def test_null_and_blank_reset_to_default() -> None:
    settings, _ = get_field_type("eztext").normalize_definition({"textRows": None}, None)
    assert settings == {"textRows": 10}
    settings, _ = get_field_type("ezobjectrelation").normalize_definition({"selectionRoot": ""}, None)
    assert settings["selectionRoot"] is None


def test_negative_length_is_rejected() -> None:
    with pytest.raises(InvalidArgument, match="'maxStringLength' cannot be lower than 0"):
        get_field_type("ezstring").normalize_definition(
            None, {"StringLengthValidator": {"maxStringLength": -1}}
        )


@pytest.mark.parametrize(
    ("identifier", "validator", "low", "high"),
    [
        ("ezstring", "StringLengthValidator", "minStringLength", "maxStringLength"),
        ("ezinteger", "IntegerValueValidator", "minIntegerValue", "maxIntegerValue"),
        ("ezfloat", "FloatValueValidator", "minFloatValue", "maxFloatValue"),
    ],
)
def test_min_greater_than_max_is_rejected(identifier: str, validator: str, low: str, high: str) -> None:
    with pytest.raises(InvalidArgument, match=f"'{low}' cannot be greater than '{high}'"):
        get_field_type(identifier).normalize_definition(None, {validator: {low: 10, high: 5}})


def test_invalid_username_pattern_is_rejected() -> None:
    with pytest.raises(InvalidArgument, match="'UsernamePattern' is not a valid regular expression"):
        get_field_type("ezuser").normalize_definition({"UsernamePattern": "(["}, None)


def test_selection_options_as_hash_with_sequential_keys_become_a_list() -> None:
    settings, _ = get_field_type("ezselection").normalize_definition(
        {"options": {"0": "Red", "1": "Green"}, "multilingualOptions": {"eng-GB": ["Red"]}}, None
    )
    assert settings == {
        "isMultiple": False,
        "options": ["Red", "Green"],
        "multilingualOptions": {"eng-GB": ["Red"]},
    }


def test_selection_options_with_gaps_stay_a_hash() -> None:
    settings, _ = get_field_type("ezselection").normalize_definition(
        {"options": {"0": "Red", "5": "Blue"}}, None
    )
    assert settings["options"] == {"0": "Red", "5": "Blue"}
    with pytest.raises(InvalidArgument, match="fieldSettings 'options' index must be an integer"):
        get_field_type("ezselection").normalize_definition({"options": {"red": "Red"}}, None)


def test_relation_settings_to_wire_add_location_href() -> None:
    relation = get_field_type("ezobjectrelation")
    settings, _ = relation.normalize_definition({"selectionRoot": 2, "selectionMethod": 1}, None)
    wire = relation.settings_to_wire(
        settings, lambda location: f"/api/ibexa/v2/content/locations/1/{location}"
    )
    assert wire == {
        "selectionMethod": "SELECTION_DROPDOWN",
        "selectionRoot": 2,
        "selectionRootHref": "/api/ibexa/v2/content/locations/1/2",
        "selectionContentTypes": [],
    }
    relation_list = get_field_type("ezobjectrelationlist")
    settings, _ = relation_list.normalize_definition({"selectionDefaultLocation": None}, None)
    assert "selectionDefaultLocationHref" not in relation_list.settings_to_wire(settings, str)
