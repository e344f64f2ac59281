"""Parsing of the date/time strings clients send, and the RFC 850 form Ibexa writes (always UTC).

Accepted: PHP's RFC 850 output (``Tuesday, 14-Nov-23 22:13:20 GMT+0000``), ISO 8601, RFC 2822,
``@<unix timestamp>``, and the keywords ``now``, ``today``, ``tomorrow``, ``yesterday``. A string without a
zone is taken as UTC.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

from pressroom.domain.errors import InvalidArgument

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_RFC850 = re.compile(
    r"(?:[A-Za-z]+,\s*)?(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})\s*(.*)"
)
MIN_TIMESTAMP = int(datetime(1, 1, 2, tzinfo=UTC).timestamp())
MAX_TIMESTAMP = int(datetime(9999, 12, 30, tzinfo=UTC).timestamp())
_ZONE = re.compile(r"(?:GMT|UTC|Z)?\s*(?:([+-])(\d{2}):?(\d{2}))?", re.IGNORECASE)


def check_timestamp(timestamp: int, what: str) -> int:
    """``timestamp`` when it lies within the years 1 to 9999; raises InvalidArgument otherwise."""
    if not MIN_TIMESTAMP <= timestamp <= MAX_TIMESTAMP:
        raise InvalidArgument(f"{what} is out of the supported date range")
    return timestamp


def format_rfc850(timestamp: int) -> str:
    """PHP's ``DateTime::RFC850`` of a UTC timestamp: ``Tuesday, 14-Nov-23 22:13:20 GMT+0000``."""
    moment = datetime.fromtimestamp(timestamp, UTC)
    return (
        f"{_DAYS[moment.weekday()]}, {moment.day:02d}-{_MONTHS[moment.month - 1]}-{moment.year % 100:02d} "
        f"{moment:%H:%M:%S} GMT+0000"
    )


def parse_time_string(text: str, what: str, now: datetime | None = None) -> int:
    """The UTC unix timestamp ``text`` denotes; raises InvalidArgument naming ``what`` if unreadable."""
    stripped = text.strip()
    moment = _parse(stripped, now or datetime.now(UTC))
    if moment is None:
        raise InvalidArgument(f"{what} '{text}' is not a date/time string that can be read")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return check_timestamp(int(moment.timestamp()), what)


def _parse(text: str, now: datetime) -> datetime | None:
    keyword = _keyword(text.lower(), now)
    if keyword is not None:
        return keyword
    if re.fullmatch(r"@-?\d{1,12}", text):
        seconds = int(text[1:])
        return datetime.fromtimestamp(seconds, UTC) if MIN_TIMESTAMP <= seconds <= MAX_TIMESTAMP else None
    for parser in (_rfc850, _iso, _rfc2822):
        moment = parser(text)
        if moment is not None:
            return moment
    return None


def _keyword(text: str, now: datetime) -> datetime | None:
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    offsets = {"today": 0, "midnight": 0, "tomorrow": 1, "yesterday": -1}
    if text == "now":
        return now
    if text in offsets:
        return midnight + timedelta(days=offsets[text])
    return None


def _rfc850(text: str) -> datetime | None:
    match = _RFC850.fullmatch(text)
    if match is None or match.group(2).title() not in _MONTHS:
        return None
    day, month, year, hour, minute, second, zone_text = match.groups()
    zone = _zone(zone_text)
    if zone is None:
        return None
    full_year = int(year) if len(year) == 4 else _two_digit_year(int(year))
    try:
        return datetime(
            full_year,
            _MONTHS.index(month.title()) + 1,
            int(day),
            int(hour),
            int(minute),
            int(second),
            tzinfo=zone,
        )
    except ValueError:
        return None


def _two_digit_year(year: int) -> int:
    """PHP reads a two-digit year as 1970-2069."""
    return 1900 + year if year >= 70 else 2000 + year


def _zone(text: str) -> timezone | None:
    match = _ZONE.fullmatch(text.strip())
    if match is None:
        return None
    sign, hours, minutes = match.groups()
    if sign is None:
        return UTC
    offset = timedelta(hours=int(hours), minutes=int(minutes))
    return timezone(-offset if sign == "-" else offset)


def _iso(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _rfc2822(text: str) -> datetime | None:
    try:
        return parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
