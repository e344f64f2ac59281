"""Content names from a content type's name schema.

``<short_name|name>`` is replaced by the first non-empty field text among the alternatives;
``<first_name> <last_name>`` joins two fields; text outside tokens is kept. A group in parentheses
``(<first_name> <last_name>)`` may stand as an alternative: ``<nickname|(<first_name> <last_name>)>``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_GROUP = re.compile(r"\(([^()]*<[^()]*)\)")
_TOKEN = re.compile(r"<([^<>]*)>")
NAME_LENGTH = 150


def resolve_name_schema(schema: str, texts: Mapping[str, str]) -> str:
    """The name for one language, given the name text of each field (by field identifier)."""
    groups: list[str] = []
    # NUL marks the resolved groups below: one from the client (schema or field text) must not read as
    # a group index, so names never carry it.
    schema = schema.replace("\x00", "")

    def group(match: re.Match[str]) -> str:
        groups.append(_TOKEN.sub(token, match.group(1)).strip())
        return f"\x00{len(groups) - 1}\x00"

    def token(match: re.Match[str]) -> str:
        for alternative in match.group(1).split("|"):
            key = alternative.strip()
            if key.startswith("\x00") and key.endswith("\x00"):
                text = groups[int(key.strip("\x00"))]
            else:
                text = texts.get(key, "").replace("\x00", "")
            if text:
                return text
        return ""

    previous = None
    result = schema
    while previous != result and "(" in result:  # innermost groups first
        previous = result
        result = _GROUP.sub(group, result)
    result = _TOKEN.sub(token, result)
    result = re.sub(r"\x00(\d+)\x00", lambda m: groups[int(m.group(1))], result)
    return result.strip()[:NAME_LENGTH]
