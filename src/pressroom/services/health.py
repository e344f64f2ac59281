"""Readiness: the database answers, holds an installed repository, and its schema is this version's."""

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
                installed = tx.settings.get("installed") is not None
            return installed and self.store.schema_is_current()
        except Exception as error:  # any failure to reach the database means "not ready", never a 500
            log.warning("readiness check failed: %s", type(error).__name__)
            return False
