"""Content items: create, load (ContentInfo or Content), find by remote id, update metadata, delete,
copy, hide/reveal, delete a translation, and the redirects to the current version."""

from __future__ import annotations

from pressroom.domain.content import ContentInfo
from pressroom.domain.errors import BadRequest
from pressroom.rest.input.content import (
    parse_content_create,
    parse_content_update,
    parse_destination,
    parse_languages,
)
from pressroom.rest.output.content import ContentView
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent, Redirect


def find_content(req: RestRequest) -> Redirect:
    remote_id = req.query.get("remoteId")
    if not remote_id:
        raise BadRequest("GET /content/objects needs the query parameter 'remoteId'")
    info = req.services.content.find_by_remote_id(req.user, remote_id)
    return Redirect(req.url("content.load", contentId=info.id))


def create_content(req: RestRequest) -> Created[ContentView | ContentInfo]:
    version = req.services.content.create(req.user, req.input(parse_content_create))
    location = req.url("content.load", contentId=version.content.id)
    return Created(location, ContentView(version) if req.wants("Content") else version.content)


def load_content(req: RestRequest, contentId: int) -> ContentView | ContentInfo:
    if req.wants("Content"):
        languages = parse_languages(req.query.get("languages"))
        return ContentView(req.services.content.load(req.user, contentId, languages), languages)
    return req.services.content.load_info(req.user, contentId)


def update_content(req: RestRequest, contentId: int) -> ContentInfo:
    return req.services.content.update(req.user, contentId, req.input(parse_content_update), req.if_match)


def delete_content(req: RestRequest, contentId: int) -> NoContent:
    req.services.content.delete(req.user, contentId)
    return NoContent()


def copy_content(req: RestRequest, contentId: int) -> Created[None]:
    copy = req.services.content.copy(req.user, contentId, parse_destination(req.headers.get("destination")))
    return Created(req.url("content.load", contentId=copy.id))


def hide_content(req: RestRequest, contentId: int) -> NoContent:
    req.services.content.hide(req.user, contentId)
    return NoContent()


def reveal_content(req: RestRequest, contentId: int) -> NoContent:
    req.services.content.reveal(req.user, contentId)
    return NoContent()


def delete_translation(req: RestRequest, contentId: int, languageCode: str) -> NoContent:
    req.services.content.delete_translation(req.user, contentId, languageCode)
    return NoContent()


def current_version(req: RestRequest, contentId: int) -> Redirect:
    version_no = req.services.versions.current_version_no(req.user, contentId)
    return Redirect(req.url("version.load", contentId=contentId, versionNo=version_no))


def current_relations(req: RestRequest, contentId: int) -> Redirect:
    version_no = req.services.versions.current_version_no(req.user, contentId)
    return Redirect(req.url("relation.list", contentId=contentId, versionNo=version_no))
