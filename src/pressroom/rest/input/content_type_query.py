"""ContentTypeViewInput (``POST /content/types/view``) into a :class:`ContentTypeQuery`.

    {"ContentTypeViewInput": {"identifier": "types", "ContentTypeQuery": {
        "Query": {"ContentTypeIdentifierCriterion": "folder,article",
                  "ContentTypeGroupIdentifierCriterion": "Content"},
        "limit": 10, "offset": 0, "SortClauses": {"Identifier": "ascending"}}}}

Criteria of ``Query`` and ``Filter`` must all hold (several under ``AND`` too); each takes one value,
a comma list or a list of values, one of which must match. The view ``identifier`` names the view and
is not needed to answer it.
"""

from __future__ import annotations

import re
from typing import Any

from pressroom.domain.content_type_query import (
    DEFAULT_LIMIT,
    GROUP_ID,
    GROUP_IDENTIFIER,
    GROUP_NAME,
    INTEGER_FIELDS,
    TYPE_ID,
    TYPE_IDENTIFIER,
    ContentTypeQuery,
    TypeCondition,
)
from pressroom.domain.errors import BadRequest
from pressroom.rest.input.node import Node, as_list
from pressroom.rest.input.registry import Refs, parses

CRITERIA = {
    "ContentTypeId": TYPE_ID,
    "ContentTypeIdentifier": TYPE_IDENTIFIER,
    "ContentTypeGroupId": GROUP_ID,
    "ContentTypeGroupIdentifier": GROUP_IDENTIFIER,
    "ContentTypeGroupName": GROUP_NAME,  # a group's name is its identifier, in any case
}
SORT_CLAUSES = {"Id": TYPE_ID, "Identifier": TYPE_IDENTIFIER}
DIRECTIONS = {"ascending": False, "asc": False, "descending": True, "desc": True}
_ID = re.compile(r"[0-9]{1,18}")


@parses("ContentTypeViewInput")
def parse_content_type_view(node: Node, _refs: Refs) -> ContentTypeQuery:
    query = node.opt_child("ContentTypeQuery") or Node({}, f"{node.where}.ContentTypeQuery")
    conditions: list[TypeCondition] = []
    for key in ("Filter", "Query"):
        criteria = query.opt_child(key)
        if criteria is not None:
            conditions.extend(_criteria(criteria))
    offset, limit = query.opt_integer("offset"), query.opt_integer("limit")
    if (offset is not None and offset < 0) or (limit is not None and limit < 0):
        raise BadRequest(f"'offset' and 'limit' in {query.where} must not be negative")
    return ContentTypeQuery(
        conditions=tuple(conditions),
        sort=_sort(query),
        offset=offset or 0,
        limit=DEFAULT_LIMIT if limit is None else limit,
    )


def _criteria(node: Node) -> list[TypeCondition]:
    conditions: list[TypeCondition] = []
    for key, value in node.data.items():
        if key == "AND":
            for index, part in enumerate(as_list(value)):
                conditions.extend(_criteria(Node(part, f"{node.where}.AND[{index}]")))
            continue
        field = CRITERIA.get(key.removesuffix("Criterion"))
        if field is None:
            known = ", ".join(f"{name}Criterion" for name in CRITERIA)
            raise BadRequest(f"Unknown criterion '{key}' in {node.where}; expected one of {known} or AND")
        conditions.append(TypeCondition(field, _values(value, field, f"{node.where}.{key}")))
    return conditions


def _values(value: Any, field: str, where: str) -> tuple[int, ...] | tuple[str, ...]:
    texts: list[str] = []
    for item in as_list(value):
        if isinstance(item, bool) or not isinstance(item, str | int):
            raise BadRequest(f"{where} must be a value or a list of values")
        texts.extend(part.strip() for part in str(item).split(",") if part.strip())
    if not texts:
        raise BadRequest(f"{where} needs at least one value")
    if field not in INTEGER_FIELDS:
        return tuple(texts)
    for text in texts:
        if not _ID.fullmatch(text):
            raise BadRequest(f"{where} must list ids, got '{text}'")
    return tuple(int(text) for text in texts)


def _sort(query: Node) -> tuple[tuple[str, bool], ...]:
    raw = query.data.get("SortClauses")
    clauses: list[tuple[str, bool]] = []
    for part in as_list(raw):
        if not isinstance(part, dict):
            raise BadRequest(f"SortClauses in {query.where} must map a clause to a direction")
        for name, direction in part.items():
            if name not in SORT_CLAUSES:
                raise BadRequest(f"Unknown sort clause '{name}' in {query.where}; expected Id or Identifier")
            descending = DIRECTIONS.get(str(direction).strip().lower())
            if descending is None:
                raise BadRequest(f"Sort clause '{name}' must be ascending or descending, got '{direction}'")
            clauses.append((SORT_CLAUSES[name], descending))
    return tuple(clauses)
