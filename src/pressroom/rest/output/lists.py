"""One generic list representation for the list resources that only wrap their items.

A list kind is declared once, next to the visitor of its items: its media type name (also the root
element), the element each item is written as, the function writing one item, and whether the list has
an ETag. A handler answers ``ItemList("SectionList", href, sections)``; its return type names the kind
(``ItemList[Literal["SectionList"], Section]``, aliased as ``SectionList`` by the module declaring it), so
mypy checks the name against the declaration and the route table reads the media type from the return
type (rest/declared.py). Lists with more than items (a count, links that depend on the owner) keep their
own visitors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pressroom.domain.tags import value_tag
from pressroom.rest.output.visitor import Out, Representation, visits_lists
from pressroom.rest.output.writers import Items

M = TypeVar("M", bound=str)
T = TypeVar("T")


@dataclass(frozen=True)  # no slots: ``SectionList(...)`` through the alias sets ``__orig_class__``, refused
class ItemList(Generic[M, T]):
    media: M  # the list's media type name, declared with :func:`list_kind`
    href: str  # the listed resource, with prefix
    items: Sequence[T]


@dataclass(frozen=True, slots=True)
class _Kind:
    element: str
    item: Callable[[Out, Any], Any]
    tagged: bool
    xml_element: str | None


_KINDS: dict[str, _Kind] = {}


def list_kind(
    media: str,
    element: str,
    item: Callable[[Out, T], Any],
    *,
    tagged: bool = False,
    xml_element: str | None = None,
) -> None:
    """Declare the list media type ``media``: its items under ``element`` (written in XML as
    ``xml_element`` when that differs), each written by ``item``; ``tagged`` lists have an ETag."""
    if media in _KINDS:
        raise ValueError(f"list {media} is already declared")
    _KINDS[media] = _Kind(element, item, tagged, xml_element)
    visits_lists(ItemList, visit_item_list, tuple(_KINDS))


def visit_item_list(out: Out, value: ItemList[Any, Any]) -> Representation:
    kind = _KINDS[value.media]
    items = [kind.item(out, item) for item in value.items]
    body = {
        "_media-type": out.media(value.media),
        "_href": value.href,
        kind.element: items if kind.xml_element is None else Items(kind.xml_element, items),
    }
    etag = value_tag(value.items) if kind.tagged else None
    return Representation(value.media, value.media, body, etag=etag)
