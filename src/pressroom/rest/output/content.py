"""Visitors for content items, versions and relations (spec/shapes-content.md §3-§7)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pressroom.domain.content import ContentInfo, Relation, Version, VersionInfo, relation_type_names
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.tags import value_tag
from pressroom.rest.output.lists import ItemList, list_kind, visit_item_list
from pressroom.rest.output.visitor import Out, Representation, translated, visits
from pressroom.rest.output.wire import RestWireContext
from pressroom.rest.output.writers import Hash
from pressroom.services.relation import RelationList

# The reference's Version schema requires every Thumbnail key; with no image field to take one from, it
# falls back to the content type's icon, a fixed SVG with no dimensions (shapes-content.md §4).
ICON_THUMBNAIL: dict[str, Any] = {
    "resource": "/placeholder",
    "width": None,
    "height": None,
    "mimeType": "image/svg+xml",
}


@dataclass(frozen=True, slots=True)
class ContentView:
    """The Content representation: the item with its current version embedded."""

    version: Version
    languages: tuple[str, ...] = ()

    @property
    def cache_key(self) -> Hashable | None:
        """Set when the service could stamp the version: the rendered bytes are then kept."""
        stamp = self.version.stamp
        return None if stamp is None else ("Content", stamp, self.languages)


@dataclass(frozen=True, slots=True)
class VersionList:
    content: ContentInfo
    versions: list[VersionInfo]


def iso(moment: datetime) -> str:
    return moment.isoformat()


def user_ref(out: Out, user_id: int) -> dict[str, Any]:
    return out.ref("User", "user.load", userId=user_id)


def content_ref(out: Out, content_id: int, media: str = "ContentInfo") -> dict[str, Any]:
    return out.ref(media, "content.load", contentId=content_id)


def content_body(out: Out, info: ContentInfo, media: str, languages: tuple[str, ...] = ()) -> dict[str, Any]:
    """The ContentInfo shape; the Content shape adds ``CurrentVersion.Version`` to it."""
    body: dict[str, Any] = {
        "_media-type": out.media(media),
        "_href": out.url("content.load", contentId=info.id),
        "_remoteId": info.remote_id,
        "_id": info.id,
        "ContentType": out.ref("ContentType", "content_type.load", typeId=info.content_type_id),
        "Name": info.name,
        "TranslatedName": info.translated_name(languages),
        "Versions": out.ref("VersionList", "version.list", contentId=info.id),
        "CurrentVersion": out.ref("Version", "content.current_version", contentId=info.id),
        "Section": out.ref("Section", "section.load", sectionId=info.section_id),
    }
    if info.main_location_path:
        body["MainLocation"] = out.ref("Location", "location.load", path=info.main_location_path)
    body["Locations"] = out.ref("LocationList", "content.locations", contentId=info.id)
    body["Owner"] = user_ref(out, info.owner_id)
    body["lastModificationDate"] = iso(info.modification_date)
    if info.published_date is not None:
        body["publishedDate"] = iso(info.published_date)
    body["mainLanguageCode"] = info.main_language_code
    body["currentVersionNo"] = info.current_version_no
    body["alwaysAvailable"] = info.always_available
    body["isHidden"] = info.is_hidden
    body["status"] = info.status
    body["ObjectStates"] = {
        "_media-type": out.media("ContentObjectStates"),
        "_href": out.href(f"/content/objects/{info.id}/objectstates"),
    }
    return body


@visits(ContentInfo, "ContentInfo", root="Content")
def visit_content_info(out: Out, value: ContentInfo) -> Representation:
    return Representation(
        "Content",
        "ContentInfo",
        content_body(out, value, "ContentInfo"),
        accept_patch="ContentUpdate",
        etag=value_tag(value),
    )


def full_content_body(out: Out, version: Version, languages: tuple[str, ...] = ()) -> dict[str, Any]:
    """The Content shape: the item with its current ``version`` embedded (also a search hit's value)."""
    body = content_body(out, version.content, "Content", languages)
    body["CurrentVersion"]["Version"] = version_body(out, version)
    return body


@visits(ContentView, "Content")
def visit_content(out: Out, value: ContentView) -> Representation:
    body = full_content_body(out, value.version, value.languages)
    return Representation.single("Content", body, value.version.content, patch="ContentUpdate")


def version_info_body(out: Out, content: ContentInfo, info: VersionInfo) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": info.id,
        "versionNo": info.version_no,
        "status": info.status,
        "modificationDate": iso(info.modification_date),
        "Creator": user_ref(out, info.creator_id),
        "creationDate": iso(info.creation_date),
        "initialLanguageCode": info.initial_language_code,
        "languageCodes": ",".join(info.language_codes),
    }
    if info.language_codes:
        deletable = info.is_draft and len(info.language_codes) > 1
        languages = []
        for code in info.language_codes:
            item: dict[str, Any] = {"languageCode": code}
            if deletable and code != content.main_language_code:
                item["DeleteTranslation"] = {
                    "_href": out.url(
                        "version.delete_translation",
                        contentId=content.id,
                        versionNo=info.version_no,
                        languageCode=code,
                    )
                }
            languages.append(item)
        body["VersionTranslationInfo"] = {
            "_media-type": out.media("VersionTranslationInfo"),
            "Language": languages,
        }
    body["names"] = translated(info.names)
    body["Content"] = content_ref(out, content.id)
    return body


def version_body(out: Out, version: Version) -> dict[str, Any]:
    content, info = version.content, version.info
    wire = RestWireContext(out)
    fields = [
        {
            "id": field.id,
            "fieldDefinitionIdentifier": field.identifier,
            "languageCode": field.language_code,
            "fieldTypeIdentifier": field.field_type,
            "fieldValue": Hash(get_field_type(field.field_type).to_wire(field.value, wire)),
        }
        for field in version.fields
    ]
    return {
        "_media-type": out.media("Version"),
        "_href": out.url("version.load", contentId=content.id, versionNo=info.version_no),
        "VersionInfo": version_info_body(out, content, info),
        "Fields": {"field": fields},
        "Relations": relation_list_body(out, content.id, info.version_no, version.relations),
        "Thumbnail": {"_media-type": out.media("Thumbnail"), **ICON_THUMBNAIL},
    }


@visits(Version, "Version")
def visit_version(out: Out, value: Version) -> Representation:
    return Representation.single("Version", version_body(out, value), value, patch="VersionUpdate")


def version_item_body(out: Out, item: tuple[ContentInfo, VersionInfo]) -> dict[str, Any]:
    """An item of a VersionList, which may list versions of several items (a user's drafts)."""
    info, version = item
    return {
        "Version": out.ref("Version", "version.load", contentId=info.id, versionNo=version.version_no),
        "VersionInfo": version_info_body(out, info, version),
    }


list_kind("VersionList", "VersionItem", version_item_body)


@visits(VersionList, "VersionList")
def visit_version_list(out: Out, value: VersionList) -> Representation:
    href = out.url("version.list", contentId=value.content.id)
    return visit_item_list(out, ItemList("VersionList", href, [(value.content, v) for v in value.versions]))


def relation_body(out: Out, relation: Relation) -> dict[str, Any]:
    body: dict[str, Any] = {
        "_media-type": out.media("Relation"),
        "_href": out.url(
            "relation.load",
            contentId=relation.source_content_id,
            versionNo=relation.source_version_no,
            relationId=relation.id,
        ),
        "SourceContent": content_ref(out, relation.source_content_id),
        "DestinationContent": content_ref(out, relation.destination_content_id),
    }
    if relation.source_field_identifier:
        body["SourceFieldDefinitionIdentifier"] = relation.source_field_identifier
    body["RelationType"] = relation_type_names(relation.type)
    return body


def relation_list_body(out: Out, content_id: int, version_no: int, relations: Any) -> dict[str, Any]:
    return {
        "_media-type": out.media("RelationList"),
        "_href": out.url("relation.list", contentId=content_id, versionNo=version_no),
        "Relation": [relation_body(out, r) for r in relations],
    }


@visits(Relation, "Relation")
def visit_relation(out: Out, value: Relation) -> Representation:
    return Representation.single("Relation", relation_body(out, value), value)


@visits(RelationList, "RelationList", root="Relations")
def visit_relation_list(out: Out, value: RelationList) -> Representation:
    body = relation_list_body(out, value.content.id, value.version_no, value.relations)
    return Representation("Relations", "RelationList", body)
