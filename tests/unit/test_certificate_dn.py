"""Subject DNs as proxies pass them (rest/certificate.py): RFC 4514 with its escapes, or one-line."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import BadRequest
from pressroom.rest.certificate import parse_dn


@pytest.mark.parametrize(
    ("dn", "expected"),
    [
        ("CN=jane,O=Example", [("CN", "jane"), ("O", "Example")]),
        (r"CN=Zo\C3\AB,O=Example\, Inc.", [("CN", "Zoë"), ("O", "Example, Inc.")]),
        (r"CN=a\+b+UID=7", [("CN", "a+b"), ("UID", "7")]),
        (r"CN=back\\slash", [("CN", "back\\slash")]),
        # nginx passes a raw UTF-8 byte as a Latin-1 character of the header
        ("CN=Zo\xc3\xab", [("CN", "Zoë")]),
        (
            r"/O=Example/CN=Zo\xC3\xAB/emailAddress=z@example.com",
            [("O", "Example"), ("CN", "Zoë"), ("emailAddress", "z@example.com")],
        ),
        ("", []),
    ],
)
def test_a_subject_is_read_with_its_escapes(dn: str, expected: list[tuple[str, str]]) -> None:
    assert parse_dn(dn, "X-SSL-Client-S-DN") == expected


@pytest.mark.parametrize("dn", ["jane", "CN=jane,O", r"CN=\FF", r"/CN=\xFF"])
def test_a_malformed_subject_names_the_header(dn: str) -> None:
    with pytest.raises(BadRequest, match="X-SSL-Client-S-DN"):
        parse_dn(dn, "X-SSL-Client-S-DN")
