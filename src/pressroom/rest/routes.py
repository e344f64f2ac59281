"""The single route table: (methods, path below the prefix, handler, name). Names build hrefs.

The routes of one path are declared in the order the reference declares their methods: OPTIONS answers
``Allow`` in that order, and clients compare it by string (spec/options-allow.tsv).

Each entry also declares what its handler reads besides the path (``accepts``: input media types,
``query``: query parameters, ``:int`` for integers) and the error statuses it answers beyond the common ones
(see rest/declared.py); the request refuses to hand a handler anything undeclared, and the OpenAPI
document is generated from this table.
"""

from __future__ import annotations

from pressroom.config import DEFAULT_AUTH_METHODS
from pressroom.rest.declared import RAW
from pressroom.rest.handlers import basics, bookmarks, files, images, object_states, sessions
from pressroom.rest.handlers import content as co
from pressroom.rest.handlers import content_types as ct
from pressroom.rest.handlers import events as ev
from pressroom.rest.handlers import locations as lo
from pressroom.rest.handlers import roles as ro
from pressroom.rest.handlers import trash as tr
from pressroom.rest.handlers import url_aliases as ua
from pressroom.rest.handlers import user_groups as ug
from pressroom.rest.handlers import users as us
from pressroom.rest.handlers import versions as ve
from pressroom.rest.handlers import views as vi
from pressroom.rest.routing import Route, Router, make_route

_PAGE = "offset:int limit:int"

_GROUP = "/content/typegroups/{groupId:int}"
_TYPE = "/content/types/{typeId:int}"
_FIELDS = _TYPE + "/fieldDefinitions"
_DRAFT_FIELDS = _TYPE + "/draft/fieldDefinitions"
_FIELD = _FIELDS + "/{fieldDefinitionId:int}"
_DRAFT_FIELD = _DRAFT_FIELDS + "/{fieldDefinitionId:int}"
_CONTENT = "/content/objects/{contentId:int}"
_VERSION = _CONTENT + "/versions/{versionNo:int}"
_RELATIONS = _VERSION + "/relations"
_STATE_GROUP = "/content/objectstategroups/{groupId:int}"
_STATE = _STATE_GROUP + "/objectstates/{stateId:int}"
_BOOKMARK = "/bookmark/{locationId:int}"
_USER = "/user/users/{userId:int}"
_USER_GROUP = "/user/groups/{path:path}"
_LOCATION = "/content/locations/{path:path}"
_TRASH_ITEM = "/content/trash/{trashItemId:int}"
_ROLE = "/user/roles/{roleId:int}"
_POLICY = _ROLE + "/policies/{policyId:int}"
_USER_ROLES = "/user/users/{userId:int}/roles"
_GROUP_ROLES = "/user/groups/{path:path}/roles"
_WEBHOOK = "/webhooks/{webhookId:int}"

ROUTES: list[Route] = [
    make_route("GET", "/", basics.load_root, "root.load"),
    # sections
    make_route(
        "GET", "/content/sections", basics.list_sections, "section.list", query="identifier identifer"
    ),
    make_route("POST", "/content/sections", basics.create_section, "section.create", accepts="SectionInput"),
    make_route("GET", "/content/sections/{sectionId:int}", basics.load_section, "section.load"),
    make_route(
        "PATCH",
        "/content/sections/{sectionId:int}",
        basics.update_section,
        "section.update",
        accepts="SectionInput",
        errors=(412,),
    ),
    make_route("DELETE", "/content/sections/{sectionId:int}", basics.delete_section, "section.delete"),
    # content type groups
    make_route("GET", "/content/typegroups", ct.list_groups, "content_type_group.list", query="identifier"),
    make_route(
        "POST",
        "/content/typegroups",
        ct.create_group,
        "content_type_group.create",
        accepts="ContentTypeGroupInput",
    ),
    make_route("GET", _GROUP, ct.load_group, "content_type_group.load"),
    make_route(
        "PATCH",
        _GROUP,
        ct.update_group,
        "content_type_group.update",
        accepts="ContentTypeGroupInput",
        errors=(412,),
    ),
    make_route("DELETE", _GROUP, ct.delete_group, "content_type_group.delete"),
    make_route(
        "GET",
        _GROUP + "/types",
        ct.list_group_types,
        "content_type_group.types",
        query="identifier remoteId orderby sort " + _PAGE,
    ),
    make_route(
        "POST",
        _GROUP + "/types",
        ct.create_type,
        "content_type.create",
        accepts="ContentTypeCreate",
        query="publish",
    ),
    # content types, their drafts and groups
    make_route(
        "GET",
        "/content/types",
        ct.list_types,
        "content_type.list",
        query="identifier remoteId orderby sort " + _PAGE,
    ),
    make_route(
        "POST", "/content/types/view", ct.view_types, "content_type.view", accepts="ContentTypeViewInput"
    ),
    make_route("COPY", _TYPE, ct.copy_type, "content_type.copy"),
    make_route("GET", _TYPE, ct.load_type, "content_type.load"),
    make_route("POST", _TYPE, ct.create_draft, "content_type.create_draft", accepts="ContentTypeUpdate"),
    make_route("DELETE", _TYPE, ct.delete_type, "content_type.delete"),
    make_route("DELETE", _TYPE + "/draft", ct.delete_draft, "content_type.delete_draft"),
    make_route("GET", _TYPE + "/draft", ct.load_draft, "content_type.draft"),
    make_route(
        "PATCH",
        _TYPE + "/draft",
        ct.update_draft,
        "content_type.update_draft",
        accepts="ContentTypeUpdate",
        errors=(412,),
    ),
    make_route("PUBLISH", _TYPE + "/draft", ct.publish_draft, "content_type.publish_draft"),
    make_route("GET", _TYPE + "/groups", ct.list_type_groups, "content_type.groups"),
    make_route("POST", _TYPE + "/groups", ct.link_group, "content_type.link_group", query="group"),
    make_route("DELETE", _TYPE + "/groups/{groupId:int}", ct.unlink_group, "content_type.unlink_group"),
    # field definitions of the defined type, and of its draft
    make_route("GET", _FIELDS, ct.list_field_definitions, "field_definition.list"),
    make_route("GET", _FIELD, ct.load_field_definition, "field_definition.load"),
    make_route(
        "GET",
        _TYPE + "/fieldDefinition/{identifier}",
        ct.field_definition_by_identifier,
        "field_definition.by_identifier",
    ),
    make_route(
        "GET",
        _TYPE + "/draft/fieldDefinition/{identifier}",
        ct.draft_field_definition_by_identifier,
        "field_definition.draft_by_identifier",
    ),
    make_route("GET", _DRAFT_FIELDS, ct.list_draft_field_definitions, "field_definition.draft_list"),
    make_route(
        "POST",
        _DRAFT_FIELDS,
        ct.create_draft_field_definition,
        "field_definition.draft_create",
        accepts="FieldDefinitionCreate",
    ),
    make_route("GET", _DRAFT_FIELD, ct.load_draft_field_definition, "field_definition.draft_load"),
    make_route(
        "PATCH",
        _DRAFT_FIELD,
        ct.update_draft_field_definition,
        "field_definition.draft_update",
        accepts="FieldDefinitionUpdate",
    ),
    make_route("DELETE", _DRAFT_FIELD, ct.delete_draft_field_definition, "field_definition.draft_delete"),
    # content items, versions, translations, relations
    make_route("GET", "/content/objects", co.find_content, "content.find", query="remoteId", errors=(404,)),
    # (404: the body's references name what does not exist, here and in the other path-less creates below)
    make_route(
        "POST",
        "/content/objects",
        co.create_content,
        "content.create",
        accepts="ContentCreate",
        errors=(404,),
    ),
    make_route(
        "PATCH", _CONTENT, co.update_content, "content.update", accepts="ContentUpdate", errors=(412,)
    ),
    make_route("GET", _CONTENT, co.load_content, "content.load", query="languages"),
    make_route("DELETE", _CONTENT, co.delete_content, "content.delete"),
    make_route("COPY", _CONTENT, co.copy_content, "content.copy"),
    make_route("POST", _CONTENT + "/hide", co.hide_content, "content.hide"),
    make_route("POST", _CONTENT + "/reveal", co.reveal_content, "content.reveal"),
    make_route(
        "DELETE",
        _CONTENT + "/translations/{languageCode}",
        co.delete_translation,
        "content.delete_translation",
        errors=(406, 409),
    ),
    make_route("GET", _CONTENT + "/relations", co.current_relations, "content.relations"),
    make_route("GET", _CONTENT + "/currentversion", co.current_version, "content.current_version"),
    make_route("COPY", _CONTENT + "/currentversion", ve.copy_current_version, "content.copy_current_version"),
    make_route("GET", _CONTENT + "/versions", ve.list_versions, "version.list"),
    make_route("GET", _VERSION, ve.load_version, "version.load", query="languages"),
    make_route(
        "PATCH",
        _VERSION,
        ve.update_version,
        "version.update",
        accepts="VersionUpdate",
        query="languages",
        errors=(412,),
    ),
    make_route("DELETE", _VERSION, ve.delete_version, "version.delete"),
    make_route("COPY", _VERSION, ve.copy_version, "version.copy"),
    make_route("PUBLISH", _VERSION, ve.publish_version, "version.publish"),
    make_route(
        "DELETE",
        _VERSION + "/translations/{languageCode}",
        ve.delete_version_translation,
        "version.delete_translation",
        errors=(406, 409),
    ),
    make_route("GET", _RELATIONS, ve.list_relations, "relation.list", query=_PAGE),
    make_route("POST", _RELATIONS, ve.create_relation, "relation.create", accepts="RelationCreate"),
    make_route("GET", _RELATIONS + "/{relationId:int}", ve.load_relation, "relation.load"),
    make_route("DELETE", _RELATIONS + "/{relationId:int}", ve.delete_relation, "relation.delete"),
    make_route("GET", _CONTENT + "/locations", lo.list_content_locations, "content.locations"),
    make_route(
        "POST",
        _CONTENT + "/locations",
        lo.create_content_location,
        "content.create_location",
        accepts="LocationCreate",
    ),
    # search views (stored views, GET /views/{identifier}, are not implemented by the reference either)
    make_route("POST", "/views", vi.create_view, "view.create", accepts="ViewInput", errors=(404,)),
    make_route("GET", "/views", vi.stored_views, "view.list", errors=(501,), responses={}),
    make_route("GET", "/views/{viewId}", vi.stored_views, "view.load", errors=(501,), responses={}),
    make_route(
        "GET", "/views/{viewId}/results", vi.stored_views, "view.results", errors=(501,), responses={}
    ),
    make_route(
        "POST",
        "/content/views",
        vi.create_view_deprecated,
        "view.create_deprecated",
        accepts="ViewInput",
        errors=(404,),
        responses={301: "View"},
    ),
    # locations and the trash
    make_route(
        "GET",
        "/content/locations",
        lo.find_location,
        "location.find",
        query="id remoteId urlAlias locationPath",
        errors=(404,),
    ),
    make_route("GET", _LOCATION, lo.load_location, "location.load"),
    make_route(
        "PATCH", _LOCATION, lo.update_location, "location.update", accepts="LocationUpdate", errors=(412,)
    ),
    make_route("DELETE", _LOCATION, lo.delete_location, "location.delete"),
    make_route("COPY", _LOCATION, lo.copy_location, "location.copy"),
    make_route("MOVE", _LOCATION, lo.move_location, "location.move"),
    make_route("SWAP", _LOCATION, lo.swap_location, "location.swap"),
    make_route("GET", _LOCATION + "/children", lo.list_children, "location.children", query=_PAGE),
    make_route("GET", "/content/trash", tr.list_trash, "trash.list", query=_PAGE),
    make_route("DELETE", "/content/trash", tr.empty_trash, "trash.empty"),
    make_route("GET", _TRASH_ITEM, tr.load_trash_item, "trash.load"),
    make_route("DELETE", _TRASH_ITEM, tr.delete_trash_item, "trash.delete"),
    make_route("MOVE", _TRASH_ITEM, tr.restore_trash_item, "trash.restore"),
    # object state groups, object states, and the states of content items
    make_route("GET", "/content/objectstategroups", object_states.list_groups, "object_state_group.list"),
    make_route(
        "POST",
        "/content/objectstategroups",
        object_states.create_group,
        "object_state_group.create",
        accepts="ObjectStateGroupCreate",
    ),
    make_route("GET", _STATE_GROUP, object_states.load_group, "object_state_group.load"),
    make_route(
        "PATCH",
        _STATE_GROUP,
        object_states.update_group,
        "object_state_group.update",
        accepts="ObjectStateGroupUpdate",
        errors=(412,),
    ),
    make_route("DELETE", _STATE_GROUP, object_states.delete_group, "object_state_group.delete"),
    make_route("GET", _STATE_GROUP + "/objectstates", object_states.list_states, "object_state.list"),
    make_route(
        "POST",
        _STATE_GROUP + "/objectstates",
        object_states.create_state,
        "object_state.create",
        accepts="ObjectStateCreate",
    ),
    make_route("GET", _STATE, object_states.load_state, "object_state.load"),
    make_route(
        "PATCH",
        _STATE,
        object_states.update_state,
        "object_state.update",
        accepts="ObjectStateUpdate",
        errors=(412,),
    ),
    make_route("DELETE", _STATE, object_states.delete_state, "object_state.delete"),
    make_route("GET", _CONTENT + "/objectstates", object_states.content_states, "content.object_states"),
    make_route(
        "PATCH",
        _CONTENT + "/objectstates",
        object_states.assign_content_states,
        "content.assign_states",
        accepts="ContentObjectStates",
    ),
    # bookmarks of the current user
    make_route("GET", "/bookmark", bookmarks.list_bookmarks, "bookmark.list", query=_PAGE),
    make_route("POST", _BOOKMARK, bookmarks.create_bookmark, "bookmark.create", errors=(409,)),
    make_route("DELETE", _BOOKMARK, bookmarks.delete_bookmark, "bookmark.delete"),
    make_route(
        "GET", _BOOKMARK, bookmarks.is_bookmarked, "bookmark.load", responses={200: ""}, allow="GET|HEAD"
    ),
    # image variations and image assets
    make_route(
        "GET",
        "/content/binary/images/{imageId}/variations/{variation}",
        images.load_variation,
        "image.variation",
    ),
    make_route("GET", "/content/assets/images/{assetId}/{assetSource}", images.load_asset, "image.asset"),
    make_route(
        "GET",
        "/content/locations/{path:path}/urlaliases",
        ua.list_location_aliases,
        "location.url_aliases",
        query="custom",
    ),
    # URL aliases and wildcards
    make_route("GET", "/content/urlaliases", ua.list_global_aliases, "url_alias.list"),
    make_route(
        "POST",
        "/content/urlaliases",
        ua.create_alias,
        "url_alias.create",
        accepts="UrlAliasCreate",
        errors=(404,),
    ),
    make_route("GET", "/content/urlaliases/{urlAliasId}", ua.load_alias, "url_alias.load"),
    make_route(
        "DELETE", "/content/urlaliases/{urlAliasId}", ua.delete_alias, "url_alias.delete", errors=(406,)
    ),
    make_route("GET", "/content/urlwildcards", ua.list_wildcards, "url_wildcard.list"),
    make_route(
        "POST",
        "/content/urlwildcards",
        ua.create_wildcard,
        "url_wildcard.create",
        accepts="UrlWildcardCreate",
    ),
    make_route("GET", "/content/urlwildcards/{urlWildcardId:int}", ua.load_wildcard, "url_wildcard.load"),
    make_route(
        "DELETE", "/content/urlwildcards/{urlWildcardId:int}", ua.delete_wildcard, "url_wildcard.delete"
    ),
    # stored files (the uri of image, file and media field values)
    make_route(
        "GET",
        "/content/files/{fileId:file}",
        files.load_file,
        "file.load",
        errors=(416,),  # a Range past the end of the file
        responses={200: RAW, 206: RAW},  # the whole file, or the one byte range asked for
    ),
    # languages and countries
    make_route("GET", "/languages", basics.list_languages, "language.list"),
    make_route("GET", "/languages/{code}", basics.load_language, "language.load"),
    make_route("GET", "/services/countries", basics.list_countries, "country.list"),
    # sessions, tokens, current user
    make_route(
        "POST",
        "/user/sessions",
        sessions.create_session,
        "session.create",
        accepts="SessionInput",
        responses={200: "Session", 201: "Session", 409: ""},
    ),
    make_route(
        "GET",
        "/user/sessions/current",
        sessions.current_session,
        "session.current",
        responses={200: "Session", 404: ""},
    ),
    make_route(
        "POST",
        "/user/sessions/{sessionId}/refresh",
        sessions.refresh_session,
        "session.refresh",
        responses={200: "Session", 404: ""},
    ),
    make_route(
        "DELETE",
        "/user/sessions/{sessionId}",
        sessions.delete_session,
        "session.delete",
        responses={204: "", 404: ""},
    ),
    make_route("POST", "/user/token/jwt", sessions.create_token, "token.create", accepts="JWTInput"),
    make_route("GET", "/user/current", sessions.current_user, "user.current"),
    # users
    make_route(
        "GET",
        "/user/users",
        us.list_users,
        "user.list",
        query="roleId remoteId login email groupId " + _PAGE,
        allow="HEAD|GET",
    ),
    make_route("GET", _USER, us.load_user, "user.load"),
    make_route("PATCH", _USER, us.update_user, "user.update", accepts="UserUpdate", errors=(412,)),
    make_route("DELETE", _USER, us.delete_user, "user.delete"),
    make_route("GET", _USER + "/groups", us.list_user_groups, "user.groups", query=_PAGE),
    make_route("POST", _USER + "/groups", us.assign_group, "user.assign_group", query="group"),
    make_route("DELETE", _USER + "/groups/{groupId:int}", us.unassign_group, "user.unassign_group"),
    make_route("GET", _USER + "/drafts", us.list_drafts, "user.drafts"),
    # user groups
    make_route("GET", "/user/groups", ug.list_groups, "user_group.list", query="roleId id remoteId"),
    make_route("GET", "/user/groups/root", ug.root_group, "user_group.root", responses={301: ""}),
    make_route(
        "POST",
        "/user/groups/subgroups",
        ug.create_root_subgroup,
        "user_group.create_root",
        accepts="UserGroupCreate",
        errors=(404,),
    ),
    make_route("GET", _USER_GROUP, ug.load_group, "user_group.load"),
    make_route(
        "PATCH", _USER_GROUP, ug.update_group, "user_group.update", accepts="UserGroupUpdate", errors=(412,)
    ),
    make_route("DELETE", _USER_GROUP, ug.delete_group, "user_group.delete"),
    make_route("MOVE", _USER_GROUP, ug.move_group, "user_group.move"),
    make_route("GET", _USER_GROUP + "/subgroups", ug.list_subgroups, "user_group.subgroups", query=_PAGE),
    make_route(
        "POST", _USER_GROUP + "/subgroups", ug.create_subgroup, "user_group.create", accepts="UserGroupCreate"
    ),
    make_route("GET", _USER_GROUP + "/users", ug.list_users, "user_group.users", query=_PAGE),
    make_route(
        "POST", _USER_GROUP + "/users", ug.create_user, "user_group.create_user", accepts="UserCreate"
    ),
    # roles, their drafts and policies
    make_route("GET", "/user/roles", ro.list_roles, "role.list", query="identifier " + _PAGE),
    make_route("POST", "/user/roles", ro.create_role, "role.create", accepts="RoleInput", query="publish"),
    make_route("POST", _ROLE, ro.create_role_draft, "role.create_draft"),
    make_route("GET", _ROLE, ro.load_role, "role.load"),
    make_route("PATCH", _ROLE, ro.update_role, "role.update", accepts="RoleInput"),
    make_route("DELETE", _ROLE, ro.delete_role, "role.delete"),
    make_route("GET", _ROLE + "/draft", ro.load_role_draft, "role.draft"),
    make_route("PATCH", _ROLE + "/draft", ro.update_role_draft, "role.update_draft", accepts="RoleInput"),
    make_route("PUBLISH", _ROLE + "/draft", ro.publish_role_draft, "role.publish_draft"),
    make_route("DELETE", _ROLE + "/draft", ro.delete_role_draft, "role.delete_draft"),
    make_route("GET", _ROLE + "/policies", ro.list_policies, "policy.list"),
    make_route("POST", _ROLE + "/policies", ro.add_policy, "policy.create", accepts="PolicyCreate"),
    make_route("DELETE", _ROLE + "/policies", ro.delete_policies, "policy.delete_all"),
    make_route("GET", _POLICY, ro.load_policy, "policy.load"),
    make_route("PATCH", _POLICY, ro.update_policy, "policy.update", accepts="PolicyUpdate"),
    make_route("DELETE", _POLICY, ro.delete_policy, "policy.delete"),
    make_route("GET", "/user/policies", ro.policies_of_user, "policy.of_user", query="userId:int"),
    # role assignments of users and user groups
    make_route("GET", _USER_ROLES, ro.user_assignments, "role_assignment.user_list"),
    make_route(
        "POST", _USER_ROLES, ro.assign_role_to_user, "role_assignment.user_assign", accepts="RoleAssignInput"
    ),
    make_route("GET", _USER_ROLES + "/{roleId:int}", ro.user_assignment, "role_assignment.user_load"),
    make_route(
        "DELETE", _USER_ROLES + "/{roleId:int}", ro.unassign_role_from_user, "role_assignment.user_unassign"
    ),
    make_route("GET", _GROUP_ROLES, ro.group_assignments, "role_assignment.group_list"),
    make_route(
        "POST",
        _GROUP_ROLES,
        ro.assign_role_to_group,
        "role_assignment.group_assign",
        accepts="RoleAssignInput",
    ),
    make_route("GET", _GROUP_ROLES + "/{roleId:int}", ro.group_assignment, "role_assignment.group_load"),
    make_route(
        "DELETE",
        _GROUP_ROLES + "/{roleId:int}",
        ro.unassign_role_from_group,
        "role_assignment.group_unassign",
    ),
    # events (not in the reference): the feed and webhook subscriptions
    make_route(
        "GET",
        "/events",
        ev.read_feed,
        "event.feed",
        query="after limit:int",
        responses={200: f"{ev.BATCH} text/event-stream"},
    ),
    make_route("GET", "/webhooks", ev.list_webhooks, "webhook.list"),
    make_route("POST", "/webhooks", ev.create_webhook, "webhook.create", accepts="WebhookInput"),
    make_route("GET", _WEBHOOK, ev.load_webhook, "webhook.load"),
    make_route("PATCH", _WEBHOOK, ev.update_webhook, "webhook.update", accepts="WebhookInput"),
    make_route("DELETE", _WEBHOOK, ev.delete_webhook, "webhook.delete"),
    make_route("GET", _WEBHOOK + "/deliveries", ev.list_deliveries, "webhook.deliveries", query=_PAGE),
    make_route(
        "POST",
        _WEBHOOK + "/deliveries/{deliveryId:int}",
        ev.replay_delivery,
        "webhook.delivery",
    ),
    make_route("POST", _WEBHOOK + "/test", ev.test_webhook, "webhook.test"),
]


# The routes that issue the credentials of an authentication method: without the method, they do not exist.
_METHOD_ROUTES = {
    "session": frozenset({"session.create", "session.current", "session.refresh", "session.delete"}),
    "jwt": frozenset({"token.create"}),
}


def build_router(auth_methods: tuple[str, ...] = DEFAULT_AUTH_METHODS) -> Router:
    """The route table, without the routes of authentication methods not in ``auth_methods``."""
    absent = set().union(*(names for method, names in _METHOD_ROUTES.items() if method not in auth_methods))
    return Router([route for route in ROUTES if route.name not in absent])
