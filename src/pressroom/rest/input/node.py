"""Typed access to a decoded input tree, with errors that name the element at fault.

JSON keeps types; XML delivers text. Every getter accepts both (``"true"`` and ``true``, ``"5"`` and
``5``) and raises :class:`BadRequest` naming the key and the input type on anything else.
"""

from __future__ import annotations

from typing import Any

from pressroom.domain.errors import BadRequest
from pressroom.domain.integers import INT32_MAX, INT32_MIN, check_range, parse_int


def as_list(value: Any) -> list[Any]:
    """A repeated element: XML gives a single item when it appears once, JSON may too."""
    if value is None or value == "":
        return []
    return value if isinstance(value, list) else [value]


class Node:
    __slots__ = ("data", "where")

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise BadRequest(f"{where} must be an object")
        self.data: dict[str, Any] = data
        self.where = where

    def has(self, key: str) -> bool:
        return key in self.data

    def _missing(self, key: str) -> BadRequest:
        return BadRequest(f"Missing '{key}' element for {self.where}.")

    def raw(self, key: str) -> Any:
        if key not in self.data:
            raise self._missing(key)
        return self.data[key]

    def string(self, key: str) -> str:
        value = self.raw(key)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise BadRequest(f"'{key}' in {self.where} must be a string")
        return str(value)

    def opt_string(self, key: str) -> str | None:
        return self.string(key) if self.data.get(key) is not None else None

    def integer(self, key: str, low: int = INT32_MIN, high: int = INT32_MAX) -> int:
        """An integer within ``low``..``high`` (400 naming ``key`` otherwise); the default is the range of
        the 32-bit columns the integer elements (``priority``, ``position``) are stored in."""
        value = self.raw(key)
        if isinstance(value, str):
            value = parse_int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadRequest(f"'{key}' in {self.where} must be an integer")
        return check_range(value, f"'{key}' in {self.where}", low, high)

    def opt_integer(self, key: str) -> int | None:
        return self.integer(key) if self.data.get(key) not in (None, "") else None

    def boolean(self, key: str) -> bool:
        value = self.raw(key)
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise BadRequest(f"'{key}' in {self.where} must be true or false")

    def opt_boolean(self, key: str) -> bool | None:
        return self.boolean(key) if self.data.get(key) not in (None, "") else None

    def child(self, key: str) -> Node:
        return Node(self.raw(key), f"{self.where}.{key}")

    def opt_child(self, key: str) -> Node | None:
        return self.child(key) if self.data.get(key) not in (None, "") else None

    def href(self, key: str) -> str:
        """The ``_href`` of a reference element such as ``Section`` or ``ParentLocation``."""
        node = self.child(key)
        href = node.data.get("_href")
        if not isinstance(href, str) or not href:
            raise BadRequest(f"Missing '_href' attribute for {self.where}.{key}.")
        return href

    def opt_href(self, key: str) -> str | None:
        return self.href(key) if self.data.get(key) not in (None, "") else None

    def items(self, key: str, item: str) -> list[Node]:
        """``fields.field[]``-style lists; an absent list is empty."""
        outer = self.data.get(key)
        if outer in (None, ""):
            return []
        container = Node(outer, f"{self.where}.{key}")
        return [Node(entry, f"{self.where}.{key}.{item}") for entry in as_list(container.data.get(item))]

    def translated(self, key: str) -> dict[str, str] | None:
        """``names: {value: [{_languageCode, #text}]}`` -> {language: text}; None when absent."""
        outer = self.data.get(key)
        if outer is None:
            return None
        if outer == "":
            return {}
        container = Node(outer, f"{self.where}.{key}")
        result: dict[str, str] = {}
        for entry in as_list(container.data.get("value")):
            if not isinstance(entry, dict) or "_languageCode" not in entry:
                raise BadRequest(f"Each value of {self.where}.{key} needs a '_languageCode'")
            code, text = entry["_languageCode"], entry.get("#text", "")
            if not isinstance(code, str) or not code:
                raise BadRequest(f"'_languageCode' in {self.where}.{key} must be a language code")
            if text is not None and not isinstance(text, str):
                raise BadRequest(f"'#text' in {self.where}.{key} must be a string")
            result[code] = text or ""
        return result

    def hrefs(self, key: str) -> list[str]:
        """The ``_href`` of every repeated reference element ``key`` (``ObjectState: [{_href}, ...]``)."""
        result = []
        for index, entry in enumerate(as_list(self.data.get(key))):
            href = entry.get("_href") if isinstance(entry, dict) else None
            if not isinstance(href, str) or not href:
                raise BadRequest(f"Missing '_href' attribute for {self.where}.{key}[{index}].")
            result.append(href)
        return result
