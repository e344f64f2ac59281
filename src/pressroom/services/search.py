"""Search views: published content items or their locations matching a query, as the caller may read them.

One read transaction per search: the caller's read criterion ANDed with the query's filter and query
criteria (and its language filter) is compiled once (``SearchScope``); one statement finds the page of
ids, one counts the matches (left out when the page itself tells the total), aggregations run over the
same scope, and the page's items are loaded in batch (no statement per hit): one statement reads them
with their current versions and stamps, and fields and relations come from the per-process cache of
current versions (``services/version_cache.py``, shared with content GETs) where it holds them under the
item's stamp, the others in one statement each.

Choices where the reference leaves room: the virtual root (location 1, without content) is never a hit;
an item is visible when it is not hidden and has at least one visible location; without sort clauses
hits come by id (item id, or location id in a location search).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pressroom.domain import query as q
from pressroom.domain.content import Version
from pressroom.domain.errors import BadRequest, InvalidArgument, NotFound
from pressroom.domain.search import (
    Aggregation,
    AggregationResult,
    LocationHit,
    SearchHit,
    SearchQuery,
    SearchResult,
    SortClause,
    SortKey,
)
from pressroom.domain.user import User
from pressroom.services.aggregations import AggregationKeys
from pressroom.services.content_access import draft_reader
from pressroom.services.permissions import Permissions
from pressroom.services.version_assembly import load_cached_versions
from pressroom.services.version_cache import VersionCache
from pressroom.storage.spi import SearchScope, Store, Tx


class SearchService:
    def __init__(self, store: Store, permissions: Permissions, versions: VersionCache) -> None:
        self.store = store
        self.permissions = permissions
        self.versions = versions  # the content service's: a hit and a content GET share entries

    def find_content(self, user: User, query: SearchQuery) -> SearchResult[Version]:
        """The published items matching ``query`` that ``user`` may read, each with its current version."""
        started = time.perf_counter()
        with self.store.read(caller=user.request) as tx:
            scope, ids, total = self._search(tx, user, query, locations=False)
            readable = self.permissions.read_criterion(user, tx)
            items = tx.content.get_many_current(ids)
            drafts = draft_reader(self.permissions, user, tx)
            current = [items[i] for i in ids if i in items]
            versions = load_cached_versions(tx, current, self.versions, readable, drafts)
            scores = scope.scores(list(versions))
            hits = tuple(SearchHit(versions[i], _score(scores, i)) for i in ids if i in versions)
            aggregations = self.aggregate(tx, user, scope, query.aggregations)
        return SearchResult(hits, total, _max_score(hits), _elapsed(started), aggregations)

    def find_locations(self, user: User, query: SearchQuery) -> SearchResult[LocationHit]:
        """The locations of published items matching ``query`` that ``user`` may read, each with its
        content info and the item's current version; child counts count only readable children."""
        started = time.perf_counter()
        with self.store.read(caller=user.request) as tx:
            scope, ids, total = self._search(tx, user, query, locations=True)
            readable = self.permissions.read_criterion(user, tx)
            found = tx.locations.get_many(ids, readable)
            items = tx.content.get_many_current(loc.content_id for loc in found.values() if loc.content_id)
            drafts = draft_reader(self.permissions, user, tx)
            versions = load_cached_versions(tx, list(items.values()), self.versions, readable, drafts)
            scores = scope.scores(list(versions))
            hits = []
            for location_id in ids:
                location = found.get(location_id)
                version = versions.get(location.content_id or 0) if location else None
                if location is not None and version is not None:
                    hit = LocationHit(replace(location, content_info=version.content), version)
                    hits.append(SearchHit(hit, _score(scores, version.content.id)))
            aggregations = self.aggregate(tx, user, scope, query.aggregations)
        return SearchResult(tuple(hits), total, _max_score(hits), _elapsed(started), aggregations)

    def aggregate(
        self, tx: Tx, user: User, scope: SearchScope, aggregations: Sequence[Aggregation]
    ) -> tuple[AggregationResult, ...]:
        """The results of ``aggregations`` over what the search matches (``scope``: the same condition
        as its page and count), their keys loaded as ``user`` may see them."""
        if not aggregations:
            return ()
        names = [aggregation.name for aggregation in aggregations]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise BadRequest(f"Aggregation names must be unique; repeated: {', '.join(repeated)}")
        return AggregationKeys(tx, self.permissions, user).resolve(
            aggregations, scope.aggregate(aggregations)
        )

    def _search(
        self, tx: Tx, user: User, query: SearchQuery, *, locations: bool
    ) -> tuple[SearchScope, list[int], int]:
        """The scope of the search, the ids of its page and the total number of matches."""
        if query.limit < 0:
            raise BadRequest("'limit' must not be negative")
        if query.offset < 0:
            raise BadRequest("'offset' must not be negative")
        criterion = q.all_of(
            [
                _Resolver(tx, user).visit(query.filter),
                _Resolver(tx, user).visit(query.query),
                _languages(query),
            ]
        )
        _Resolver(tx, user).check_sort(query.sort)
        readable = self.permissions.read_criterion(user, tx)
        scope = tx.search.scope(criterion, locations=locations, readable=readable)
        ids = scope.page(query.sort, query.offset, query.limit) if query.limit else []
        if query.limit and len(ids) < query.limit and (ids or not query.offset):
            total = query.offset + len(ids)  # a page that is not full tells the total
        else:
            total = scope.count()
        return scope, ids, total


def _languages(query: SearchQuery) -> q.Criterion:
    if query.languages is None:
        return q.MatchAll()
    return q.LanguageCode(query.languages, query.use_always_available)


def _score(scores: dict[int, float] | None, content_id: int) -> float | None:
    return None if scores is None else scores.get(content_id, 0.0)


def _max_score(hits: Sequence[SearchHit[Any]]) -> float | None:
    """The best score of the page (None when the search asks for no full text, as nothing is ranked)."""
    scored = [hit.score for hit in hits if hit.score is not None]
    return max(scored) if scored else None


def _elapsed(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


class _Resolver:
    """Replaces what only the database can resolve: content type identifiers and parent location remote
    ids by ids (NotFound for an unknown one), and the caller in IsBookmarked."""

    def __init__(self, tx: Tx, user: User) -> None:
        self.tx = tx
        self.user = user

    def visit(self, criterion: q.Criterion) -> q.Criterion:
        if isinstance(criterion, q.LogicalAnd | q.LogicalOr):
            return type(criterion)(tuple(self.visit(part) for part in criterion.criteria))
        if isinstance(criterion, q.LogicalNot):
            return q.LogicalNot(self.visit(criterion.criterion))
        if isinstance(criterion, q.ContentTypeIdentifier):
            return q.ContentTypeId(tuple(self._type_id(identifier) for identifier in criterion.identifiers))
        if isinstance(criterion, q.ParentLocationRemoteId):
            return q.ParentLocationId(
                tuple(self._location_id(remote_id) for remote_id in criterion.remote_ids)
            )
        if isinstance(criterion, q.IsBookmarked):
            return replace(criterion, user_id=self.user.id)
        return criterion

    def check_sort(self, clauses: Sequence[SortClause]) -> None:
        """A Field sort names a field definition of a defined content type (else InvalidArgument, as the
        reference answers a sort target without a field)."""
        for clause in clauses:
            if clause.key is not SortKey.FIELD or not clause.type_identifier or not clause.field_identifier:
                continue
            content_type = self.tx.content_types.by_identifier(clause.type_identifier)
            if content_type is None or content_type.field_definition(clause.field_identifier) is None:
                raise InvalidArgument(
                    f"Sort clause 'Field': content type '{clause.type_identifier}' has no field definition "
                    f"'{clause.field_identifier}'"
                )

    def _type_id(self, identifier: str) -> int:
        content_type = self.tx.content_types.by_identifier(identifier)
        if content_type is None:
            raise NotFound(f"Could not find 'ContentType' with identifier '{identifier}'")
        return content_type.id

    def _location_id(self, remote_id: str) -> int:
        location = self.tx.locations.by_remote_id(remote_id)
        if location is None:
            raise NotFound(f"Could not find 'Location' with remote id '{remote_id}'")
        return location.id
