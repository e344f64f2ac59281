"""Root, sections, languages and countries."""

from __future__ import annotations

from pressroom.domain.language import Language
from pressroom.domain.section import Section, SectionCreate, SectionUpdate
from pressroom.rest.input.registry import plain
from pressroom.rest.output.basics import CountryList, LanguageList, Root, SectionList
from pressroom.rest.output.lists import ItemList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent
from pressroom.services.country import countries


def load_root(req: RestRequest) -> Root:
    return Root()


def list_sections(req: RestRequest) -> SectionList:
    # The interface spells the parameter "identifer"; clients send either spelling.
    identifier = req.query.get("identifier", req.query.get("identifer"))
    return ItemList("SectionList", req.url("section.list"), req.services.sections.list(req.user, identifier))


def _section_input(req: RestRequest) -> tuple[str, str]:
    node = req.input(plain)
    return node.string("identifier"), node.string("name")


def create_section(req: RestRequest) -> Created[Section]:
    identifier, name = _section_input(req)
    section = req.services.sections.create(req.user, SectionCreate(identifier, name))
    return Created(req.url("section.load", sectionId=section.id), section)


def load_section(req: RestRequest, sectionId: int) -> Section:
    return req.services.sections.load(req.user, sectionId)


def update_section(req: RestRequest, sectionId: int) -> Section:
    node = req.input(plain)
    struct = SectionUpdate(node.opt_string("identifier"), node.opt_string("name"))
    return req.services.sections.update(req.user, sectionId, struct, req.if_match)


def delete_section(req: RestRequest, sectionId: int) -> NoContent:
    req.services.sections.delete(req.user, sectionId)
    return NoContent()


def list_languages(req: RestRequest) -> LanguageList:
    return ItemList("LanguageList", req.url("language.list"), req.services.languages.list(req.user))


def load_language(req: RestRequest, code: str) -> Language:
    return req.services.languages.load(req.user, code)


def list_countries(req: RestRequest) -> CountryList:
    return CountryList(countries())
