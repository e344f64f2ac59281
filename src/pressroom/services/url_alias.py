"""Custom and global URL aliases, and URL wildcards: list, load, create, delete.

The aliases generated from content names are made and kept by ``url_alias_ops`` as content is published
and moved; a client adds custom ones (of a location, or of a resource such as ``module:content/search``).
"""

from __future__ import annotations

import builtins

from pressroom.domain.errors import Forbidden, NotRemovable, found
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.url_alias import (
    NOP,
    ROOT_NODE,
    AliasEntry,
    UrlAlias,
    UrlAliasCreate,
    UrlWildcard,
    UrlWildcardCreate,
    clean_url,
    is_resource,
    location_action,
    parse_rest_id,
    placeholders_fit,
    slugify,
    split_path,
    text_md5,
)
from pressroom.domain.user import User
from pressroom.services.event_log import record
from pressroom.services.permissions import Permissions, content_target
from pressroom.services.url_alias_ops import with_paths
from pressroom.storage.spi import Store, Tx


class UrlAliasService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    def list_global(self, user: User) -> builtins.list[AliasEntry]:
        self.permissions.require(user, "content", "read")
        with self.store.read(caller=user.request) as tx:
            return tx.url_aliases.global_entries()

    def load(self, user: User, alias_id: str) -> UrlAlias:
        self.permissions.require(user, "content", "read")
        with self.store.read(caller=user.request) as tx:
            return with_paths(tx, [self._get(tx, alias_id)])[0]

    def _get(self, tx: Tx, alias_id: str) -> AliasEntry:
        key = parse_rest_id(alias_id)
        entry = None if key is None else tx.url_aliases.get(*key)
        return found(entry, "URLAlias", alias_id)

    def create(self, user: User, struct: UrlAliasCreate) -> UrlAlias:
        """A custom alias. NotFound (location); Forbidden when the path is taken, the language is not
        installed or the resource is not ``scheme:target``."""
        self.permissions.require(user, "content", "urltranslator")
        segments = split_path(struct.path)
        if not segments:
            raise Forbidden("The path of a URL alias must have at least one segment")
        with self.store.write(
            "shared", caller=user.request
        ) as tx:  # its location stays until the alias is in
            if struct.location_id is not None:
                location = found(
                    tx.locations.get(struct.location_id, UNRESTRICTED), "Location", struct.location_id
                )
                info = tx.content.get(location.content_id) if location.content_id else None
                if info is not None:  # content/urltranslator on the location (permissions.md §3)
                    target = content_target(info, locations=(location,))
                    self.permissions.require(user, "content", "urltranslator", target=target, tx=tx)
                action = location_action(struct.location_id)
            elif struct.resource is not None and is_resource(struct.resource):
                action = struct.resource
            else:
                raise Forbidden(f"Resource '{struct.resource}' is not of the form 'module:target'")
            if tx.languages.by_code(struct.language_code) is None:
                raise Forbidden(f"Language '{struct.language_code}' is not installed")
            parent = _placeholders(tx, segments[:-1])
            text = slugify(segments[-1], f"noname{len(segments)}")
            existing = tx.url_aliases.get(parent, text_md5(text))
            if existing is not None and (existing.is_original or existing.is_custom):
                raise Forbidden(f"Path '{struct.path}' already exists for the given language")
            entry = AliasEntry(
                parent=parent,
                text_md5=text_md5(text),
                text=text,
                node=existing.node
                if existing is not None and existing.action == NOP
                else tx.url_aliases.new_node(),
                action=action,
                is_original=True,
                is_custom=True,
                forward=struct.forward,
                always_available=struct.always_available,
                language_codes=(struct.language_code,),
            )
            tx.url_aliases.save(entry)
            alias = with_paths(tx, [entry])[0]
            record(
                tx,
                "url_alias.created",
                user.id,
                f"url_alias/{alias.id}",
                _payload(alias.id, alias.path, action),
            )
            return alias

    def delete(self, user: User, alias_id: str) -> None:
        """NotFound; NotRemovable for a generated alias (it goes with its location)."""
        self.permissions.require(user, "content", "urltranslator")
        with self.store.write(caller=user.request) as tx:
            entry = self._get(tx, alias_id)
            if not entry.is_custom:
                raise NotRemovable(f"URL alias '{alias_id}' was generated and cannot be removed")
            tx.url_aliases.delete([(entry.parent, entry.text_md5)])
            record(
                tx,
                "url_alias.deleted",
                user.id,
                f"url_alias/{alias_id}",
                _payload(alias_id, None, entry.action),
            )


def _placeholders(tx: Tx, segments: builtins.list[str]) -> int:
    """The node below which the last segment goes: existing segments are followed, missing ones are
    made as ``nop:`` placeholders."""
    parent = ROOT_NODE
    for level, segment in enumerate(segments, start=1):
        text = slugify(segment, f"noname{level}")
        entry = tx.url_aliases.get(parent, text_md5(text))
        if entry is None:
            entry = AliasEntry(
                parent, text_md5(text), text, tx.url_aliases.new_node(), NOP, False, False, False, False, ()
            )
            tx.url_aliases.save(entry)
        parent = entry.node
    return parent


class UrlWildcardService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    def list(self, user: User) -> builtins.list[UrlWildcard]:
        self.permissions.require(user, "content", "read")
        with self.store.read(caller=user.request) as tx:
            return tx.url_wildcards.list()

    def load(self, user: User, wildcard_id: int) -> UrlWildcard:
        self.permissions.require(user, "content", "read")
        with self.store.read(caller=user.request) as tx:
            return found(tx.url_wildcards.get(wildcard_id), "URLWildcard", wildcard_id)

    def create(self, user: User, struct: UrlWildcardCreate) -> UrlWildcard:
        """Forbidden when the source pattern exists or the destination names a ``{n}`` the source has
        no ``*`` for."""
        self.permissions.require(user, "content", "urltranslator")
        source, destination = clean_url(struct.source_url), clean_url(struct.destination_url)
        if not placeholders_fit(source, destination):
            raise Forbidden(
                "Placeholders of the destination URL do not match the wildcards of the source URL"
            )
        with self.store.write(caller=user.request) as tx:
            if tx.url_wildcards.source_exists(source):
                raise Forbidden(f"A URL wildcard with source URL '{source}' already exists")
            wildcard = tx.url_wildcards.create(UrlWildcardCreate(source, destination, struct.forward))
            record(tx, "url_wildcard.created", user.id, f"url_wildcard/{wildcard.id}", _wildcard(wildcard))
            return wildcard

    def delete(self, user: User, wildcard_id: int) -> None:
        self.permissions.require(user, "content", "urltranslator")
        with self.store.write(caller=user.request) as tx:
            wildcard = found(tx.url_wildcards.get(wildcard_id), "URLWildcard", wildcard_id)
            tx.url_wildcards.delete(wildcard_id)
            record(tx, "url_wildcard.deleted", user.id, f"url_wildcard/{wildcard_id}", _wildcard(wildcard))


def _payload(alias_id: str, path: str | None, action: str) -> dict[str, object]:
    return {"urlAliasId": alias_id, "path": path, "resource": action}


def _wildcard(wildcard: UrlWildcard) -> dict[str, object]:
    return {
        "urlWildcardId": wildcard.id,
        "sourceUrl": wildcard.source_url,
        "destinationUrl": wildcard.destination_url,
    }
