"""Object state groups, their states, and the state an item is in per group."""

from __future__ import annotations

from collections.abc import Sequence

from pressroom.domain.errors import BadRequest, Forbidden, NotFound, PreconditionFailed, found
from pressroom.domain.object_state import ObjectState, ObjectStateGroup, ObjectStateInput
from pressroom.domain.tags import tag_matches, value_tag
from pressroom.domain.user import User
from pressroom.services.content_access import check_readable
from pressroom.services.content_loading import get_content, installed_languages, lock_content
from pressroom.services.event_log import record, record_content
from pressroom.services.permissions import Permissions, content_target
from pressroom.storage.spi import Store, Tx


def _check_input(tx: Tx, struct: ObjectStateInput, *, create: bool) -> None:
    """Identifier, default language and names: present on create, valid whenever given."""
    if create and (struct.identifier is None or struct.default_language_code is None or not struct.names):
        raise BadRequest("'identifier', 'defaultLanguageCode' and 'names' are required")
    if struct.identifier is not None and not struct.identifier.strip():
        raise BadRequest("'identifier' must not be empty")
    languages = installed_languages(tx)
    for code in [struct.default_language_code, *(struct.names or {}), *(struct.descriptions or {})]:
        if code is not None and code not in languages:
            raise BadRequest(f"Language '{code}' is not installed")
    default = struct.default_language_code
    if struct.names is not None and default is not None and default not in struct.names:
        raise BadRequest(f"'names' has no value in the default language '{default}'")


def _check_tag(value: object, if_match: str | None, what: str) -> None:
    if if_match is not None and not tag_matches(if_match, value_tag(value)):
        raise PreconditionFailed(f"{what} has changed; its ETag is {value_tag(value)}")


class ObjectStateService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    # -- groups (readable by anyone, as in the reference; changes need state/administrate) -------------
    def list_groups(self, viewer: User) -> list[ObjectStateGroup]:
        with self.store.read(caller=viewer.request) as tx:
            return tx.object_states.list_groups()

    def load_group(self, viewer: User, group_id: int) -> ObjectStateGroup:
        with self.store.read(caller=viewer.request) as tx:
            return self._group(tx, group_id)

    def create_group(self, user: User, struct: ObjectStateInput) -> ObjectStateGroup:
        self.permissions.require(user, "state", "administrate")
        with self.store.write(caller=user.request) as tx:
            _check_input(tx, struct, create=True)
            assert struct.identifier is not None
            if tx.object_states.group_identifier_taken(struct.identifier):
                raise _group_exists(struct.identifier)
            group = self._group(tx, tx.object_states.create_group(struct))
            record(
                tx, "object_state.created", user.id, f"object_state_group/{group.id}", _group_payload(group)
            )
            return group

    def update_group(
        self, user: User, group_id: int, struct: ObjectStateInput, if_match: str | None
    ) -> ObjectStateGroup:
        self.permissions.require(user, "state", "administrate")
        with self.store.write(caller=user.request) as tx:
            group = self._group(tx, group_id)
            _check_tag(group, if_match, f"Object state group {group_id}")
            _check_input(tx, _merged(group, struct), create=False)
            if struct.identifier not in (None, group.identifier):
                assert struct.identifier is not None
                if tx.object_states.group_identifier_taken(struct.identifier):
                    raise _group_exists(struct.identifier)
            tx.object_states.update_group(group_id, struct)
            group = self._group(tx, group_id)
            record(
                tx, "object_state.updated", user.id, f"object_state_group/{group_id}", _group_payload(group)
            )
            return group

    def delete_group(self, user: User, group_id: int) -> None:
        self.permissions.require(user, "state", "administrate")
        with self.store.write(caller=user.request) as tx:
            group = self._group(tx, group_id)
            tx.object_states.delete_group(group_id)
            record(
                tx, "object_state.deleted", user.id, f"object_state_group/{group_id}", _group_payload(group)
            )

    # -- states ----------------------------------------------------------------------------------------
    def list_states(self, viewer: User, group_id: int) -> list[ObjectState]:
        with self.store.read(caller=viewer.request) as tx:
            self._group(tx, group_id)
            return tx.object_states.list_states(group_id)

    def load_state(self, viewer: User, group_id: int, state_id: int) -> ObjectState:
        with self.store.read(caller=viewer.request) as tx:
            return self._state(tx, group_id, state_id)

    def create_state(self, user: User, group_id: int, struct: ObjectStateInput) -> ObjectState:
        self.permissions.require(user, "state", "administrate")
        with self.store.write(caller=user.request) as tx:
            self._group(tx, group_id)
            _check_input(tx, struct, create=True)
            assert struct.identifier is not None
            if tx.object_states.state_identifier_taken(group_id, struct.identifier):
                raise _state_exists(group_id, struct.identifier)
            if struct.priority is None:
                struct = _with_priority(struct, tx.object_states.next_priority(group_id))
            self._keep_defaults(tx, group_id)
            state = self._state(tx, group_id, tx.object_states.create_state(group_id, struct))
            record(tx, "object_state.created", user.id, f"object_state/{state.id}", _state_payload(state))
            return state

    def update_state(
        self, user: User, group_id: int, state_id: int, struct: ObjectStateInput, if_match: str | None
    ) -> ObjectState:
        self.permissions.require(user, "state", "administrate")
        with self.store.write(caller=user.request) as tx:
            state = self._state(tx, group_id, state_id)
            _check_tag(state, if_match, f"Object state {state_id}")
            _check_input(tx, _merged(state, struct), create=False)
            if struct.identifier not in (None, state.identifier):
                assert struct.identifier is not None
                if tx.object_states.state_identifier_taken(group_id, struct.identifier):
                    raise _state_exists(group_id, struct.identifier)
            if struct.priority is not None and struct.priority != state.priority:
                self._keep_defaults(tx, group_id)
            tx.object_states.update_state(state_id, struct)
            state = self._state(tx, group_id, state_id)
            record(tx, "object_state.updated", user.id, f"object_state/{state_id}", _state_payload(state))
            return state

    def delete_state(self, user: User, group_id: int, state_id: int) -> None:
        """Items in the deleted state go to the group's default state."""
        self.permissions.require(user, "state", "administrate")
        with self.store.write(caller=user.request) as tx:
            state = self._state(tx, group_id, state_id)
            tx.object_states.delete_state(state_id)
            record(tx, "object_state.deleted", user.id, f"object_state/{state_id}", _state_payload(state))

    # -- the states of an item -------------------------------------------------------------------------
    def states_of(self, user: User, content_id: int) -> list[ObjectState]:
        with self.store.read(caller=user.request) as tx:
            check_readable(self.permissions, user, tx, get_content(tx, content_id))
            return tx.object_states.states_of(content_id)

    def assign(self, user: User, content_id: int, refs: Sequence[tuple[int, int]]) -> list[ObjectState]:
        """Put the item in the states given as (group id, state id); answers those states.

        Forbidden for two states of one group; BadRequest for a state not in the group its href names.
        """
        groups = [group_id for group_id, _ in refs]
        duplicate = next((g for g in groups if groups.count(g) > 1), None)
        if duplicate is not None:
            raise Forbidden(f"Only one state of object state group {duplicate} can be assigned")
        with self.store.write(caller=user.request) as tx:
            info = lock_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            states = tx.object_states.get_states([state_id for _, state_id in refs])
            chosen: list[ObjectState] = []
            for group_id, state_id in refs:
                state = found(states.get(state_id), "ObjectState", state_id)
                if state.group_id != group_id:
                    raise BadRequest(f"Object state {state_id} is not in object state group {group_id}")
                target = content_target(info, new_state_id=state.id)
                self.permissions.require(user, "state", "assign", target=target, tx=tx)
                chosen.append(state)
            tx.object_states.assign(content_id, chosen)
            record_content(
                tx, "object_state.assigned", user.id, info, states=[_state_payload(s) for s in chosen]
            )
            return chosen

    # -- helpers ---------------------------------------------------------------------------------------
    @staticmethod
    def _keep_defaults(tx: Tx, group_id: int) -> None:
        """Before the group's default may change (a state added, a priority changed), pin every item
        that is in the default state implicitly, so no item changes state behind its back."""
        states = tx.object_states.list_states(group_id)
        if states:
            tx.object_states.pin_default(group_id, states[0].id)

    @staticmethod
    def _group(tx: Tx, group_id: int) -> ObjectStateGroup:
        return found(tx.object_states.get_group(group_id), "ObjectStateGroup", group_id)

    @staticmethod
    def _state(tx: Tx, group_id: int, state_id: int) -> ObjectState:
        state = tx.object_states.get_state(state_id)
        if state is None or state.group_id != group_id:
            raise NotFound.of("ObjectState", state_id)
        return state


def _group_exists(identifier: str) -> Forbidden:
    return Forbidden(f"An object state group with identifier '{identifier}' already exists")


def _state_exists(group_id: int, identifier: str) -> Forbidden:
    return Forbidden(f"An object state with identifier '{identifier}' already exists in group {group_id}")


def _merged(current: ObjectStateGroup | ObjectState, struct: ObjectStateInput) -> ObjectStateInput:
    """The values an update leaves in place, for validating them together."""
    return ObjectStateInput(
        identifier=struct.identifier,
        default_language_code=struct.default_language_code or current.default_language_code,
        names=current.names if struct.names is None else struct.names,
        descriptions=struct.descriptions,
    )


def _with_priority(struct: ObjectStateInput, priority: int) -> ObjectStateInput:
    return ObjectStateInput(
        struct.identifier, struct.default_language_code, struct.names, struct.descriptions, priority
    )


def _group_payload(group: ObjectStateGroup) -> dict[str, object]:
    return {"groupId": group.id, "identifier": group.identifier}


def _state_payload(state: ObjectState) -> dict[str, object]:
    return {"groupId": state.group_id, "stateId": state.id, "identifier": state.identifier}
