"""Checking the limitations of a policy or a role assignment before they are stored.

Identifiers a policy cannot carry through the REST API are NotFound (as the reference answers);
identifiers its module/function does not accept and values that name nothing are BadRequest.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pressroom.domain.errors import BadRequest, NotFound
from pressroom.domain.permission import SELF_VALUES, siteaccess_value
from pressroom.domain.role import (
    ASSIGNMENT_LIMITATIONS,
    POLICY_INPUT_LIMITATIONS,
    Limitation,
    allowed_limitations,
    known_function,
)
from pressroom.storage.spi import Tx

VERSION_STATUSES = frozenset({"0", "1", "3"})


def check_function(module: str, function: str) -> None:
    if not known_function(module, function):
        raise BadRequest(f"Unknown module/function '{module}/{function}' in the policy")


def _integers(limitation: Limitation) -> list[int]:
    numbers = []
    for value in limitation.values:
        if not value.lstrip("-").isdigit():
            raise BadRequest(f"Limitation '{limitation.identifier}' takes integers, got '{value}'")
        numbers.append(int(value))
    return numbers


def _must_exist(limitation: Limitation, missing: Iterable[object]) -> None:
    absent = list(missing)
    if absent:
        raise BadRequest(f"Limitation '{limitation.identifier}' names what does not exist: '{absent[0]}'")


def _check_values(tx: Tx, limitation: Limitation, siteaccesses: Sequence[str]) -> None:
    identifier = limitation.identifier
    if not limitation.values:
        raise BadRequest(f"Limitation '{identifier}' needs at least one value")
    if identifier in ("Section", "NewSection"):
        _must_exist(limitation, (i for i in _integers(limitation) if tx.sections.get(i) is None))
    elif identifier in ("Class", "ParentClass"):
        _must_exist(limitation, (i for i in _integers(limitation) if tx.content_types.get(i) is None))
    elif identifier == "Node":
        _must_exist(limitation, (i for i in _integers(limitation) if tx.locations.get(i) is None))
    elif identifier == "Subtree":
        for path in limitation.values:
            ids = path.strip("/").split("/")
            location = tx.locations.get(int(ids[-1])) if all(part.isdigit() for part in ids) else None
            if location is None or location.path_string != path:
                raise BadRequest(f"Limitation 'Subtree' names no location path: '{path}'")
    elif identifier in ("Owner", "ParentOwner"):
        if not set(limitation.values) <= SELF_VALUES:
            raise BadRequest(f"Limitation '{identifier}' takes only 1 (self) or 2 (session)")
    elif identifier in ("Group", "ParentGroup"):
        if set(limitation.values) != {"1"}:
            raise BadRequest(f"Limitation '{identifier}' takes only 1")
    elif identifier == "SiteAccess":
        known = {siteaccess_value(name) for name in siteaccesses}
        _must_exist(limitation, (v for v in limitation.values if v not in known))
    elif identifier == "Language":
        _must_exist(limitation, (c for c in limitation.values if tx.languages.by_code(c) is None))
    elif identifier == "Status":
        _must_exist(limitation, (v for v in limitation.values if v not in VERSION_STATUSES))
    else:  # ParentDepth, State, NewState, ChangeOwner, MemberOf, Role: integers
        _integers(limitation)


def check_policy_limitations(
    tx: Tx, module: str, function: str, limitations: Sequence[Limitation], siteaccesses: Sequence[str]
) -> None:
    seen: set[str] = set()
    for limitation in limitations:
        if limitation.identifier not in POLICY_INPUT_LIMITATIONS:
            raise NotFound.of("Limitation", limitation.identifier)
        if limitation.identifier not in allowed_limitations(module, function):
            raise BadRequest(
                f"Limitation '{limitation.identifier}' does not apply to the '{module}/{function}' policy"
            )
        if limitation.identifier in seen:
            raise BadRequest(f"Limitation '{limitation.identifier}' is given twice")
        seen.add(limitation.identifier)
        _check_values(tx, limitation, siteaccesses)


def check_assignment_limitation(tx: Tx, limitation: Limitation | None) -> None:
    if limitation is None:
        return
    if limitation.identifier not in ASSIGNMENT_LIMITATIONS:
        raise BadRequest(
            f"A role assignment takes a Section or Subtree limitation, not '{limitation.identifier}'"
        )
    _check_values(tx, limitation, ())
