"""What each route does, in plain words, for the OpenAPI document: route name -> (summary, description).

Written from the reference's endpoint tables (what the operation does, who may call it, the errors of its
own) and for the routes the reference lacks (events, webhooks, bookmarks). The error statuses every
operation shares are listed by the document itself; a description names only what is particular.
"""

from __future__ import annotations

_ANYONE = "Anyone may call it, anonymous included."
_READ = "Anyone whose roles grant content/read on it may call it (anonymous users read the public section)."
_ROLE_READ = "Needs role/read."
_ROLE_UPDATE = "Needs role/update."
_ROLE_ASSIGN = "Needs role/assign (the MemberOf and Role limitations narrow whom and what)."
_ADMIN = "Needs setup/administrate."
_SIGNED_IN = "Any signed-in user may call it; it only ever concerns the caller's own bookmarks."
_CLASS_UPDATE = "Needs class/update."

TEXTS: dict[str, tuple[str, str]] = {
    "root.load": (
        "List the API's entry points",
        "The Root resource: the href and media type of every top-level collection (content, types, "
        "users, roles, sessions...). Anyone may call it, anonymous included.",
    ),
    # sections
    "section.list": (
        "List sections",
        "Every section, or with ?identifier=... the one section of that identifier (404 when there is "
        "none). Needs section/view.",
    ),
    "section.create": (
        "Create a section",
        "Creates a section from a SectionInput (identifier and name are both required) and answers it "
        "with its Location. Needs section/edit. 403 when the identifier is taken.",
    ),
    "section.load": ("Load a section", "One section by id. Needs section/view."),
    "section.update": (
        "Update a section",
        "Replaces the identifier and name of a section (a SectionInput still needs both). Needs "
        "section/edit. 403 when the new identifier is taken; 412 when If-Match names another ETag.",
    ),
    "section.delete": (
        "Delete a section",
        "Deletes a section nothing is assigned to. Needs section/edit. 403 while content is in it or a "
        "role limitation names it.",
    ),
    # content type groups
    "content_type_group.list": (
        "List content type groups",
        "Every content type group, or with ?identifier=... the one of that identifier. " + _ANYONE,
    ),
    "content_type_group.create": (
        "Create a content type group",
        "Creates a group from a ContentTypeGroupInput (identifier required). Needs class/create. 403 "
        "when the identifier is taken.",
    ),
    "content_type_group.load": ("Load a content type group", "One group by id. " + _ANYONE),
    "content_type_group.update": (
        "Update a content type group",
        "Changes a group's identifier and names. Needs class/update. 403 when the identifier is taken; "
        "412 when If-Match names another ETag.",
    ),
    "content_type_group.delete": (
        "Delete a content type group",
        "Deletes an empty group. Needs class/delete. 403 while content types are in it.",
    ),
    "content_type_group.types": (
        "List the content types of a group",
        "The published content types of one group (ContentTypeInfoList or ContentTypeList by Accept), "
        "with optional identifier/remoteId filters, ordering and paging. " + _ANYONE,
    ),
    "content_type.create": (
        "Create a content type",
        "Creates a content type draft in a group from a ContentTypeCreate (identifier, names, main "
        "language and at least one field definition); with ?publish=true it is published at once. Needs "
        "class/create. 403 when the identifier is taken; 400 names the field at fault.",
    ),
    # content types, their drafts and groups
    "content_type.list": (
        "List content types",
        "Published content types, filtered by identifier or remoteId, ordered and paged. " + _ANYONE,
    ),
    "content_type.view": (
        "Query content types",
        "Runs a ContentTypeViewInput query (criteria on identifiers, groups...) and answers the "
        "matching content types. " + _ANYONE,
    ),
    "content_type.copy": (
        "Copy a content type",
        "Copies a published content type under a new identifier; Location names the copy. Needs "
        "class/create.",
    ),
    "content_type.load": (
        "Load a content type",
        "A published content type with its field definitions. " + _ANYONE,
    ),
    "content_type.create_draft": (
        "Start a content type draft",
        "Creates the draft of a content type, optionally changing its metadata from a "
        "ContentTypeUpdate. Needs class/update. 403 when a draft already exists.",
    ),
    "content_type.delete": (
        "Delete a content type",
        "Deletes a content type no content uses. Needs class/delete. 403 while content of the type exists.",
    ),
    "content_type.delete_draft": (
        "Discard a content type draft",
        "Deletes the draft of a content type; the published type stays. " + _CLASS_UPDATE,
    ),
    "content_type.draft": (
        "Load a content type draft",
        "The draft of a content type with its field definitions. " + _CLASS_UPDATE,
    ),
    "content_type.update_draft": (
        "Update a content type draft",
        "Changes the metadata of a content type draft from a ContentTypeUpdate. "
        + _CLASS_UPDATE
        + " 403 when the identifier is taken; 412 when If-Match names another ETag.",
    ),
    "content_type.publish_draft": (
        "Publish a content type draft",
        "Makes the draft the published content type; existing content gains added fields and loses "
        "removed ones. " + _CLASS_UPDATE + " 403 when the draft has no field definitions.",
    ),
    "content_type.groups": (
        "List the groups of a content type",
        "The groups a content type belongs to. " + _ANYONE,
    ),
    "content_type.link_group": (
        "Add a content type to a group",
        "Links the content type to the group ?group=... names (an href). "
        + _CLASS_UPDATE
        + " 403 when it is already linked.",
    ),
    "content_type.unlink_group": (
        "Remove a content type from a group",
        "Unlinks the content type from one group. "
        + _CLASS_UPDATE
        + " 403 when it is the type's last group.",
    ),
    "field_definition.list": (
        "List the field definitions of a content type",
        "The field definitions of the published type. " + _ANYONE,
    ),
    "field_definition.load": (
        "Load a field definition",
        "One field definition of the published type by id. " + _ANYONE,
    ),
    "field_definition.by_identifier": (
        "Load a field definition by identifier",
        "One field definition of the published type by its identifier. " + _ANYONE,
    ),
    "field_definition.draft_by_identifier": (
        "Load a draft field definition by identifier",
        "One field definition of the type's draft by its identifier. " + _CLASS_UPDATE,
    ),
    "field_definition.draft_list": (
        "List the field definitions of a content type draft",
        "The field definitions of the type's draft. " + _CLASS_UPDATE,
    ),
    "field_definition.draft_create": (
        "Add a field definition to a draft",
        "Adds a field definition (identifier, field type, names, position...) from a "
        "FieldDefinitionCreate to the type's draft. "
        + _CLASS_UPDATE
        + " 403 when the identifier is taken in the type; 400 for an unknown field type or bad settings.",
    ),
    "field_definition.draft_load": (
        "Load a draft field definition",
        "One field definition of the type's draft by id. " + _CLASS_UPDATE,
    ),
    "field_definition.draft_update": (
        "Update a draft field definition",
        "Changes a field definition of the type's draft from a FieldDefinitionUpdate. " + _CLASS_UPDATE,
    ),
    "field_definition.draft_delete": (
        "Remove a field definition from a draft",
        "Removes one field definition from the type's draft. " + _CLASS_UPDATE,
    ),
    # content
    "content.find": (
        "Find content by remote id",
        "Redirects (307) to the content object whose remote id ?remoteId=... names. "
        + _READ
        + " 400 without remoteId, 404 when nothing has it.",
    ),
    "content.create": (
        "Create content",
        "Creates a content object as a draft (version 1) from a ContentCreate: its content type, main "
        "language, the parent location it will be placed under and its field values. Answers "
        "ContentInfo, or Content when Accept asks for it. Needs content/create under that parent. 400 "
        "names the field at fault (field validation errors come in errorDetails).",
    ),
    "content.update": (
        "Update content metadata",
        "Changes metadata from a ContentUpdate: section, owner, main location, main language, always "
        "available, remote id, dates. Needs content/edit (section/assign to change the section). 412 "
        "when If-Match names another ETag.",
    ),
    "content.load": (
        "Load content",
        "A content object: ContentInfo by default, or Content with its current version when Accept asks "
        "for it (?languages=... filters the translations). " + _READ,
    ),
    "content.delete": (
        "Delete content",
        "Deletes a content object with all its versions and locations (and the subtrees below them). "
        "Needs content/remove.",
    ),
    "content.copy": (
        "Copy content",
        "Copies a content object under the location the Destination header names; Location names the "
        "copy. Needs content/read and content/create under the destination.",
    ),
    "content.hide": (
        "Hide content",
        "Hides the content object in all its locations. Needs content/hide.",
    ),
    "content.reveal": (
        "Reveal content",
        "Shows a hidden content object again. Needs content/hide.",
    ),
    "content.delete_translation": (
        "Delete a translation from every version",
        "Removes one language from all versions of a content object, in one transaction. Needs "
        "content/remove. 406 when it is the main language, 409 when it is the only one.",
    ),
    "content.relations": (
        "Redirect to the current relations",
        "Redirects (307) to the relations of the current version. " + _READ,
    ),
    "content.current_version": (
        "Redirect to the current version",
        "Redirects (307) to the published version of a content object. " + _READ,
    ),
    "content.copy_current_version": (
        "Start a draft from the current version",
        "Creates a draft from the published version; Location names it. Needs content/edit.",
    ),
    # versions
    "version.list": (
        "List versions",
        "Every version of a content object (drafts, published, archived). Needs content/versionread.",
    ),
    "version.load": (
        "Load a version",
        "One version with its fields (?languages=... filters the translations). Needs content/read for "
        "the published version, content/versionread for the others.",
    ),
    "version.update": (
        "Update a draft",
        "Sets field values of a draft from a VersionUpdate (fields to change, initial language). Needs "
        "content/edit. 403 when the version is not a draft; 400 names the field at fault; 412 when "
        "If-Match names another ETag.",
    ),
    "version.delete": (
        "Delete a version",
        "Deletes a draft or archived version. Needs content/versionremove. 403 for the published version "
        "or the last one.",
    ),
    "version.copy": (
        "Copy a version into a new draft",
        "Creates a draft from any version; Location names it. Needs content/edit.",
    ),
    "version.publish": (
        "Publish a draft",
        "Publishes a draft: it becomes the current version, its pending locations are created, the "
        "previous version is archived. Needs content/publish. 403 when the version is not a draft.",
    ),
    "version.delete_translation": (
        "Delete a translation from a draft",
        "Removes one language from a draft. Needs content/edit. 406 when it is the main language, 409 "
        "when it is the only one.",
    ),
    "relation.list": (
        "List the relations of a version",
        "The relations a version has to other content (field and common relations). " + _READ,
    ),
    "relation.create": (
        "Add a relation to a draft",
        "Adds a common relation from a draft to the content RelationCreate names. Needs content/edit. "
        "403 when the version is not a draft.",
    ),
    "relation.load": ("Load a relation", "One relation of a version. " + _READ),
    "relation.delete": (
        "Remove a relation from a draft",
        "Removes a common relation from a draft (field relations change with the field). Needs content/edit.",
    ),
    "content.locations": (
        "List the locations of content",
        "Every location of a content object. " + _READ,
    ),
    "content.create_location": (
        "Add a location to content",
        "Places published content under another parent too, from a LocationCreate (parent href, "
        "priority, hidden, sort). Needs content/manage_locations and content/create under the parent. "
        "403 when it is already there.",
    ),
    # views
    "view.create": (
        "Search content and locations",
        "Runs a ViewInput query (Query or ContentQuery / LocationQuery: criteria, sort clauses, limit, "
        "offset, aggregations) and answers a View with the results. Anyone may search; results show only "
        "what the caller may read. 400 names the criterion at fault.",
    ),
    "view.list": (
        "List stored views (not implemented)",
        "Stored views do not exist, as in the reference: always 501.",
    ),
    "view.load": ("Load a stored view (not implemented)", "Always 501, as in the reference."),
    "view.results": ("Load stored view results (not implemented)", "Always 501, as in the reference."),
    "view.create_deprecated": (
        "Search content and locations (deprecated path)",
        "The former path of POST /views, same input and answer.",
    ),
    # locations
    "location.find": (
        "Find a location",
        "Redirects (307) to the location ?id=, ?remoteId=, ?urlAlias= or ?locationPath= names. "
        + _READ
        + " 404 when none matches.",
    ),
    "location.load": (
        "Load a location",
        "One location by its path (/1/2/54). " + _READ,
    ),
    "location.update": (
        "Update a location",
        "Changes priority, hidden, remote id or sort of a location from a LocationUpdate. Needs "
        "content/edit (content/hide to hide). 412 when If-Match names another ETag.",
    ),
    "location.delete": (
        "Delete a location",
        "Deletes a location and its subtree (content left without a location is deleted). Needs "
        "content/remove on every item of the subtree. 403 for the root.",
    ),
    "location.copy": (
        "Copy a subtree",
        "Copies the subtree under the location the Destination header names; Location names the copy. "
        "Needs content/read on the subtree and content/create under the destination.",
    ),
    "location.move": (
        "Move a subtree",
        "Moves the location with its subtree under the Destination location, or to the trash when "
        "Destination is the trash. Needs content/read and content/create under the destination "
        "(content/remove to trash). 403 when the destination is inside the subtree.",
    ),
    "location.swap": (
        "Swap two locations",
        "Swaps the content of this location with the content of the Destination location. Needs "
        "content/edit on both.",
    ),
    "location.children": (
        "List the children of a location",
        "The locations directly below one, paged with offset/limit. " + _READ,
    ),
    # trash
    "trash.list": ("List the trash", "Trashed items, paged. " + _READ),
    "trash.empty": ("Empty the trash", "Deletes every trashed item for good. Needs content/cleantrash."),
    "trash.load": ("Load a trash item", "One trashed location. " + _READ),
    "trash.delete": (
        "Delete a trash item",
        "Deletes one trashed item for good. Needs content/cleantrash.",
    ),
    "trash.restore": (
        "Restore a trash item",
        "Restores a trashed item to its former place, or under the Destination location. Needs "
        "content/restore and content/create under the target. 403 when the former parent is gone and "
        "no Destination is given.",
    ),
    # object states
    "object_state_group.list": (
        "List object state groups",
        "Every object state group. " + _ANYONE,
    ),
    "object_state_group.create": (
        "Create an object state group",
        "Creates a group from an ObjectStateGroupCreate (identifier, default language, names). Needs "
        "state/administrate. 403 when the identifier is taken.",
    ),
    "object_state_group.load": ("Load an object state group", "One group. " + _ANYONE),
    "object_state_group.update": (
        "Update an object state group",
        "Changes identifier, names or descriptions. Needs state/administrate. 412 when If-Match names "
        "another ETag.",
    ),
    "object_state_group.delete": (
        "Delete an object state group",
        "Deletes a group with its states. Needs state/administrate.",
    ),
    "object_state.list": (
        "List the states of a group",
        "The object states of one group, in priority order. " + _ANYONE,
    ),
    "object_state.create": (
        "Create an object state",
        "Adds a state to a group from an ObjectStateCreate. Needs state/administrate. 403 when the "
        "identifier is taken in the group.",
    ),
    "object_state.load": ("Load an object state", "One object state. " + _ANYONE),
    "object_state.update": (
        "Update an object state",
        "Changes identifier, priority, names or descriptions. Needs state/administrate. 412 when "
        "If-Match names another ETag.",
    ),
    "object_state.delete": ("Delete an object state", "Deletes a state. Needs state/administrate."),
    "content.object_states": (
        "List the states of content",
        "The state a content object has in every state group. " + _READ,
    ),
    "content.assign_states": (
        "Set the states of content",
        "Sets states of a content object from a ContentObjectStates (one state per group). Needs "
        "state/assign. 403 when two states of one group are given.",
    ),
    # bookmarks (not in the reference tables)
    "bookmark.list": ("List my bookmarks", "The caller's bookmarked locations, paged. " + _SIGNED_IN),
    "bookmark.create": (
        "Bookmark a location",
        "Adds a location the caller may read to the caller's bookmarks. "
        + _SIGNED_IN
        + " 409 when it is already bookmarked.",
    ),
    "bookmark.delete": (
        "Remove a bookmark",
        "Removes a location from the caller's bookmarks. " + _SIGNED_IN + " 404 when it is not bookmarked.",
    ),
    "bookmark.load": (
        "Is this location bookmarked?",
        "200 when the caller has bookmarked the location, 404 when not (HEAD works the same). " + _SIGNED_IN,
    ),
    # images and files
    "image.variation": (
        "Load an image variation",
        "The alias (e.g. small, medium, large) of an image field, made on first request. Needs "
        "content/read on the content.",
    ),
    "image.asset": (
        "Load an image asset",
        "The image an image-asset field points to, with its variations. Needs content/read.",
    ),
    "file.load": (
        "Download a stored file",
        "The bytes of a binary or media field; supports Range requests (416 for an unsatisfiable "
        "range). Needs content/read on the content the file belongs to.",
    ),
    # URL aliases and wildcards
    "location.url_aliases": (
        "List the URL aliases of a location",
        "The system aliases of a location, or with ?custom=true its custom ones. " + _READ,
    ),
    "url_alias.list": (
        "List global URL aliases",
        "Every global (not location) URL alias. Needs content/read.",
    ),
    "url_alias.create": (
        "Create a URL alias",
        "Creates a location alias or a global alias (to a resource path) from a UrlAliasCreate. Needs "
        "content/urltranslator. 403 when the path is taken.",
    ),
    "url_alias.load": ("Load a URL alias", "One URL alias by id. Needs content/read."),
    "url_alias.delete": (
        "Delete a URL alias",
        "Deletes a custom or global alias. Needs content/urltranslator. 406 for a system alias.",
    ),
    "url_wildcard.list": ("List URL wildcards", "Every URL wildcard. Needs content/read."),
    "url_wildcard.create": (
        "Create a URL wildcard",
        "Creates a wildcard (source and destination patterns, forward or not) from a "
        "UrlWildcardCreate. Needs content/urltranslator. 403 when the source is taken.",
    ),
    "url_wildcard.load": ("Load a URL wildcard", "One URL wildcard by id. Needs content/read."),
    "url_wildcard.delete": (
        "Delete a URL wildcard",
        "Deletes a URL wildcard. Needs content/urltranslator.",
    ),
    # languages and countries
    "language.list": ("List languages", "Every installed language. Anyone may call it."),
    "language.load": ("Load a language", "One installed language by its code (eng-GB). Anyone may call it."),
    "country.list": (
        "List countries",
        "The ISO 3166 countries with their calling codes. Anyone may call it.",
    ),
    # sessions and tokens
    "session.create": (
        "Log in (session)",
        "Checks a login and password from a SessionInput and starts a session: the answer names the "
        "session cookie and a CSRF token to send with every unsafe request. Needs user/login on the "
        "siteaccess. 401 for wrong credentials, 429 after too many failures.",
    ),
    "session.current": (
        "Check the current session",
        "The session the cookie names, when it is still valid. 404 without a valid session.",
    ),
    "session.refresh": (
        "Refresh a session",
        "Confirms the session is alive and answers it again (deprecated in the reference). Needs the "
        "session cookie and X-CSRF-Token. 404 when the id is not the caller's session.",
    ),
    "session.delete": (
        "Log out",
        "Ends the session and clears its cookie. Needs the session cookie and X-CSRF-Token. 404 when "
        "the id is not the caller's session.",
    ),
    "token.create": (
        "Get a JWT",
        "Checks a username and password from a JWTInput and answers a signed token to send as "
        "Authorization: Bearer. Needs user/login. 401 for wrong credentials, 429 after too many "
        "failures.",
    ),
    # users
    "user.current": (
        "Load the current user",
        "The user the request is authenticated as (anonymous included).",
    ),
    "user.list": (
        "Find users",
        "Users by ?roleId= (an href; direct assignments only), ?remoteId=, ?login=, ?email= or "
        "?groupId= (the first filter given wins); UserList or UserRefList by Accept. Needs "
        "content/read on the users. 404 without a filter or when none match.",
    ),
    "user.load": (
        "Load a user",
        "One user by id. Needs content/read on the user's content; anyone may load themselves.",
    ),
    "user.update": (
        "Update a user",
        "Changes email, password, enabled, fields or section from a UserUpdate. Needs content/edit, "
        "or user/password for changing one's own password. 400 for a weak password or a taken email; "
        "412 when If-Match names another ETag.",
    ),
    "user.delete": (
        "Delete a user",
        "Deletes a user and its content. Needs content/remove. 403 for the current user or the last "
        "administrator.",
    ),
    "user.groups": (
        "List the groups of a user",
        "The user groups a user belongs to, paged. Needs content/read on the user.",
    ),
    "user.assign_group": (
        "Add a user to a group",
        "Adds the user to the group ?group=... names (an href). Needs content/manage_locations. 403 "
        "when the user is already in it.",
    ),
    "user.unassign_group": (
        "Remove a user from a group",
        "Removes the user from one group. Needs content/manage_locations. 403 when it is the user's "
        "last group.",
    ),
    "user.drafts": (
        "List the drafts of a user",
        "The content drafts a user owns. Needs content/versionread.",
    ),
    # user groups
    "user_group.list": (
        "Find user groups",
        "User groups by ?roleId=, ?id= or ?remoteId=. Needs content/read on the groups.",
    ),
    "user_group.root": (
        "Redirect to the root user group",
        "Redirects (301) to the top user group.",
    ),
    "user_group.create_root": (
        "Create a top-level user group",
        "Creates a user group under the root group from a UserGroupCreate. Needs content/create.",
    ),
    "user_group.load": (
        "Load a user group",
        "One user group by its location path. Needs content/read on the group.",
    ),
    "user_group.update": (
        "Update a user group",
        "Changes a group's fields, section or remote id from a UserGroupUpdate. Needs content/edit. 412 "
        "when If-Match names another ETag.",
    ),
    "user_group.delete": (
        "Delete a user group",
        "Deletes a group with its subgroups. Needs content/remove. 403 while it still holds users.",
    ),
    "user_group.move": (
        "Move a user group",
        "Moves the group under the group the Destination header names. Needs content/create under the "
        "destination. 403 when the destination is inside the group.",
    ),
    "user_group.subgroups": (
        "List the subgroups of a group",
        "The groups directly below one, paged. Needs content/read.",
    ),
    "user_group.create": (
        "Create a user group",
        "Creates a subgroup from a UserGroupCreate (content type, main language, fields). Needs "
        "content/create under the group.",
    ),
    "user_group.users": (
        "List the users of a group",
        "The users directly in one group, paged. Needs content/read.",
    ),
    "user_group.create_user": (
        "Create a user",
        "Creates a user in the group from a UserCreate (login, email, password, main language, "
        "fields). Needs content/create under the group. 403 when the login is taken; 400 for a weak "
        "password or bad email.",
    ),
    # roles and policies
    "role.list": (
        "List roles",
        "Roles, optionally one by ?identifier=, paged. " + _ROLE_READ,
    ),
    "role.create": (
        "Create a role",
        "Creates a role draft from a RoleInput (identifier); with ?publish=true it is published at once. "
        "Needs role/create. 403 when the identifier is taken.",
    ),
    "role.create_draft": (
        "Start a role draft",
        "Creates a draft of a published role to edit. Needs role/create. 403 when a draft exists.",
    ),
    "role.load": ("Load a role", "One role with its policies. " + _ROLE_READ),
    "role.update": (
        "Update a role",
        "Changes the identifier of a role from a RoleInput. " + _ROLE_UPDATE + " 403 when it is taken.",
    ),
    "role.delete": ("Delete a role", "Deletes a role with its assignments. Needs role/delete."),
    "role.draft": ("Load a role draft", "The draft of a role. " + _ROLE_READ),
    "role.update_draft": (
        "Update a role draft",
        "Changes the identifier of a role draft from a RoleInput. " + _ROLE_UPDATE,
    ),
    "role.publish_draft": (
        "Publish a role draft",
        "Makes the draft the published role. " + _ROLE_UPDATE,
    ),
    "role.delete_draft": ("Discard a role draft", "Deletes the draft of a role. " + _ROLE_UPDATE),
    "policy.list": ("List the policies of a role", "Every policy of a role. " + _ROLE_READ),
    "policy.create": (
        "Add a policy",
        "Adds a policy (module, function, limitations) from a PolicyCreate to a role or role draft. "
        + _ROLE_UPDATE
        + " 400 for an unknown module/function or a limitation it does not allow.",
    ),
    "policy.delete_all": ("Remove every policy of a role", "Deletes all policies of a role. " + _ROLE_UPDATE),
    "policy.load": ("Load a policy", "One policy of a role. " + _ROLE_READ),
    "policy.update": (
        "Update a policy",
        "Replaces the limitations of a policy from a PolicyUpdate. "
        + _ROLE_UPDATE
        + " 400 for a limitation the policy does not allow.",
    ),
    "policy.delete": ("Remove a policy", "Deletes one policy of a role. " + _ROLE_UPDATE),
    "policy.of_user": (
        "List a user's policies",
        "Every policy the user ?userId= holds through its roles. " + _ROLE_READ,
    ),
    # role assignments
    "role_assignment.user_list": (
        "List the roles of a user",
        "The roles assigned to a user directly. " + _ROLE_READ,
    ),
    "role_assignment.user_assign": (
        "Assign a role to a user",
        "Assigns the role RoleAssignInput names, optionally limited to a section or subtree. "
        + _ROLE_ASSIGN
        + " 400 for a bad limitation.",
    ),
    "role_assignment.user_load": ("Load a role assignment of a user", "One assignment. " + _ROLE_READ),
    "role_assignment.user_unassign": (
        "Unassign a role from a user",
        "Removes an assignment. " + _ROLE_ASSIGN,
    ),
    "role_assignment.group_list": (
        "List the roles of a user group",
        "The roles assigned to a group directly. " + _ROLE_READ,
    ),
    "role_assignment.group_assign": (
        "Assign a role to a user group",
        "Assigns the role RoleAssignInput names to every user of the group, optionally limited to a "
        "section or subtree. " + _ROLE_ASSIGN + " 400 for a bad limitation.",
    ),
    "role_assignment.group_load": ("Load a role assignment of a group", "One assignment. " + _ROLE_READ),
    "role_assignment.group_unassign": (
        "Unassign a role from a user group",
        "Removes an assignment. " + _ROLE_ASSIGN,
    ),
    # events and webhooks (not in the reference)
    "event.feed": (
        "Read the event feed",
        "Changes to the repository in order (created, published, moved, deleted...), from the cursor "
        "?after= names, at most ?limit= of them. Anonymous users may not read it; setup/administrate "
        "reads every event, anyone else the events about content they may read now. 400 for a bad "
        "cursor.",
    ),
    "webhook.list": ("List webhooks", "Every webhook subscription. " + _ADMIN),
    "webhook.create": (
        "Subscribe a webhook",
        "Creates a webhook from a WebhookInput (URL, event types, secret) that events are POSTed to. "
        + _ADMIN
        + " 400 for an unknown event type or a URL that points at a private address.",
    ),
    "webhook.load": ("Load a webhook", "One webhook subscription. " + _ADMIN),
    "webhook.update": ("Update a webhook", "Changes a webhook from a WebhookInput. " + _ADMIN),
    "webhook.delete": ("Delete a webhook", "Ends a webhook subscription. " + _ADMIN),
    "webhook.deliveries": (
        "List the deliveries of a webhook",
        "The attempts to deliver events to a webhook with their outcome, paged. " + _ADMIN,
    ),
    "webhook.delivery": ("Replay a delivery", "Sends one past delivery again. " + _ADMIN),
    "webhook.test": ("Test a webhook", "Sends a test event to the webhook now. " + _ADMIN),
}

# What an error status means on any operation (the ErrorMessage's errorDescription says more).
ERRORS: dict[int, str] = {
    400: "the input or a parameter is wrong; the ErrorMessage names the field or header at fault",
    401: "not authenticated, or the caller's roles do not allow it",
    403: "a rule of the repository refuses it (something in the way, a name taken, a draft needed)",
    404: "what the path or a parameter names does not exist, or the caller may not see it",
    405: "the method (or X-HTTP-Method-Override) is not one of the path's",
    406: "the change is not acceptable for this item (see the description)",
    408: "the body came too slowly",
    409: "it conflicts with the current state (see the description)",
    412: "If-Match names an ETag the resource no longer has",
    413: "the body is too large",
    415: "the Content-Type is not an input media type the operation reads",
    416: "the Range cannot be satisfied",
    429: "too many requests or failed logins; retry after the Retry-After seconds",
    501: "not implemented (as in the reference)",
    503: "the server is overloaded or the database is unavailable; retry later",
}
