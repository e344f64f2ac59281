"""The ``users`` row of a user content item follows the account field of its published version.

Publishing (through ``/content/objects`` or the user API) creates or updates the row; deleting the item
deletes it. Logins are unique, and so are e-mail addresses when the field definition's
``RequireUniqueEmail`` setting says so (spec/fieldtypes.md ezuser).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pressroom.domain.content import ContentInfo, Field
from pressroom.domain.content_type import ContentType, FieldDefinition
from pressroom.domain.errors import Forbidden
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.storage.spi import Tx


def account_definition(content_type: ContentType) -> FieldDefinition | None:
    """The account field definition of a type; None for types that are not user types."""
    return next(
        (d for d in content_type.field_definitions if get_field_type(d.field_type).carries_account), None
    )


def check_account_free(tx: Tx, definition: FieldDefinition, content_id: int, login: str, email: str) -> None:
    """Forbidden when another user has this login, or this e-mail address where it must be unique."""
    taken = tx.users.by_login(login)
    if taken is not None and taken[0].id != content_id:
        raise Forbidden(f"A user with login '{login}' already exists")
    if definition.field_settings.get("RequireUniqueEmail", True) is not False and any(
        other.id != content_id for other in tx.users.by_email(email)
    ):
        raise Forbidden(f"A user with e-mail address '{email}' already exists")


def sync_account(
    tx: Tx, content_type: ContentType, info: ContentInfo, version_no: int, fields: Sequence[Field]
) -> None:
    """Store the account of a version being published (nothing for other types or an empty account)."""
    definition = account_definition(content_type)
    if definition is None:
        return
    field_type = get_field_type(definition.field_type)
    field = next((f for f in fields if f.field_definition_id == definition.id), None)
    account = field_type.account(field.value, info.id) if field is not None else None
    if field is None or account is None:
        return
    check_account_free(tx, definition, info.id, account.login, account.email)
    tx.users.save(account)
    value = field_type.with_owner(field.value, info.id)
    if value != field.value:  # a new account learns its content id
        tx.content.save_fields(
            info.id,
            version_no,
            [replace(f, value=value) if f.field_definition_id == definition.id else f for f in fields],
        )
