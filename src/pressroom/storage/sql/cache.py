"""Per-process caches of the tables that change rarely (content types with their field definitions,
languages, sections), exact across processes.

Every write to those tables bumps the ``cache_epoch`` counter in its transaction (see ``sequences``). A
transaction learns the epoch once, from a query it runs anyway or with one point lookup, and uses only
entries loaded under that same epoch, so a change committed by any process is seen by the next
transaction of every other one. A transaction that bumped the epoch itself reads past the cache until
it ends: what it loads may never be committed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import Connection

from pressroom.domain.caller import RequestCaller
from pressroom.storage.sql.caller import confirm as confirm_caller
from pressroom.storage.sql.sequences import bump_epoch, read_epoch

T = TypeVar("T")
_MISSING = object()


class EpochCache:
    """The cached values of one epoch (all dropped when a transaction sees another epoch)."""

    def __init__(self) -> None:
        self._epoch: int | None = None
        self._values: dict[Hashable, Any] = {}
        self._lock = threading.Lock()

    def get(self, epoch: int, key: Hashable) -> Any:
        values = self._values
        return values.get(key, _MISSING) if epoch == self._epoch else _MISSING

    def put(self, epoch: int, key: Hashable, value: Any) -> None:
        with self._lock:
            if epoch != self._epoch:
                self._epoch, self._values = epoch, {}
            self._values[key] = value


class TxCache:
    """One transaction's use of the process cache, and the request's caller the transaction confirms
    (None outside a request)."""

    __slots__ = ("_bypass", "_cache", "_connection", "caller", "epoch")

    def __init__(
        self, cache: EpochCache, connection: Connection, caller: RequestCaller | None = None
    ) -> None:
        self._cache = cache
        self._connection = connection
        self.caller = caller
        self._bypass = False
        self.epoch: int | None = None

    def saw_epoch(self, epoch: int) -> None:
        """The epoch as a query of this transaction returned it (saves the point lookup)."""
        if self.epoch is None:
            self.epoch = int(epoch)

    def get(self, key: Hashable, load: Callable[[], T]) -> T:
        if self._bypass:
            return load()
        if self.epoch is None:
            caller = self.caller
            if caller is not None and caller.pending() is not None:  # one statement does both
                self.epoch = confirm_caller(self._connection, caller)
            else:
                self.epoch = read_epoch(self._connection)
        value = self._cache.get(self.epoch, key)
        if value is _MISSING:
            value = load()
            self._cache.put(self.epoch, key, value)
        return value  # type: ignore[no-any-return]

    def changed(self) -> None:
        """This transaction wrote a cached table: bump the epoch (once), stop using the cache."""
        if not self._bypass:
            bump_epoch(self._connection)
            self._bypass = True
