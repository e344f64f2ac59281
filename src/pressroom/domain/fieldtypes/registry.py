"""The field types the repository knows, by identifier and by alias."""

from __future__ import annotations

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.base import FieldType
from pressroom.domain.fieldtypes.ezauthor import AuthorType
from pressroom.domain.fieldtypes.ezbinaryfile import BinaryFileType
from pressroom.domain.fieldtypes.ezboolean import BooleanType
from pressroom.domain.fieldtypes.ezcountry import CountryType
from pressroom.domain.fieldtypes.ezdate import DateType
from pressroom.domain.fieldtypes.ezdatetime import DateTimeType
from pressroom.domain.fieldtypes.ezemail import EmailType
from pressroom.domain.fieldtypes.ezfloat import FloatType
from pressroom.domain.fieldtypes.ezgmaplocation import MapLocationType
from pressroom.domain.fieldtypes.ezimage import ImageType
from pressroom.domain.fieldtypes.ezimageasset import ImageAssetType
from pressroom.domain.fieldtypes.ezinteger import IntegerType
from pressroom.domain.fieldtypes.ezisbn import IsbnType
from pressroom.domain.fieldtypes.ezkeyword import KeywordType
from pressroom.domain.fieldtypes.ezmedia import MediaType
from pressroom.domain.fieldtypes.ezobjectrelation import RelationType
from pressroom.domain.fieldtypes.ezobjectrelationlist import RelationListType
from pressroom.domain.fieldtypes.ezrichtext import RichTextType
from pressroom.domain.fieldtypes.ezselection import SelectionType
from pressroom.domain.fieldtypes.ezstring import StringType
from pressroom.domain.fieldtypes.eztext import TextBlockType
from pressroom.domain.fieldtypes.eztime import TimeType
from pressroom.domain.fieldtypes.ezurl import UrlType
from pressroom.domain.fieldtypes.ezuser import UserType

_TYPES: tuple[FieldType, ...] = (
    StringType(),
    TextBlockType(),
    RichTextType(),
    IntegerType(),
    FloatType(),
    BooleanType(),
    DateType(),
    DateTimeType(),
    TimeType(),
    EmailType(),
    UrlType(),
    IsbnType(),
    KeywordType(),
    SelectionType(),
    CountryType(),
    AuthorType(),
    RelationType(),
    RelationListType(),
    ImageType(),
    ImageAssetType(),
    BinaryFileType(),
    MediaType(),
    UserType(),
    MapLocationType(),
)
_BY_NAME: dict[str, FieldType] = {
    name: field_type for field_type in _TYPES for name in (field_type.identifier, *field_type.aliases)
}


def get_field_type(identifier: str) -> FieldType:
    """The field type for an identifier or alias; raises InvalidArgument when unknown."""
    try:
        return _BY_NAME[identifier]
    except KeyError:
        raise InvalidArgument(f"Unknown field type '{identifier}'") from None


def all_field_types() -> list[FieldType]:
    return list(_TYPES)
