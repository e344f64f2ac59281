"""ezbinaryfile, ezmedia, ezimage."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.base import JsonDict
from pressroom.domain.fieldtypes.registry import get_field_type

from .conftest import FakeContext, MemoryFileStore

PDF = b"%PDF-1.4 tiny"


def _png(width: int = 3, height: int = 2) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "red").save(buffer, format="PNG")
    return buffer.getvalue()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_binary_upload_is_pending_until_stored(ctx: FakeContext, store: MemoryFileStore) -> None:
    binary = get_field_type("ezbinaryfile")
    value = binary.from_wire({"fileName": "a.pdf", "data": _b64(PDF)})
    assert isinstance(value, dict)
    assert value["fileSize"] == len(PDF)
    assert value["mimeType"] == "application/pdf"
    assert "_pendingData" in value
    assert not binary.is_empty(value)
    stored = binary.store_files(value, store)
    assert isinstance(stored, dict)
    assert "_pendingData" not in stored
    assert store.get(str(stored["id"])) == PDF
    assert binary.to_wire(stored, ctx) == {
        "id": stored["id"],
        "path": None,
        "inputUri": None,
        "fileName": "a.pdf",
        "fileSize": len(PDF),
        "mimeType": "application/pdf",
        "uri": f"/var/site/storage/{stored['id']}",
        "url": f"/var/site/storage/{stored['id']}",
        "downloadCount": 0,
    }


def test_binary_reference_keeps_the_stored_file(ctx: FakeContext, store: MemoryFileStore) -> None:
    binary = get_field_type("ezbinaryfile")
    first = binary.store_files(binary.from_wire({"fileName": "a.pdf", "data": _b64(PDF)}), store)
    echoed = binary.to_wire(first, ctx)
    again = binary.store_files(binary.from_wire(echoed), store)
    assert isinstance(again, dict) and isinstance(first, dict)
    assert again["id"] == first["id"]
    assert again["fileSize"] == len(PDF)
    assert len(store.files) == 1
    with pytest.raises(InvalidArgument, match="is not a stored file"):
        binary.store_files(binary.from_wire({"inputUri": "/nope/x.pdf"}), store)


def test_binary_invalid_and_empty(ctx: FakeContext) -> None:
    binary = get_field_type("ezbinaryfile")
    with pytest.raises(InvalidArgument, match="not valid Base64"):
        binary.from_wire({"fileName": "a.pdf", "data": "***"})
    with pytest.raises(InvalidArgument, match="'fileName' is required"):
        binary.from_wire({"data": _b64(PDF)})
    with pytest.raises(InvalidArgument, match="needs 'data'"):
        binary.from_wire({"fileName": "a.pdf"})
    assert binary.from_wire(None) is None
    assert binary.is_empty(binary.from_wire({"data": None}))
    assert binary.to_wire(None, ctx) is None


def test_binary_file_size_limit_in_megabytes() -> None:
    binary = get_field_type("ezbinaryfile")
    settings, validators = binary.normalize_definition(None, {"FileSizeValidator": {"maxFileSize": 1}})
    big: JsonDict = {"fileName": "big.bin", "fileSize": 1024 * 1024 + 1, "id": "x"}
    assert [e.message for e in binary.validate(big, settings, validators)] == [
        "The file size cannot exceed 1 megabyte."
    ]
    assert binary.validate({**big, "fileSize": 1024 * 1024}, settings, validators) == []


def test_media_flags(ctx: FakeContext, store: MemoryFileStore) -> None:
    media = get_field_type("ezmedia")
    value = media.from_wire({"fileName": "v.mp4", "data": _b64(b"video"), "autoplay": "true", "width": 640})
    wire = media.to_wire(media.store_files(value, store), ctx)
    assert isinstance(wire, dict)
    assert (wire["hasController"], wire["autoplay"], wire["loop"], wire["width"], wire["height"]) == (
        False,
        True,
        False,
        640,
        0,
    )
    assert wire["mimeType"] == "video/mp4"
    settings, _ = media.normalize_definition({"mediaType": "html5_audio"}, None)
    assert settings == {"mediaType": "TYPE_HTML5_AUDIO"}
    with pytest.raises(InvalidArgument, match="fieldValue 'loop' must be a boolean"):
        media.from_wire({"fileName": "v.mp4", "data": _b64(b"v"), "loop": "sometimes"})


def test_image_upload_reads_dimensions_and_outputs_variations(
    ctx: FakeContext, store: MemoryFileStore
) -> None:
    image = get_field_type("ezimage")
    value = image.from_wire(
        {"fileName": "x.jpg", "data": _b64(_png()), "alternativeText": "Red", "variations": {"ignored": 1}}
    )
    assert isinstance(value, dict)
    assert (value["width"], value["height"], value["mimeType"]) == (3, 2, "image/png")
    settings, validators = image.normalize_definition(None, {"FileSizeValidator": {"maxFileSize": 10}})
    assert image.validate(value, settings, validators) == []
    stored = image.store_files(value, store)
    assert isinstance(stored, dict)
    stored["imageId"] = "57-245-1"
    wire = image.to_wire(stored, ctx)
    assert isinstance(wire, dict)
    assert wire["id"] == stored["id"]
    assert wire["path"] == f"/{stored['id']}"
    assert wire["uri"] == f"/var/site/storage/{stored['id']}"
    assert (wire["width"], wire["height"], wire["mime"], wire["alternativeText"]) == (
        "3",
        "2",
        "image/png",
        "Red",
    )
    assert wire["imageId"] == "57-245-1"
    assert wire["additionalData"] == []
    assert wire["variations"]["large"] == {  # type: ignore[index, call-overload]
        "href": "/api/ibexa/v2/content/binary/images/57-245-1/variations/large"
    }
    assert image.name(stored) == "Red"


def test_image_rejects_non_images_and_checks_alt_text() -> None:
    image = get_field_type("ezimage")
    settings, validators = image.normalize_definition(
        {"mimeTypes": ["image/jpeg"]}, {"AlternativeTextValidator": {"required": True}}
    )
    not_image = image.from_wire({"fileName": "x.png", "data": _b64(b"not an image")})
    messages = [e.message for e in image.validate(not_image, settings, validators)]
    assert "A valid image file is required." in messages
    assert "Alternative text is required." in messages
    png = image.from_wire({"fileName": "x.png", "data": _b64(_png()), "alternativeText": "x"})
    assert [e.message for e in image.validate(png, settings, validators)] == [
        "The mime type of the file is invalid (image/jpeg)."
    ]
