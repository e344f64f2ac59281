"""Object state groups, their states, and the states content items are in, in SQL."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from sqlalchemy import Connection, and_, bindparam, delete, exists, func, insert, literal, select, update

from pressroom.domain.object_state import ObjectState, ObjectStateGroup, ObjectStateInput
from pressroom.storage.sql.content_type import dumps
from pressroom.storage.sql.schema import content, content_object_states, object_state_groups, object_states

_GROUP_BY_ID = select(object_state_groups).where(object_state_groups.c.id == bindparam("id"))
_STATE_BY_ID = select(object_states).where(object_states.c.id == bindparam("id"))
_STATE_ORDER = (object_states.c.priority, object_states.c.id)


def _group(row: Any) -> ObjectStateGroup:
    return ObjectStateGroup(
        id=row.id,
        identifier=row.identifier,
        default_language_code=row.default_language_code,
        names=orjson.loads(row.names),
        descriptions=orjson.loads(row.descriptions),
    )


def _state(row: Any) -> ObjectState:
    return ObjectState(
        id=row.id,
        group_id=row.group_id,
        identifier=row.identifier,
        priority=row.priority,
        default_language_code=row.default_language_code,
        names=orjson.loads(row.names),
        descriptions=orjson.loads(row.descriptions),
    )


def _values(struct: ObjectStateInput) -> dict[str, Any]:
    """The columns an input sets (None fields are left as they are)."""
    values: dict[str, Any] = {
        "identifier": struct.identifier,
        "default_language_code": struct.default_language_code,
        "priority": struct.priority,
        "names": None if struct.names is None else dumps(struct.names),
        "descriptions": None if struct.descriptions is None else dumps(struct.descriptions),
    }
    return {key: value for key, value in values.items() if value is not None}


class SqlObjectStateGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    # -- groups ----------------------------------------------------------------------------------------
    def list_groups(self) -> list[ObjectStateGroup]:
        query = select(object_state_groups).order_by(object_state_groups.c.id)
        return [_group(row) for row in self.c.execute(query)]

    def get_group(self, group_id: int) -> ObjectStateGroup | None:
        row = self.c.execute(_GROUP_BY_ID, {"id": group_id}).first()
        return _group(row) if row else None

    def group_identifier_taken(self, identifier: str) -> bool:
        query = select(object_state_groups.c.id).where(object_state_groups.c.identifier == identifier)
        return self.c.execute(query).first() is not None

    def create_group(self, struct: ObjectStateInput) -> int:
        values = {"descriptions": "{}", **_values(struct)}
        return int(
            self.c.execute(
                insert(object_state_groups).values(**values).returning(object_state_groups.c.id)
            ).scalar_one()
        )

    def update_group(self, group_id: int, struct: ObjectStateInput) -> None:
        values = _values(struct)
        values.pop("priority", None)
        if values:
            self.c.execute(
                update(object_state_groups).where(object_state_groups.c.id == group_id).values(**values)
            )

    def delete_group(self, group_id: int) -> None:
        # Children first: SQLite only cascades when foreign keys are on, and explicit is clearer.
        self.c.execute(delete(content_object_states).where(content_object_states.c.group_id == group_id))
        self.c.execute(delete(object_states).where(object_states.c.group_id == group_id))
        self.c.execute(delete(object_state_groups).where(object_state_groups.c.id == group_id))

    # -- states ----------------------------------------------------------------------------------------
    def list_states(self, group_id: int) -> list[ObjectState]:
        query = select(object_states).where(object_states.c.group_id == group_id).order_by(*_STATE_ORDER)
        return [_state(row) for row in self.c.execute(query)]

    def get_state(self, state_id: int) -> ObjectState | None:
        row = self.c.execute(_STATE_BY_ID, {"id": state_id}).first()
        return _state(row) if row else None

    def get_states(self, state_ids: Sequence[int]) -> dict[int, ObjectState]:
        if not state_ids:
            return {}
        query = select(object_states).where(object_states.c.id.in_(sorted(set(state_ids))))
        return {row.id: _state(row) for row in self.c.execute(query)}

    def state_identifier_taken(self, group_id: int, identifier: str) -> bool:
        query = select(object_states.c.id).where(
            object_states.c.group_id == group_id, object_states.c.identifier == identifier
        )
        return self.c.execute(query).first() is not None

    def next_priority(self, group_id: int) -> int:
        query = select(func.max(object_states.c.priority)).where(object_states.c.group_id == group_id)
        highest = self.c.execute(query).scalar()
        return 0 if highest is None else int(highest) + 1

    def create_state(self, group_id: int, struct: ObjectStateInput) -> int:
        values = {"descriptions": "{}", **_values(struct), "group_id": group_id}
        return int(
            self.c.execute(insert(object_states).values(**values).returning(object_states.c.id)).scalar_one()
        )

    def update_state(self, state_id: int, struct: ObjectStateInput) -> None:
        values = _values(struct)
        if values:
            self.c.execute(update(object_states).where(object_states.c.id == state_id).values(**values))

    def delete_state(self, state_id: int) -> None:
        """Items in this state fall back to their group's default state (their rows go)."""
        self.c.execute(delete(content_object_states).where(content_object_states.c.state_id == state_id))
        self.c.execute(delete(object_states).where(object_states.c.id == state_id))

    # -- the states of content items -------------------------------------------------------------------
    def states_of(self, content_id: int) -> list[ObjectState]:
        """The item's state in every group that has states: its assignment, else the group default.

        One query over the states (few) joined with the item's assignment in their group, ordered so the
        first state of a group without an assignment is its default.
        """
        assigned = content_object_states.alias("assigned")
        query = (
            select(object_states, assigned.c.state_id.label("assigned_id"))
            .outerjoin(
                assigned,
                and_(assigned.c.group_id == object_states.c.group_id, assigned.c.content_id == content_id),
            )
            .order_by(object_states.c.group_id, *_STATE_ORDER)
        )
        chosen: dict[int, ObjectState] = {}
        for row in self.c.execute(query):
            if row.assigned_id is not None:
                if row.assigned_id == row.id:
                    chosen[row.group_id] = _state(row)
            elif row.group_id not in chosen:
                chosen[row.group_id] = _state(row)
        return [chosen[group_id] for group_id in sorted(chosen)]

    def pin_default(self, group_id: int, state_id: int) -> None:
        """Record ``state_id`` explicitly for every item that has no state of the group yet."""
        unassigned = ~exists(
            select(content_object_states.c.content_id).where(
                content_object_states.c.content_id == content.c.id,
                content_object_states.c.group_id == group_id,
            )
        )
        rows = select(content.c.id, literal(group_id), literal(state_id)).where(unassigned)
        self.c.execute(
            insert(content_object_states).from_select(["content_id", "group_id", "state_id"], rows)
        )

    def assign(self, content_id: int, states: Sequence[ObjectState]) -> None:
        """Put the item in each of ``states`` (one per group), replacing its state in those groups."""
        if not states:
            return
        groups = [state.group_id for state in states]
        self.c.execute(
            delete(content_object_states).where(
                content_object_states.c.content_id == content_id, content_object_states.c.group_id.in_(groups)
            )
        )
        self.c.execute(
            insert(content_object_states),
            [{"content_id": content_id, "group_id": s.group_id, "state_id": s.id} for s in states],
        )
