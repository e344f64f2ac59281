"""The JSON value type shared by every field type module (re-exported by :mod:`.base`)."""

from __future__ import annotations

from typing import TypeAlias

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
JsonDict: TypeAlias = dict[str, JsonValue]
