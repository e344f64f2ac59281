"""Versions of a content item and their relations."""

from __future__ import annotations

from pressroom.domain.content import Relation, Version
from pressroom.rest.input.content import parse_languages, parse_relation_create, parse_version_update
from pressroom.rest.output.content import VersionList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent
from pressroom.services.relation import RelationList


def _created(req: RestRequest, version: Version) -> Created[Version]:
    location = req.url("version.load", contentId=version.content.id, versionNo=version.info.version_no)
    return Created(location, version)


def list_versions(req: RestRequest, contentId: int) -> VersionList:
    return VersionList(*req.services.versions.list(req.user, contentId))


def load_version(req: RestRequest, contentId: int, versionNo: int) -> Version:
    return req.services.versions.load(
        req.user, contentId, versionNo, parse_languages(req.query.get("languages"))
    )


def update_version(req: RestRequest, contentId: int, versionNo: int) -> Version:
    struct = req.input(parse_version_update)
    return req.services.versions.update(
        req.user, contentId, versionNo, struct, req.if_match, parse_languages(req.query.get("languages"))
    )


def delete_version(req: RestRequest, contentId: int, versionNo: int) -> NoContent:
    req.services.versions.delete(req.user, contentId, versionNo)
    return NoContent()


def copy_version(req: RestRequest, contentId: int, versionNo: int) -> Created[Version]:
    return _created(req, req.services.versions.copy(req.user, contentId, versionNo))


def copy_current_version(req: RestRequest, contentId: int) -> Created[Version]:
    return _created(req, req.services.versions.copy_current(req.user, contentId))


def publish_version(req: RestRequest, contentId: int, versionNo: int) -> NoContent:
    req.services.versions.publish(req.user, contentId, versionNo)
    return NoContent()


def delete_version_translation(
    req: RestRequest, contentId: int, versionNo: int, languageCode: str
) -> NoContent:
    req.services.versions.delete_translation(req.user, contentId, versionNo, languageCode)
    return NoContent()


def list_relations(req: RestRequest, contentId: int, versionNo: int) -> RelationList:
    offset, limit = req.query_int("offset", 0), req.query_int("limit", -1)
    return req.services.relations.list(req.user, contentId, versionNo, offset, None if limit < 0 else limit)


def create_relation(req: RestRequest, contentId: int, versionNo: int) -> Created[Relation]:
    relation = req.services.relations.create(req.user, contentId, versionNo, req.input(parse_relation_create))
    location = req.url("relation.load", contentId=contentId, versionNo=versionNo, relationId=relation.id)
    return Created(location, relation)


def load_relation(req: RestRequest, contentId: int, versionNo: int, relationId: int) -> Relation:
    return req.services.relations.load(req.user, contentId, versionNo, relationId)


def delete_relation(req: RestRequest, contentId: int, versionNo: int, relationId: int) -> NoContent:
    req.services.relations.delete(req.user, contentId, versionNo, relationId)
    return NoContent()
