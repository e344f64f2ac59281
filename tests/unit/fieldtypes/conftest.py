"""Fakes for the field type tests: a WireContext and an in-memory FileStore."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pressroom.domain.errors import NotFound
from pressroom.domain.fieldtypes.base import StoredFile

PREFIX = "/api/ibexa/v2"


class FakeContext:
    def content_href(self, content_id: int) -> str:
        return f"{PREFIX}/content/objects/{content_id}"

    def file_uri(self, file_id: str) -> str:
        return f"/var/site/storage/{file_id}"

    def image_variation_href(self, image_id: str, variation: str) -> str:
        return f"{PREFIX}/content/binary/images/{image_id}/variations/{variation}"

    @property
    def image_variation_names(self) -> tuple[str, ...]:
        return ("original", "reference", "small", "tiny", "medium", "large")


class MemoryFileStore:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def put(self, data: bytes, file_name: str, mime_type: str | None) -> StoredFile:
        file_id = f"{len(self.files) + 1}/{file_name}"
        self.files[file_id] = data
        return StoredFile(file_id, file_name, len(data), mime_type)

    def put_as(self, file_id: str, data: bytes) -> None:
        self.files[file_id] = data

    def get(self, file_id: str) -> bytes:
        if file_id not in self.files:
            raise NotFound.of("file", file_id)
        return self.files[file_id]

    def size(self, file_id: str) -> int:
        return len(self.get(file_id))

    def get_range(self, file_id: str, first: int, last: int) -> bytes:
        return self.get(file_id)[first : last + 1]

    def delete(self, file_id: str) -> None:
        self.files.pop(file_id, None)

    def file_ids(self) -> Iterator[str]:
        return iter(list(self.files))


@pytest.fixture
def ctx() -> FakeContext:
    return FakeContext()


@pytest.fixture
def store() -> MemoryFileStore:
    return MemoryFileStore()
