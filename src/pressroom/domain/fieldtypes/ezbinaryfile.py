"""ezbinaryfile: a downloadable file."""

from __future__ import annotations

from pressroom.domain.fieldtypes._binary import SIZE_VALIDATOR, BinaryFieldType, file_size_validator
from pressroom.domain.fieldtypes.base import WireContext
from pressroom.domain.fieldtypes.coerce import dict_or_none
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue


def binary_wire(type_: BinaryFieldType, hash_: JsonDict, ctx: WireContext) -> JsonDict:
    """The output keys common to ezbinaryfile and ezmedia (``url`` is REST's copy of ``uri``)."""
    file_id, size = type_.file_wire(hash_)
    uri = ctx.file_uri(file_id) if file_id else None
    return {
        "id": file_id,
        "path": None,
        "inputUri": None,
        "fileName": hash_.get("fileName"),
        "fileSize": size,
        "mimeType": hash_.get("mimeType"),
        "uri": uri,
        "url": uri,
        "downloadCount": 0,
    }


class BinaryFileType(BinaryFieldType):
    identifier = "ezbinaryfile"
    aliases = ("ibexa_binaryfile",)
    validators_schema = {SIZE_VALIDATOR: file_size_validator()}

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        hash_ = dict_or_none(value)
        return None if hash_ is None else binary_wire(self, hash_, ctx)
