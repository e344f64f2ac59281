"""eztext (TextBlock): multi-line plain text; ``textRows`` is an editing hint only."""

from __future__ import annotations

from pressroom.domain.fieldtypes._text import TextFieldType
from pressroom.domain.fieldtypes.params import integer


class TextBlockType(TextFieldType):
    identifier = "eztext"
    aliases = ("ibexa_text",)
    settings_schema = {"textRows": integer(10, minimum=0)}
