"""Image variations and the image Asset resource over HTTP (fieldtypes.md ezimage/ezimageasset,
endpoints-content.tsv /content/binary/images, service-description.md "Assets")."""

from __future__ import annotations

import asyncio
import base64
import io
import random
import struct
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from starlette.testclient import TestClient

from pressroom.config import Settings
from pressroom.domain.image_variation import PixelBound, Rendition, Variation, render
from pressroom.services import image as image_service
from tests.conftest import make_settings
from tests.functional.content_support import content_create, field, post_content, publish, version
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, StatementCounter, media, xml

IMAGE_TYPE = 5  # install.md §5: "image", fields name, caption, image (ezimage), tags
VARIATIONS = ["original", "reference", "small", "tiny", "medium", "large"]


def jpeg(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, "JPEG")
    return buffer.getvalue()


def image_item(api: Api, data: bytes, *, publish_it: bool = True, **extra: Any) -> tuple[int, dict[str, Any]]:
    """An image content item under the media folder; returns its id and image field value."""
    value = {"fileName": "photo.jpg", "data": base64.b64encode(data).decode(), "alternativeText": "A photo"}
    created = post_content(
        api,
        content_create([field("name", "Photo"), field("image", value)], type_id=IMAGE_TYPE, parent="1/43"),
    )
    assert created.status_code == 201, created.text
    content_id: int = created.json()["Content"]["_id"]
    if publish_it:
        publish(api, content_id)
    image = next(
        f for f in version(api, content_id, 1)["Fields"]["field"] if f["fieldDefinitionIdentifier"] == "image"
    )
    return content_id, image["fieldValue"]


def variation(api: Api, href: str, **kwargs: Any) -> Any:
    response = api.get(href, accept=media("ContentImageVariation"), **kwargs)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media("ContentImageVariation")
    return response.json()["ContentImageVariation"]


def test_image_value_lists_every_variation(api: Api) -> None:
    content_id, value = image_item(api, jpeg(800, 600))
    assert value["width"] == "800" and value["height"] == "600"
    image_id = value["imageId"]
    assert image_id.startswith(f"{content_id}-") and image_id.endswith("-1")
    assert value["variations"] == {
        name: {"href": f"{PREFIX}/content/binary/images/{image_id}/variations/{name}"} for name in VARIATIONS
    }


def test_variation_is_rendered_to_fit_its_box_and_served(api: Api) -> None:
    _, value = image_item(api, jpeg(800, 600))
    body = variation(api, value["variations"]["small"]["href"])
    assert body["_href"] == value["variations"]["small"]["href"]
    assert (body["width"], body["height"], body["contentType"]) == (100, 75, "image/jpeg")
    served = api.get(body["uri"])
    assert served.status_code == 200
    assert len(served.content) == body["fileSize"]
    with Image.open(io.BytesIO(served.content)) as image:
        assert image.size == (100, 75)
    large = variation(api, value["variations"]["large"]["href"])
    assert (large["width"], large["height"]) == (300, 225)


def test_small_images_are_never_enlarged(api: Api) -> None:
    _, value = image_item(api, jpeg(40, 20))
    body = variation(api, value["variations"]["reference"]["href"])
    assert (body["width"], body["height"]) == (40, 20)


def test_original_is_the_uploaded_file(api: Api) -> None:
    data = jpeg(64, 48)
    _, value = image_item(api, data)
    body = variation(api, value["variations"]["original"]["href"])
    assert (body["width"], body["height"], body["fileSize"]) == (64, 48, len(data))
    assert body["uri"] == value["uri"]


def test_second_request_reuses_the_rendition(api: Api) -> None:
    _, value = image_item(api, jpeg(500, 500))
    href = value["variations"]["medium"]["href"]
    first = variation(api, href)
    with StatementCounter() as counter:
        again = variation(api, href)
    assert again == first
    # load content, version, fields, the recorded rendition: nothing written the second time
    assert not any(s.lstrip().upper().startswith(("INSERT", "UPDATE")) for s in counter.statements)


def test_variation_in_xml_under_the_ez_prefix(client: TestClient) -> None:
    api = Api(client, EZ_PREFIX)
    _, value = image_item(api, jpeg(300, 200))
    href = value["variations"]["tiny"]["href"]
    assert href.startswith(f"{EZ_PREFIX}/content/binary/images/")
    response = api.get(href, accept=media("ContentImageVariation", "xml", "ez"))
    assert response.status_code == 200
    root = xml(response)
    assert (root.tag, root.get("href")) == ("ContentImageVariation", href)
    assert (root.findtext("width"), root.findtext("height"), root.findtext("contentType")) == (
        "30",
        "20",
        "image/jpeg",
    )


@pytest.mark.parametrize(
    "path",
    [
        "/content/binary/images/1-2-3/variations/small",  # no such content field
        "/content/binary/images/not-an-id/variations/small",
        "/content/binary/images/99999999999-1/variations/small",
    ],
)
def test_unknown_images_are_404(api: Api, path: str) -> None:
    error_message(api.get(path, accept=media("ContentImageVariation")), 404)


def test_unknown_variation_is_404_naming_the_known_ones(api: Api) -> None:
    _, value = image_item(api, jpeg(50, 50))
    href = value["variations"]["small"]["href"].replace("/small", "/huge")
    assert (
        "small"
        in error_message(api.get(href, accept=media("ContentImageVariation")), 404)["errorDescription"]
    )


def test_draft_images_are_not_shown_to_anonymous(client: TestClient, api: Api) -> None:
    _, value = image_item(api, jpeg(50, 50), publish_it=False)
    anonymous = Api(client, auth=None)
    error_message(
        anonymous.get(value["variations"]["small"]["href"], accept=media("ContentImageVariation")), 401
    )


def test_configured_variations(tmp_path: Any, sqlite_url: str) -> None:
    from pressroom.app import create_app
    from pressroom.config import settings_from_env

    settings = settings_from_env(
        {"PRESSROOM_DATABASE_URL": sqlite_url, "PRESSROOM_IMAGE_VARIATIONS": "square=64x64:fill,small=50x50"}
    )
    settings = settings.with_overrides(file_root=tmp_path / "files")
    with TestClient(create_app(settings)) as client:
        api = Api(client)
        _, value = image_item(api, jpeg(400, 200))
        assert list(value["variations"]) == [*VARIATIONS, "square"]
        square = variation(api, value["variations"]["square"]["href"])
        assert (square["width"], square["height"]) == (64, 64)
        small = variation(api, value["variations"]["small"]["href"])
        assert (small["width"], small["height"]) == (50, 25)


def test_bad_variation_setting_names_the_entry() -> None:
    from pressroom.config import settings_from_env

    with pytest.raises(ValueError, match="thumb=12"):
        settings_from_env({"PRESSROOM_IMAGE_VARIATIONS": "thumb=12"})


def test_image_asset_of_an_image_item(api: Api) -> None:
    content_id, _ = image_item(api, jpeg(120, 80))
    response = api.get(f"/content/assets/images/{content_id}/internal", accept=media("Asset"))
    assert response.status_code == 200, response.text
    body = response.json()["Asset"]
    assert body["assetId"] == str(content_id)
    assert body["assetSource"] == "internal"
    assert body["assetMetadata"] == {"alternativeText": "A photo", "width": 120, "height": 80}
    assert api.get(body["uri"]).status_code == 200
    error_message(api.get("/content/assets/images/1/internal", accept=media("Asset")), 404)  # a folder
    error_message(api.get(f"/content/assets/images/{content_id}/dam", accept=media("Asset")), 404)


def test_image_asset_field_shows_the_variations_of_its_destination(api: Api) -> None:
    from tests.functional import content_types_support as types

    asset_type = types.new_type(api, fields=[types.field("title"), types.field("photo", "ezimageasset")])
    image_id, image = image_item(api, jpeg(120, 80))
    value = {"destinationContentId": image_id, "alternativeText": "Cover"}
    created = post_content(
        api, content_create([field("title", "Article"), field("photo", value)], type_id=asset_type["id"])
    )
    assert created.status_code == 201, created.text
    content_id = created.json()["Content"]["_id"]
    photo = next(
        f["fieldValue"]
        for f in version(api, content_id, 1)["Fields"]["field"]
        if f["fieldDefinitionIdentifier"] == "photo"
    )
    assert photo["destinationContentId"] == image_id
    assert photo["alternativeText"] == "Cover"
    assert photo["variations"] == image["variations"]
    small = variation(api, photo["variations"]["small"]["href"])
    assert (small["width"], small["height"]) == (100, 67)


def test_images_and_variations_on_s3_storage(tmp_path: Any, sqlite_url: str, s3_url: str) -> None:
    from pressroom.app import create_app
    from pressroom.config import Settings

    settings = Settings(database_url=sqlite_url, file_root=tmp_path / "unused", file_store=s3_url)
    with TestClient(create_app(settings)) as client:
        api = Api(client)
        data = jpeg(640, 480)
        _, value = image_item(api, data)
        assert api.get(value["uri"]).content == data
        small = variation(api, value["variations"]["small"]["href"])
        served = api.get(small["uri"])
        assert (served.status_code, len(served.content)) == (200, small["fileSize"])
    assert not (tmp_path / "unused").exists()  # nothing went to the local directory


def test_a_rendition_is_readable_as_its_original_and_goes_with_it(api: Api, settings: Settings) -> None:
    """A rendition's file follows its original (issue 15 items 13-14): anonymous users may not read the
    rendition of an image in the Media section, and deleting the item deletes the rendition too."""
    content_id, value = image_item(api, jpeg(800, 600))
    body = variation(api, value["variations"]["small"]["href"])
    rendition = body["uri"].split("/content/files/", 1)[1]
    assert api.get(body["uri"]).status_code == 200
    anonymous = Api(api.client, auth=None).get(body["uri"], accept=media("ErrorMessage"))
    assert "sectionId '3'" in error_message(anonymous, 401)["errorDescription"]
    assert Path(settings.file_root, *rendition.split("/")).is_file()
    assert api.delete(f"/content/objects/{content_id}").status_code == 204
    assert not Path(settings.file_root, *rendition.split("/")).exists()
    error_message(api.get(body["uri"], accept=media("ErrorMessage")), 404)


# -- issue 23 item 10: images are checked whole on upload, bounded in pixels, rendered off the loop ------
def _png_without_pixels(width: int, height: int) -> bytes:
    """A PNG header (IHDR) and its end (IEND), with no image data between: Pillow opens it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def _noisy_jpeg(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.frombytes("RGB", (width, height), random.Random(7).randbytes(width * height * 3)).save(
        buffer, "JPEG"
    )
    return buffer.getvalue()


def _upload_refused(api: Api, data: bytes) -> dict[str, Any]:
    value = {"fileName": "photo.jpg", "data": base64.b64encode(data).decode()}
    body = content_create([field("name", "Photo"), field("image", value)], type_id=IMAGE_TYPE, parent="1/43")
    message = error_message(post_content(api, body), 400)
    [failed] = message["errorDetails"]["fields"]
    assert failed["_fieldIdentifier"] == "image"
    errors: dict[str, Any] = failed["errors"][0]
    return errors


@pytest.mark.parametrize(
    "data", [_png_without_pixels(640, 480), _noisy_jpeg(640, 480)[:5000]], ids=["header_only_png", "cut_jpeg"]
)
def test_an_image_without_its_pixels_is_refused_naming_the_field(api: Api, data: bytes) -> None:
    with Image.open(io.BytesIO(data)) as header:
        assert header.size == (640, 480)  # the header alone reads well
    error = _upload_refused(api, data)
    assert error == {"type": "ImageValidator", "message": "A valid image file is required."}


@pytest.fixture
def bounded_api(sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Api]:
    """An app whose images may have 10,000 pixels at most (the bound is process-wide: restored after)."""
    from pressroom.app import create_app

    monkeypatch.setattr(PixelBound, "pixels", PixelBound.pixels)
    with TestClient(create_app(make_settings(sqlite_url, tmp_path, max_image_pixels=10_000))) as client:
        yield Api(client)


def test_an_image_over_the_pixel_bound_is_refused(bounded_api: Api) -> None:
    error = _upload_refused(bounded_api, jpeg(101, 100))
    assert error == {"type": "ImageValidator", "message": "A valid image file is required."}
    _, value = image_item(bounded_api, jpeg(100, 100))  # at the bound
    assert (value["width"], value["height"]) == ("100", "100")


def test_the_pixel_bound_is_a_setting() -> None:
    from pressroom.config import settings_from_env

    assert settings_from_env({"PRESSROOM_MAX_IMAGE_PIXELS": "1234"}).max_image_pixels == 1234
    assert settings_from_env({}).max_image_pixels == 50_000_000


def test_a_variation_is_rendered_off_the_event_loop(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first request of a variation renders it in a worker thread, where no event loop runs."""
    calls: list[tuple[str, bool]] = []

    def recording(original: bytes, wanted: Variation) -> Rendition:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        calls.append((threading.current_thread().name, on_loop))
        return render(original, wanted)

    monkeypatch.setattr(image_service, "render", recording)
    _, value = image_item(api, jpeg(400, 300))
    assert (variation(api, value["variations"]["small"]["href"])["width"]) == 100
    [(thread, on_loop)] = calls
    assert not on_loop
    assert thread.startswith("pressroom-offload"), thread


def _photo(api: Api, path: str, fmt: str) -> Any:
    """The ``photo`` field value in the version at ``path``: JSON's value, or XML's variation names."""
    response = api.get(path, accept=media("Version", fmt))
    assert response.status_code == 200, response.text
    if fmt == "xml":
        found = "//field[fieldDefinitionIdentifier='photo']/fieldValue/value[@key='variations']/value/@key"
        return xml(response).xpath(found)
    fields = response.json()["Version"]["Fields"]["field"]
    return next(f["fieldValue"] for f in fields if f["fieldDefinitionIdentifier"] == "photo")


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_an_image_asset_shows_the_variations_of_a_draft_image_to_who_may_read_it(
    client: TestClient, api: Api, fmt: str
) -> None:
    """Issue 25: the destination image has only a draft; its creator sees its variations through the
    asset field, as for a published image; a caller who may not read the draft sees none."""
    from tests.functional import content_types_support as types

    asset_type = types.new_type(api, fields=[types.field("title"), types.field("photo", "ezimageasset")])
    image_id, image = image_item(api, jpeg(120, 80), publish_it=False)
    value = {"destinationContentId": image_id, "alternativeText": "Cover"}
    created = post_content(
        api, content_create([field("title", "Article"), field("photo", value)], type_id=asset_type["id"])
    )
    assert created.status_code == 201, created.text
    content_id = created.json()["Content"]["_id"]
    publish(api, content_id)
    path = f"/content/objects/{content_id}/versions/1"
    if fmt == "json":
        photo = _photo(api, path, fmt)
        assert photo["variations"] == image["variations"]
        embedded = api.get(f"/content/objects/{content_id}", accept=media("Content")).json()["Content"]
        fields = embedded["CurrentVersion"]["Version"]["Fields"]["field"]
        assert next(f for f in fields if f["fieldDefinitionIdentifier"] == "photo")["fieldValue"] == photo
        small = variation(api, photo["variations"]["small"]["href"])
        assert (small["width"], small["height"]) == (100, 67)
        assert "variations" not in _photo(Api(client, auth=None), path, fmt)
    else:
        assert _photo(api, path, fmt) == VARIATIONS
        assert _photo(Api(client, auth=None), path, fmt) == []
