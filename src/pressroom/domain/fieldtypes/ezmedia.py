"""ezmedia: a video or audio file with player options."""

from __future__ import annotations

from pressroom.domain.fieldtypes._binary import SIZE_VALIDATOR, BinaryFieldType, file_size_validator
from pressroom.domain.fieldtypes.base import WireContext
from pressroom.domain.fieldtypes.coerce import as_bool, as_int, dict_or_none
from pressroom.domain.fieldtypes.ezbinaryfile import binary_wire
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.fieldtypes.params import enum

MEDIA_TYPES: dict[str, tuple[JsonValue, ...]] = {
    "TYPE_FLASH": ("flash",),
    "TYPE_QUICKTIME": ("quick_time",),
    "TYPE_REALPLAYER": ("real_player",),
    "TYPE_SILVERLIGHT": ("silverlight",),
    "TYPE_WINDOWSMEDIA": ("windows_media_player",),
    "TYPE_HTML5_VIDEO": ("html5_video",),
    "TYPE_HTML5_AUDIO": ("html5_audio",),
}
_FLAGS = ("hasController", "autoplay", "loop")
_SIZES = ("width", "height")


class MediaType(BinaryFieldType):
    identifier = "ezmedia"
    aliases = ("ibexa_media",)
    settings_schema = {"mediaType": enum("TYPE_HTML5_VIDEO", MEDIA_TYPES)}
    validators_schema = {SIZE_VALIDATOR: file_size_validator()}

    def extra_from_wire(self, hash_: JsonDict) -> JsonDict:
        """``hasController``/``autoplay``/``loop`` (default false) and ``width``/``height`` (default 0)."""
        extra: JsonDict = {}
        for flag in _FLAGS:
            given = hash_.get(flag)
            extra[flag] = False if given in (None, "") else as_bool(given, f"fieldValue '{flag}'")
        for size in _SIZES:
            given = hash_.get(size)
            extra[size] = 0 if given in (None, "") else as_int(given, f"fieldValue '{size}'")
        return extra

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        hash_ = dict_or_none(value)
        if hash_ is None:
            return None
        result = binary_wire(self, hash_, ctx)
        result.update({key: hash_.get(key, False) for key in _FLAGS})
        result.update({key: hash_.get(key, 0) for key in _SIZES})
        return result
