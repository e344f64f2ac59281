"""Client certificates verified by a TLS-terminating proxy (``PRESSROOM_AUTH_METHODS`` with ``certificate``).

The proxy (deploy/nginx/client-cert.conf) checks the certificate against its CA and passes the outcome and
the certificate's subject DN in two headers (``PRESSROOM_CERT_VERIFY_HEADER``, default
``X-SSL-Client-Verify``; ``PRESSROOM_CERT_SUBJECT_HEADER``, default ``X-SSL-Client-S-DN``). They are believed
only from a trusted proxy (rest/forwarded.py), and only a verify value of exactly ``SUCCESS`` counts; from any
other peer, or with any other outcome (``NONE``, ``FAILED:...``), the headers are ignored. A header the proxy
sent more than once (it added to the client's instead of replacing it) is refused.

The subject is read in the form of RFC 4514 (nginx's ``$ssl_client_s_dn``, Apache's ``SSL_CLIENT_S_DN``:
``emailAddress=jane@example.com,CN=jane,O=Example``, with ``\\,`` and ``\\C3\\AB`` escapes) or OpenSSL's
one-line form (``/O=Example/CN=jane``, HAProxy's ``ssl_c_s_dn``). ``PRESSROOM_CERT_LOGIN_FROM`` picks what
names the user: ``cn`` (the common name is a login) or ``email`` (the e-mail address attribute is the
e-mail of exactly one user).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from starlette.datastructures import Headers

from pressroom.config import Settings
from pressroom.domain.errors import BadRequest, Unauthorized

VERIFIED = "SUCCESS"
# Attribute names (and OIDs) of the common name and of the e-mail address, lower case.
_NAMES = {
    "cn": {"cn", "commonname", "2.5.4.3"},
    "email": {"emailaddress", "email", "e", "1.2.840.113549.1.9.1"},
}
_LEGACY_ESCAPE = re.compile(r"\\x([0-9A-Fa-f]{2})")
_HEX = re.compile(r"[0-9A-Fa-f]{2}")


class Subject(NamedTuple):
    """What a verified certificate says of its holder: ``kind`` is ``cn`` or ``email``."""

    kind: str
    value: str


def certificate_subject(headers: Headers, settings: Settings, proxied: bool) -> Subject | None:
    """The subject of the client certificate a trusted proxy verified; None when there is none to believe.

    Raises Unauthorized when the verified subject names no single CN (or e-mail address), BadRequest when
    the proxy's headers cannot be read."""
    if not proxied or "certificate" not in settings.auth_methods:
        return None
    if _single(headers, settings.cert_verify_header) != VERIFIED:
        return None
    name = settings.cert_subject_header
    dn = _single(headers, name) or ""
    kind = settings.cert_login_from
    values = [value for attribute, value in parse_dn(dn, name) if attribute.lower() in _NAMES[kind]]
    if len(values) != 1 or not values[0]:
        what = "common name" if kind == "cn" else "e-mail address"
        raise Unauthorized(f"The client certificate's subject ({name}) names no single {what}")
    return Subject(kind, values[0])


def _single(headers: Headers, name: str) -> str | None:
    values = headers.getlist(name)
    if len(values) > 1:
        raise BadRequest(f"Header {name} appears more than once: the proxy must set it, not add to it")
    return values[0].strip() if values else None


def parse_dn(dn: str, header: str) -> list[tuple[str, str]]:
    """``CN=jane,O=Example`` or ``/O=Example/CN=jane`` -> ``[(attribute, value), ...]``, values unescaped."""
    if dn.startswith("/"):  # OpenSSL's one-line form: no escapes but \xHH for each byte of UTF-8
        parts = [part.partition("=") for rdn in dn[1:].split("/") for part in rdn.split("+")]
        return [
            (
                key.strip(),
                _utf8(_LEGACY_ESCAPE.sub(lambda m: chr(int(m[1], 16)), value).encode("latin-1"), header),
            )
            for key, sep, value in parts
            if sep
        ]
    return _rfc4514(dn, header)


def _unescape_legacy(value: str) -> bytes:
    return _LEGACY_ESCAPE.sub(lambda match: chr(int(match[1], 16)), value).encode("latin-1")


def _rfc4514(dn: str, header: str) -> list[tuple[str, str]]:
    """RFC 4514: ``type=value`` pairs split at unescaped ``,`` and ``+``; ``\\X`` is X and ``\\HH`` a byte
    of the UTF-8 value (the header itself arrives as Latin-1, byte for byte)."""
    found: list[tuple[str, str]] = []
    attribute: str | None = None
    value = bytearray()
    index = 0
    while index <= len(dn):
        char = dn[index] if index < len(dn) else ","
        if char == "\\" and _HEX.fullmatch(dn, index + 1, index + 3):
            value.append(int(dn[index + 1 : index + 3], 16))
            index += 3
            continue
        if char == "\\" and index + 1 < len(dn):
            value.extend(dn[index + 1].encode("latin-1"))
            index += 2
            continue
        if char == "=" and attribute is None:
            attribute, value = value.decode("latin-1").strip(), bytearray()
        elif char in ",+":
            if attribute is not None:
                found.append((attribute, _utf8(value, header).strip()))
            elif value.strip() or index < len(dn):
                raise BadRequest(f"Header {header} carries a malformed subject DN")
            attribute, value = None, bytearray()
        else:
            value.extend(char.encode("latin-1"))
        index += 1
    return found


def _utf8(value: bytes | bytearray, header: str) -> str:
    try:
        return value.decode()
    except UnicodeError:
        raise BadRequest(f"Header {header} carries a subject that is not UTF-8") from None
