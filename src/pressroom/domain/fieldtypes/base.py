"""The field type contract: how a field value is read from the wire, validated, stored and written back.

A field type is stateless; one instance per identifier lives in the registry. Values handed around are
*normalized stored values*: plain JSON-able Python structures, produced by :meth:`FieldType.from_wire`
and consumed by every other method. Definition settings and validator configurations are stored in the
form :meth:`FieldType.normalize_definition` returns; enumerated settings are kept as the REST constant
names (``"DEFAULT_EMPTY"``), so they go out on the wire as REST clients expect them.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import ClassVar, Protocol

from pressroom.domain.content import ATTRIBUTE
from pressroom.domain.errors import FieldError
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.fieldtypes.params import Param, normalize_settings, normalize_validators
from pressroom.domain.user import Account

__all__ = [
    "FieldType",
    "FileStore",
    "ImageMetadata",
    "IndexScalar",
    "JsonDict",
    "JsonValue",
    "ListFieldType",
    "RelationTarget",
    "StoredFile",
    "StoredImage",
    "TermRule",
    "WireContext",
]


class WireContext(Protocol):
    """Builds the URLs a field value shows on the wire; supplied by the REST layer."""

    def content_href(self, content_id: int) -> str: ...

    def file_uri(self, file_id: str) -> str: ...

    def image_variation_href(self, image_id: str, variation: str) -> str: ...

    @property
    def image_variation_names(self) -> tuple[str, ...]:
        """The variations an image value lists (``original`` and the configured ones)."""
        ...


@dataclass(frozen=True, slots=True)
class StoredFile:
    """A file written to a :class:`FileStore`; ``size`` is in bytes."""

    id: str
    file_name: str
    size: int
    mime_type: str | None


@dataclass(frozen=True, slots=True)
class RelationTarget:
    """An item a field value relates to: ``type`` is a relation type bit of :mod:`pressroom.domain.content`
    (ATTRIBUTE, ASSET, LINK, EMBED); ``id`` a content id, or a location id when ``by_location``."""

    type: int
    id: int
    by_location: bool = False


IndexScalar = str | int | float
"""A value the field index keeps: numbers compare as numbers, text as lower-cased text."""


@dataclass(frozen=True, slots=True)
class ImageMetadata:
    """What the Image criteria ask about an image value; ``file_size`` in bytes."""

    mime_type: str | None
    file_size: int | None
    width: int | None
    height: int | None


@dataclass(frozen=True, slots=True)
class StoredImage:
    """An image value holding a stored file, as image variations and the image Asset resource read it;
    ``file_size`` in bytes."""

    file_id: str
    width: int | None
    height: int | None
    file_size: int | None
    mime_type: str | None
    alternative_text: str


@dataclass(frozen=True, slots=True)
class TermRule:
    """Which of a field's match values are its terms in a term aggregation (storage makes it SQL): only
    values of ``length`` characters, only values without ``excludes`` in them (None: no such test)."""

    length: int | None = None
    excludes: str | None = None


class FileStore(Protocol):
    """Where binary field types keep their files."""

    def put(self, data: bytes, file_name: str, mime_type: str | None) -> StoredFile: ...

    def put_as(self, file_id: str, data: bytes) -> None:
        """Store ``data`` under a derived id (an image rendition beside its original)."""
        ...

    def get(self, file_id: str) -> bytes:
        """Return the file content; raises :class:`pressroom.domain.errors.NotFound` when missing."""
        ...

    def size(self, file_id: str) -> int:
        """The size of the file in bytes; raises NotFound when missing."""
        ...

    def get_range(self, file_id: str, first: int, last: int) -> bytes:
        """Bytes ``first`` to ``last`` (both included, ``0 <= first <= last < size``) of the file, read
        without loading the rest (range requests of media); raises NotFound when missing."""
        ...

    def delete(self, file_id: str) -> None: ...

    def file_ids(self) -> Iterator[str]:
        """Every stored file id, in no particular order (for integrity checks and orphan sweeps)."""
        ...

    def written_at(self, file_id: str) -> float | None:
        """When the file was last written (epoch seconds), or None when it does not exist: the orphan
        sweep spares young files, whose upload transaction may still be open."""
        ...


class FieldType(ABC):
    """Base of every field type.

    Subclasses declare ``settings_schema`` / ``validators_schema`` (see :mod:`.params`) and implement
    :meth:`from_wire` and :meth:`to_wire`; the other methods have defaults suited to scalar values whose
    empty value is ``None``.
    """

    identifier: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    singular: ClassVar[bool] = False
    addable_with_instances: ClassVar[bool] = True
    searchable_supported: ClassVar[bool] = True
    full_text: ClassVar[bool] = True
    """Whether full-text search finds the value by its words (numbers, dates and relations: no)."""
    settings_schema: ClassVar[Mapping[str, Param]] = {}
    validators_schema: ClassVar[Mapping[str, Mapping[str, Param]]] = {}

    # -- definition ------------------------------------------------------------------------------

    def default_settings(self) -> dict[str, JsonValue]:
        return {key: copy.deepcopy(param.default) for key, param in self.settings_schema.items()}

    def default_validators(self) -> dict[str, JsonValue]:
        return {
            name: {key: copy.deepcopy(param.default) for key, param in params.items()}
            for name, params in self.validators_schema.items()
        }

    def normalize_definition(
        self, settings: Mapping[str, JsonValue] | None, validators: Mapping[str, JsonValue] | None
    ) -> tuple[dict[str, JsonValue], dict[str, JsonValue]]:
        """Merge the defaults into ``settings`` and ``validators`` and type-check every key.

        Raises InvalidArgument naming the key for an unknown setting or validator, an unknown validator
        parameter, a value of the wrong type, or a value outside its enumeration.
        """
        normalized_settings = normalize_settings(self.settings_schema, settings)
        normalized_validators = normalize_validators(self.validators_schema, validators)
        self.check_definition(normalized_settings, normalized_validators)
        return normalized_settings, normalized_validators

    def check_definition(self, settings: JsonDict, validators: JsonDict) -> None:
        """Cross-key checks on a normalized definition (e.g. min <= max); raises InvalidArgument."""
        return None

    def settings_to_wire(
        self, settings: Mapping[str, JsonValue], location_href: Callable[[int], str]
    ) -> dict[str, JsonValue]:
        """The fieldSettings hash as REST shows it; relation types add location hrefs."""
        return dict(settings)

    # -- values ----------------------------------------------------------------------------------

    @abstractmethod
    def from_wire(self, raw: JsonValue) -> JsonValue:
        """Parse an input fieldValue into the normalized stored value; ``None`` gives the empty value.

        Raises InvalidArgument when the value is structurally wrong.
        """

    @abstractmethod
    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        """The output fieldValue for a stored value."""

    def empty_value(self) -> JsonValue:
        return None

    def is_empty(self, value: JsonValue) -> bool:
        return value is None

    def carry_over(self, new: JsonValue, old: JsonValue) -> JsonValue:
        """The value to store when a client sends ``new`` over the stored ``old`` (default: ``new``);
        types with parts a client never sends (a password hash) keep them here."""
        return new

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        """Check a non-empty value against the definition; "required" is the caller's business."""
        return []

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        """Text for the content name schema; ``settings`` helps types that store indexes (ezselection)."""
        if self.is_empty(value) or value is None:
            return ""
        return str(value)

    # -- search index (storage/sql/field_index.py persists these on publish) ---------------------------

    def sort_key(self, value: JsonValue) -> IndexScalar | None:
        """What the Field sort clause orders by (text is compared lower-cased)."""
        return None

    whole_values: ClassVar[bool] = False
    """Whether the CONTAINS operator of the Field criterion matches one of the :meth:`match_values`
    whole (keywords) rather than any part of them."""

    def match_values(self, value: JsonValue) -> list[IndexScalar]:
        """What the Field criterion compares with its operand: one entry per keyword, selected option,
        author, related item... By default the sort key alone."""
        key = self.sort_key(value)
        return [] if key is None or key == "" else [key]

    def searchable_text(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        """The words full-text search finds the value by (for searchable field definitions)."""
        return self.name(value, settings) if self.full_text else ""

    def image_metadata(self, value: JsonValue) -> ImageMetadata | None:
        """Mime type, size and dimensions, for the Image criteria (images only)."""
        return None

    relation_type: ClassVar[int] = ATTRIBUTE
    """The relation type of the items :meth:`relation_ids` names."""

    def relation_ids(self, value: JsonValue) -> list[int]:
        """Ids of the content items this value relates to (field relations)."""
        return []

    def relations(self, value: JsonValue) -> list[RelationTarget]:
        """Every item this value relates to; by default the :meth:`relation_ids`, of ``relation_type``."""
        return [RelationTarget(self.relation_type, target) for target in self.relation_ids(value)]

    def stored_file_id(self, value: JsonValue) -> str | None:
        """The id of the stored file this value references (the binary types), for the file index."""
        return None

    def store_files(self, value: JsonValue, files: FileStore) -> JsonValue:
        """Write pending uploads to ``files`` and return the value that references them."""
        return value

    def has_upload(self, value: JsonValue) -> bool:
        """Whether :meth:`store_files` writes a new file for this value (rather than reference one)."""
        return False

    def seal(self, value: JsonValue) -> JsonValue:
        """The value to store once an edit is accepted: a secret sent in clear becomes its hash
        (ezuser passwords). By default the value itself."""
        return value

    # -- images (services/image.py renders them; the REST image id is the service's) -----------------

    def image_file(self, value: JsonValue) -> StoredImage | None:
        """The stored image file this value holds, for variations and the Asset resource; None when it
        holds none (every non-image type)."""
        return None

    def image_sources(self, value: JsonValue) -> list[int]:
        """Content items whose image this value shows (an image asset's destination)."""
        return []

    def shown_image_id(self, value: JsonValue, own: str, source_images: Mapping[int, str]) -> str | None:
        """The REST image id the output value shows: ``own`` (this field's, for an image) or one of
        ``source_images`` (image id of each item of :meth:`image_sources` that has an image); None: none."""
        return None

    # -- user accounts (services/accounts.py keeps the users row on publish) --------------------------

    carries_account: ClassVar[bool] = False
    """Whether the value is a user account (the ``users`` row of its content item follows it)."""

    def account(self, value: JsonValue, content_id: int) -> Account | None:
        """The account row the value describes; None for an empty value (and every non-account type)."""
        return None

    def with_owner(self, value: JsonValue, content_id: int) -> JsonValue:
        """The value once it belongs to content item ``content_id`` (an account learns its id)."""
        return value

    # -- term aggregations ---------------------------------------------------------------------------

    term_rule: ClassVar[TermRule | None] = None
    """Which indexed match values are terms; None: all of them."""

    def term_key(self, stored: str, settings: Mapping[str, JsonValue]) -> object:
        """A term as a client is shown it, from its indexed text (a number comes as its text)."""
        return stored


class ListFieldType(FieldType):
    """A field type whose value is a list (selections, countries, keywords, authors, relation lists):
    its empty value is the empty list."""

    def empty_value(self) -> JsonValue:
        return []

    def is_empty(self, value: JsonValue) -> bool:
        return not value
