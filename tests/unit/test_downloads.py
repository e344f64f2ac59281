"""The download rules without a server: which Range headers are honoured, and Content-Disposition for
names no upload can carry any more (stored before names were checked, or a rendition's)."""

from __future__ import annotations

import pytest

from pressroom.domain.byte_range import ByteRange, parse_range
from pressroom.domain.errors import RangeNotSatisfiable
from pressroom.rest.handlers.files import content_disposition


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("bytes=0-499", ByteRange(0, 499)),
        ("bytes=500-", ByteRange(500, None)),
        ("bytes=-500", ByteRange(None, 500)),
        (" bytes=7-7 ", ByteRange(7, 7)),
        ("bytes=0000000000000000000000012-", ByteRange(12, None)),
        ("bytes=99999999999999999999999-", ByteRange(10**18, None)),
        (None, None),
        ("", None),
        ("bytes=", None),
        ("bytes=-", None),
        ("bytes=9-3", None),
        ("bytes=0-1,3-4", None),
        ("bytes=\u0661-\u0662", None),  # digits of another script are not digits here
        ("pages=1-2", None),
    ],
)
def test_parse_range(header: str | None, expected: ByteRange | None) -> None:
    assert parse_range(header) == expected


@pytest.mark.parametrize(
    ("wanted", "size", "span"),
    [
        (ByteRange(0, 0), 1, (0, 0)),
        (ByteRange(5, None), 10, (5, 9)),
        (ByteRange(5, 100), 10, (5, 9)),
        (ByteRange(None, 3), 10, (7, 9)),
        (ByteRange(None, 30), 10, (0, 9)),
    ],
)
def test_resolve(wanted: ByteRange, size: int, span: tuple[int, int]) -> None:
    assert wanted.resolve(size) == span


@pytest.mark.parametrize(
    ("wanted", "size"),
    [
        (ByteRange(10, None), 10),
        (ByteRange(10**18, None), 10),
        (ByteRange(None, 0), 10),
        (ByteRange(None, 5), 0),
    ],
)
def test_unsatisfiable(wanted: ByteRange, size: int) -> None:
    with pytest.raises(RangeNotSatisfiable) as raised:
        wanted.resolve(size)
    assert raised.value.size == size


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "a\r\nSet-Cookie: x=1.txt",
            'attachment; filename="a__Set-Cookie: x=1.txt"; '
            "filename*=UTF-8''a%0D%0ASet-Cookie%3A%20x%3D1.txt",
        ),
        ("../../etc/passwd", "attachment; filename=\"passwd\"; filename*=UTF-8''passwd"),
        ("dir\\evil.exe", "attachment; filename=\"evil.exe\"; filename*=UTF-8''evil.exe"),
        ('q"uo te;x', "attachment; filename=\"q_uo te;x\"; filename*=UTF-8''q%22uo%20te%3Bx"),
        ("", "attachment; filename=\"file\"; filename*=UTF-8''file"),
        ("日本.pdf", "attachment; filename=\"__.pdf\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.pdf"),
    ],
)
def test_content_disposition_never_carries_a_raw_control_character_or_quote(name: str, expected: str) -> None:
    header = content_disposition("application/octet-stream", name)
    assert header == expected
    assert header.isascii() and "\r" not in header and "\n" not in header


@pytest.mark.parametrize(
    ("mime_type", "kind"),
    [
        ("image/png", "inline"),
        ("image/jpeg", "inline"),
        ("video/mp4", "inline"),
        ("audio/mpeg", "inline"),
        ("text/plain", "inline"),
        ("image/svg+xml", "attachment"),
        ("text/html", "attachment"),
        ("application/xhtml+xml", "attachment"),
        ("text/xml", "attachment"),
        ("application/pdf", "attachment"),
        ("text/javascript", "attachment"),
        ("application/octet-stream", "attachment"),
    ],
)
def test_only_the_safe_types_are_inline(mime_type: str, kind: str) -> None:
    assert content_disposition(mime_type, "f").startswith(kind + ";")
