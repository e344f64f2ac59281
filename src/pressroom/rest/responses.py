"""Wrappers a handler returns; status codes live here and in the error table, not in handlers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Created(Generic[T]):
    """201 with ``Location``; the body is the value's representation, or empty when ``value`` is None.

    The type parameter is what the body may be (``Created[None]``: never a body); the route table's
    responses are derived from it.
    """

    location: str
    value: T | None = None


@dataclass(frozen=True, slots=True)
class NoContent:
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Redirect:
    location: str
    status: int = 307


@dataclass(frozen=True, slots=True)
class Empty:
    """A bodiless answer with a given status (e.g. 200 for HEAD /bookmark, 409 on session login)."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class WithHeaders:
    """A value rendered as usual, with a status and extra headers (Set-Cookie on login)."""

    value: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    cookies: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RawBody:
    """Bytes as they are (a stored file, or a part of one: 206), under their own media type."""

    content: bytes
    media_type: str
    headers: dict[str, str] = field(default_factory=dict)
    status: int = 200


@dataclass(frozen=True, slots=True)
class Stream:
    """A 200 whose body is sent in pieces as ``chunks`` yields them (Server-Sent Events), until it ends or
    the client goes away."""

    chunks: Callable[[], AsyncIterator[bytes]]
    media_type: str
    headers: dict[str, str] = field(default_factory=dict)
