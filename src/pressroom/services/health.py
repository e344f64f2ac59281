"""Readiness: the database answers and holds an installed repository."""

from __future__ import annotations

import logging

from pressroom.storage.spi import Store

log = logging.getLogger("pressroom.health")


class HealthService:
    def __init__(self, store: Store) -> None:
        self.store = store

    def ready(self) -> bool:
        try:
            with self.store.read() as tx:
                return tx.settings.get("installed") is not None
        except Exception as error:  # any failure to reach the database means "not ready", never a 500
            log.warning("readiness check failed: %s", type(error).__name__)
            return False
