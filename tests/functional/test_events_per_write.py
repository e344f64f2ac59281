"""Every repository write appends exactly one event to the log, in its transaction and after it succeeded,
naming the acting user; a refused or failed write appends none (issue 26). Each write is made over HTTP as
a client makes it, then the log is read from the app's store."""

from __future__ import annotations

from typing import Any

import httpx

from tests.functional.content_support import (
    content_create,
    content_info,
    field,
    main_location_path,
    new_draft,
    post_content,
    publish,
    published_folder,
    update_version,
)
from tests.functional.content_types_support import create_type, type_create
from tests.functional.content_types_support import field as type_field
from tests.functional.content_types_support import new_draft as new_type_draft
from tests.functional.events_support import ADMIN_ID, EventLog, about_content, placed
from tests.functional.role_support import make_role
from tests.functional.support import create_section, error_message, unique
from tests.functional.tree_support import add_location, folder_at, path_of, relocate
from tests.functional.users_support import create_group, create_user, group_path
from tests.helpers import PREFIX, Api, media

FOLDER_TYPE = 1
STANDARD_SECTION = 1


def patch_json(api: Api, path: str, root: str, data: dict[str, Any], answer: str) -> httpx.Response:
    return api.patch(path, body={root: data}, content_type=media(root), accept=media(answer))


def post_json(api: Api, path: str, root: str, data: dict[str, Any], answer: str) -> httpx.Response:
    return api.post(path, body={root: data}, content_type=media(root), accept=media(answer))


def relation(api: Api, content_id: int, version_no: int, destination: int) -> httpx.Response:
    body = {"Destination": {"_href": f"{PREFIX}/content/objects/{destination}"}}
    path = f"/content/objects/{content_id}/versions/{version_no}/relations"
    return post_json(api, path, "RelationCreate", body, "Relation")


# -- content items and versions ---------------------------------------------------------------------


def test_content_writes(api: Api) -> None:
    log = EventLog(api)
    created = post_content(api, content_create([field("name", "Evented")], parent="1/2"))
    assert created.status_code == 201, created.text
    content_id = created.json()["Content"]["_id"]
    data = about_content(log.one("content.created"), content_id, versionNo=1, languages=["eng-GB"])
    assert (data["contentTypeId"], data["sectionId"], data["parentLocationIds"]) == (FOLDER_TYPE, 1, [2])

    publish(api, content_id)
    path = main_location_path(content_info(api, content_id))
    about_content(log.one("content.published"), content_id, versionNo=1, locations=placed(path))

    draft = new_draft(api, content_id)
    about_content(log.one("content.draft_created"), content_id, versionNo=draft)
    assert update_version(api, content_id, draft, [field("name", "Evented 2")]).status_code == 200
    about_content(log.one("content.version_updated"), content_id, versionNo=draft, languages=["eng-GB"])
    other = published_folder(api, "Related")["_id"]
    log.new()
    added = relation(api, content_id, draft, other)
    assert added.status_code == 201, added.text
    data = about_content(log.one("content.version_updated"), content_id, versionNo=draft)
    assert data["relationAdded"]["destinationContentId"] == other
    relation_id = added.json()["Relation"]["_href"].rsplit("/", 1)[1]
    response = api.delete(f"/content/objects/{content_id}/versions/{draft}/relations/{relation_id}")
    assert response.status_code == 204, response.text
    data = about_content(log.one("content.version_updated"), content_id, versionNo=draft)
    assert data["relationDeleted"]["destinationContentId"] == other
    publish(api, content_id, draft)
    about_content(log.one("content.published"), content_id, versionNo=draft, locations=placed(path))
    assert api.delete(f"/content/objects/{content_id}/versions/1").status_code == 204
    about_content(log.one("content.version_deleted"), content_id, versionNo=1)

    section = create_section(api, unique()).json()["Section"]["sectionId"]
    log.new()
    body = {"Section": {"_href": f"{PREFIX}/content/sections/{section}"}}
    assert patch_json(api, f"/content/objects/{content_id}", "ContentUpdate", body, "ContentInfo").is_success
    data = about_content(log.one("content.updated"), content_id, sectionId=section)
    assert data["previousSectionId"] == STANDARD_SECTION

    assert api.post(f"/content/objects/{content_id}/hide").status_code == 204
    about_content(log.one("content.hidden"), content_id)
    assert api.post(f"/content/objects/{content_id}/reveal").status_code == 204
    about_content(log.one("content.revealed"), content_id)

    response = api.request(
        "COPY", f"/content/objects/{content_id}", headers={"Destination": f"{PREFIX}/content/locations/1/43"}
    )
    assert response.status_code == 201, response.text
    copy_id = int(response.headers["location"].rsplit("/", 1)[1])
    copy_path = main_location_path(content_info(api, copy_id))
    data = about_content(log.one("content.copied"), copy_id, versionNo=1, locations=placed(copy_path))
    assert data["copiedFrom"] == content_id and copy_path.startswith("1/43/")

    assert api.delete(f"/content/objects/{content_id}").status_code == 204
    about_content(log.one("content.deleted"), content_id, locations=placed(path))


def test_translation_deletes(api: Api, german: str) -> None:
    created = post_content(api, content_create([field("name", "Bilingual")], parent="1/2"))
    content_id = created.json()["Content"]["_id"]
    publish(api, content_id)
    draft = new_draft(api, content_id)
    assert update_version(api, content_id, draft, [field("name", "Zweisprachig", german)]).is_success
    log = EventLog(api)
    assert api.delete(f"/content/objects/{content_id}/versions/{draft}/translations/{german}").is_success
    about_content(log.one("content.translation_deleted"), content_id, versionNo=draft, languages=[german])
    assert update_version(api, content_id, draft, [field("name", "Zweisprachig", german)]).is_success
    publish(api, content_id, draft)
    log.new()
    assert api.delete(f"/content/objects/{content_id}/translations/{german}").is_success
    about_content(log.one("content.translation_deleted"), content_id, languages=[german])


# -- locations and the trash ------------------------------------------------------------------------


def test_location_writes(api: Api) -> None:
    top = folder_at(api, "Top")
    other = folder_at(api, "Other")
    info = published_folder(api, "Placed", top)
    content_id = info["_id"]
    path = main_location_path(info)
    log = EventLog(api)

    second = path_of(add_location(api, content_id, other))
    about_content(log.one("location.created"), content_id, locations=placed(second))
    location_path = f"/content/locations/{second}"
    for data, kind in (
        ({"priority": 5}, "updated"),
        ({"hidden": "true"}, "hidden"),
        ({"hidden": "false"}, "revealed"),
    ):
        assert patch_json(api, location_path, "LocationUpdate", data, "Location").status_code == 200
        about_content(log.one(f"location.{kind}"), content_id, locations=placed(second))

    target = folder_at(api, "Target")
    log.new()
    moved = relocate(api, "MOVE", path, f"locations/{target}")
    assert moved.status_code == 201, moved.text
    new_path = moved.headers["location"].split("/content/locations/", 1)[1]
    data = about_content(log.one("location.moved"), content_id, locations=placed(new_path))
    assert (data["oldParentId"], data["oldPath"]) == (int(top.rsplit("/", 1)[1]), f"/{path}/")

    copied = relocate(api, "COPY", top, f"locations/{target}")
    assert copied.status_code == 201, copied.text
    copy_path = copied.headers["location"].split("/content/locations/", 1)[1]
    event = log.one("location.copied")
    copy_id = event.content_id
    assert copy_id is not None and copy_id != int(top.rsplit("/", 1)[1])
    data = about_content(event, copy_id, locations=placed(copy_path))
    assert data["copiedFrom"] == int(top.rsplit("/", 1)[1])

    swapped = relocate(api, "SWAP", other, f"locations/{target}")
    assert swapped.status_code == 204, swapped.text
    event = log.one("location.swapped")
    assert event.data["locations"] == placed(other, target)

    assert api.delete(location_path).status_code == 204
    about_content(log.one("location.deleted"), content_id, locations=placed(second))


def test_trash_writes(api: Api) -> None:
    info = published_folder(api, "Rubbish", "1/2")
    path = main_location_path(info)
    location_id = int(path.rsplit("/", 1)[1])
    log = EventLog(api)
    trashed = relocate(api, "MOVE", path, "trash")
    assert trashed.status_code == 201, trashed.text
    about_content(log.one("trash.trashed"), info["_id"], locations=placed(path))
    restored = api.request("MOVE", f"/content/trash/{location_id}", accept=media("Location"))
    assert restored.status_code == 201, restored.text
    data = about_content(log.one("trash.restored"), info["_id"], locations=placed(path))
    assert data["trashItemId"] == location_id

    assert relocate(api, "MOVE", path, "trash").status_code == 201
    log.new()
    assert api.delete(f"/content/trash/{location_id}").status_code == 204
    data = about_content(log.one("trash.deleted"), info["_id"])
    assert data["deletedContentIds"] == [info["_id"]]

    second = published_folder(api, "More rubbish", "1/2")
    assert relocate(api, "MOVE", main_location_path(second), "trash").status_code == 201
    log.new()
    assert api.delete("/content/trash").status_code == 204
    event = log.one("trash.emptied")
    assert event.subject == "trash" and event.data["deletedContentIds"] == [second["_id"]]


# -- sections, object states, URL aliases and wildcards ---------------------------------------------


def test_section_writes(api: Api) -> None:
    log = EventLog(api)
    identifier = unique()
    section = create_section(api, identifier).json()["Section"]
    event = log.one("section.created")
    section_id = section["sectionId"]
    assert event.subject == f"section/{section_id}"
    assert event.data == {"sectionId": section_id, "identifier": identifier, "name": "A section"}
    response = patch_json(
        api, f"/content/sections/{section_id}", "SectionInput", {"name": "Renamed"}, "Section"
    )
    assert response.status_code == 200, response.text
    assert log.one("section.updated").data["name"] == "Renamed"
    assert api.delete(f"/content/sections/{section_id}").status_code == 204
    assert log.one("section.deleted").subject == f"section/{section_id}"


def test_object_state_writes(api: Api) -> None:
    names = {"value": [{"_languageCode": "eng-GB", "#text": "Review"}]}
    log = EventLog(api)
    group_input = {"identifier": unique("group"), "defaultLanguageCode": "eng-GB", "names": names}
    group = post_json(
        api, "/content/objectstategroups", "ObjectStateGroupCreate", group_input, "ObjectStateGroup"
    )
    assert group.status_code == 201, group.text
    group_id = group.json()["ObjectStateGroup"]["id"]
    assert log.one("object_state.created").subject == f"object_state_group/{group_id}"
    groups = f"/content/objectstategroups/{group_id}"
    renamed = patch_json(
        api, groups, "ObjectStateGroupUpdate", {"identifier": unique("g")}, "ObjectStateGroup"
    )
    assert renamed.status_code == 200, renamed.text
    assert log.one("object_state.updated").data["groupId"] == group_id
    state_input = {"identifier": "open", "defaultLanguageCode": "eng-GB", "names": names}
    state = post_json(api, f"{groups}/objectstates", "ObjectStateCreate", state_input, "ObjectState")
    assert state.status_code == 201, state.text
    state_id = state.json()["ObjectState"]["id"]
    assert log.one("object_state.created").data == {
        "groupId": group_id,
        "stateId": state_id,
        "identifier": "open",
    }
    changed = patch_json(
        api, f"{groups}/objectstates/{state_id}", "ObjectStateUpdate", {"identifier": "shut"}, "ObjectState"
    )
    assert changed.status_code == 200, changed.text
    assert log.one("object_state.updated").data["identifier"] == "shut"

    content_id = published_folder(api, "Stated")["_id"]
    log.new()
    refs = {"ObjectState": [{"_href": f"{PREFIX}{groups}/objectstates/{state_id}"}]}
    assigned = patch_json(
        api, f"/content/objects/{content_id}/objectstates", "ContentObjectStates", refs, "ContentObjectStates"
    )
    assert assigned.status_code == 200, assigned.text
    data = about_content(log.one("object_state.assigned"), content_id)
    assert data["states"] == [{"groupId": group_id, "stateId": state_id, "identifier": "shut"}]

    assert api.delete(f"{groups}/objectstates/{state_id}").status_code == 204
    assert log.one("object_state.deleted").subject == f"object_state/{state_id}"
    assert api.delete(groups).status_code == 204
    assert log.one("object_state.deleted").subject == f"object_state_group/{group_id}"


def test_url_alias_and_wildcard_writes(api: Api) -> None:
    path = main_location_path(published_folder(api, unique("Aliased")))
    log = EventLog(api)
    alias_input = {
        "_type": "LOCATION",
        "location": {"_href": f"{PREFIX}/content/locations/{path}"},
        "path": "/" + unique("go-here"),
        "languageCode": "eng-GB",
    }
    created = post_json(api, "/content/urlaliases", "UrlAliasCreate", alias_input, "UrlAlias")
    assert created.status_code == 201, created.text
    alias_id = created.json()["UrlAlias"]["_id"]
    event = log.one("url_alias.created")
    assert event.subject == f"url_alias/{alias_id}" and event.data["path"] == alias_input["path"]
    assert api.delete(f"/content/urlaliases/{alias_id}").status_code == 204
    assert log.one("url_alias.deleted").subject == f"url_alias/{alias_id}"

    source = "/" + unique("old") + "/*"
    wildcard_input = {"sourceUrl": source, "destinationUrl": "/new/{1}", "forward": "true"}
    created = post_json(api, "/content/urlwildcards", "UrlWildcardCreate", wildcard_input, "UrlWildcard")
    assert created.status_code == 201, created.text
    wildcard_id = created.json()["UrlWildcard"]["_id"]
    event = log.one("url_wildcard.created")
    assert event.subject == f"url_wildcard/{wildcard_id}" and event.data["sourceUrl"] == source
    assert api.delete(f"/content/urlwildcards/{wildcard_id}").status_code == 204
    assert log.one("url_wildcard.deleted").subject == f"url_wildcard/{wildcard_id}"


# -- the content model -------------------------------------------------------------------------------


def test_content_type_writes(api: Api) -> None:
    log = EventLog(api)
    identifier = unique("typegroup")
    group = post_json(
        api, "/content/typegroups", "ContentTypeGroupInput", {"identifier": identifier}, "ContentTypeGroup"
    )
    assert group.status_code == 201, group.text
    group_id = group.json()["ContentTypeGroup"]["id"]
    assert log.one("content_type_group.created").data == {
        "contentTypeGroupId": group_id,
        "identifier": identifier,
    }
    renamed = patch_json(
        api,
        f"/content/typegroups/{group_id}",
        "ContentTypeGroupInput",
        {"identifier": identifier + "x"},
        "ContentTypeGroup",
    )
    assert renamed.status_code == 200, renamed.text
    assert log.one("content_type_group.updated").data["identifier"] == identifier + "x"

    created = create_type(api, type_create(), group_id)
    assert created.status_code == 201, created.text
    type_id = created.json()["ContentType"]["id"]
    event = log.one("content_type.created")
    assert event.subject == f"content_type/{type_id}" and event.data["status"] == "DRAFT"
    draft = f"/content/types/{type_id}/draft"
    added = post_json(
        api, f"{draft}/fieldDefinitions", "FieldDefinitionCreate", type_field("summary"), "FieldDefinition"
    )
    assert added.status_code == 201, added.text
    field_id = added.json()["FieldDefinition"]["id"]
    assert log.one("content_type.updated").data["fieldDefinitionAdded"] == field_id
    response = patch_json(
        api,
        f"{draft}/fieldDefinitions/{field_id}",
        "FieldDefinitionUpdate",
        {"position": 7},
        "FieldDefinition",
    )
    assert response.status_code == 200, response.text
    assert log.one("content_type.updated").data["fieldDefinitionUpdated"] == field_id
    assert api.delete(f"{draft}/fieldDefinitions/{field_id}").status_code == 204
    assert log.one("content_type.updated").data["fieldDefinitionDeleted"] == field_id
    response = patch_json(api, draft, "ContentTypeUpdate", {"nameSchema": "<title>!"}, "ContentType")
    assert response.status_code == 200, response.text
    assert log.one("content_type.updated").data["status"] == "DRAFT"
    assert api.request("PUBLISH", draft, accept=media("ContentType")).status_code == 200
    published = log.one("content_type.published").data
    assert published == {**event.data, "status": "DEFINED", "groupIds": [group_id]}

    assert new_type_draft(api, type_id).status_code == 201
    assert log.one("content_type.updated").data["draftCreated"] is True
    assert api.delete(draft).status_code == 204
    assert log.one("content_type.updated").data["draftDeleted"] is True
    linked = api.post(
        f"/content/types/{type_id}/groups?group={PREFIX}/content/typegroups/1",
        accept=media("ContentTypeGroupRefList"),
    )
    assert linked.status_code == 200, linked.text
    assert sorted(log.one("content_type.updated").data["groupIds"]) == sorted([group_id, 1])
    unlinked = api.delete(f"/content/types/{type_id}/groups/1", accept=media("ContentTypeGroupRefList"))
    assert unlinked.status_code == 200, unlinked.text
    assert log.one("content_type.updated").data["groupIds"] == [group_id]

    copied = api.request("COPY", f"/content/types/{type_id}")
    assert copied.status_code == 201, copied.text
    copy_id = int(copied.headers["location"].rsplit("/", 1)[1])
    event = log.one("content_type.created")
    assert event.subject == f"content_type/{copy_id}" and event.data["copiedFrom"] == type_id
    for deleted in (copy_id, type_id):
        assert api.delete(f"/content/types/{deleted}").status_code == 204
        assert log.one("content_type.deleted").subject == f"content_type/{deleted}"
    assert api.delete(f"/content/typegroups/{group_id}").status_code == 204
    assert log.one("content_type_group.deleted").subject == f"content_type_group/{group_id}"


# -- users, groups, roles ----------------------------------------------------------------------------


def test_user_and_group_writes(api: Api) -> None:
    log = EventLog(api)
    group = create_group(api, "1/5", "Evented group")
    path = group_path(group)
    group_id = group["_id"]
    about_content(log.one("user_group.created"), group_id, locations=placed(path))
    renamed = patch_json(
        api,
        f"/user/groups/{path}",
        "UserGroupUpdate",
        {"fields": {"field": [field("name", "Renamed")]}},
        "UserGroup",
    )
    assert renamed.status_code == 200, renamed.text
    about_content(log.one("user_group.updated"), group_id, versionNo=2)

    user = create_user(api, path)
    user_id = user["_id"]
    user_path = f"{path}/{user['MainLocation']['_href'].rsplit('/', 1)[1]}"
    about_content(log.one("user.created"), user_id, locations=placed(user_path))
    updated = patch_json(
        api, f"/user/users/{user_id}", "UserUpdate", {"email": "evented@example.com"}, "User"
    )
    assert updated.status_code == 200, updated.text
    about_content(log.one("user.updated"), user_id, versionNo=2)
    assigned = api.post(
        f"/user/users/{user_id}/groups?group={PREFIX}/user/groups/1/5/12", accept=media("UserGroupRefList")
    )
    assert assigned.status_code == 200, assigned.text
    data = about_content(log.one("user.updated"), user_id)
    assert data["assignedGroup"] == 12 and data["locations"][0]["parentId"] == 12
    unassigned = api.delete(f"/user/users/{user_id}/groups/12", accept=media("UserGroupRefList"))
    assert unassigned.status_code == 200, unassigned.text
    assert about_content(log.one("user.updated"), user_id)["unassignedGroup"] == 12
    assert api.delete(f"/user/users/{user_id}").status_code == 204
    about_content(log.one("user.deleted"), user_id)

    moved = api.request(
        "MOVE", f"/user/groups/{path}", headers={"Destination": f"{PREFIX}/user/groups/1/5/13"}
    )
    assert moved.status_code == 201, moved.text
    new_path = moved.headers["location"].split("/user/groups/", 1)[1]
    data = about_content(log.one("location.moved"), group_id, locations=placed(new_path))
    assert data["oldPath"] == f"/{path}/"
    assert api.delete(f"/user/groups/{new_path}").status_code == 204
    about_content(log.one("user_group.deleted"), group_id, locations=placed(new_path))


def test_role_writes(api: Api) -> None:
    log = EventLog(api)
    identifier = unique("role")
    role_id = make_role(api, identifier)
    assert log.one("role.created").data == {"roleId": role_id, "identifier": identifier, "draft": False}
    role = f"/user/roles/{role_id}"
    assert patch_json(api, role, "RoleInput", {"identifier": identifier + "x"}, "Role").status_code == 200
    assert log.one("role.updated").subject == f"role/{role_id}"
    policy = {"module": "content", "function": "read"}
    added = post_json(api, f"{role}/policies", "PolicyCreate", policy, "Policy")
    assert added.status_code == 201, added.text
    policy_id = added.json()["Policy"]["id"]
    assert log.one("role.updated").data["policyAdded"] == policy_id
    assert api.delete(f"{role}/policies/{policy_id}").status_code == 204
    assert log.one("role.updated").data["policyDeleted"] == policy_id

    drafted = api.post(role, accept=media("Role"))
    assert drafted.status_code == 201, drafted.text
    draft_id = log.one("role.draft_created").data["draftId"]
    assert (
        patch_json(api, f"{role}/draft", "RoleInput", {"identifier": identifier + "y"}, "Role").status_code
        == 200
    )
    assert log.one("role.updated").data["draftId"] == draft_id
    assert api.request("PUBLISH", f"{role}/draft").status_code == 204
    assert log.one("role.published").data["draftId"] == draft_id

    assignee = "/user/groups/1/5/13/roles"
    body = {"Role": {"_href": f"{PREFIX}{role}"}}
    assert post_json(api, assignee, "RoleAssignInput", body, "RoleAssignmentList").status_code == 200
    assert log.one("role.assigned").data == {"roleId": role_id, "assigneeId": 12}
    assert api.delete(f"{assignee}/{role_id}", accept=media("RoleAssignmentList")).status_code == 200
    assert log.one("role.unassigned").data == {"roleId": role_id, "assigneeId": 12}
    assert api.delete(role).status_code == 204
    assert log.one("role.deleted").data["identifier"] == identifier + "y"


# -- refused and failed writes ---------------------------------------------------------------------


def test_a_refused_or_failed_write_appends_nothing(api: Api) -> None:
    info = published_folder(api, "Guarded")
    content_id = info["_id"]
    identifier = unique()
    assert create_section(api, identifier).status_code == 201
    log = EventLog(api)
    error_message(create_section(api, identifier), 403)  # identifier taken: a conflict
    anonymous = Api(api.client, auth=None)
    error_message(post_content(anonymous, content_create([field("name", "Sneaky")])), 401)  # no permission
    published_version = f"/content/objects/{content_id}/versions/1"
    assert api.request("PUBLISH", published_version).status_code == 403  # not a draft
    assert api.delete(f"/content/objects/{content_id}/versions/1").status_code == 403  # the published version
    stale = api.patch(
        f"/content/objects/{content_id}",
        body={"ContentUpdate": {"remoteId": "stale"}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
        headers={"If-Match": '"stale"'},
    )
    error_message(stale, 412)
    error_message(post_content(api, content_create([field("name", "")])), 400)  # a required field empty
    error_message(relocate(api, "MOVE", "1/2", f"locations/{main_location_path(info)}"), 403)  # into itself
    log.none()
    assert create_section(api, unique()).status_code == 201  # and the next write that succeeds has its event
    log.one("section.created")


# -- both databases ----------------------------------------------------------------------------------


def test_writes_append_their_events_on_both_databases(db_api: Api) -> None:
    api = db_api
    log = EventLog(api)
    info = published_folder(api, "Both", "1/2")
    content_id = info["_id"]
    path = main_location_path(info)
    events = log.new()
    assert [event.type for event in events] == ["pressroom.content.created", "pressroom.content.published"]
    assert all(event.user_id == ADMIN_ID for event in events)
    about_content(events[1], content_id, versionNo=1, locations=placed(path))
    target = folder_at(api, "Both target")
    log.new()
    assert relocate(api, "MOVE", path, f"locations/{target}").status_code == 201
    assert about_content(log.one("location.moved"), content_id)["oldPath"] == f"/{path}/"
    assert api.delete(f"/content/objects/{content_id}/versions/1").status_code == 403
    role_id = make_role(api, unique("role"))
    assert log.one("role.created").data["roleId"] == role_id
    log.none()
