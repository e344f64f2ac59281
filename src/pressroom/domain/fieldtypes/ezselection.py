"""ezselection: indexes of options chosen from the field definition's option list."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.errors import FieldError, InvalidArgument
from pressroom.domain.fieldtypes.base import IndexScalar, ListFieldType, WireContext
from pressroom.domain.fieldtypes.coerce import as_dict, as_int, as_str, dict_or_none
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.params import boolean, custom

ERROR_TYPE = "SelectionValidator"


def normalize_options(raw: JsonValue, what: str) -> JsonValue:
    """Options as a list when their indexes are 0..n-1 (as PHP would encode them), else as a hash
    keyed by the index as a string."""
    if isinstance(raw, list):
        return [as_str(item, what) for item in raw]
    options = {
        str(as_int(key, f"{what} index")): as_str(text, what) for key, text in as_dict(raw, what).items()
    }
    if list(options) == [str(index) for index in range(len(options))]:
        return list(options.values())
    return dict(options)


def _normalize_multilingual(raw: JsonValue, what: str) -> JsonValue:
    return {
        language: normalize_options(options, f"{what} '{language}'")
        for language, options in as_dict(raw, what).items()
    }


def option_texts(options: JsonValue) -> dict[int, str]:
    """Index -> text of a normalized option list or hash."""
    if isinstance(options, list):
        return {index: str(text) for index, text in enumerate(options)}
    if isinstance(options, dict):
        return {int(key): str(text) for key, text in options.items()}
    return {}


class SelectionType(ListFieldType):
    identifier = "ezselection"
    aliases = ("ibexa_selection",)
    settings_schema = {
        "isMultiple": boolean(False),
        "options": custom(normalize_options, []),
        "multilingualOptions": custom(_normalize_multilingual, {}),
    }

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """A list of option indexes (a single index is accepted too); repeats are dropped."""
        if raw is None or raw == "":
            return []
        items = raw if isinstance(raw, list) else [raw]
        selected: list[JsonValue] = []
        for item in items:
            index = as_int(item, "fieldValue item")
            if index < 0:
                raise InvalidArgument("fieldValue item must be an option index (0 or more)")
            if index not in selected:
                selected.append(index)
        return selected

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        selected = value if isinstance(value, list) else []
        errors = []
        if len(selected) > 1 and settings.get("isMultiple") is not True:
            errors.append(
                FieldError(ERROR_TYPE, "Field definition does not allow multiple options to be selected.")
            )
        known = set(all_options(settings))
        errors.extend(
            FieldError(ERROR_TYPE, f"Option with index {index} does not exist in the field definition.")
            for index in selected
            if index not in known
        )
        return errors

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        return list(value) if isinstance(value, list) else []

    def term_key(self, stored: str, settings: Mapping[str, JsonValue]) -> object:
        """The option text of an indexed option index (the index itself for an option gone)."""
        index = int(float(stored))
        return all_options(settings).get(index, index)

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        """The selected option texts joined by a space; without ``settings``, the indexes."""
        selected = value if isinstance(value, list) else []
        if settings is None:
            return " ".join(str(index) for index in selected)
        texts = all_options(settings)
        return " ".join(texts[index] for index in selected if isinstance(index, int) and index in texts)

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return ",".join(str(index) for index in value) if isinstance(value, list) else None

    def match_values(self, value: JsonValue) -> list[IndexScalar]:
        """The indexes of the selected options."""
        return [index for index in value if isinstance(index, int)] if isinstance(value, list) else []


def all_options(settings: Mapping[str, JsonValue]) -> dict[int, str]:
    """The options of the definition, falling back to the multilingual ones for missing indexes."""
    texts: dict[int, str] = {}
    for options in (dict_or_none(settings.get("multilingualOptions")) or {}).values():
        texts.update(option_texts(options))
    texts.update(option_texts(settings.get("options")))
    return texts
