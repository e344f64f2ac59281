"""Parsers for ContentCreate, ContentUpdate, VersionUpdate, LocationCreate and RelationCreate
(spec/shapes-content.md §7-§10). References arrive as full hrefs and become ids here."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from pressroom.domain.content import ContentCreate, ContentUpdate, FieldInput, VersionUpdate
from pressroom.domain.content_type import SORT_FIELDS, SORT_ORDERS
from pressroom.domain.errors import BadRequest, InvalidArgument
from pressroom.domain.fieldtypes.timeparse import parse_time_string
from pressroom.domain.integers import MAX_ID, parse_int
from pressroom.domain.location import LocationCreate
from pressroom.rest.input.node import Node, as_list
from pressroom.rest.input.registry import Hrefs, Refs, parses
from pressroom.rest.media import strip_prefix

_USER = re.compile(r"^/user/users/([0-9]{1,10})/?$")


def user_id_of(href: str, what: str) -> int:
    path = strip_prefix(href.split("?", 1)[0])
    match = _USER.match(path or "")
    if match is None or int(match.group(1)) > MAX_ID:
        raise BadRequest(f"Invalid {what} '{href}': expected a reference like '/api/ibexa/v2/user/users/14'")
    return int(match.group(1))


def opt_section_id(refs: Hrefs, node: Node) -> int | None:
    """The section id of an optional ``Section`` reference."""
    section = node.opt_href("Section")
    if section is None:
        return None
    return int(refs.parse_href(section, "section.load", what="Section")["sectionId"])


def opt_type_id(refs: Hrefs, node: Node) -> int | None:
    """The content type id of an optional ``ContentType`` reference."""
    href = node.opt_href("ContentType")
    if href is None:
        return None
    return int(refs.parse_href(href, "content_type.load", what="ContentType")["typeId"])


def location_id_of(refs: Hrefs, href: str, what: str) -> int:
    path: str = refs.parse_href(href, "location.load", what=what)["path"]
    return int(path.rsplit("/", 1)[-1])


def content_id_of(refs: Hrefs, href: str, what: str) -> int:
    return int(refs.parse_href(href, "content.load", what=what)["contentId"])


def _date(node: Node, key: str) -> datetime | None:
    raw = node.data.get(key)
    if raw in (None, ""):
        return None
    try:
        if isinstance(raw, int) and not isinstance(raw, bool):
            return datetime.fromtimestamp(raw, UTC)
        return datetime.fromtimestamp(parse_time_string(str(raw), f"'{key}' in {node.where}"), UTC)
    except InvalidArgument as error:
        raise BadRequest(error.message) from None
    except (OverflowError, OSError, ValueError):
        raise BadRequest(f"'{key}' in {node.where} is not a date") from None


def choice(node: Node, key: str, allowed: dict[str, int]) -> str | None:
    value = node.opt_string(key)
    if value is None or value == "":
        return None
    if value.upper() not in allowed:
        raise BadRequest(f"'{key}' in {node.where} must be one of {', '.join(allowed)}, got '{value}'")
    return value.upper()


@parses("LocationCreate")
def parse_location_create(node: Node, refs: Refs) -> LocationCreate:
    return LocationCreate(
        parent_id=location_id_of(refs, node.href("ParentLocation"), f"{node.where}.ParentLocation"),
        priority=node.opt_integer("priority") or 0,
        hidden=bool(node.opt_boolean("hidden")),
        remote_id=node.opt_string("remoteId") or None,
        sort_field=choice(node, "sortField", SORT_FIELDS),
        sort_order=choice(node, "sortOrder", SORT_ORDERS),
    )


def field_inputs(node: Node) -> tuple[FieldInput, ...]:
    fields = []
    for item in node.items("fields", "field"):
        fields.append(
            FieldInput(
                identifier=item.string("fieldDefinitionIdentifier"),
                language_code=item.opt_string("languageCode") or None,
                value=item.raw("fieldValue"),
            )
        )
    return tuple(fields)


@parses("ContentCreate")
def parse_content_create(node: Node, refs: Refs) -> ContentCreate:
    type_href = node.href("ContentType")
    locations = tuple(
        parse_location_create(Node(item, f"{node.where}.LocationCreate"), refs)
        for item in as_list(node.data.get("LocationCreate"))
    )
    owner = node.opt_href("User") or node.opt_href("Owner")
    return ContentCreate(
        content_type_id=int(refs.parse_href(type_href, "content_type.load", what="ContentType")["typeId"]),
        main_language_code=node.string("mainLanguageCode"),
        fields=field_inputs(node),
        locations=locations,
        section_id=opt_section_id(refs, node),
        owner_id=user_id_of(owner, "User") if owner else None,
        remote_id=node.opt_string("remoteId") or None,
        always_available=node.opt_boolean("alwaysAvailable"),
        modification_date=_date(node, "modificationDate"),
    )


@parses("ContentUpdate")
def parse_content_update(node: Node, refs: Refs) -> ContentUpdate:
    owner = node.opt_href("Owner")
    main_location = node.opt_href("MainLocation")
    return ContentUpdate(
        main_language_code=node.opt_string("mainLanguageCode") or None,
        section_id=opt_section_id(refs, node),
        main_location_id=location_id_of(refs, main_location, "MainLocation") if main_location else None,
        owner_id=user_id_of(owner, "Owner") if owner else None,
        always_available=node.opt_boolean("alwaysAvailable"),
        remote_id=node.opt_string("remoteId") or None,
        modification_date=_date(node, "modificationDate"),
        published_date=_date(node, "publishDate") or _date(node, "publishedDate"),
    )


@parses("VersionUpdate")
def parse_version_update(node: Node, _refs: Refs) -> VersionUpdate:
    return VersionUpdate(
        fields=field_inputs(node),
        initial_language_code=node.opt_string("initialLanguageCode") or None,
        modification_date=_date(node, "modificationDate"),
    )


@parses("RelationCreate")
def parse_relation_create(node: Node, refs: Refs) -> int:
    """The destination content id of a RelationCreate."""
    return content_id_of(refs, node.href("Destination"), "Destination")


def parse_destination(header: str | None) -> int:
    """COPY content: the ``Destination`` header's last path segment is the parent location id."""
    return last_id(header, "The Destination header must be a parent location href")


def last_id(raw: str | None, problem: str) -> int:
    """The id in the last segment of a path or href; BadRequest saying ``problem`` otherwise."""
    text = (raw or "").strip()
    last = parse_int(text.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1])
    if last is None or not 0 < last <= MAX_ID:
        raise BadRequest(f"{problem}, got '{text}'")
    return last


def parse_languages(raw: str | None) -> tuple[str, ...]:
    """``?languages=eng-GB,ger-DE``."""
    return tuple(code.strip() for code in (raw or "").split(",") if code.strip())
