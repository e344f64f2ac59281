"""The clean install's URL alias entries (spec/install.md §11-§12).

The REST ids ``<parent>-<md5>`` fix the parent nodes of the current entries (Users 2, Administrator-users
5, Media 9, Anonymous-Users 10); the nodes of leaves, history and ``nop:`` entries follow the reference's
``ezurlalias_ml`` as far as it is known. A history entry whose text differs only in case from the current
one shares its key and so is the current one.
"""

from __future__ import annotations

from sqlalchemy import Connection, insert

from pressroom.domain.url_alias import NOP, location_action, text_md5
from pressroom.storage.sql.schema import url_aliases
from pressroom.storage.sql.sequences import ensure_at_least
from pressroom.storage.sql.url_alias import NODE_SEQUENCE

LAST_NODE = 37  # the next entry node is 38

# parent node, text, node, location id (None: a nop entry), is current
ENTRIES: list[tuple[int, str, int, int | None, bool]] = [
    (0, "", 1, 2, True),
    (0, "Users", 2, 5, True),
    (0, "Media", 9, 43, True),
    (2, "Guest-accounts", 8, 12, True),
    (2, "Administrator-users", 5, 13, True),
    (2, "Editors", 7, 14, True),
    (2, "Anonymous-Users", 10, 44, True),
    (5, "Administrator-User", 6, 15, True),
    (10, "Anonymous-User", 11, 45, True),
    (9, "Images", 24, 51, True),
    (9, "Files", 26, 52, True),
    (9, "Multimedia", 30, 53, True),
    (2, "guest_accounts", 8, 12, False),
    (2, "administrator_users", 5, 13, False),
    (2, "anonymous_users", 10, 44, False),
    (5, "administrator_user", 6, 15, False),
    (10, "anonymous_user", 11, 45, False),
    (0, "users2", 3, None, False),
    (0, "media2", 17, None, False),
    (2, "anonymous_users2", 12, None, False),
    (2, "administrator_users2", 4, None, False),
]


def load_url_aliases(connection: Connection) -> None:
    connection.execute(
        insert(url_aliases),
        [
            {
                "parent": parent,
                "text_md5": text_md5(text),
                "text": text,
                "node": node,
                "action": NOP if location_id is None else location_action(location_id),
                "location_id": location_id,
                "is_original": current,
                "is_custom": False,
                "forward": False,
                "always_available": True,
                "language_codes": "eng-GB",
            }
            for parent, text, node, location_id, current in ENTRIES
        ],
    )
    ensure_at_least(connection, NODE_SEQUENCE, LAST_NODE)
