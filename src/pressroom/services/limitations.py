"""Checking the limitations of a policy or a role assignment before they are stored.

Identifiers a policy cannot carry through the REST API are NotFound (as the reference answers);
identifiers its module/function does not accept and values that name nothing are BadRequest. What each
limitation accepts is said by its type (domain/limitations.py); this module looks things up for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pressroom.domain.errors import BadRequest, NotFound
from pressroom.domain.limitations import LIMITATIONS, LimitationType, allowed_limitations
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.role import Limitation, known_function
from pressroom.storage.spi import Tx


class _Known:
    """The repository as limitation types see it while validating values."""

    def __init__(self, tx: Tx, siteaccesses: Sequence[str]) -> None:
        self.tx = tx
        self._siteaccesses = siteaccesses

    def section_exists(self, section_id: int) -> bool:
        return self.tx.sections.get(section_id) is not None

    def content_type_exists(self, type_id: int) -> bool:
        return self.tx.content_types.get(type_id) is not None

    def location_path(self, location_id: int) -> str | None:
        location = self.tx.locations.get(location_id, UNRESTRICTED)
        return None if location is None else location.path_string

    def language_exists(self, code: str) -> bool:
        return self.tx.languages.by_code(code) is not None

    def siteaccesses(self) -> Sequence[str]:
        return self._siteaccesses


def check_function(module: str, function: str) -> None:
    if not known_function(module, function):
        raise BadRequest(f"Unknown module/function '{module}/{function}' in the policy")


def _check_values(kind: LimitationType, limitation: Limitation, known: _Known) -> None:
    if not limitation.values:
        raise BadRequest(f"Limitation '{limitation.identifier}' needs at least one value")
    kind.validate(limitation.values, known)


def check_policy_limitations(
    tx: Tx, module: str, function: str, limitations: Sequence[Limitation], siteaccesses: Sequence[str]
) -> None:
    seen: set[str] = set()
    known = _Known(tx, siteaccesses)
    for limitation in limitations:
        kind = LIMITATIONS.get(limitation.identifier)
        if kind is None or not kind.policy_input:
            raise NotFound.of("Limitation", limitation.identifier)
        if limitation.identifier not in allowed_limitations(module, function):
            raise BadRequest(
                f"Limitation '{limitation.identifier}' does not apply to the '{module}/{function}' policy"
            )
        if limitation.identifier in seen:
            raise BadRequest(f"Limitation '{limitation.identifier}' is given twice")
        seen.add(limitation.identifier)
        _check_values(kind, limitation, known)


def check_assignment_limitation(tx: Tx, limitation: Limitation | None) -> None:
    if limitation is None:
        return
    kind = LIMITATIONS.get(limitation.identifier)
    if kind is None or not kind.assignment:
        raise BadRequest(
            f"A role assignment takes a Section or Subtree limitation, not '{limitation.identifier}'"
        )
    _check_values(kind, limitation, _Known(tx, ()))
