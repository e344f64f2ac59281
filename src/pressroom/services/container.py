"""The services one application instance uses, built once by ``app.create_app``."""

from __future__ import annotations

from dataclasses import dataclass

from pressroom.services.auth import AuthService
from pressroom.services.bookmark import BookmarkService
from pressroom.services.content import ContentService
from pressroom.services.content_type import ContentTypeService
from pressroom.services.content_type_group import ContentTypeGroupService
from pressroom.services.events import EventService
from pressroom.services.field_definition import FieldDefinitionService
from pressroom.services.file import FileService
from pressroom.services.health import HealthService
from pressroom.services.image import ImageService
from pressroom.services.language import LanguageService
from pressroom.services.location import LocationService
from pressroom.services.oauth import OAuthService
from pressroom.services.object_state import ObjectStateService
from pressroom.services.permissions import Permissions
from pressroom.services.relation import RelationService
from pressroom.services.role import RoleService
from pressroom.services.role_assignment import RoleAssignmentService
from pressroom.services.search import SearchService
from pressroom.services.section import SectionService
from pressroom.services.trash import TrashService
from pressroom.services.url_alias import UrlAliasService, UrlWildcardService
from pressroom.services.user import UserService
from pressroom.services.user_group import UserGroupService
from pressroom.services.version import VersionService


@dataclass(frozen=True, slots=True)
class Services:
    permissions: Permissions
    auth: AuthService
    sections: SectionService
    languages: LanguageService
    content_type_groups: ContentTypeGroupService
    content_types: ContentTypeService
    field_definitions: FieldDefinitionService
    files: FileService
    content: ContentService
    versions: VersionService
    relations: RelationService
    locations: LocationService
    object_states: ObjectStateService
    bookmarks: BookmarkService
    images: ImageService
    health: HealthService
    url_aliases: UrlAliasService
    url_wildcards: UrlWildcardService
    users: UserService
    user_groups: UserGroupService
    trash: TrashService
    roles: RoleService
    role_assignments: RoleAssignmentService
    search: SearchService
    events: EventService
    oauth: OAuthService
