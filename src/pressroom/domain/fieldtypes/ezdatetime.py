"""ezdatetime: a point in time with second precision (``useSeconds`` only affects editing)."""

from __future__ import annotations

from pressroom.domain.fieldtypes._timestamp import TimestampFieldType
from pressroom.domain.fieldtypes.params import boolean, enum, text


class DateTimeType(TimestampFieldType):
    identifier = "ezdatetime"
    aliases = ("ibexa_datetime",)
    settings_schema = {
        "useSeconds": boolean(False),
        "defaultType": enum(
            "DEFAULT_EMPTY",
            {"DEFAULT_EMPTY": (0,), "DEFAULT_CURRENT_DATE": (1,), "DEFAULT_CURRENT_DATE_ADJUSTED": (2,)},
        ),
        "dateInterval": text(None),
    }
