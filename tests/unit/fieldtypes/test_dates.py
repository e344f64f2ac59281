"""ezdate, ezdatetime, eztime and the time string parser."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.fieldtypes.timeparse import format_rfc850, parse_time_string

from .conftest import FakeContext

TS = 1700000000  # Tuesday, 14-Nov-23 22:13:20 UTC
MIDNIGHT = 1699920000  # 2023-11-14 00:00:00 UTC


def test_rfc850_format_matches_php() -> None:
    assert format_rfc850(TS) == "Tuesday, 14-Nov-23 22:13:20 GMT+0000"


@pytest.mark.parametrize(
    "text",
    [
        "Tuesday, 14-Nov-23 22:13:20 GMT+0000",
        "Tuesday, 14-Nov-23 23:13:20 GMT+0100",
        "2023-11-14T22:13:20Z",
        "2023-11-14 22:13:20",
        "2023-11-14T23:13:20+01:00",
        "Tue, 14 Nov 2023 22:13:20 +0000",
        f"@{TS}",
    ],
)
def test_time_strings(text: str) -> None:
    assert parse_time_string(text, "fieldValue") == TS


def test_relative_keywords_use_now() -> None:
    now = datetime.fromtimestamp(TS, UTC)
    assert parse_time_string("now", "x", now) == TS
    assert parse_time_string("today", "x", now) == MIDNIGHT
    assert parse_time_string("tomorrow", "x", now) == MIDNIGHT + 86400


def test_unreadable_time_string_is_named() -> None:
    with pytest.raises(InvalidArgument, match="fieldValue 'rfc850' 'soon' is not a date/time string"):
        parse_time_string("soon", "fieldValue 'rfc850'")


def test_datetime_round_trip(ctx: FakeContext) -> None:
    datetime_type = get_field_type("ezdatetime")
    value = datetime_type.from_wire({"timestamp": TS})
    assert value == TS
    assert datetime_type.to_wire(value, ctx) == {
        "timestamp": TS,
        "rfc850": "Tuesday, 14-Nov-23 22:13:20 GMT+0000",
    }
    assert datetime_type.from_wire(datetime_type.to_wire(value, ctx)) == TS
    assert datetime_type.sort_key(value) == TS


def test_date_input_priority_rfc850_then_timestring_then_timestamp() -> None:
    datetime_type = get_field_type("ezdatetime")
    assert datetime_type.from_wire({"timestamp": 5, "timestring": "@10", "rfc850": "@20"}) == 20
    assert datetime_type.from_wire({"timestamp": 5, "timestring": "@10"}) == 10
    assert datetime_type.from_wire({"timestamp": "5"}) == 5


def test_date_truncates_to_midnight_utc(ctx: FakeContext) -> None:
    date = get_field_type("ezdate")
    value = date.from_wire({"timestamp": TS})
    assert value == MIDNIGHT
    assert date.to_wire(value, ctx) == {
        "timestamp": MIDNIGHT,
        "rfc850": "Tuesday, 14-Nov-23 00:00:00 GMT+0000",
    }


def test_date_empty_and_invalid(ctx: FakeContext) -> None:
    date = get_field_type("ezdate")
    assert date.from_wire(None) is None
    assert date.from_wire({"timestamp": None}) is None
    assert date.is_empty(date.from_wire(None))
    assert date.to_wire(None, ctx) is None
    with pytest.raises(InvalidArgument, match="fieldValue 'timestamp' must be an integer"):
        date.from_wire({"timestamp": "yesterday-ish"})
    with pytest.raises(InvalidArgument, match="fieldValue 'rfc850' must be a string"):
        date.from_wire({"rfc850": [1]})


@pytest.mark.parametrize("raw", [{"timestamp": 10**15}, 10**15, {"timestring": "@99999999999999"}])
def test_out_of_range_dates_are_refused(raw: object) -> None:
    with pytest.raises(InvalidArgument, match=r"out of the supported date range|not a date/time string"):
        get_field_type("ezdatetime").from_wire(raw)  # type: ignore[arg-type]


def test_datetime_settings() -> None:
    settings, _ = get_field_type("ezdatetime").normalize_definition(
        {"defaultType": 2, "useSeconds": "true"}, None
    )
    assert settings == {
        "useSeconds": True,
        "defaultType": "DEFAULT_CURRENT_DATE_ADJUSTED",
        "dateInterval": None,
    }
    with pytest.raises(InvalidArgument, match="fieldSettings 'useSeconds' must be a boolean"):
        get_field_type("ezdatetime").normalize_definition({"useSeconds": "often"}, None)


def test_time(ctx: FakeContext) -> None:
    time = get_field_type("eztime")
    assert time.from_wire(3600) == 3600
    assert time.from_wire("12:30") == 45000
    assert time.from_wire("01:02:03") == 3723
    assert time.to_wire(time.from_wire(45000), ctx) == 45000
    assert time.name(3723) == "01:02:03"
    assert time.from_wire(None) is None
    assert time.to_wire(None, ctx) is None
    with pytest.raises(InvalidArgument, match="between 0 and 86399"):
        time.from_wire(86400)
    with pytest.raises(InvalidArgument, match="not a valid time of day"):
        time.from_wire("25:00")
    settings, _ = time.normalize_definition({"defaultType": 1}, None)
    assert settings["defaultType"] == "DEFAULT_CURRENT_TIME"
