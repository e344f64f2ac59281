"""A :class:`~pressroom.domain.fieldtypes.base.FileStore` on S3-compatible object storage.

Chosen with ``PRESSROOM_FILE_STORE=s3://bucket/prefix?endpoint=http://host:9000&region=eu-west-1``;
credentials come from the usual AWS environment (``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ...),
never from the URL. File ids are the same as the local store's (checked the same way), kept under the
prefix as object keys; a PUT of a whole object is atomic, as the local store's rename is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from pressroom.domain.errors import NotFound
from pressroom.domain.fieldtypes.base import StoredFile
from pressroom.storage.files import check_file_id, put_new

_MISSING = {"NoSuchKey", "404", "NotFound"}


class S3FileStore:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme != "s3" or not parts.netloc:
            raise ValueError(f"'{url}' is not an s3://bucket/prefix URL")
        options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        unknown = set(options) - {"endpoint", "region"}
        if unknown:
            raise ValueError(f"Unknown option(s) {sorted(unknown)} in the file store URL")
        self.bucket = parts.netloc
        self.prefix = parts.path.strip("/")
        self.client: Any = boto3.client(
            "s3",
            endpoint_url=options.get("endpoint"),
            region_name=options.get("region", "us-east-1"),
            config=Config(retries={"max_attempts": 3, "mode": "standard"}),
        )

    def _key(self, file_id: str) -> str:
        check_file_id(file_id)
        return f"{self.prefix}/{file_id}" if self.prefix else file_id

    def put(self, data: bytes, file_name: str, mime_type: str | None) -> StoredFile:
        return put_new(self, data, file_name, mime_type)

    def put_as(self, file_id: str, data: bytes) -> None:
        self.client.put_object(Bucket=self.bucket, Key=self._key(file_id), Body=data)

    def get(self, file_id: str) -> bytes:
        return self._read(file_id)

    def get_range(self, file_id: str, first: int, last: int) -> bytes:
        """One ranged GET: S3 sends only the bytes asked for."""
        return self._read(file_id, Range=f"bytes={first}-{last}")

    def _read(self, file_id: str, **options: str) -> bytes:
        try:
            response = self.client.get_object(Bucket=self.bucket, Key=self._key(file_id), **options)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in _MISSING:
                raise NotFound.of("file", file_id) from None
            raise
        data: bytes = response["Body"].read()
        return data

    def size(self, file_id: str) -> int:
        head = self._head(file_id)
        if head is None:
            raise NotFound.of("file", file_id)
        size: int = head["ContentLength"]
        return size

    def written_at(self, file_id: str) -> float | None:
        """When the object was last written (epoch seconds), or None when it does not exist."""
        head = self._head(file_id)
        if head is None:
            return None
        written: float = head["LastModified"].timestamp()
        return written

    def _head(self, file_id: str) -> dict[str, Any] | None:
        """The object's metadata, or None when it does not exist."""
        try:
            head: dict[str, Any] = self.client.head_object(Bucket=self.bucket, Key=self._key(file_id))
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in _MISSING:
                return None
            raise
        return head

    def delete(self, file_id: str) -> None:
        """A missing object is not an error (S3 answers a DELETE of one with success)."""
        self.client.delete_object(Bucket=self.bucket, Key=self._key(file_id))

    def file_ids(self) -> Iterator[str]:
        """Every stored file id (for integrity checks and orphan sweeps)."""
        start = f"{self.prefix}/" if self.prefix else ""
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=start):
            for item in page.get("Contents", []):
                yield item["Key"][len(start) :]
