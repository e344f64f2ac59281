"""Field values of a version: parse the client's input, fill in the rest, validate, name the version.

Every check runs before anything is written: unknown field identifiers, languages that are not
installed, values the field type cannot read, non-translatable fields sent in another language than
the main one, required fields left empty and validator failures all come back together in one
:class:`ContentValidationError`. Only then are uploads written to the file store.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from pressroom.domain.content import ASSET, ATTRIBUTE, Field, FieldInput
from pressroom.domain.content_type import ContentType, FieldDefinition
from pressroom.domain.errors import ContentValidationError, FieldError, FieldErrors, InvalidArgument
from pressroom.domain.fieldtypes.base import FileStore, JsonValue, RelationTarget
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.image_variation import image_id
from pressroom.domain.name_schema import resolve_name_schema

Key = tuple[int, str]  # (field definition id, language code)
FIELD_RELATIONS = ATTRIBUTE | ASSET


@dataclass(frozen=True, slots=True)
class FieldPlan:
    """What an edit asks for: the version's languages and the value of every (definition, language)."""

    languages: tuple[str, ...]
    values: dict[Key, JsonValue]
    given: frozenset[Key] = frozenset()  # the values the client sent


def _error(
    definition: FieldDefinition | None, identifier: str, language: str, kind: str, text: str
) -> FieldErrors:
    return FieldErrors(definition.id if definition else 0, identifier, language, (FieldError(kind, text),))


def _default(definition: FieldDefinition) -> JsonValue:
    value: JsonValue = definition.default_value
    if value is not None:
        return value
    return get_field_type(definition.field_type).empty_value()


def plan_fields(
    content_type: ContentType,
    main_language: str,
    default_language: str,
    inputs: Sequence[FieldInput],
    existing: Sequence[Field],
    installed: Collection[str],
) -> FieldPlan:
    """Merge ``inputs`` over ``existing`` fields; raises ContentValidationError listing every failure.

    Inputs without a language are in ``default_language``. A language new to the version gets the
    definitions' default values where the input gives none; non-translatable fields take the value of
    the main language in every language.
    """
    errors: list[FieldErrors] = []
    given: dict[Key, JsonValue] = {}
    new_languages: list[str] = []
    for item in inputs:
        language = item.language_code or default_language
        definition = content_type.field_definition(item.identifier)
        if definition is None:
            text = (
                f"Field definition '{item.identifier}' does not exist in content type "
                f"'{content_type.identifier}'"
            )
            errors.append(_error(None, item.identifier, language, "UnknownField", text))
            continue
        if language not in installed:
            text = f"Language '{language}' is not installed"
            errors.append(_error(definition, item.identifier, language, "LanguageNotInstalled", text))
            continue
        if not definition.is_translatable and language != main_language:
            text = (
                f"A value is set for non translatable field definition '{item.identifier}' "
                f"with language '{language}'"
            )
            errors.append(_error(definition, item.identifier, language, "NotTranslatable", text))
            continue
        try:
            given[(definition.id, language)] = get_field_type(definition.field_type).from_wire(item.value)
        except InvalidArgument as error:
            errors.append(_error(definition, item.identifier, language, "InvalidValue", error.message))
            continue
        if language not in new_languages:
            new_languages.append(language)
    languages = list(dict.fromkeys(f.language_code for f in existing))
    if not languages:
        languages.append(main_language)
    added = [code for code in new_languages if code not in languages]
    languages.extend(added)
    values = _assemble(content_type, main_language, languages, given, existing)
    checked = set(given) | {(d.id, code) for d in content_type.field_definitions for code in added}
    if not existing:
        checked |= {(d.id, code) for d in content_type.field_definitions for code in languages}
    errors.extend(_validate(content_type, main_language, values, checked))
    if errors:
        raise ContentValidationError("Content fields did not validate", errors)
    return FieldPlan(tuple(languages), values, frozenset(given))


def _assemble(
    content_type: ContentType,
    main_language: str,
    languages: Sequence[str],
    given: Mapping[Key, JsonValue],
    existing: Sequence[Field],
) -> dict[Key, JsonValue]:
    current = {(f.field_definition_id, f.language_code): f.value for f in existing}
    values: dict[Key, JsonValue] = {}
    ordered = [main_language, *(code for code in languages if code != main_language)]
    for definition in content_type.field_definitions:
        for code in ordered:
            key = (definition.id, code)
            main_key = (definition.id, main_language)
            if key in given:
                field_type = get_field_type(definition.field_type)
                values[key] = (
                    field_type.carry_over(given[key], current[key]) if key in current else given[key]
                )
            elif not definition.is_translatable and code != main_language and main_key in values:
                values[key] = values[main_key]
            elif key in current:
                values[key] = current[key]
            else:
                values[key] = _default(definition)
    return {
        key: values[key] for d in content_type.field_definitions for key in ((d.id, c) for c in languages)
    }


def _validate(
    content_type: ContentType, main_language: str, values: Mapping[Key, JsonValue], checked: Iterable[Key]
) -> list[FieldErrors]:
    errors: list[FieldErrors] = []
    by_id = {d.id: d for d in content_type.field_definitions}
    for key in sorted(checked, key=lambda k: (by_id[k[0]].position, k[0], k[1])):
        definition = by_id[key[0]]
        if not definition.is_translatable and key[1] != main_language:
            continue  # a copy of the main language's value, checked there
        field_type = get_field_type(definition.field_type)
        value = values[key]
        if field_type.is_empty(value):
            found = []
            if definition.is_required:
                text = (
                    f"Value for required field definition '{definition.identifier}' "
                    f"with language '{key[1]}' is empty"
                )
                found = [FieldError("empty", text)]
        else:
            found = field_type.validate(value, definition.field_settings, definition.validator_configuration)
        if found:
            errors.append(FieldErrors(definition.id, definition.identifier, key[1], tuple(found)))
    return errors


def check_required(content_type: ContentType, main_language: str, fields: Sequence[Field]) -> None:
    """Before publishing: every required field must have a value in every language of the version."""
    values = {(f.field_definition_id, f.language_code): f.value for f in fields}
    languages = list(dict.fromkeys(f.language_code for f in fields)) or [main_language]
    keys = [(d.id, code) for d in content_type.field_definitions if d.is_required for code in languages]
    missing = {key: values.get(key, _default_of(content_type, key[0])) for key in keys}
    errors = [e for e in _validate(content_type, main_language, missing, missing) if _is_required_error(e)]
    if errors:
        raise ContentValidationError("Content fields did not validate", errors)


def _default_of(content_type: ContentType, definition_id: int) -> JsonValue:
    return next(_default(d) for d in content_type.field_definitions if d.id == definition_id)


def _is_required_error(errors: FieldErrors) -> bool:
    return any(e.type == "empty" for e in errors.errors)


def store_uploads(
    content_type: ContentType, plan: FieldPlan, files: FileStore, uploaded: set[str]
) -> FieldPlan:
    """Write pending uploads of the values the client sent (adding their file ids to ``uploaded``, for
    the caller to delete should its write fail) and hash plain passwords. Raises ContentValidationError
    naming the field for a reference to a file that is not stored, or of another size than given."""
    by_id = {d.id: d for d in content_type.field_definitions}
    values = dict(plan.values)
    stored: dict[int, JsonValue] = {}
    for key in sorted(plan.given):
        definition = by_id[key[0]]
        field_type = get_field_type(definition.field_type)
        try:
            value = field_type.seal(field_type.store_files(values[key], files))
        except InvalidArgument as error:
            failed = _error(definition, definition.identifier, key[1], "InvalidValue", error.message)
            raise ContentValidationError("Content fields did not validate", [failed]) from None
        if field_type.has_upload(values[key]) and (file_id := field_type.stored_file_id(value)):
            uploaded.add(file_id)
        values[key] = value
        if not definition.is_translatable:
            stored[definition.id] = value
    for key in values:  # non-translatable values are shared by every language
        if key[0] in stored:
            values[key] = stored[key[0]]
    return FieldPlan(plan.languages, values, plan.given)


def version_names(
    content_type: ContentType, languages: Sequence[str], values: Mapping[Key, JsonValue]
) -> dict[str, str]:
    """The name of the version in each language, from the type's name schema."""
    return schema_names(content_type, content_type.name_schema, languages, values)


def schema_names(
    content_type: ContentType, schema: str, languages: Sequence[str], values: Mapping[Key, JsonValue]
) -> dict[str, str]:
    """``schema`` (a name or URL alias schema) resolved in each language from the field values."""
    return {code: resolve_name_schema(schema, _NameTexts(content_type, code, values)) for code in languages}


class _NameTexts(Mapping[str, str]):
    """The name text of each field in one language (by field identifier), worked out only for the fields
    the schema names: a rich text field's text costs a parse of its document."""

    def __init__(self, content_type: ContentType, code: str, values: Mapping[Key, JsonValue]) -> None:
        self.definitions = {d.identifier: d for d in content_type.field_definitions}
        self.code = code
        self.field_values = values

    def __getitem__(self, identifier: str) -> str:
        definition = self.definitions[identifier]
        value = self.field_values.get((definition.id, self.code))
        field_type = get_field_type(definition.field_type)
        return "" if field_type.is_empty(value) else field_type.name(value, definition.field_settings)

    def __iter__(self) -> Iterator[str]:
        return iter(self.definitions)

    def __len__(self) -> int:
        return len(self.definitions)


def make_fields(content_type: ContentType, plan: FieldPlan, field_ids: Mapping[Key, int]) -> list[Field]:
    by_id = {d.id: d for d in content_type.field_definitions}
    return [
        Field(
            id=field_ids[key],
            field_definition_id=key[0],
            identifier=by_id[key[0]].identifier,
            language_code=key[1],
            field_type=by_id[key[0]].field_type,
            value=value,
        )
        for key, value in plan.values.items()
    ]


def relation_targets(fields: Sequence[Field]) -> list[tuple[RelationTarget, int | None]]:
    """Every relation in the field values, each once, with the field definition it belongs to: field
    relations (ATTRIBUTE, ASSET) keep it, LINK and EMBED relations from rich text belong to the
    version only (``None``), as in the reference."""
    found: list[tuple[RelationTarget, int | None]] = []
    for field in fields:
        for target in get_field_type(field.field_type).relations(field.value):
            found.append((target, field.field_definition_id if target.type & FIELD_RELATIONS else None))
    return list(dict.fromkeys(found))


def for_output(
    fields: Sequence[Field], content_id: int, version_no: int, asset_images: Mapping[int, str] | None = None
) -> tuple[Field, ...]:
    """Fields as clients see them: image values learn their REST image id, and image asset values the
    image id of their destination's image (``asset_images``: destination content id -> image id)."""
    images = asset_images or {}
    result = []
    for f in fields:
        own = image_id(content_id, f.id, version_no)
        rest_id = get_field_type(f.field_type).shown_image_id(f.value, own, images)
        if rest_id is not None and isinstance(f.value, dict):
            result.append(replace(f, value={**f.value, "imageId": rest_id}))
        else:
            result.append(f)
    return tuple(result)


def asset_destinations(fields: Sequence[Field]) -> list[int]:
    """The content ids whose images the fields show (image asset destinations)."""
    return [source for f in fields for source in get_field_type(f.field_type).image_sources(f.value)]
