"""Visitors for the root resource, sections, languages and countries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pressroom.domain.country import Country
from pressroom.domain.language import Language
from pressroom.domain.section import Section
from pressroom.rest.output.lists import ItemList, list_kind
from pressroom.rest.output.visitor import Out, Representation, visits


@dataclass(frozen=True, slots=True)
class Root:
    pass


@dataclass(frozen=True, slots=True)
class CountryList:
    countries: tuple[Country, ...]


# (name, media type name, path below the prefix) in the order of spec/shapes-content.md §2.
ROOT_ENTRIES = (
    ("content", "", "/content/objects"),
    ("contentByRemoteId", "", "/content/objects{?remoteId}"),
    ("contentTypes", "ContentTypeInfoList", "/content/types"),
    ("contentTypeByIdentifier", "", "/content/types{?identifier}"),
    ("contentTypeGroups", "ContentTypeGroupList", "/content/typegroups"),
    ("contentTypeGroupByIdentifier", "", "/content/typegroups{?identifier}"),
    ("users", "UserRefList", "/user/users"),
    ("usersByRoleId", "UserRefList", "/user/users{?roleId}"),
    ("usersByRemoteId", "UserRefList", "/user/users{?remoteId}"),
    ("usersByEmail", "UserRefList", "/user/users{?email}"),
    ("usersByLogin", "UserRefList", "/user/users{?login}"),
    ("roles", "RoleList", "/user/roles"),
    ("rootLocation", "Location", "/content/locations/1/2"),
    ("rootUserGroup", "UserGroup", "/user/groups/1/5"),
    ("rootMediaFolder", "Location", "/content/locations/1/43"),
    ("locationByRemoteId", "", "/content/locations{?remoteId}"),
    ("locationByPath", "", "/content/locations{?locationPath}"),
    ("trash", "Trash", "/content/trash"),
    ("sections", "SectionList", "/content/sections"),
    ("views", "RefList", "/views"),
    ("objectStateGroups", "ObjectStateGroupList", "/content/objectstategroups"),
    ("objectStates", "ObjectStateList", "/content/objectstategroups/{objectStateGroupId}/objectstates"),
    ("globalUrlAliases", "UrlAliasRefList", "/content/urlaliases"),
    ("urlWildcards", "UrlWildcardList", "/content/urlwildcards"),
    ("createSession", "UserSession", "/user/sessions"),
    ("refreshSession", "UserSession", "/user/sessions/{sessionId}/refresh"),
    ("createToken", "JWT", "/user/token/jwt"),
)


@visits(Root, "Root")
def visit_root(out: Out, _root: Root) -> Representation:
    body: dict[str, Any] = {"_media-type": out.media("Root")}
    for name, media, path in ROOT_ENTRIES:
        body[name] = {"_media-type": out.media(media), "_href": out.href(path)}
    return Representation.single("Root", body, ("root", out.rendering.dialect))


def section_body(out: Out, section: Section) -> dict[str, Any]:
    return {
        "_media-type": out.media("Section"),
        "_href": out.url("section.load", sectionId=section.id),
        "sectionId": section.id,
        "identifier": section.identifier,
        "name": section.name,
    }


@visits(Section, "Section")
def visit_section(out: Out, section: Section) -> Representation:
    return Representation.single("Section", section_body(out, section), section, patch="SectionInput")


SectionList = ItemList[Literal["SectionList"], Section]
list_kind("SectionList", "Section", section_body, tagged=True)


def language_body(out: Out, language: Language) -> dict[str, Any]:
    return {
        "_media-type": out.media("Language"),
        "_href": out.url("language.load", code=language.language_code),
        "languageId": language.id,
        "languageCode": language.language_code,
        "name": language.name,
    }


@visits(Language, "Language")
def visit_language(out: Out, language: Language) -> Representation:
    return Representation.single("Language", language_body(out, language), language)


LanguageList = ItemList[Literal["LanguageList"], Language]
list_kind("LanguageList", "Language", language_body)


@visits(CountryList, "CountryList")
def visit_country_list(out: Out, value: CountryList) -> Representation:
    media = out.media("Country")
    body = {
        "_media-type": out.media("CountryList"),
        "Country": [
            {
                "_media-type": media,
                "_id": c.alpha2,
                "name": c.name,
                "Alpha2": c.alpha2,
                "Alpha3": c.alpha3,
                "Numeric": c.numeric,
                "IDC": c.dialing_code,
            }
            for c in value.countries
        ],
    }
    return Representation.single("CountryList", body, ("countries", len(value.countries)))
