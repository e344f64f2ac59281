"""A repository for search tests, built through the services on top of the clean install."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pressroom.domain.content import ContentCreate, ContentUpdate, FieldInput, Version
from pressroom.domain.location import LocationCreate
from pressroom.domain.search import LocationHit, SearchQuery, SearchResult
from pressroom.domain.user import User
from pressroom.services.bookmark import BookmarkService
from pressroom.services.content import ContentService
from pressroom.services.language import LanguageService
from pressroom.services.location import LocationService
from pressroom.services.object_state import ObjectStateService
from pressroom.services.permissions import Permissions
from pressroom.services.search import SearchService
from pressroom.services.trash import TrashService
from pressroom.services.version import VersionService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.store import SqlStore

ADMIN = User(14, "admin", "admin@link.invalid", True)
ANONYMOUS = User(10, "anonymous", "", True, is_anonymous=True)
FOLDER = 1  # content type ids of the clean install
ARTICLE = 2
# Published items of the clean install, and their locations (the virtual root, location 1, is no hit).
INSTALL_CONTENT = [1, 4, 10, 11, 12, 13, 14, 41, 42, 49, 50, 51]
INSTALL_LOCATIONS = [2, 5, 12, 13, 14, 15, 43, 44, 45, 51, 52, 53]


def at(day: int) -> datetime:
    return datetime(2024, 1, day, 12, 0, 0, tzinfo=UTC)


class Repo:
    """The services over one store, with short ways to make published items."""

    def __init__(self, store: SqlStore, root: Path) -> None:
        files = LocalFileStore(root)
        self.store = store
        self.permissions = Permissions(store)
        self.content = ContentService(store, self.permissions, files)
        self.versions = VersionService(store, self.permissions, files)
        self.locations = LocationService(store, self.permissions, files)
        self.trash = TrashService(store, self.permissions, self.locations, files)
        self.object_states = ObjectStateService(store, self.permissions)
        self.bookmarks = BookmarkService(store, self.permissions)
        self.search = SearchService(store, self.permissions, self.content.versions)
        self.languages = LanguageService(store)

    def draft(
        self,
        name: str,
        parent: int = 2,
        *,
        type_id: int = FOLDER,
        language: str = "eng-GB",
        fields: tuple[FieldInput, ...] = (),
        location: LocationCreate | None = None,
        **metadata: object,
    ) -> Version:
        identifier = "title" if type_id == ARTICLE else "name"
        struct = ContentCreate(
            type_id,
            language,
            (FieldInput(identifier, None, name), *fields),
            (location or LocationCreate(parent),),
            **metadata,  # type: ignore[arg-type]
        )
        return self.content.create(ADMIN, struct)

    def item(
        self,
        name: str,
        parent: int = 2,
        *,
        published: datetime | None = None,
        modified: datetime | None = None,
        **options: object,
    ) -> int:
        """Create and publish an item; returns its content id."""
        draft = self.draft(name, parent, **options)  # type: ignore[arg-type]
        self.versions.publish(ADMIN, draft.content.id, 1)
        if published or modified:
            update = ContentUpdate(published_date=published, modification_date=modified)
            self.content.update(ADMIN, draft.content.id, update, None)
        return draft.content.id

    def main_location(self, content_id: int) -> int:
        info = self.content.load_info(ADMIN, content_id)
        assert info.main_location_id is not None
        return info.main_location_id

    def content_ids(self, query: SearchQuery, user: User = ADMIN) -> list[int]:
        return [hit.value.content.id for hit in self.search.find_content(user, query).hits]

    def location_ids(self, query: SearchQuery, user: User = ADMIN) -> list[int]:
        return [hit.value.location.id for hit in self.find_locations(query, user).hits]

    def find_locations(self, query: SearchQuery, user: User = ADMIN) -> SearchResult[LocationHit]:
        return self.search.find_locations(user, query)
