"""deploy/varnish/pressroom.vcl, run in Debian's varnishd with varnish-modules (``make varnish`` installs
them) in front of a real ``pressroom serve``: reads are cached per set of rights, and the keys of committed
events are purged before the next write's response (synchronous-purge mode).

Each test also appends the event of its write to the server's database directly (as the write itself
does where it records its event: purging twice is harmless), so that what is purged does not depend on
which writes record events. The dispatcher's own loop polls
only every 60 s here: a purge seen at once is the synchronous one."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from pressroom.domain.event import NewEvent
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.conftest import free_port, running_server
from tests.functional.content_support import published_folder
from tests.functional.role_support import assign, make_group, make_role, make_user
from tests.helpers import Api, media
from tests.varnish_proxy import start_varnish


@dataclass
class Proxy:
    url: str  # Varnish
    direct: str  # the application
    store: SqlStore

    def api(self, auth: str | None) -> Api:
        return Api(httpx.Client(base_url=self.url, timeout=10), auth=auth)

    def append(self, event: NewEvent) -> None:
        with self.store.write() as tx:
            tx.events.append(event)

    def write(self, admin: Api) -> None:
        """Any write: its answer comes after the purge of everything committed before it."""
        response = Api(httpx.Client(base_url=self.direct, timeout=10), auth=admin.auth).request(
            "DELETE", "/content/sections/999999"
        )
        assert response.status_code == 404


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    root = tmp_path_factory.mktemp("varnish")
    port = free_port()
    with running_server(
        root / "pressroom",
        PRESSROOM_HTTP_CACHE_PURGE=f"varnish:http://127.0.0.1:{port}",
        PRESSROOM_HTTP_CACHE_SYNC_PURGE="1",
        PRESSROOM_EVENTS_POLL_SECONDS="60",
        PRESSROOM_HTTP_CACHE_REPURGE_SECONDS="0",  # a repeated purge would make hits depend on timing
    ) as direct:
        process = start_varnish(root / "proxy", port, int(direct.rsplit(":", 1)[1]))
        engine = make_engine(f"sqlite:///{root / 'pressroom' / 'live.db'}")
        try:
            yield Proxy(f"http://127.0.0.1:{port}", direct, SqlStore(engine))
        finally:
            process.terminate()
            process.wait(timeout=10)
            engine.dispose()


@pytest.fixture
def admin(proxy: Proxy) -> Api:
    return Api(httpx.Client(base_url=proxy.direct, timeout=10))


def _read(api: Api, content_id: int) -> httpx.Response:
    response = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo"))
    assert response.status_code == 200, response.text
    return response


def test_a_second_read_is_a_hit_and_a_purge_makes_the_next_one_fresh(proxy: Proxy, admin: Api) -> None:
    folder = published_folder(admin, "Cached")
    cached = proxy.api(admin.auth)
    first = _read(cached, folder["_id"])
    second = _read(cached, folder["_id"])
    assert (first.headers["x-cache"], second.headers["x-cache"]) == ("MISS", "HIT")
    assert "age" in second.headers
    assert "xkey" not in second.headers  # the keys are the cache's business
    changed = admin.patch(
        f"/content/objects/{folder['_id']}",
        body={"ContentUpdate": {"remoteId": "cached-after"}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
    )
    assert changed.status_code == 200, changed.text
    proxy.append(NewEvent("content.updated", 14, folder["_id"], f"content/{folder['_id']}"))
    proxy.write(admin)
    fresh = _read(cached, folder["_id"])
    assert fresh.headers["x-cache"] == "MISS"
    assert fresh.json()["Content"]["_remoteId"] == "cached-after"


def test_children_lists_are_purged_by_the_parents_key(proxy: Proxy, admin: Api) -> None:
    parent = published_folder(admin, "Parent")
    location = parent["MainLocation"]["_href"].split("/content/locations/", 1)[1]
    cached = proxy.api(admin.auth)
    path = f"/content/locations/{location}/children"
    assert cached.get(path, accept=media("LocationList")).headers["x-cache"] == "MISS"
    assert cached.get(path, accept=media("LocationList")).headers["x-cache"] == "HIT"
    child = published_folder(admin, "Child", parent=location)
    child_location = int(child["MainLocation"]["_href"].rsplit("/", 1)[1])
    parent_id = int(location.rsplit("/", 1)[1])
    path_string = f"/{location}/{child_location}/"
    proxy.append(
        NewEvent(
            "content.published", 14, child["_id"], f"content/{child['_id']}",
            {"locations": [{"id": child_location, "parentId": parent_id, "path": path_string}]},
        )
    )  # fmt: skip
    proxy.write(admin)
    fresh = cached.get(path, accept=media("LocationList"))
    assert fresh.headers["x-cache"] == "MISS"
    assert str(child_location) in fresh.text


def test_equal_rights_share_answers_other_rights_never_do(proxy: Proxy, admin: Api) -> None:
    readers = make_group(admin, "Varnish readers")
    assign(
        admin,
        f"/user/groups/{readers}",
        make_role(admin, "v_read", ("content", "read", {}), ("user", "login", {})),
    )
    others = make_group(admin, "Varnish others")
    other_role = make_role(
        admin, "v_other", ("content", "read", {}), ("user", "login", {}), ("section", "view", {})
    )
    assign(admin, f"/user/groups/{others}", other_role)
    _, one = make_user(admin, "v_one", readers)
    _, two = make_user(admin, "v_two", readers)
    _, three = make_user(admin, "v_three", others)
    folder = published_folder(admin, "Shared")
    assert _read(proxy.api(one.auth), folder["_id"]).headers["x-cache"] == "MISS"
    assert _read(proxy.api(two.auth), folder["_id"]).headers["x-cache"] == "HIT"  # equal rights: one answer
    assert _read(proxy.api(three.auth), folder["_id"]).headers["x-cache"] == "MISS"  # other rights: its own
    assert _read(proxy.api(admin.auth), folder["_id"]).headers["x-cache"] == "MISS"
    assert _read(proxy.api(None), folder["_id"]).headers["x-cache"] == "MISS"  # anonymous has its own
    # a forged hash from the client is dropped: the caller is looked up with its own
    forged = proxy.api(three.auth).get(
        f"/content/objects/{folder['_id']}", accept=media("ContentInfo"), headers={"X-User-Context-Hash": "x"}
    )
    assert forged.headers["x-cache"] == "HIT"
    # a change of rights: once purged, earlier answers are out of the reader's reach
    more = make_role(admin, "v_more", ("content", "versionread", {}))
    assign(admin, f"/user/groups/{readers}", more)
    proxy.append(NewEvent("role.assigned", 14, None, f"role/{more}", {"roleId": more}))
    proxy.write(admin)
    assert _read(proxy.api(one.auth), folder["_id"]).headers["x-cache"] == "MISS"


def test_wrong_credentials_are_answered_by_the_application(proxy: Proxy) -> None:
    response = proxy.api("Basic bm9ib2R5Om5vdGhpbmc=").get("/content/objects/1", accept=media("ContentInfo"))
    assert response.status_code == 401
    assert response.headers["x-cache"] == "MISS"


def test_only_the_application_may_purge(proxy: Proxy) -> None:
    allowed = httpx.request("PURGEKEYS", proxy.url + "/", headers={"xkey-purge": "c1"})
    assert allowed.status_code == 200
    missing = httpx.request("PURGEKEYS", proxy.url + "/")
    assert missing.status_code == 400
