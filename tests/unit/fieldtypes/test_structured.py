"""ezurl, ezgmaplocation."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.registry import get_field_type

from .conftest import FakeContext


def test_url_round_trip_and_empty(ctx: FakeContext) -> None:
    url = get_field_type("ezurl")
    value = url.from_wire({"link": "https://ibexa.co", "text": "Ibexa"})
    assert url.to_wire(value, ctx) == {"link": "https://ibexa.co", "text": "Ibexa"}
    assert url.to_wire(url.from_wire({"link": "https://x.org"}), ctx) == {"link": "https://x.org", "text": ""}
    assert url.name(value) == "Ibexa"
    assert url.from_wire({"link": "", "text": "t"}) is None
    assert url.to_wire(url.from_wire(None), ctx) is None


def test_url_invalid() -> None:
    url = get_field_type("ezurl")
    with pytest.raises(InvalidArgument, match="fieldValue must be a hash"):
        url.from_wire("https://x.org")
    with pytest.raises(InvalidArgument, match="fieldValue 'link' must be a string"):
        url.from_wire({"link": ["x"]})
    errors = url.validate(url.from_wire({"link": "javascript:alert(1)"}), {}, {})
    assert [e.type for e in errors] == ["UrlValidator"]


def test_map_location(ctx: FakeContext) -> None:
    location = get_field_type("ezgmaplocation")
    value = location.from_wire({"latitude": "59.9", "longitude": 10.75, "address": "Oslo"})
    assert location.to_wire(value, ctx) == {"latitude": 59.9, "longitude": 10.75, "address": "Oslo"}
    assert location.validate(value, {}, {}) == []
    assert location.name(value) == "Oslo"
    assert location.from_wire({"latitude": None, "longitude": None}) is None
    assert location.to_wire(location.from_wire(None), ctx) is None


def test_map_location_invalid() -> None:
    location = get_field_type("ezgmaplocation")
    with pytest.raises(InvalidArgument, match="fieldValue 'longitude' is required"):
        location.from_wire({"latitude": 1})
    with pytest.raises(InvalidArgument, match="fieldValue 'latitude' must be a finite number"):
        location.from_wire({"latitude": "north", "longitude": 1})
    errors = location.validate(location.from_wire({"latitude": 91, "longitude": -181}), {}, {})
    assert [e.message for e in errors] == [
        "The latitude must be between -90 and 90.",
        "The longitude must be between -180 and 180.",
    ]
