"""Entity tags: a stable fingerprint of a value, the same in every process and format."""

from __future__ import annotations

import hashlib


def value_tag(*values: object) -> str:
    """Quoted strong ETag of frozen dataclass values (their repr is deterministic)."""
    digest = hashlib.blake2b(repr(values).encode("utf-8"), digest_size=12).hexdigest()
    return f'"{digest}"'


def tag_matches(header: str | None, tag: str) -> bool:
    """If-Match / If-None-Match comparison: ``*``, or any listed tag (weak prefix ignored)."""
    if header is None:
        return False
    for raw in header.split(","):
        candidate = raw.strip()
        if candidate == "*" or candidate.removeprefix("W/") == tag:
            return True
    return False
