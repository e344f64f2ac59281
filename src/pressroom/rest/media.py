"""Media types: parsing, Accept negotiation and the two dialects.

``application/vnd.<vendor>.api.<Name>+json`` names a representation and a format. On input any vendor
segment is accepted (clients of both dialects talk to one server); on output the vendor is the one of
the prefix the request came in on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pressroom.config import Dialect

JSON = "json"
XML = "xml"

_VENDOR_TYPE = re.compile(r"^application/vnd\.[A-Za-z0-9-]+\.api\.([A-Za-z0-9_.]*)(?:\+([a-z]+))?$")


@dataclass(frozen=True, slots=True)
class MediaType:
    """A parsed media type. ``name`` is the representation (``Section``), empty for generic types."""

    name: str
    format: str | None  # json, xml, or None when the type says nothing about the format
    version: str | None = None


# Inputs whose fields may hold file contents (base64): the only ones allowed the large body limit.
FILE_INPUTS = frozenset({"ContentCreate", "VersionUpdate", "UserCreate", "UserUpdate"})


def parse_media_type(header: str) -> MediaType | None:
    """Parse one media type with parameters; None when it is not one this API knows."""
    essence, _, params = header.partition(";")
    essence = essence.strip().lower() if "vnd." not in essence else essence.strip()
    version = None
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "version":
            version = value.strip().strip('"')
    lowered = essence.lower()
    if lowered in ("application/json", "text/json"):
        return MediaType("", JSON, version)
    if lowered in ("application/xml", "text/xml"):
        return MediaType("", XML, version)
    match = _VENDOR_TYPE.match(essence)
    if match is None:
        return None
    name, suffix = match.group(1), match.group(2)
    if suffix is not None and suffix not in (JSON, XML):
        return None
    # The last dotted segment is the type name (clients sometimes send the bare "...api." prefix).
    return MediaType(name.rsplit(".", 1)[-1], suffix, version)


@dataclass(frozen=True, slots=True)
class Accept:
    """What the client asked for: the output format and, where given, the representation name."""

    format: str
    name: str  # lower-cased representation name of the first vendor entry with a suffix, or ""


def negotiate(header: str | None) -> Accept:
    """Walk the Accept entries in order, as the reference does; nothing usable means XML."""
    if not header:
        return Accept(XML, "")
    fmt: str | None = None
    name = ""
    for raw in header.split(","):
        entry = raw.strip()
        if not entry:
            continue
        media = parse_media_type(entry)
        if media is not None:
            if not name and media.name and media.format is not None:
                name = media.name.lower()
            if fmt is None and media.format is not None:
                fmt = media.format
        elif fmt is None and "/" in entry and entry.split(";", 1)[0].strip() in ("*/*", "application/*"):
            fmt = XML
        if fmt is not None and name:
            break
    return Accept(fmt or XML, name)


@dataclass(frozen=True, slots=True)
class Rendering:
    """The dialect and format a response is written in; builds media types and hrefs."""

    dialect: Dialect
    format: str

    def media(self, name: str) -> str:
        if not name:
            return ""
        return f"application/vnd.{self.dialect.vendor}.api.{name}+{self.format}"

    def href(self, path: str) -> str:
        return self.dialect.prefix + path


_PREFIX = re.compile(r"^/api/[A-Za-z0-9_-]+/v\d+(?:\.\d+)?")


def strip_prefix(href: str) -> str | None:
    """``/api/ibexa/v2/content/sections/1`` -> ``/content/sections/1``; None without a REST prefix."""
    match = _PREFIX.match(href)
    if match is None:
        return None
    return href[match.end() :] or "/"
