"""Exception -> HTTP status, and the ErrorMessage representation."""

from __future__ import annotations

from typing import Any

from pressroom.domain import errors as e
from pressroom.rest.output.visitor import Out, Representation
from pressroom.rest.output.writers import Items

STATUS: list[tuple[type[e.PressroomError], int]] = [
    (e.ContentValidationError, 400),
    (e.BadRequest, 400),
    (e.Unauthorized, 401),
    (e.Forbidden, 403),
    (e.NotFound, 404),
    (e.MethodNotAllowed, 405),
    (e.TranslationAbsent, 406),
    (e.NotRemovable, 406),
    (e.Conflict, 409),
    (e.PreconditionFailed, 412),
    (e.RequestTimeout, 408),
    (e.PayloadTooLarge, 413),
    (e.UnsupportedMediaType, 415),
    (e.RangeNotSatisfiable, 416),
    (e.TooManyRequests, 429),
    (e.NotImplementedHere, 501),
    (e.Unavailable, 503),
    (e.ProviderUnavailable, 503),
]

REASONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    406: "Not Acceptable",
    408: "Request Timeout",
    409: "Conflict",
    412: "Precondition Failed",
    413: "Payload Too Large",
    415: "Unsupported Media Type",
    416: "Range Not Satisfiable",
    429: "Too Many Requests",
    500: "Internal Server Error",
    501: "Not Implemented",
    503: "Service Unavailable",
}

HIDDEN = "An error has occurred. Please try again later or contact your Administrator."


def status_of(error: BaseException) -> int:
    for kind, status in STATUS:
        if isinstance(error, kind):
            return status
    return 500


def error_message(out: Out, status: int, description: str, details: Any = None) -> Representation:
    body: dict[str, Any] = {
        "_media-type": out.media("ErrorMessage"),
        "errorCode": status,
        "errorMessage": REASONS.get(status, "Error"),
        "errorDescription": description,
    }
    if details is not None:
        body["errorDetails"] = details
    return Representation("ErrorMessage", "ErrorMessage", body)


def represent_error(out: Out, error: BaseException) -> tuple[int, Representation]:
    status = status_of(error)
    if status == 500 or not isinstance(error, e.PressroomError):  # a bug: its text may carry internals
        return status, error_message(out, status, HIDDEN)
    details = None
    if isinstance(error, e.ContentValidationError):
        # JSON: fields[] of anonymous hashes with errors[]; XML: repeated <field> and <error> elements
        # (spec/shapes-content.md §0 lists, §1 field validation).
        details = {
            "fields": Items(
                "field",
                [
                    {
                        "_fieldTypeId": f.field_definition_id,
                        "_fieldIdentifier": f.field_identifier,
                        "_languageCode": f.language_code,
                        "errors": Items("error", [{"type": x.type, "message": x.message} for x in f.errors]),
                    }
                    for f in error.fields
                ],
            )
        }
    return status, error_message(out, status, error.message, details)
