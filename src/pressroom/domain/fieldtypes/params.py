"""Declarative schemas for field definition settings and validator configurations.

A field type declares ``settings_schema = {"textRows": integer(10, minimum=0)}`` and
``validators_schema = {"StringLengthValidator": {"maxStringLength": integer(None, minimum=0)}}``;
:func:`normalize_settings` / :func:`normalize_validators` merge the defaults into client input and
type-check every key. A ``None`` input value (or ``""``, for non-text keys) resets the key to its default.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.coerce import as_bool, as_dict, as_float, as_int, as_str
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.fieldtypes.pattern import check_pattern
from pressroom.domain.integers import parse_int

Coercer = Callable[[JsonValue, str], JsonValue]
"""Turns a non-null raw value into its normalized form; the second argument names it for errors."""


@dataclass(frozen=True, slots=True)
class Param:
    """One setting or validator parameter: how to read it and what it is when absent.

    ``blank_is_unset``: an empty string counts as absent (PHP data often has ``""`` for "not set").
    """

    coerce: Coercer
    default: JsonValue = None
    blank_is_unset: bool = True


def integer(default: int | None = None, *, minimum: int | None = None) -> Param:
    def coerce(raw: JsonValue, what: str) -> JsonValue:
        number = as_int(raw, what)
        if minimum is not None and number < minimum:
            raise InvalidArgument(f"{what} cannot be lower than {minimum}")
        return number

    return Param(coerce, default)


def number(default: float | None = None) -> Param:
    return Param(as_float, default)


def boolean(default: bool = False) -> Param:
    return Param(as_bool, default)


def text(default: str | None = "") -> Param:
    return Param(as_str, default, blank_is_unset=False)


def regex(default: str) -> Param:
    """A string that must compile as a regular expression of the bounded engine (see ``pattern``)."""

    def coerce(raw: JsonValue, what: str) -> JsonValue:
        return check_pattern(as_str(raw, what), what)

    return Param(coerce, default, blank_is_unset=False)


def enum(default: str, choices: Mapping[str, tuple[JsonValue, ...]]) -> Param:
    """A constant stored by its REST name; each name also accepts its core aliases (e.g. ``0``)."""
    lookup: dict[tuple[type, JsonValue], str] = {}
    for name, aliases in choices.items():
        for accepted in (name, *aliases):
            lookup[(type(accepted), accepted)] = name

    def coerce(raw: JsonValue, what: str) -> JsonValue:
        if isinstance(raw, int | str) and (type(raw), raw) in lookup:
            return lookup[(type(raw), raw)]
        number = parse_int(raw) if isinstance(raw, str) else None
        if number is not None and (int, number) in lookup:
            return lookup[(int, number)]
        raise InvalidArgument(f"{what} must be one of {', '.join(choices)}")

    return Param(coerce, default)


def string_list() -> Param:
    """A list of strings (a single string counts as a list of one); defaults to ``[]``."""

    def coerce(raw: JsonValue, what: str) -> JsonValue:
        items = raw if isinstance(raw, list) else [raw]
        return [as_str(item, what) for item in items]

    return Param(coerce, [])


def custom(coerce: Coercer, default: JsonValue) -> Param:
    return Param(coerce, default)


def _apply(
    schema: Mapping[str, Param], raw: JsonDict, label: Callable[[str], str], unknown: Callable[[str], str]
) -> JsonDict:
    for key in raw:
        if key not in schema:
            raise InvalidArgument(unknown(key))
    result: JsonDict = {}
    for key, param in schema.items():
        value = raw.get(key)
        unset = value is None or (value == "" and param.blank_is_unset)
        result[key] = copy.deepcopy(param.default) if unset else param.coerce(value, label(key))
    return result


def normalize_settings(schema: Mapping[str, Param], raw: Mapping[str, JsonValue] | None) -> JsonDict:
    """Merge defaults into ``raw`` fieldSettings; raises InvalidArgument naming a bad key."""
    given = {} if raw is None else as_dict(_plain(raw), "fieldSettings")
    return _apply(
        schema,
        given,
        lambda key: f"fieldSettings '{key}'",
        lambda key: f"Unknown fieldSettings key '{key}'",
    )


def normalize_validators(
    schema: Mapping[str, Mapping[str, Param]], raw: Mapping[str, JsonValue] | None
) -> JsonDict:
    """Merge defaults into ``raw`` validatorConfiguration; raises InvalidArgument naming a bad key."""
    given = {} if raw is None else as_dict(_plain(raw), "validatorConfiguration")
    for name in given:
        if name not in schema:
            raise InvalidArgument(f"Unknown validator '{name}'")
    result: JsonDict = {}
    for name, params in schema.items():
        config = given.get(name)
        section = {} if config is None else as_dict(config, f"validatorConfiguration '{name}'")
        result[name] = _apply(params, section, _ParamLabel(name), _UnknownParam(name))
    return result


def _plain(raw: object) -> JsonValue:
    """A Mapping as a dict; anything else unchanged, for :func:`as_dict` to judge (the REST layer may
    hand over a list or a scalar where a hash belongs)."""
    if isinstance(raw, Mapping):
        return dict(raw)
    return raw  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class _ParamLabel:
    validator: str

    def __call__(self, key: str) -> str:
        return f"validatorConfiguration '{self.validator}' parameter '{key}'"


@dataclass(frozen=True, slots=True)
class _UnknownParam:
    validator: str

    def __call__(self, key: str) -> str:
        return f"Unknown parameter '{key}' of validator '{self.validator}'"
