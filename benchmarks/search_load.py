"""Search benchmark: the search service over a generated repository of about 100,000 items.

Generates the repository of ``benchmarks/search_data.py`` in a fresh database (three types, a tree five
levels deep, two languages), then runs each query ``--runs`` times through ``SearchService.find_content``
as the administrator (one read transaction: page, count, aggregations, loading the hits), with varying
parameters, and prints p50/p99 in milliseconds and the query plan of every statement of one run:

- children: ParentLocationId (a parent with 20,000 children) + ContentTypeIdentifier, newest first
- small children: the same below a random folder of the fourth level (15 children)
- children by name: the 15 and the 20,000 children by ContentName
- metadata: DateMetadata (a 30-day window of publication dates), Visibility and ObjectStateIdentifier
- full text: two words of middling frequency (each in a few percent of the items), by id and by Score
- field range: Field price BETWEEN (a span of 5 in 1..1000), by id and cheapest first (Field sort)
- aggregation: content types (term aggregation) in a subtree of about 10,000 items

    .venv/bin/python -m benchmarks.search_load [--runs 100] [--scale 1.0] [--database-url postgresql://...]

``--database-url`` must name an empty database (it is initialised here); default: a fresh SQLite file.
``--scale 0.1`` makes a tenth of the tree (and of the big parent), for a quick look.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event

from benchmarks.search_data import ADMIN, FANOUTS, START, Repository, Text, generate
from pressroom.domain import query as q
from pressroom.domain.errors import BadRequest
from pressroom.domain.search import SearchQuery, SortClause, SortKey, TermAggregation
from pressroom.services.permissions import Permissions
from pressroom.services.search import SearchService
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.install import initialise
from pressroom.storage.sql.store import SqlStore


def queries(repository: Repository, rng: random.Random) -> dict[str, Callable[[], SearchQuery]]:
    words = Text(random.Random(9)).words  # the generator's vocabulary, by falling frequency

    def children() -> SearchQuery:
        criterion = q.LogicalAnd(
            (q.ParentLocationId((repository.archive_location,)), q.ContentTypeIdentifier(("product",)))
        )
        return SearchQuery(filter=criterion, sort=(SortClause(SortKey.DATE_PUBLISHED, ascending=False),))

    def small_children() -> SearchQuery:
        parent = rng.choice(repository.level4_locations)
        criterion = q.LogicalAnd((q.ParentLocationId((parent,)), q.ContentTypeIdentifier(("story",))))
        return SearchQuery(filter=criterion, sort=(SortClause(SortKey.DATE_PUBLISHED, ascending=False),))

    def small_children_by_name() -> SearchQuery:
        parent = rng.choice(repository.level4_locations)
        return SearchQuery(filter=q.ParentLocationId((parent,)), sort=(SortClause(SortKey.CONTENT_NAME),))

    def children_by_name() -> SearchQuery:
        criterion = q.ParentLocationId((repository.archive_location,))
        return SearchQuery(filter=criterion, sort=(SortClause(SortKey.CONTENT_NAME),))

    def metadata() -> SearchQuery:
        start = START + rng.randrange(3 * 365 * 86400 - 30 * 86400)
        criterion = q.LogicalAnd(
            (
                q.DateMetadata("published", "BETWEEN", (start, start + 30 * 86400)),
                q.Visibility(True),
                q.ObjectStateIdentifier(("not_locked",), "ez_lock"),
            )
        )
        return SearchQuery(filter=criterion, sort=(SortClause(SortKey.DATE_PUBLISHED, ascending=False),))

    def full_text() -> SearchQuery:
        return SearchQuery(query=q.FullText(" ".join(rng.sample(words[30:300], 2))))

    def full_text_by_score() -> SearchQuery:
        return replace(full_text(), sort=(SortClause(SortKey.SCORE, ascending=False),))

    def field_range() -> SearchQuery:
        low = rng.uniform(1, 990)
        return SearchQuery(filter=q.Field("price", "BETWEEN", (round(low, 2), round(low + 5, 2))))

    def field_range_by_price() -> SearchQuery:
        return replace(field_range(), sort=(SortClause(SortKey.FIELD, True, "product", "price"),))

    def aggregation() -> SearchQuery:
        top = rng.choice(repository.level1_paths)
        terms = TermAggregation("types", "content_type")
        return SearchQuery(filter=q.Subtree((top,)), limit=0, aggregations=(terms,))

    return {
        "children (20,000 below one parent) + type, newest first": children,
        "small children (15 below a parent) + type, newest first": small_children,
        "small children (15 below a parent), by name": small_children_by_name,
        "children (20,000 below one parent), by name": children_by_name,
        "metadata: published in 30 days, visible, not locked": metadata,
        "full text, two words": full_text,
        "full text, two words, by score": full_text_by_score,
        "field range (price BETWEEN)": field_range,
        "field range (price BETWEEN), by price": field_range_by_price,
        "aggregation: content types in a subtree of 10,000": aggregation,
    }


class Statements:
    """The search statements an engine runs while recording, with their parameters (for EXPLAIN)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.seen: list[tuple[str, Any]] = []
        self.recording = False
        event.listen(engine, "before_cursor_execute", self._record)

    def _record(self, _conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        # the search's own statements (page, count, aggregations) keep to published items
        if self.recording and "content.status = " in statement:
            self.seen.append((statement, parameters))

    def explain(self) -> list[str]:
        prefix = "EXPLAIN QUERY PLAN " if self.engine.dialect.name == "sqlite" else "EXPLAIN "
        out = []
        with self.engine.connect() as connection:
            for statement, parameters in self.seen:
                out.append("  " + " ".join(statement.split())[:300])
                rows = connection.exec_driver_sql(prefix + statement, parameters).all()
                out.extend("      " + " | ".join(str(value) for value in row) for row in rows)
        return out


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(engine: Engine, repository: Repository, runs: int) -> None:
    store = SqlStore(engine)
    service = SearchService(store, Permissions(store))
    statements = Statements(engine)
    rng = random.Random(1)
    print(f"{'query':58} {'p50 ms':>8} {'p99 ms':>8} {'hits':>6} {'total':>7}")
    plans: list[str] = []
    for name, make in queries(repository, rng).items():
        try:
            service.find_content(ADMIN, make())  # warm-up: caches, plans
        except BadRequest as error:
            print(f"{name:58} skipped: {error}")
            continue
        timings, result = [], None
        for _ in range(runs):
            search = make()
            started = time.perf_counter()
            result = service.find_content(ADMIN, search)
            timings.append((time.perf_counter() - started) * 1000)
        assert result is not None
        print(
            f"{name:58} {statistics.median(timings):8.2f} {percentile(timings, 0.99):8.2f} "
            f"{len(result.hits):6} {result.total_count if result.total_count is not None else '-':>7}"
        )
        statements.seen, statements.recording = [], True
        service.find_content(ADMIN, make())
        statements.recording = False
        plans.append(f"-- {name}")
        plans.extend(statements.explain())
    print("\nQuery plans (one run of each query):")
    print("\n".join(plans))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument(
        "--database-url", default=None, help="an empty database; default: a fresh SQLite file"
    )
    args = parser.parse_args()
    url = args.database_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'search.db'}"
    engine = make_engine(url)
    initialise(engine, "publish")
    fanouts = tuple(max(2, round(f * args.scale**0.25)) for f in FANOUTS)
    repository = generate(engine, fanouts=fanouts, archive_children=max(100, int(20_000 * args.scale)))
    print(
        f"{engine.dialect.name}: generated {repository.items:,} items in {repository.seconds:.1f} s "
        f"(of which {repository.index_seconds:.1f} s building and writing the search index)"
    )
    run(engine, repository, args.runs)
    engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
