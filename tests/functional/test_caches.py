"""Per-process caches (content types, languages, sections, versions, rendered Content) are exact across
processes: two application instances over one database stand for two server processes, and every change
made through one is seen by the next request to the other, on SQLite and PostgreSQL. The statement counts
of the hot paths are asserted here, so that a change adding a round trip fails."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from tests.conftest import make_settings
from tests.functional import content_types_support as types
from tests.functional.content_support import (
    content_create,
    field,
    install_language,
    new_draft,
    post_content,
    publish,
    published_folder,
    update_version,
)
from tests.functional.role_support import assign, make_group, make_user
from tests.functional.support import cookie_of, login, session_of
from tests.functional.test_relations import relate
from tests.functional.test_user_accounts import set_enabled
from tests.functional.users_support import EDITORS, PASSWORD, basic, create_user, new_login
from tests.helpers import PREFIX, Api, StatementCounter, media


@pytest.fixture
def two(database_url: str, tmp_path: Path) -> Iterator[tuple[Api, Api]]:
    """Two application instances (as two server processes would be) over one database."""
    settings = make_settings(database_url, tmp_path)
    with (
        TestClient(create_app(settings)) as first,
        TestClient(create_app(settings)) as second,
    ):
        yield Api(first), Api(second)


def content(api: Api, content_id: int, fmt: str = "json") -> Any:
    response = api.get(f"/content/objects/{content_id}", accept=media("Content", fmt))
    assert response.status_code == 200, response.text
    return response.json()["Content"] if fmt == "json" else response.content


def patch(api: Api, path: str, input_name: str, output_name: str, **values: Any) -> None:
    """PATCH ``{input_name: values}`` (JSON), expecting 200."""
    response = api.patch(
        path, body={input_name: values}, content_type=media(input_name), accept=media(output_name)
    )
    assert response.status_code == 200, response.text


def shown_fields(api: Api, content_id: int) -> dict[str, Any]:
    fields = content(api, content_id)["CurrentVersion"]["Version"]["Fields"]["field"]
    return {f["fieldDefinitionIdentifier"]: f["fieldValue"] for f in fields}


def test_a_content_type_change_through_one_process_is_seen_by_the_other(two: tuple[Api, Api]) -> None:
    writer, reader = two
    created = types.new_type(writer, fields=[types.field("title")])
    type_id = created["id"]
    item = post_content(writer, content_create([field("title", "Kept")], type_id=type_id)).json()["Content"]
    publish(writer, item["_id"])
    assert shown_fields(reader, item["_id"]) == {"title": "Kept"}  # the reader caches type and item

    assert types.new_draft(writer, type_id).status_code == 201
    definitions = types.get_json(
        writer, f"/content/types/{type_id}/draft/fieldDefinitions", "FieldDefinitionList"
    )["FieldDefinition"]
    field_definition = f"/content/types/{type_id}/draft/fieldDefinitions/{definitions[0]['id']}"
    patch(writer, field_definition, "FieldDefinitionUpdate", "FieldDefinition", identifier="headline")
    patch(
        writer, f"/content/types/{type_id}/draft", "ContentTypeUpdate", "ContentType", nameSchema="<headline>"
    )
    assert types.publish(writer, type_id).status_code == 200

    assert shown_fields(reader, item["_id"]) == {"headline": "Kept"}
    again = post_content(reader, content_create([field("headline", "New")], type_id=type_id))
    assert again.status_code == 201, again.text


def test_a_section_change_through_one_process_is_seen_by_the_other(two: tuple[Api, Api]) -> None:
    writer, reader = two
    assert reader.json("GET", "/content/sections/1", "Section")["Section"]["name"] == "Standard"
    patch(writer, "/content/sections/1", "SectionInput", "Section", name="Renamed")
    assert reader.json("GET", "/content/sections/1", "Section")["Section"]["name"] == "Renamed"


def test_a_language_installed_by_another_process_is_usable(two: tuple[Api, Api], database_url: str) -> None:
    _, reader = two
    data = content_create([field("name", "Ordner", "ger-DE")], language="ger-DE")
    assert post_content(reader, data).status_code == 400  # not installed: the reader caches languages
    install_language(database_url, "ger-DE")  # the way `pressroom add-language` does, from elsewhere
    assert post_content(reader, data).status_code == 201


def test_every_write_to_an_item_is_seen_by_the_other_process(two: tuple[Api, Api]) -> None:
    writer, reader = two
    item = published_folder(writer, "First")
    content_id = item["_id"]
    assert shown_fields(reader, content_id)["name"] == "First"
    before_xml = content(reader, content_id, "xml")

    draft = new_draft(writer, content_id)
    assert update_version(writer, content_id, draft, [field("name", "Second")]).status_code == 200
    assert shown_fields(reader, content_id)["name"] == "First"  # a draft does not show
    publish(writer, content_id, draft)
    assert shown_fields(reader, content_id)["name"] == "Second"
    assert content(reader, content_id, "xml") != before_xml

    section = {"_href": "/api/ibexa/v2/content/sections/2"}
    patch(writer, f"/content/objects/{content_id}", "ContentUpdate", "ContentInfo", Section=section)
    assert content(reader, content_id)["Section"]["_href"].endswith("/content/sections/2")

    assert writer.post(f"/content/objects/{content_id}/hide").status_code == 204
    assert content(reader, content_id)["isHidden"] is True

    target = published_folder(writer, "Target")
    third = new_draft(writer, content_id)
    assert relate(writer, content_id, third, target["_id"]).status_code == 201
    publish(writer, content_id, third)
    relations = content(reader, content_id)["CurrentVersion"]["Version"]["Relations"]["Relation"]
    assert [r["DestinationContent"]["_href"].rsplit("/", 1)[1] for r in relations] == [str(target["_id"])]
    assert writer.delete(f"/content/objects/{target['_id']}").status_code == 204
    assert content(reader, content_id)["CurrentVersion"]["Version"]["Relations"]["Relation"] == []


def test_a_never_published_item_shows_each_saved_draft(two: tuple[Api, Api]) -> None:
    writer, reader = two
    created = post_content(writer, content_create([field("name", "Draft one")])).json()["Content"]
    assert shown_fields(reader, created["_id"])["name"] == "Draft one"
    assert update_version(writer, created["_id"], 1, [field("name", "Draft two")]).status_code == 200
    assert shown_fields(reader, created["_id"])["name"] == "Draft two"


def test_statements_of_the_hot_paths(two: tuple[Api, Api]) -> None:
    """A warm content GET is one statement, authentication and permissions included; create and publish
    run the statements listed below and no more."""
    api = two[0]
    published_folder(api, "Warm-up")  # loads the user, the type and the languages into the caches
    with StatementCounter() as creating:
        created = post_content(api, content_create([field("name", "Counted")]))
    assert created.status_code == 201
    content_id = created.json()["Content"]["_id"]
    with StatementCounter() as publishing:
        publish(api, content_id)
    content(api, content_id)
    for fmt in ("json", "xml"):
        with StatementCounter() as reading:
            content(api, content_id, fmt)
        # the content read also confirms the caller's account and finds the caller's grants
        assert reading.count == 1, reading.statements
        assert reading.statements[0].startswith("SELECT content."), reading.statements
    api.get("/content/sections/1", accept=media("Section"))
    with StatementCounter() as section:
        assert api.get("/content/sections/1", accept=media("Section")).status_code == 200
    # the caller's grants, account and the cache epoch in one statement; the section from the cache
    assert section.count == 1, section.statements
    # BEGIN is not counted on either database (it goes to the driver). Creating:
    # the parent location with its content, the caller's account and access stamp and the cache epoch
    # in one SELECT; the item, its version, the field rows, the pending location. The field ids come from
    # the process's block (the warm-up reserved it); nothing is read back. Last, the event.
    assert creating.count == 6, creating.statements
    assert creating.statements[-5].startswith("INSERT INTO content "), creating.statements
    assert creating.statements[-1].startswith("INSERT INTO events "), creating.statements
    # Publishing: the item locked with the version, its fields and the caller; the versions' states;
    # the search index (field rows and text; a republish also deletes rows); the pending location taken
    # with its parent's path; the location inserted with its path; the item's row; the URL alias entry,
    # inserted unless its key is taken (its node from the process's block); the event.
    assert publishing.count == 9, publishing.statements
    assert publishing.statements[-1].startswith("INSERT INTO events "), publishing.statements
    assert not [s for s in publishing.statements if s.startswith("UPDATE sequences")], publishing.statements


def test_a_cold_content_get_reads_the_fields_with_the_item(two: tuple[Api, Api]) -> None:
    """A process that has nothing cached for an item reads it, its current version's fields and whether
    that version holds relations in one statement; a second one runs only when it does hold some."""
    writer, reader = two
    target = published_folder(writer, "Target")["_id"]
    plain = published_folder(writer, "Plain")
    related = published_folder(writer, "Related")["_id"]
    draft = new_draft(writer, related)
    assert relate(writer, related, draft, target).status_code == 201
    publish(writer, related, draft)
    content(reader, target)  # the reader's caller and caches are warm, its items are not
    with StatementCounter() as cold:
        shown = content(reader, plain["_id"])
    assert cold.count == 1, cold.statements
    assert shown["CurrentVersion"]["Version"]["Fields"]["field"][0]["fieldValue"] == "Plain"
    with StatementCounter() as cold_related:
        shown = content(reader, related)
    assert cold_related.count == 2, cold_related.statements
    destinations = shown["CurrentVersion"]["Version"]["Relations"]["Relation"]
    assert [r["DestinationContent"]["_href"].rsplit("/", 1)[1] for r in destinations] == [str(target)]
    with StatementCounter() as warm:
        assert content(reader, related, "xml")
    assert warm.count == 1, warm.statements


# -- the caller: accounts, sessions and JWTs cached per process, confirmed by each request's own read ----


def readable(api: Api, content_id: int, **headers: str) -> int:
    """The status of a content GET."""
    response = api.get(f"/content/objects/{content_id}", accept=media("Content"), headers=headers)
    return response.status_code


def media_folder(writer: Api) -> int:
    """A folder in the Media section: editors may read it, anonymous callers (and guests) may not."""
    item = published_folder(writer, "Readable")["_id"]
    section = {"_href": "/api/ibexa/v2/content/sections/3"}
    patch(writer, f"/content/objects/{item}", "ContentUpdate", "ContentInfo", Section=section)
    return int(item)


def editor(writer: Api) -> tuple[int, str]:
    login = new_login()
    return int(create_user(writer, EDITORS, login)["_id"]), login


@pytest.mark.parametrize("change", ["password", "disable", "delete"])
def test_a_cached_basic_caller_is_refused_at_once_after_a_change_through_the_other_process(
    two: tuple[Api, Api], change: str
) -> None:
    writer, reader = two
    item = media_folder(writer)
    user_id, login = editor(writer)
    caller = Api(reader.client, auth=basic(login))
    assert readable(caller, item) == 200  # verified once (argon2), then remembered by the reader
    with StatementCounter() as warm:
        assert readable(caller, item) == 200
    assert warm.count == 1, warm.statements  # the content read confirms the account
    if change == "password":
        response = writer.patch(
            f"/user/users/{user_id}",
            body={"UserUpdate": {"password": "Changed5678"}},
            content_type=media("UserUpdate"),
            accept=media("User"),
        )
    elif change == "disable":
        response = writer.patch(
            f"/user/users/{user_id}",
            body={"UserUpdate": {"enabled": False}},
            content_type=media("UserUpdate"),
            accept=media("User"),
        )
    else:
        response = writer.delete(f"/user/users/{user_id}")
    assert response.status_code in (200, 204), response.text
    assert readable(caller, item) == 401
    assert readable(caller, item) == 401  # the stale entry is gone, not used again
    if change == "password":
        assert readable(Api(reader.client, auth=basic(login, "Changed5678")), item) == 200


def test_a_cached_basic_caller_is_refused_on_every_route_and_write(two: tuple[Api, Api]) -> None:
    """Routes that run no statement carrying the caller confirm it with one of their own; a write
    commits nothing for a caller the cache got wrong."""
    writer, reader = two
    user_id, login = editor(writer)
    caller = Api(reader.client, auth=basic(login))
    assert caller.get("/languages/eng-GB", accept=media("Language")).status_code == 200
    with StatementCounter() as warm:
        assert caller.get("/languages/eng-GB", accept=media("Language")).status_code == 200
    assert warm.count == 1, warm.statements  # the confirming read
    assert readable(caller, 999_999) == 404
    set_enabled(writer, user_id, False)
    assert caller.get("/languages/eng-GB", accept=media("Language")).status_code == 401
    assert readable(caller, 999_999) == 401  # refused, not "not found"
    set_enabled(writer, user_id, True)
    assert readable(caller, 999_999) == 404  # verified again
    set_enabled(writer, user_id, False)
    created = post_content(caller, content_create([field("name", "Never")], parent="1/2"))
    assert created.status_code == 401, created.text


def test_a_cached_session_ends_at_once_on_logout_or_disable_through_the_other_process(
    two: tuple[Api, Api],
) -> None:
    writer, reader = two
    item = media_folder(writer)
    user_id, login_name = editor(writer)
    for end in ("logout", "disable"):
        set_enabled(writer, user_id, True)
        session = session_of(login(reader.client, login_name, PASSWORD))
        cookie = cookie_of(session)
        anonymous = Api(reader.client, auth=None)
        assert readable(anonymous, item, **cookie) == 200
        with StatementCounter() as warm:
            assert readable(anonymous, item, **cookie) == 200
        assert warm.count == 1, warm.statements
        if end == "logout":
            logout = Api(writer.client, auth=None).delete(
                f"/user/sessions/{session['identifier']}",
                headers=cookie | {"X-CSRF-Token": session["csrfToken"]},
            )
            assert logout.status_code == 204
        else:
            set_enabled(writer, user_id, False)
        assert readable(anonymous, item, **cookie) == 401  # the cookie now means anonymous


def test_a_cached_session_logs_out_in_its_own_process(two: tuple[Api, Api]) -> None:
    _, reader = two
    session = session_of(login(reader.client))
    cookie = cookie_of(session)
    anonymous = Api(reader.client, auth=None)
    assert anonymous.get("/languages/eng-GB", accept=media("Language"), headers=cookie).status_code == 200
    logout = anonymous.delete(
        f"/user/sessions/{session['identifier']}", headers=cookie | {"X-CSRF-Token": session["csrfToken"]}
    )
    assert logout.status_code == 204
    assert anonymous.get("/user/sessions/current", headers=cookie).status_code == 404


def test_a_cached_jwt_user_is_refused_at_once_after_logout_through_the_other_process(
    two: tuple[Api, Api],
) -> None:
    writer, reader = two
    item = media_folder(writer)
    token = Api(reader.client, auth=None).post(
        "/user/token/jwt",
        body={"JWTInput": {"username": "admin", "password": "publish"}},
        content_type=media("JWTInput"),
        accept=media("JWT"),
    )
    bearer = Api(reader.client, auth=f"Bearer {token.json()['JWT']['token']}")
    assert readable(bearer, item) == 200
    with StatementCounter() as warm:
        assert readable(bearer, item) == 200
    assert warm.count == 1, warm.statements
    session = session_of(login(writer.client))
    logout = Api(writer.client, auth=None).delete(
        f"/user/sessions/{session['identifier']}",
        headers=cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]},
    )
    assert logout.status_code == 204  # ends every JWT issued to admin until now
    assert readable(bearer, item) == 401


def test_grants_follow_a_move_into_another_group_made_through_the_other_process(
    two: tuple[Api, Api],
) -> None:
    """The reader keeps the caller's grants under the paths of its locations: a user moved out of the
    editors is refused at once by the other process."""
    writer, reader = two
    item = media_folder(writer)
    user_id, login = editor(writer)
    caller = Api(reader.client, auth=basic(login))
    assert readable(caller, item) == 200
    assert readable(caller, item) == 200
    location = writer.json("GET", f"/content/objects/{user_id}/locations", "LocationList")
    href = location["LocationList"]["Location"][0]["_href"]
    moved = writer.request("MOVE", href, headers={"Destination": f"{PREFIX}/content/locations/1/5/12"})
    assert moved.status_code == 201, moved.text
    assert readable(caller, item) == 401  # guests may read no folder of the standard section


def test_grants_follow_a_swap_above_the_caller_made_through_the_other_process(two: tuple[Api, Api]) -> None:
    """A swap changes what sits above a user with its paths unchanged: it moves the role revision on."""
    writer, reader = two
    item = media_folder(writer)
    group = make_group(writer, "Readers")
    assign(writer, f"/user/groups/{group}", 3)  # Editor
    _, caller = make_user(writer, new_login(), group)
    caller = Api(reader.client, auth=caller.auth)
    assert readable(caller, item) == 200
    assert readable(caller, item) == 200
    plain = make_group(writer, "Plain")
    swapped = writer.request(
        "SWAP", f"/content/locations/{group}", headers={"Destination": f"{PREFIX}/content/locations/{plain}"}
    )
    assert swapped.status_code == 204, swapped.text
    assert readable(caller, item) == 401  # the group above the caller now holds no role
