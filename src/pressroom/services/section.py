"""Sections: list, load, create, update, delete."""

from __future__ import annotations

from pressroom.domain.errors import BadRequest, Forbidden, NotFound, PreconditionFailed, found
from pressroom.domain.section import Section, SectionCreate, SectionUpdate
from pressroom.domain.tags import tag_matches, value_tag
from pressroom.domain.user import User
from pressroom.services.event_log import record
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, Tx


def _check_identifier(identifier: str) -> None:
    if not identifier.strip():
        raise BadRequest("The section identifier must not be empty")


class SectionService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    def list(self, user: User, identifier: str | None = None) -> list[Section]:
        """All sections the user may view; by identifier, the one section (401 without permission)."""
        if identifier is not None:
            self.permissions.require(user, "section", "view")
        elif not self.permissions.can(user, "section", "view"):
            return []
        with self.store.read(caller=user.request) as tx:
            if identifier is None:
                return tx.sections.list()
            section = tx.sections.by_identifier(identifier)
        if section is None:
            raise NotFound.of("Section", identifier)
        return [section]

    def load(self, user: User, section_id: int) -> Section:
        with self.store.read(
            caller=user.request
        ) as tx:  # one transaction, one statement: grants, caller and cache epoch
            self.permissions.require(user, "section", "view", tx=tx)
            return self._get(tx, section_id)

    def create(self, user: User, struct: SectionCreate) -> Section:
        self.permissions.require(user, "section", "edit")
        _check_identifier(struct.identifier)
        with self.store.write(caller=user.request) as tx:
            if tx.sections.by_identifier(struct.identifier) is not None:
                raise Forbidden(f"A section with identifier '{struct.identifier}' already exists")
            section = tx.sections.create(struct)
            record(tx, "section.created", user.id, f"section/{section.id}", _payload(section))
            return section

    def update(self, user: User, section_id: int, struct: SectionUpdate, if_match: str | None) -> Section:
        self.permissions.require(user, "section", "edit")
        if struct.identifier is not None:
            _check_identifier(struct.identifier)
        with self.store.write(caller=user.request) as tx:
            current = found(tx.sections.lock(section_id), "Section", section_id)
            if if_match is not None and not tag_matches(if_match, value_tag(current)):
                raise PreconditionFailed(
                    f"Section {section_id} has changed; its ETag is {value_tag(current)}"
                )
            new = struct.identifier
            if new is not None and new != current.identifier and tx.sections.by_identifier(new) is not None:
                raise Forbidden(f"A section with identifier '{struct.identifier}' already exists")
            section = tx.sections.update(section_id, struct)
            record(tx, "section.updated", user.id, f"section/{section_id}", _payload(section))
            return section

    def delete(self, user: User, section_id: int) -> None:
        self.permissions.require(user, "section", "edit")
        with self.store.write(caller=user.request) as tx:
            section = self._get(tx, section_id)
            if tx.sections.is_used(section_id):
                raise Forbidden(f"Section {section_id} is assigned to content and cannot be deleted")
            tx.sections.delete(section_id)
            record(tx, "section.deleted", user.id, f"section/{section_id}", _payload(section))

    @staticmethod
    def _get(tx: Tx, section_id: int) -> Section:
        section = tx.sections.get(section_id)
        if section is None:
            raise NotFound.of("Section", section_id)
        return section


def _payload(section: Section) -> dict[str, object]:
    return {"sectionId": section.id, "identifier": section.identifier, "name": section.name}
