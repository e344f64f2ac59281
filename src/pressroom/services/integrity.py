"""``pressroom check`` and ``pressroom gc-files``: find the damage a crash or a bug could leave behind, and
sweep stored files that nothing references.

Both read the database in one transaction after listing the file store, so a file whose upload commits
while they run is either listed after it became referenced or is young; the sweep only deletes orphans
older than a grace period, which leaves room for uploads whose transaction is still open.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.integrity import IntegrityReport, Problem
from pressroom.storage.spi import Store

DEFAULT_GRACE_SECONDS = 3600


class IntegrityService:
    def __init__(self, store: Store, files: FileStore) -> None:
        self.store = store
        self.files = files

    def check(self) -> IntegrityReport:
        """Every rule, over the whole repository; a report with no problems means nothing is damaged."""
        stored = set(self.files.file_ids())
        with self.store.read() as tx:
            gateway = tx.integrity
            problems = [
                *gateway.content_problems(),
                *gateway.version_problems(),
                *gateway.location_problems(),
            ]
            by_fields, renditions = gateway.referenced_files()
            checked = gateway.counts()
        problems += _file_problems(stored, by_fields, renditions)
        checked["stored files"] = len(stored)
        return IntegrityReport(tuple(problems), tuple(checked.items()))

    def orphans(self, older_than: float = DEFAULT_GRACE_SECONDS) -> list[str]:
        """Stored files no field value or rendition references, written more than ``older_than`` s ago."""
        stored = set(self.files.file_ids())
        with self.store.read() as tx:
            by_fields, renditions = tx.integrity.referenced_files()
        cutoff = time.time() - older_than
        return sorted(
            file_id
            for file_id in stored - by_fields - renditions
            if (written := self.files.written_at(file_id)) is not None and written < cutoff
        )

    def collect_garbage(self, older_than: float = DEFAULT_GRACE_SECONDS) -> list[str]:
        """Delete the :meth:`orphans`; returns their ids."""
        doomed = self.orphans(older_than)
        for file_id in doomed:
            self.files.delete(file_id)
        return doomed


def _file_problems(stored: set[str], by_fields: set[str], renditions: set[str]) -> Iterator[Problem]:
    for file_id in sorted(by_fields - stored):
        yield Problem("file-missing", f"file {file_id}: referenced by a field value but not stored")
    for file_id in sorted(renditions - stored):
        yield Problem("rendition-missing", f"file {file_id}: an image rendition recorded but not stored")
    for file_id in sorted(stored - by_fields - renditions):
        yield Problem("orphan-file", f"file {file_id}: stored but nothing references it (see gc-files)")
