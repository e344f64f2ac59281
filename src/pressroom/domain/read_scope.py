"""What a reader may read, as every storage method that returns items, locations or relations takes it.

The scope is required: there is no "unfiltered" default to forget. A request passes its caller's read
criterion (``Permissions.read_criterion``); internal work that must see everything (publishing, integrity
checks, the event dispatcher, filling a cache that is filtered per caller afterwards) passes
``UNRESTRICTED``, which is greppable. ``UNRESTRICTED`` is not the same as a caller whose criterion is
``MatchAll``: such a caller still sees only what is about content (the events feed), internal work sees
everything.
"""

from __future__ import annotations

import enum

from pressroom.domain.query import Criterion, MatchAll


class Unrestricted(enum.Enum):
    """The scope of internal work: nothing is filtered."""

    UNRESTRICTED = "unrestricted"


UNRESTRICTED = Unrestricted.UNRESTRICTED

ReadScope = Criterion | Unrestricted


def restriction(scope: ReadScope) -> Criterion | None:
    """The criterion that filters, or None when nothing is filtered out (``UNRESTRICTED``, ``MatchAll``)."""
    if isinstance(scope, (Unrestricted, MatchAll)):
        return None
    return scope


def criterion(scope: ReadScope) -> Criterion:
    """The scope as a criterion (``UNRESTRICTED`` matches everything)."""
    return MatchAll() if isinstance(scope, Unrestricted) else scope
