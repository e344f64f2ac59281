"""The criteria maps of a ViewInput (``Filter`` and ``Query``) into one ``domain.query`` criterion.

    {"Filter": {"ParentLocationIdCriterion": 2,
                "OR": {"ContentTypeIdentifierCriterion": ["folder", "article"]},
                "NOT": {"SectionIdCriterion": 3}}}

A map with several keys is their conjunction; ``AND`` and ``OR`` take a map (or a list of one-key maps)
whose array values are several criteria of that key (two ``ContentTypeIdentifierCriterion``s above);
``NOT`` takes a map of exactly one criterion. Keys are spelled as the reference's parsers look them up
(spec/search.md: ``ContentIdCriterion`` but ``Field``). What only the database can resolve stays a node
for the search service (content type identifiers, parent location remote ids); what the text says is
resolved here (an ``AncestorCriterion`` path becomes the ids on it).

Where the reference breaks (an array at top level given to a criterion whose parser splits a comma
string is a PHP TypeError there) every id and identifier list accepts a value, a comma string or an
array of those. Anything else is a 400 naming the criterion.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pressroom.domain import query as q
from pressroom.domain.errors import BadRequest
from pressroom.domain.integers import MAX_ID, check_range, parse_int
from pressroom.rest.input.node import as_list

_PATH_STRING = re.compile(r"^/(?:[0-9]{1,10}/)+$")
_BYTES_PER_MB = 1024 * 1024
_BOUND_MAX = 1e12  # image sizes (megabytes) and dimensions (pixels): 1e12 MB still fits in 64 bits as bytes
_TARGETS = ("owner", "group", "modifier")
_DATE_TARGETS = ("modified", "created", "published")
_DATE_OPERATORS = ("IN", "EQ", "GT", "GTE", "LT", "LTE", "BETWEEN")
ORIENTATIONS = ("landscape", "portrait", "square")
# Registered by the reference but answering "@todo implement" (a 500 there): refused by name here.
_UNIMPLEMENTED = ("LogicalOperator", "Operator", "MoreLikeThis")


def parse_criteria(data: Any, where: str) -> q.Criterion:
    """A criteria map (``Filter`` or ``Query``): MatchAll when absent or empty, one criterion, or the
    conjunction of several. Refused (400) past ``MAX_CRITERIA``, ``MAX_DEPTH`` or ``MAX_VALUES``."""
    if data in (None, "", [], {}):
        return q.MatchAll()
    if not isinstance(data, dict):
        raise BadRequest(f"{where} must map criterion names to their values")
    parts = [criterion(key, value, f"{where}.{key}") for key, value in data.items()]
    result = parts[0] if len(parts) == 1 else q.LogicalAnd(tuple(parts))
    _check_size(result, where)
    return result


# Bounds of one criteria map. SQLite refuses an expression more than 1000 levels deep, and an OR of n
# criteria is n levels there (an OR of 1,500 ids as separate criteria failed); PostgreSQL takes at most
# 65,535 parameters per statement. Past these the database would fail the query: a 400 says why instead.
# The depth is checked while the tree is read, before Python's own recursion limit is near (a NOT nested
# 1,000 deep was a RecursionError, a 500).
MAX_CRITERIA = 256
MAX_DEPTH = 32
MAX_VALUES = 10_000


def _check_size(root: q.Criterion, where: str) -> None:
    criteria = values = 0
    stack: list[q.Criterion] = [root]
    while stack:
        node = stack.pop()
        criteria += 1
        if isinstance(node, q.LogicalAnd | q.LogicalOr):
            stack.extend(node.criteria)
        elif isinstance(node, q.LogicalNot):
            stack.append(node.criterion)
        else:
            values += sum(len(item) for item in _tuples(node))
    if criteria > MAX_CRITERIA:
        raise BadRequest(f"{where} holds {criteria} criteria; at most {MAX_CRITERIA} are accepted")
    if values > MAX_VALUES:
        raise BadRequest(f"{where} lists {values} values; at most {MAX_VALUES} are accepted")


def _tuples(node: q.Criterion) -> list[tuple[Any, ...]]:
    """The tuple fields of a criterion (its lists of ids, codes, values); criteria are slotted dataclasses."""
    names: tuple[str, ...] = getattr(type(node), "__slots__", ())
    return [item for item in (getattr(node, name) for name in names) if isinstance(item, tuple)]


def criterion(key: str, value: Any, where: str, depth: int = 1) -> q.Criterion:
    """The criterion ``key`` with its ``value`` (BadRequest naming ``where`` when either is wrong);
    ``depth``: how many levels of criteria hold it, itself included."""
    if depth > MAX_DEPTH:
        raise BadRequest(f"{where} nests criteria more than {MAX_DEPTH} levels deep")
    if key in ("AND", "OR"):
        parts = tuple(
            criterion(name, item, f"{where}.{name}", depth + 1) for name, item in _flattened(value, where)
        )
        if not parts:
            raise BadRequest(f"{where} needs at least one criterion")
        return q.LogicalAnd(parts) if key == "AND" else q.LogicalOr(parts)
    if key == "NOT":
        if not isinstance(value, dict) or len(value) != 1:
            raise BadRequest(f"{where} must hold exactly one criterion")
        ((name, item),) = value.items()
        return q.LogicalNot(criterion(name, item, f"{where}.{name}", depth + 1))
    parser = _PARSERS.get(key)
    if parser is None:
        raise BadRequest(_unknown(key, where))
    return parser(value, where)


def _unknown(key: str, where: str) -> str:
    name = key.removesuffix("Criterion")
    if name in _UNIMPLEMENTED:
        return f"The criterion '{key}' in {where} is not implemented"
    for candidate in (f"{name}Criterion", name):
        if candidate in _PARSERS:
            return f"Unknown criterion '{key}' in {where}; did you mean '{candidate}'?"
    return f"Unknown criterion '{key}' in {where}"


def _flattened(value: Any, where: str) -> list[tuple[str, Any]]:
    """The (key, value) criteria of an AND/OR: a map whose array values are several criteria of their
    key, or a list of one-key maps (the older form the reference also reads)."""
    pairs: list[tuple[str, Any]] = []
    if isinstance(value, list):
        for index, item in enumerate(value):
            if not isinstance(item, dict) or len(item) != 1:
                raise BadRequest(f"{where}[{index}] must be an object with one criterion")
            pairs.extend(item.items())
    elif isinstance(value, dict):
        pairs.extend(value.items())
    else:
        raise BadRequest(f"{where} must map criterion names to their values")
    return [(key, item) for key, items in pairs for item in (items if isinstance(items, list) else [items])]


# --- value readers


def _listed(value: Any) -> list[Any]:
    """The values of a criterion that takes a list: one value, an array, or XML's nested form
    ``<value><value>a</value><value>b</value></value>`` (decoded as ``{"value": [...]}``)."""
    if isinstance(value, dict) and value.keys() == {"value"}:
        value = value["value"]
    return as_list(value)


def _texts(value: Any, where: str) -> tuple[str, ...]:
    """One value, a comma string or an array of those: the non-blank parts, at least one."""
    texts: list[str] = []
    for item in _listed(value):
        if isinstance(item, bool) or not isinstance(item, str | int | float):
            raise BadRequest(f"{where} must be a value, a comma-separated list or an array of values")
        texts.extend(part.strip() for part in str(item).split(",") if part.strip())
    if not texts:
        raise BadRequest(f"{where} needs at least one value")
    return tuple(texts)


def _ids(value: Any, where: str) -> tuple[int, ...]:
    ids = []
    for text in _texts(value, where):
        number = parse_int(text)
        if number is None or not 0 <= number <= MAX_ID:
            raise BadRequest(f"{where} must list ids, got '{text}'")
        ids.append(number)
    return tuple(ids)


def _one_id(value: Any, where: str) -> int:
    ids = _ids(value, where)
    if len(ids) != 1:
        raise BadRequest(f"{where} takes one id")
    return ids[0]


def _string(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise BadRequest(f"{where} must be a string")
    return str(value)


def _boolean(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise BadRequest(f"{where} must be true or false")


def _path_strings(value: Any, where: str) -> tuple[str, ...]:
    paths = _texts(value, where)
    for path in paths:
        if not _PATH_STRING.match(path):
            raise BadRequest(f"{where} must list location path strings like '/1/2/', got '{path}'")
    return paths


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadRequest(f"{where} must be an object")
    return value


def _required(data: dict[str, Any], key: str, where: str) -> Any:
    if data.get(key) in (None, ""):
        raise BadRequest(f"Missing '{key}' in {where}")
    return data[key]


def _choice(value: Any, allowed: tuple[str, ...], where: str, *, lower: bool = False) -> str:
    text = _string(value, where).strip()
    if lower:
        text = text.lower()
    if text not in allowed:
        raise BadRequest(f"{where} must be one of {', '.join(allowed)}, got '{text}'")
    return text


# --- one parser per criterion key


def _ancestor(value: Any, where: str) -> q.Criterion:
    """The locations on the given paths: ``/1/2/5/`` is the locations 1, 2 and 5."""
    ids: list[int] = []
    for path in _path_strings(value, where):
        for part in path.strip("/").split("/"):
            if int(part) not in ids:
                ids.append(int(part))
    return q.LocationId(tuple(ids))


def _visibility(value: Any, where: str) -> q.Criterion:
    text = str(value).strip() if isinstance(value, int | str) and not isinstance(value, bool) else None
    if text not in ("0", "1"):
        raise BadRequest(f"{where} must be 0 (visible) or 1 (hidden), got '{value}'")
    return q.Visibility(visible=text == "0")


def _user_text(kind: type[q.UserLogin] | type[q.UserEmail]) -> Callable[[Any, str], q.Criterion]:
    """UserLogin/UserEmail: a value with ``*`` is a LIKE pattern, otherwise a comma list of exact values."""

    def parse(value: Any, where: str) -> q.Criterion:
        if isinstance(value, str) and "*" in value:
            return kind((value.strip(),), "LIKE")
        return kind(_texts(value, where), "IN")

    return parse


def _object_state_identifier(value: Any, where: str) -> q.Criterion:
    data = _object(value, where)
    for key in ("value", "target"):
        if key not in data:
            raise BadRequest(f"Missing '{key}' in {where}")
    target = data["target"]
    group = _string(target, f"{where}.target").strip() if target not in (None, "") else None
    return q.ObjectStateIdentifier(_texts(data["value"], f"{where}.value"), group or None)


def _user_metadata(value: Any, where: str) -> q.Criterion:
    data = _object(value, where)
    target = _choice(_required(data, "Target", where), _TARGETS, f"{where}.Target", lower=True)
    return q.UserMetadata(target, _ids(_required(data, "Value", where), f"{where}.Value"))


def _operator(data: dict[str, Any], key: str, allowed: tuple[str, ...], default: str, where: str) -> str:
    raw = data.get(key)
    if raw in (None, ""):
        return default
    return _choice(_string(raw, f"{where}.{key}").upper(), allowed, f"{where}.{key}")


def _arity(operator: str, count: int, where: str) -> None:
    wanted = None if operator == "IN" else 2 if operator == "BETWEEN" else 1
    if count == 0 or (wanted is not None and count != wanted):
        text = {None: "at least one value", 1: "one value", 2: "two values"}[wanted]
        raise BadRequest(f"{where}: the operator {operator} takes {text}")


def _date_metadata(value: Any, where: str) -> q.Criterion:
    data = _object(value, where)
    target = _choice(_required(data, "Target", where), _DATE_TARGETS, f"{where}.Target", lower=True)
    operator = _operator(data, "Operator", _DATE_OPERATORS, "IN", where)
    values = []
    for item in _listed(_required(data, "Value", where)):
        number = parse_int(item) if isinstance(item, str) else item
        if isinstance(number, bool) or not isinstance(number, int):
            raise BadRequest(f"{where}.Value must be Unix timestamps, got '{item}'")
        values.append(check_range(number, f"{where}.Value"))
    _arity(operator, len(values), where)
    return q.DateMetadata(target, operator, tuple(values))


def _field(value: Any, where: str) -> q.Criterion:
    data = _object(value, where)
    name = _string(_required(data, "name", where), f"{where}.name")
    operator = _operator(data, "operator", tuple(sorted(q.OPERATORS)), "", where)
    if not operator:
        raise BadRequest(f"Missing 'operator' in {where}")
    if "value" not in data:
        raise BadRequest(f"Missing 'value' in {where}")
    values: list[q.FieldScalar] = []
    for item in _listed(data["value"]) if data["value"] is not None else []:
        if not isinstance(item, str | int | float | bool):
            raise BadRequest(f"{where}.value must be a value or an array of values")
        values.append(item)
    _arity(operator, len(values), where)
    return q.Field(name, operator, tuple(values))


def _field_identifier(data: dict[str, Any], where: str) -> str:
    return _string(_required(data, "fieldDefIdentifier", where), f"{where}.fieldDefIdentifier")


def _bounds(data: dict[str, Any], key: str, where: str, scale: int = 1) -> tuple[int | None, int | None]:
    """``{"min": a, "max": b}`` (each optional) times ``scale``; None for an absent bound."""
    raw = data.get(key)
    if raw in (None, ""):
        return None, None
    bounds = _object(raw, f"{where}.{key}")
    result: list[int | None] = []
    for side in ("min", "max"):
        item = bounds.get(side)
        if item in (None, ""):
            result.append(None)
            continue
        number: Any = item
        if isinstance(item, str):
            number = parse_int(item)
            if number is None:
                try:
                    number = float(item)
                except ValueError:
                    number = None
        if isinstance(number, bool) or not isinstance(number, int | float) or not 0 <= number < _BOUND_MAX:
            raise BadRequest(
                f"{where}.{key}.{side} must be a non-negative number below {_BOUND_MAX:g}, got '{item}'"
            )
        result.append(int(number * scale))
    return result[0], result[1]


def _image_mime_type(value: Any, where: str) -> q.Criterion:
    data = _object(value, where)
    types = _texts(_required(data, "type", where), f"{where}.type")
    return q.ImageMimeType(_field_identifier(data, where), types)


def _image_file_size(value: Any, where: str) -> q.Criterion:
    """Sizes in megabytes (possibly fractional) into bytes; the lower bound defaults to 0."""
    data = _object(value, where)
    if data.get("size") in (None, ""):
        raise BadRequest(f"Missing 'size' in {where}")
    low, high = _bounds(data, "size", where, _BYTES_PER_MB)
    return q.ImageFileSize(_field_identifier(data, where), low or 0, high)


def _image_dimensions(value: Any, where: str) -> q.Criterion:
    data = _object(value, where)
    return q.ImageDimensions(
        _field_identifier(data, where), _bounds(data, "width", where), _bounds(data, "height", where)
    )


def _image_orientation(value: Any, where: str) -> q.Criterion:
    data = _object(value, where)
    orientation = _choice(_required(data, "orientation", where), ORIENTATIONS, f"{where}.orientation")
    return q.ImageOrientation(_field_identifier(data, where), orientation)


def _image(value: Any, where: str) -> q.Criterion:
    """The composite Image criterion: every sub-condition given must hold."""
    data = _object(value, where)
    identifier = _field_identifier(data, where)
    parts: list[q.Criterion] = []
    if data.get("mimeTypes") not in (None, ""):
        parts.append(q.ImageMimeType(identifier, _texts(data["mimeTypes"], f"{where}.mimeTypes")))
    if data.get("size") not in (None, ""):
        low, high = _bounds(data, "size", where, _BYTES_PER_MB)
        parts.append(q.ImageFileSize(identifier, low or 0, high))
    if data.get("width") not in (None, "") or data.get("height") not in (None, ""):
        parts.append(
            q.ImageDimensions(identifier, _bounds(data, "width", where), _bounds(data, "height", where))
        )
    if data.get("orientation") not in (None, ""):
        orientation = _choice(data["orientation"], ORIENTATIONS, f"{where}.orientation")
        parts.append(q.ImageOrientation(identifier, orientation))
    if not parts:
        raise BadRequest(f"{where} needs at least one of mimeTypes, size, width, height, orientation")
    return q.all_of(parts)


_PARSERS: dict[str, Callable[[Any, str], q.Criterion]] = {
    "ContentIdCriterion": lambda v, w: q.ContentId(_ids(v, w)),
    "ContentRemoteIdCriterion": lambda v, w: q.ContentRemoteId(_texts(v, w)),
    "ContentTypeIdCriterion": lambda v, w: q.ContentTypeId(_ids(v, w)),
    "ContentTypeIdentifierCriterion": lambda v, w: q.ContentTypeIdentifier(_texts(v, w)),
    "ContentTypeGroupIdCriterion": lambda v, w: q.ContentTypeGroupId(_ids(v, w)),
    "SectionIdCriterion": lambda v, w: q.SectionId(_ids(v, w)),
    "SectionIdentifierCriterion": lambda v, w: q.SectionIdentifier(_texts(v, w)),
    "LocationIdCriterion": lambda v, w: q.LocationId(_ids(v, w)),
    "LocationRemoteIdCriterion": lambda v, w: q.LocationRemoteId(_texts(v, w)),
    "ParentLocationIdCriterion": lambda v, w: q.ParentLocationId(_ids(v, w)),
    "ParentLocationRemoteIdCriterion": lambda v, w: q.ParentLocationRemoteId(_texts(v, w)),
    "SubtreeCriterion": lambda v, w: q.Subtree(_path_strings(v, w)),
    "AncestorCriterion": _ancestor,
    "LanguageCodeCriterion": lambda v, w: q.LanguageCode(_texts(v, w)),
    "FullTextCriterion": lambda v, w: q.FullText(_string(v, w)),
    "ContentNameCriterion": lambda v, w: q.ContentName(_string(v, w)),
    "ObjectStateIdCriterion": lambda v, w: q.ObjectStateId(_ids(v, w)),
    "ObjectStateIdentifierCriterion": _object_state_identifier,
    "VisibilityCriterion": _visibility,
    "SiblingCriterion": lambda v, w: q.Sibling(_one_id(v, w)),
    "UserIdCriterion": lambda v, w: q.UserId(_ids(v, w)),
    "UserLoginCriterion": _user_text(q.UserLogin),
    "UserEmailCriterion": _user_text(q.UserEmail),
    "IsUserBasedCriterion": lambda v, w: q.IsUserBased(_boolean(v, w)),
    "IsUserEnabledCriterion": lambda v, w: q.IsUserEnabled(_boolean(v, w)),
    "IsContainerCriterion": lambda v, w: q.IsContainer(_boolean(v, w)),
    "IsBookmarkedCriterion": lambda v, w: q.IsBookmarked(_boolean(v, w)),
    "UserMetadataCriterion": _user_metadata,
    "DateMetadataCriterion": _date_metadata,
    "Field": _field,
    "ImageCriterion": _image,
    "ImageMimeTypeCriterion": _image_mime_type,
    "ImageFileSizeCriterion": _image_file_size,
    "ImageDimensionsCriterion": _image_dimensions,
    "ImageOrientationCriterion": _image_orientation,
}
CRITERION_KEYS = frozenset(_PARSERS)
