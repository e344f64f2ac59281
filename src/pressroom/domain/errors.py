"""The one exception hierarchy of the repository.

Services and gateways raise these; ``rest/errors.py`` maps each class to an HTTP status. Messages are
meant for the client: they name the field, header or identifier at fault and never carry internals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


class PressroomError(Exception):
    """Base of every error a client may see."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(PressroomError):
    """The input does not match the expected schema (missing key, wrong type, unparsable body)."""


class InvalidArgument(BadRequest):
    """A value is well-formed but not acceptable (unknown href, unknown language, bad setting)."""


class Unauthorized(PressroomError):
    """No user, wrong credentials, missing CSRF token, or a permission the user lacks."""


class Forbidden(PressroomError):
    """The operation is not allowed in the current state, or the identifier is taken."""


class NotFound(PressroomError):
    """The resource does not exist."""

    @classmethod
    def of(cls, what: str, identifier: object) -> NotFound:
        return cls(f"Could not find '{what}' with identifier '{identifier}'")


def found(value: T | None, what: str, identifier: object) -> T:
    """``value``, or NotFound naming ``what`` and ``identifier`` when it is None."""
    if value is None:
        raise NotFound.of(what, identifier)
    return value


class TranslationAbsent(PressroomError):
    """The translation does not exist for the content item or version (406)."""


class Conflict(PressroomError):
    """Already bookmarked, only or main translation, session of another user (409)."""


class PreconditionFailed(PressroomError):
    """If-Match named an ETag that is not the current one."""


class UnsupportedMediaType(PressroomError):
    """The Content-Type of the request is not one the resource accepts."""


class MethodNotAllowed(PressroomError):
    def __init__(self, message: str, allowed: Sequence[str]) -> None:
        super().__init__(message)
        self.allowed = tuple(allowed)


class PayloadTooLarge(PressroomError):
    """The request body exceeds the configured limit."""


@dataclass(frozen=True, slots=True)
class FieldError:
    """One validation failure of one field value: ``type`` names the rule, ``message`` explains it."""

    type: str
    message: str


@dataclass(frozen=True, slots=True)
class FieldErrors:
    """The failures of one field, keyed on the wire by the field definition id."""

    field_definition_id: int
    field_identifier: str
    language_code: str
    errors: tuple[FieldError, ...]


class ContentValidationError(BadRequest):
    """Field values failed validation; ``fields`` carries the per-field details."""

    def __init__(self, message: str, fields: Sequence[FieldErrors]) -> None:
        super().__init__(message)
        self.fields = tuple(fields)
