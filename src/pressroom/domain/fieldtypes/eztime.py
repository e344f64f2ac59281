"""eztime: a time of day, stored and shown as seconds since midnight."""

from __future__ import annotations

import re
from collections.abc import Mapping

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.base import FieldType, WireContext
from pressroom.domain.fieldtypes.coerce import as_int, int_or_none
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.params import boolean, enum

SECONDS_PER_DAY = 86400
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?")


class TimeType(FieldType):
    identifier = "eztime"
    aliases = ("ibexa_time",)
    full_text = False
    settings_schema = {
        "useSeconds": boolean(False),
        "defaultType": enum("DEFAULT_EMPTY", {"DEFAULT_EMPTY": (0,), "DEFAULT_CURRENT_TIME": (1,)}),
    }

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """An int of seconds since midnight, or a ``"HH:MM[:SS]"`` string."""
        if raw is None or raw == "":
            return None
        clock = _CLOCK.fullmatch(raw.strip()) if isinstance(raw, str) else None
        if clock is not None:
            hours, minutes, seconds = (int(part or 0) for part in clock.groups())
            if hours > 23 or minutes > 59 or seconds > 59:
                raise InvalidArgument(f"fieldValue '{raw}' is not a valid time of day")
            return hours * 3600 + minutes * 60 + seconds
        seconds = as_int(raw, "fieldValue")
        if not 0 <= seconds < SECONDS_PER_DAY:
            raise InvalidArgument(f"fieldValue must be between 0 and {SECONDS_PER_DAY - 1} seconds")
        return seconds

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        return int_or_none(value)

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        seconds = int_or_none(value)
        if seconds is None:
            return ""
        return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return int_or_none(value)
