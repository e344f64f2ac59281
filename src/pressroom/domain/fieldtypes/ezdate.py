"""ezdate: a calendar date, stored as the timestamp of its midnight UTC."""

from __future__ import annotations

from pressroom.domain.fieldtypes._timestamp import TimestampFieldType
from pressroom.domain.fieldtypes.params import enum

SECONDS_PER_DAY = 86400


class DateType(TimestampFieldType):
    identifier = "ezdate"
    aliases = ("ibexa_date",)
    settings_schema = {
        "defaultType": enum("DEFAULT_EMPTY", {"DEFAULT_EMPTY": (0,), "DEFAULT_CURRENT_DATE": (1,)}),
    }

    def truncate(self, timestamp: int) -> int:
        return timestamp - timestamp % SECONDS_PER_DAY
