"""Shared base of ezdate and ezdatetime: a UTC unix timestamp, shown as ``{timestamp, rfc850}``."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.base import FieldType, WireContext
from pressroom.domain.fieldtypes.coerce import as_dict, as_int, int_or_none
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.timeparse import check_timestamp, format_rfc850, parse_time_string


class TimestampFieldType(FieldType):
    """The stored value is an int timestamp (or ``None``); subclasses may :meth:`truncate` it."""

    full_text = False

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """Read ``{"rfc850"}``, ``{"timestring"}`` or ``{"timestamp"}``, in that order of priority.

        A bare int or string is accepted too (as a timestamp and as a time string).
        """
        if raw is None or raw == "":
            return None
        if isinstance(raw, str):
            return self.truncate(parse_time_string(raw, "fieldValue"))
        if isinstance(raw, int) and not isinstance(raw, bool):
            return self.truncate(check_timestamp(raw, "fieldValue"))
        hash_ = as_dict(raw, "fieldValue")
        for key in ("rfc850", "timestring"):
            text = hash_.get(key)
            if isinstance(text, str) and text.strip():
                return self.truncate(parse_time_string(text, f"fieldValue '{key}'"))
            if text not in (None, ""):
                raise InvalidArgument(f"fieldValue '{key}' must be a string")
        timestamp = hash_.get("timestamp")
        if timestamp is None or timestamp == "":
            return None
        what = "fieldValue 'timestamp'"
        return self.truncate(check_timestamp(as_int(timestamp, what), what))

    def truncate(self, timestamp: int) -> int:
        """Hook: reduce the timestamp to the precision of the type; identity by default."""
        return timestamp

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        timestamp = int_or_none(value)
        if timestamp is None:
            return None
        return {"timestamp": timestamp, "rfc850": format_rfc850(timestamp)}

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        timestamp = int_or_none(value)
        return "" if timestamp is None else format_rfc850(timestamp)

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return int_or_none(value)
