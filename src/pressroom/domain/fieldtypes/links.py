"""Links that run code when followed: the one check for ezurl values and rich text links.

A browser reads ``java\\tscript:``, ``java\\nscript:`` and ``\\x01javascript:`` as ``javascript:``: the URL
parser removes ASCII tab, line feed and carriage return anywhere, strips leading and trailing C0 controls
and spaces, and compares the scheme without regard to case. The check normalises a link the same way and
then refuses the ``javascript:`` and ``vbscript:`` schemes, and ``data:`` except raster images
(``data:image/png;base64,...``; SVG images can carry scripts, so they are refused too).
"""

from __future__ import annotations

import re

_REMOVED = str.maketrans("", "", "\t\n\r")
_C0_AND_SPACE = "".join(chr(code) for code in range(0x21))
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_RASTER_IMAGE = re.compile(r"image/(?:png|gif|jpeg|jpg|webp|avif|bmp)[;,]", re.IGNORECASE)
_SCRIPT_SCHEMES = frozenset({"javascript", "vbscript"})


def is_unsafe_link(link: str) -> bool:
    """True when a browser would run ``link`` as script (or load it as an active data: document)."""
    normal = link.translate(_REMOVED).strip(_C0_AND_SPACE)
    match = _SCHEME.match(normal)
    if match is None:
        return False
    scheme = match.group(1).lower()
    if scheme == "data":
        return _RASTER_IMAGE.match(normal, match.end()) is None
    return scheme in _SCRIPT_SCHEMES
