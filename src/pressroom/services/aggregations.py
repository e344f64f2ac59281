"""Aggregation results as a search returns them: the storage counts keys by id or stored value; here the
keys become what a client is shown, loaded in batch, one statement per aggregation at most.

Keys: content types, content type groups, sections, languages, object states, locations (subtree and
location children), users (owner, modifier) and user groups (group), field values as the field type
shows them (a selection's option text, a checkbox as a boolean, a country's alpha-2 code). A key the
caller may not read (a location or a user outside their read permissions) or that is gone is left out:
its count still covers the hits the caller may read, it is just not named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from pressroom.domain import search as s
from pressroom.domain.content import Version
from pressroom.domain.content_type import FieldDefinition
from pressroom.domain.errors import BadRequest
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.user import User, UserContent, UserGroup
from pressroom.services.permissions import Permissions
from pressroom.services.version_assembly import load_current_versions
from pressroom.storage.spi import Tx

KeyLoader = Callable[[Sequence[object]], dict[object, object]]


class AggregationKeys:
    """Turns the keys of term aggregation results into objects for ``user``, within ``tx``."""

    def __init__(self, tx: Tx, permissions: Permissions, user: User) -> None:
        self.tx = tx
        self.permissions = permissions
        self.user = user

    def resolve(
        self, aggregations: Sequence[s.Aggregation], results: Sequence[s.AggregationResult]
    ) -> tuple[s.AggregationResult, ...]:
        return tuple(self._resolved(a, result) for a, result in zip(aggregations, results, strict=True))

    def _resolved(self, aggregation: s.Aggregation, result: s.AggregationResult) -> s.AggregationResult:
        if not isinstance(aggregation, s.TermAggregation) or not isinstance(result, s.TermAggregationResult):
            return result
        loader = self._loader(aggregation)
        if loader is None:
            return result
        found = loader([entry.key for entry in result.entries])
        entries = tuple(
            replace(entry, key=found[entry.key]) for entry in result.entries if entry.key in found
        )
        return replace(result, entries=entries)

    def _loader(self, aggregation: s.TermAggregation) -> KeyLoader | None:
        """How to load the keys of ``aggregation``; None when its keys are shown as they are."""
        tx = self.tx
        kind = aggregation.kind
        if kind == "content_type":
            return _each(lambda key: tx.content_types.get(_int(key)))
        if kind == "content_type_group":
            return _each(lambda key: tx.content_types.get_group(_int(key)))
        if kind == "section":
            return _each(lambda key: tx.sections.get(_int(key)))
        if kind == "language":
            return _each(lambda key: tx.languages.by_code(str(key)))
        if kind == "object_state":
            return lambda keys: dict(tx.object_states.get_states([_int(key) for key in keys]).items())
        if kind in ("subtree", "location_children"):
            return self._locations
        if kind == "user_metadata":
            return self._groups if aggregation.target == "group" else self._users
        if kind == "field":
            return self._field_values(aggregation)
        return None

    def _locations(self, keys: Sequence[object]) -> dict[object, object]:
        readable = self.permissions.read_criterion(self.user, self.tx)
        return dict(self.tx.locations.get_many([_int(key) for key in keys], readable).items())

    def _readable_versions(self, keys: Sequence[object]) -> dict[int, Version]:
        readable = self.permissions.read_criterion(self.user, self.tx)
        ids = self.tx.content.existing_ids([_int(key) for key in keys], readable)
        infos = self.tx.content.get_many(ids)
        return load_current_versions(self.tx, list(infos.values()), readable)

    def _users(self, keys: Sequence[object]) -> dict[object, object]:
        versions = self._readable_versions(keys)
        users: dict[object, object] = {}
        for key in keys:
            account = self.tx.users.get(_int(key)) if _int(key) in versions else None
            if account is not None:
                users[key] = UserContent(account, versions[account.id])
        return users

    def _groups(self, keys: Sequence[object]) -> dict[object, object]:
        versions = self._readable_versions(keys)
        mains = {
            key: version.content.main_location_id
            for key, version in ((key, versions.get(_int(key))) for key in keys)
            if version is not None and version.content.main_location_id is not None
        }
        readable = self.permissions.read_criterion(self.user, self.tx)
        locations = self.tx.locations.get_many(list(mains.values()), readable)
        return {
            key: UserGroup(versions[_int(key)], locations[location_id])
            for key, location_id in mains.items()
            if location_id in locations
        }

    def _field_values(self, aggregation: s.TermAggregation) -> KeyLoader:
        definition = self._definition(aggregation)

        def show(keys: Sequence[object]) -> dict[object, object]:
            return {key: _field_key(definition, str(key)) for key in keys}

        return show

    def _definition(self, aggregation: s.TermAggregation) -> FieldDefinition:
        content_type = self.tx.content_types.by_identifier(aggregation.type_identifier or "")
        definition = (
            None
            if content_type is None
            else content_type.field_definition(aggregation.field_identifier or "")
        )
        if definition is None:
            raise BadRequest(
                f"Aggregation '{aggregation.name}': no field '{aggregation.field_identifier}' in a content "
                f"type '{aggregation.type_identifier}'"
            )
        return definition


def _each(load: Callable[[object], object | None]) -> KeyLoader:
    """A loader of one key at a time (content types, sections and languages come from per-process caches)."""

    def loader(keys: Sequence[object]) -> dict[object, object]:
        found = {key: load(key) for key in keys}
        return {key: value for key, value in found.items() if value is not None}

    return loader


def _int(key: object) -> int:
    """An id key (ids come back as int from both databases; this narrows the type)."""
    assert isinstance(key, int), key
    return key


def _field_key(definition: FieldDefinition, stored: str) -> object:
    """A field value as the index stores it (text, or a number as text) as the field type shows it."""
    return get_field_type(definition.field_type).term_key(stored, definition.field_settings)
