"""Clean-install roles, policies and role assignments (spec/install.md §10), with their reference ids."""

from __future__ import annotations

from sqlalchemy import Connection, insert

from pressroom.domain.role import Limitation
from pressroom.storage.sql.role import dump_limitations, dump_values
from pressroom.storage.sql.schema import policies, role_assignments, roles
from pressroom.storage.sql.sequences import ROLES_REVISION as REVISION
from pressroom.storage.sql.sequences import ensure_at_least

ROLES = [(1, "Anonymous"), (2, "Administrator"), (3, "Editor"), (4, "Member")]
# policy id, role id, module, function, limitations
POLICIES = [
    (317, 3, "content", "*", ()),
    (319, 3, "user", "login", ()),
    (328, 1, "content", "read", (Limitation("Section", ("1",)),)),
    (331, 1, "user", "login", (Limitation("SiteAccess", ("1766001124",)),)),  # crc32("site")
    (332, 2, "*", "*", ()),
    (333, 4, "content", "read", (Limitation("Class", ("4",)), Limitation("Owner", ("1",)))),
    (334, 1, "content", "view_embed", (Limitation("Class", ("5", "12")),)),
    (340, 3, "url", "*", ()),
]
# assignment id, group content id, role id, limitation
ASSIGNMENTS = [
    (28, 11, 1, None),
    (31, 42, 1, None),
    (32, 13, 3, Limitation("Subtree", ("/1/2/",))),
    (33, 13, 3, Limitation("Subtree", ("/1/43/",))),
    (34, 12, 2, None),
    (35, 13, 4, None),
]


def load_roles(connection: Connection) -> None:
    connection.execute(insert(roles), [{"id": i, "identifier": name, "status": 0} for i, name in ROLES])
    connection.execute(
        insert(policies),
        [
            {"id": i, "role_id": r, "module": m, "function": f, "limitations": dump_limitations(lims)}
            for i, r, m, f, lims in POLICIES
        ],
    )
    connection.execute(
        insert(role_assignments),
        [
            {
                "id": i,
                "assignee_id": assignee,
                "role_id": role,
                "limitation_identifier": lim.identifier if lim else None,
                "limitation_values": dump_values(lim),
            }
            for i, assignee, role, lim in ASSIGNMENTS
        ],
    )
    ensure_at_least(connection, REVISION, 1)
