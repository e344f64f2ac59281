"""The search index on SQLite and PostgreSQL: Field criteria per operator and field type family, full
text, the Image criteria, the Field sort and relevance, and the index following publish, translation
delete, trash, restore and delete (issue #9)."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import Engine, delete, func, select, text

from pressroom.app import build_services
from pressroom.domain import query as q
from pressroom.domain import search as s
from pressroom.domain.content import ContentCreate, FieldInput, VersionUpdate
from pressroom.domain.content_type import ContentTypeInput, FieldDefinitionInput
from pressroom.domain.errors import BadRequest
from pressroom.domain.language import Language
from pressroom.domain.location import LocationCreate
from pressroom.domain.user import User
from pressroom.services.container import Services
from pressroom.storage.sql.criteria import compile_criterion
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.field_index import field_sort_expressions, relevance_scores
from pressroom.storage.sql.schema import content, field_index, search_text
from pressroom.storage.sql.search_index import rebuild
from pressroom.storage.sql.store import SqlStore
from tests.conftest import make_settings
from tests.helpers import StatementCounter

ADMIN = User(14, "admin", "admin@link.invalid", True)
PUBLISHED = 1
EVERYTHING = q.MatchAll()


def png(width: int, height: int) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "red").save(buffer, "PNG")
    return base64.b64encode(buffer.getvalue()).decode()


def timestamp(year: int, month: int, day: int) -> int:
    return int(datetime(year, month, day, tzinfo=UTC).timestamp())


FIELDS = [
    ("title", "ezstring", {}),
    ("price", "ezfloat", {}),
    ("stock", "ezinteger", {}),
    ("released", "ezdate", {}),
    ("tags", "ezkeyword", {}),
    ("colour", "ezselection", {"isMultiple": True, "options": ["Crimson", "Emerald", "Azure"]}),
    ("featured", "ezboolean", {}),
    ("body", "eztext", {}),
    ("country", "ezcountry", {"isMultiple": True}),
    ("authors", "ezauthor", {}),
    ("photo", "ezimage", {}),
    ("secret", "ezstring", {}),  # not searchable: full text ignores it
]


class Repo:
    """A ``product`` type and the services, over one database."""

    def __init__(self, services: Services, engine: Engine) -> None:
        self.services = services
        self.engine = engine
        definitions = tuple(
            FieldDefinitionInput(
                identifier=identifier,
                field_type=field_type,
                position=position,
                names={"eng-GB": identifier},
                field_settings=settings or None,
                is_searchable=identifier != "secret",
            )
            for position, (identifier, field_type, settings) in enumerate(FIELDS, start=1)
        )
        struct = ContentTypeInput(
            identifier="product",
            names={"eng-GB": "Product"},
            main_language_code="eng-GB",
            name_schema="<title>",
            field_definitions=definitions,
        )
        self.type_id = services.content_types.create(ADMIN, 1, struct, publish=True).id

    def publish(self, values: dict[str, Any], translations: dict[str, dict[str, Any]] | None = None) -> int:
        fields = [FieldInput(name, None, value) for name, value in values.items()]
        for language, translated in (translations or {}).items():
            fields.extend(FieldInput(name, language, value) for name, value in translated.items())
        struct = ContentCreate(self.type_id, "eng-GB", tuple(fields), (LocationCreate(2),))
        created = self.services.content.create(ADMIN, struct)
        self.services.versions.publish(ADMIN, created.content.id, 1)
        return created.content.id

    def republish(self, content_id: int, values: dict[str, Any]) -> None:
        draft = self.services.versions.copy_current(ADMIN, content_id)
        update = VersionUpdate(tuple(FieldInput(name, "eng-GB", value) for name, value in values.items()))
        self.services.versions.update(ADMIN, content_id, draft.info.version_no, update)
        self.services.versions.publish(ADMIN, content_id, draft.info.version_no)

    def found(self, criterion: q.Criterion) -> list[int]:
        query = (
            select(content.c.id)
            .where(content.c.status == PUBLISHED, content.c.content_type_id == self.type_id)
            .where(compile_criterion(criterion))
            .order_by(content.c.id)
        )
        with self.engine.connect() as connection:
            return list(connection.execute(query).scalars())


@pytest.fixture
def repo(database_url: str, tmp_path: Path) -> Iterator[Repo]:
    engine = make_engine(database_url)
    with SqlStore(engine).write() as tx:
        tx.languages.create(Language(4, "ger-DE", "Deutsch", True))
    yield Repo(build_services(make_settings(database_url, tmp_path), engine), engine)
    engine.dispose()


KETTLE = {
    "title": "Red Kettle",
    "price": 19.5,
    "stock": 3,
    "released": {"timestamp": timestamp(2024, 1, 15)},
    "tags": ["kitchen", "Steel"],
    "colour": [0],
    "featured": True,
    "body": "Boils water quickly",
    "country": ["NO"],
    "authors": [{"name": "Ada Lovelace", "email": "ada@example.org"}],
    "photo": {"fileName": "kettle.png", "data": png(40, 20)},
    "secret": "hidden-word",
}
MUG = {
    "title": "Blue Mug",
    "price": 7.25,
    "stock": 10,
    "released": {"timestamp": timestamp(2023, 6, 1)},
    "tags": ["kitchen"],
    "colour": [2, 1],
    "featured": False,
    "body": "Ceramic mug, boils nothing",
    "country": ["PL", "DE"],
    "authors": [{"name": "Grace Hopper", "email": "grace@example.org"}],
    "photo": {"fileName": "mug.png", "data": png(10, 30)},
}
TABLE = {
    "title": "Café Table",
    "price": 120,
    "stock": 1,
    "body": "Oak table, seats four",
    "featured": False,
}


@pytest.fixture
def items(repo: Repo) -> tuple[int, int, int]:
    kettle = repo.publish(
        KETTLE, {"ger-DE": {"title": "Alter Wasserkocher", "body": "Kocht Wasser", "featured": True}}
    )
    return kettle, repo.publish(MUG), repo.publish(TABLE)


def test_field_criteria_per_operator_and_type_family(repo: Repo, items: tuple[int, int, int]) -> None:
    kettle, mug, table = items
    cases: list[tuple[q.Criterion, list[int]]] = [
        # text: case-insensitive equality, IN, LIKE with *, CONTAINS a substring, text ranges
        (q.Field("title", "EQ", ("red kettle",)), [kettle]),
        (q.Field("title", "IN", ("Blue Mug", "Café Table", "nothing")), [mug, table]),
        (q.Field("title", "LIKE", ("*mug",)), [mug]),
        (q.Field("title", "LIKE", ("caf*",)), [table]),
        (q.Field("title", "LIKE", ("50%*",)), []),  # % is a literal, not a wildcard
        (q.Field("title", "CONTAINS", ("kett",)), [kettle]),
        (q.Field("title", "GTE", ("c",)), [table, kettle]),
        (q.Field("title", "LT", ("c",)), [kettle, mug]),  # its translation "alter wasserkocher"
        (q.Field("title", "EQ", ("alter wasserkocher",)), [kettle]),  # any translation
        # numbers: float and integer, numeric strings too
        (q.Field("price", "GT", (19.5,)), [table]),
        (q.Field("price", "GTE", (19.5,)), [kettle, table]),
        (q.Field("price", "LT", ("19.5",)), [mug]),
        (q.Field("price", "LTE", (7.25,)), [mug]),
        (q.Field("price", "BETWEEN", (7, 20)), [kettle, mug]),
        (q.Field("stock", "EQ", (10,)), [mug]),
        (q.Field("stock", "EQ", ("10",)), [mug]),
        (q.Field("stock", "IN", (1, 3)), [kettle, table]),
        # dates compare as Unix timestamps
        (q.Field("released", "GT", (timestamp(2023, 12, 31),)), [kettle]),
        (q.Field("released", "BETWEEN", (timestamp(2023, 1, 1), timestamp(2024, 12, 31))), [kettle, mug]),
        # booleans
        (q.Field("featured", "EQ", (True,)), [kettle]),
        (q.Field("featured", "EQ", (False,)), [mug, table]),
        # multi-valued: any of the values
        (q.Field("tags", "EQ", ("kitchen",)), [kettle, mug]),
        (q.Field("tags", "EQ", ("steel",)), [kettle]),
        # CONTAINS on keywords: a whole keyword, as the reference compares them (issue 25)
        (q.Field("tags", "CONTAINS", ("kitchen",)), [kettle, mug]),
        (q.Field("tags", "CONTAINS", ("itch",)), []),
        (q.Field("colour", "EQ", (1,)), [mug]),
        (q.Field("colour", "IN", (0, 2)), [kettle, mug]),
        (q.Field("country", "EQ", ("de",)), [mug]),
        (q.Field("country", "EQ", ("Norway",)), [kettle]),
        (q.Field("authors", "EQ", ("grace@example.org",)), [mug]),
        (q.Field("authors", "LIKE", ("ada*",)), [kettle]),
        # a field no type has, and combinations
        (q.Field("nothing", "EQ", ("x",)), []),
        (q.LogicalAnd((q.Field("tags", "EQ", ("kitchen",)), q.Field("price", "LT", (10,)))), [mug]),
        (q.LogicalNot(q.Field("tags", "EQ", ("kitchen",))), [table]),
    ]
    for criterion, expected in cases:
        assert repo.found(criterion) == sorted(expected), criterion


def test_field_criterion_with_the_wrong_number_of_values_is_refused(repo: Repo) -> None:
    from pressroom.domain.errors import InvalidArgument

    for criterion in (
        q.Field("price", "BETWEEN", (1,)),
        q.Field("price", "EQ", (1, 2)),
        q.Field("x", "IN", ()),
    ):
        with pytest.raises(InvalidArgument, match="Field criterion"):
            repo.found(criterion)


def test_full_text(repo: Repo, items: tuple[int, int, int]) -> None:
    kettle, mug, table = items
    cases: list[tuple[str, list[int]]] = [
        ("boils", [kettle, mug]),
        ("BOILS water", [kettle]),  # every word, any case
        ("boils oak", []),
        ("cafe", [table]),  # diacritics fold both ways
        ("Café", [table]),
        ("wasser", [kettle]),  # words of a translation
        ("tab*", [table]),  # a prefix
        ("tab", []),
        ("kitchen", [kettle, mug]),  # keywords
        ("azure", [mug]),  # selected option texts
        ("lovelace", [kettle]),
        ("hidden", []),  # a field that is not searchable
        ("19", []),  # numbers and dates are found by Field, not by their digits
        ("jan", []),
        ("  ", []),  # no word: nothing
        ('"and" OR NOT', []),  # query syntax is just words
    ]
    for words, expected in cases:
        assert repo.found(q.FullText(words)) == sorted(expected), words
    assert repo.found(q.LogicalOr((q.FullText("oak"), q.FullText("ceramic")))) == sorted([mug, table])


def test_image_criteria(repo: Repo, items: tuple[int, int, int]) -> None:
    kettle, mug, _table = items
    cases: list[tuple[q.Criterion, list[int]]] = [
        (q.ImageMimeType("photo", ("image/png",)), [kettle, mug]),
        (q.ImageMimeType("photo", ("image/jpeg",)), []),
        (q.ImageDimensions("photo", (20, None), (None, None)), [kettle]),
        (q.ImageDimensions("photo", (None, None), (25, 40)), [mug]),
        (q.ImageOrientation("photo", "landscape"), [kettle]),
        (q.ImageOrientation("photo", "portrait"), [mug]),
        (q.ImageOrientation("photo", "square"), []),
        (q.ImageFileSize("photo", 1, None), [kettle, mug]),
        (q.ImageFileSize("photo", None, 1), []),
        (q.ImageMimeType("title", ("image/png",)), []),
    ]
    for criterion, expected in cases:
        assert repo.found(criterion) == sorted(expected), criterion


def test_sort_by_field_and_by_relevance(repo: Repo, items: tuple[int, int, int]) -> None:
    kettle, mug, table = items
    loud = repo.publish({"title": "Loud kettle", "body": "kettle kettle kettle whistles"})

    def ordered(expressions: list[Any], criterion: q.Criterion = EVERYTHING) -> list[int]:
        query = (
            select(content.c.id)
            .where(content.c.status == PUBLISHED, content.c.content_type_id == repo.type_id)
            .where(compile_criterion(criterion))
            .order_by(*expressions, content.c.id)
        )
        with repo.engine.connect() as connection:
            return list(connection.execute(query).scalars())

    number, text = field_sort_expressions("product", "price", content)
    by_price = ordered([number.is_(None), number])
    assert by_price == [mug, kettle, table, loud]  # no price: last
    number, text = field_sort_expressions("product", "title", content)
    assert ordered([text]) == [mug, table, loud, kettle]
    assert ordered([text.desc()]) == [kettle, loud, table, mug]
    number, text = field_sort_expressions("product", "title", content, languages=("ger-DE",))
    assert ordered([text]) == [kettle, mug, table, loud]  # "alter wasserkocher" first
    number, _ = field_sort_expressions("folder", "price", content)  # no such field in that type
    assert ordered([number, content.c.id]) == sorted([kettle, mug, table, loud])

    criterion = q.FullText("kettle")
    scores = relevance_scores(criterion, repo.engine.dialect.name)
    assert scores is not None
    query = (
        select(content.c.id, scores.c.score)
        .select_from(content.outerjoin(scores, scores.c.content_id == content.c.id))
        .where(content.c.status == PUBLISHED, compile_criterion(criterion))
        .order_by(func.coalesce(scores.c.score, 0).desc(), content.c.id)
    )
    with repo.engine.connect() as connection:
        ranked = connection.execute(query).all()
    assert [row.id for row in ranked] == [loud, kettle]
    assert ranked[0].score > ranked[1].score > 0
    assert relevance_scores(q.LogicalNot(criterion), "sqlite") is None
    assert relevance_scores(q.Field("title", "EQ", ("x",)), "postgresql") is None


def test_a_search_right_after_a_write_sees_it(repo: Repo, items: tuple[int, int, int]) -> None:
    kettle, _mug, _table = items
    repo.republish(kettle, {"title": "Green Kettle", "body": "Whistles", "price": 25})
    assert repo.found(q.FullText("whistles")) == [kettle]
    assert repo.found(q.FullText("boils water")) == []
    assert repo.found(q.Field("title", "EQ", ("green kettle",))) == [kettle]
    assert repo.found(q.Field("title", "EQ", ("red kettle",))) == []
    assert repo.found(q.Field("price", "EQ", (25,))) == [kettle]
    assert repo.found(q.Field("price", "EQ", (19.5,))) == []
    # untouched fields of the new version are still found; the translation too
    assert repo.found(q.Field("tags", "EQ", ("steel",))) == [kettle]
    assert repo.found(q.FullText("wasser")) == [kettle]


def test_a_deleted_translation_is_no_longer_found(repo: Repo, items: tuple[int, int, int]) -> None:
    kettle, _mug, _table = items
    repo.services.content.delete_translation(ADMIN, kettle, "ger-DE")
    assert repo.found(q.FullText("wasser")) == []
    assert repo.found(q.Field("title", "EQ", ("alter wasserkocher",))) == []
    assert repo.found(q.FullText("boils water")) == [kettle]


def index_rows(engine: Engine, content_id: int) -> tuple[int, int]:
    with engine.connect() as connection:
        fields = connection.execute(
            select(func.count()).select_from(field_index).where(field_index.c.content_id == content_id)
        ).scalar_one()
        texts = connection.execute(
            select(func.count()).select_from(search_text).where(search_text.c.content_id == content_id)
        ).scalar_one()
    return int(fields), int(texts)


def test_trashed_items_are_not_found_until_restored_and_deleted_items_leave_the_index(
    repo: Repo, items: tuple[int, int, int]
) -> None:
    kettle, mug, _table = items
    services = repo.services
    kettle_location = services.content.load_info(ADMIN, kettle).main_location_id
    item = services.trash.trash(ADMIN, f"1/2/{kettle_location}")
    assert item is not None
    assert repo.found(q.FullText("boils")) == [mug]
    assert repo.found(q.Field("tags", "EQ", ("steel",))) == []
    services.trash.restore(ADMIN, item.location.id, None)
    assert repo.found(q.FullText("boils")) == [kettle, mug]
    assert repo.found(q.Field("tags", "EQ", ("steel",))) == [kettle]

    assert index_rows(repo.engine, mug) != (0, 0)
    services.content.delete(ADMIN, mug)
    assert index_rows(repo.engine, mug) == (0, 0)
    assert repo.found(q.FullText("boils")) == [kettle]
    assert repo.found(q.FullText("ceramic")) == []
    assert repo.found(q.ImageOrientation("photo", "portrait")) == []


def test_rebuild_gives_the_index_publish_wrote(repo: Repo, items: tuple[int, int, int]) -> None:
    def snapshot() -> tuple[list[Any], list[Any]]:
        with repo.engine.connect() as connection:
            fields = sorted(tuple(row) for row in connection.execute(select(field_index)))
            texts = sorted(tuple(row) for row in connection.execute(select(search_text)))
        return fields, texts

    written = snapshot()
    with repo.engine.begin() as connection:
        connection.execute(delete(field_index))
        connection.execute(delete(search_text))
    assert repo.found(q.FullText("boils")) == []
    with repo.engine.begin() as connection:
        assert rebuild(connection) >= 3 + 12  # the clean install's published items too
    assert snapshot() == written
    assert repo.found(q.FullText("boils")) == sorted(items[:2])


def test_the_clean_install_is_indexed(database_url: str) -> None:
    engine = make_engine(database_url)
    query = select(content.c.id).where(compile_criterion(q.FullText("administrator"))).order_by(content.c.id)
    with engine.connect() as connection:
        assert list(connection.execute(query).scalars()) == [12, 14]  # the group and the user
    engine.dispose()


def engine_index_ids(engine: Engine, word: str) -> list[int]:
    """Items the engine's own index (FTS5 or the tsvector) finds for ``word``, whatever their status."""
    statement = (
        "SELECT rowid FROM search_text_fts WHERE search_text_fts MATCH :word ORDER BY rowid"
        if engine.dialect.name == "sqlite"
        else "SELECT content_id FROM search_text WHERE tsv @@ to_tsquery('simple', :word) ORDER BY 1"
    )
    with engine.connect() as connection:
        return list(connection.execute(text(statement), {"word": word}).scalars())


def test_the_engine_index_follows_every_write(repo: Repo, items: tuple[int, int, int]) -> None:
    kettle, mug, _table = items
    assert engine_index_ids(repo.engine, "boils") == [kettle, mug]
    repo.republish(kettle, {"body": "Whistles"})
    assert engine_index_ids(repo.engine, "boils") == [mug]
    repo.services.content.delete(ADMIN, mug)  # the row goes by cascade, the engine index with it
    assert engine_index_ids(repo.engine, "boils") == []
    assert engine_index_ids(repo.engine, "whistles") == [kettle]


def test_the_revision_indexes_what_an_existing_database_holds(
    repo: Repo, items: tuple[int, int, int]
) -> None:
    from alembic import command

    from pressroom.storage.sql.migrate import _config

    with repo.engine.begin() as connection:
        command.downgrade(_config(connection), "-1")
    with repo.engine.begin() as connection:
        command.upgrade(_config(connection), "head")
    assert repo.found(q.FullText("boils")) == sorted(items[:2])
    assert repo.found(q.Field("price", "GT", (100,))) == [items[2]]


def field_aggregations(repo: Repo, *aggregations: s.Aggregation) -> dict[str, s.AggregationResult]:
    """The aggregations of a search over the products, through the search service."""
    query = s.SearchQuery(filter=q.ContentTypeId((repo.type_id,)), limit=0, aggregations=aggregations)
    result = repo.services.search.find_content(ADMIN, query)
    return {aggregation.name: aggregation for aggregation in result.aggregations}


def field_terms(repo: Repo, field: str) -> list[tuple[object, int]]:
    aggregation = s.TermAggregation(field, "field", type_identifier="product", field_identifier=field)
    result = field_aggregations(repo, aggregation)[field]
    assert isinstance(result, s.TermAggregationResult)
    return [(entry.key, entry.count) for entry in result.entries]


def test_field_term_aggregations_show_values_as_the_field_type_does(
    repo: Repo, items: tuple[int, int, int]
) -> None:
    # counts per item, not per translation: the kettle is featured in English and German
    assert field_terms(repo, "featured") == [(False, 2), (True, 1)]
    assert field_terms(repo, "colour") == [("Crimson", 1), ("Emerald", 1), ("Azure", 1)]  # by index
    assert field_terms(repo, "tags") == [("kitchen", 2), ("steel", 1)]  # as indexed: lower-cased
    assert field_terms(repo, "country") == [("DE", 1), ("NO", 1), ("PL", 1)]  # codes, not names
    assert field_terms(repo, "authors") == [("ada lovelace", 1), ("grace hopper", 1)]  # not emails


def test_field_range_and_stats_aggregations(repo: Repo, items: tuple[int, int, int]) -> None:
    results = field_aggregations(
        repo,
        s.RangeAggregation(
            "stock", "field", ((None, 3), (3, None)), type_identifier="product", field_identifier="stock"
        ),
        s.RangeAggregation(
            "released",
            "field",
            ((None, "2024-01-01"), ("2024-01-01T00:00:00+00:00", None)),
            type_identifier="product",
            field_identifier="released",
        ),
        s.StatsAggregation("price", "field", type_identifier="product", field_identifier="price"),
    )
    stock, released, price = results["stock"], results["released"], results["price"]
    assert isinstance(stock, s.RangeAggregationResult) and isinstance(released, s.RangeAggregationResult)
    assert [(e.start, e.end, e.count) for e in stock.entries] == [(None, 3, 1), (3, None, 2)]
    # date bounds in ISO 8601 compare as timestamps; the table has no release date
    assert [(e.start, e.end, e.count) for e in released.entries] == [
        (None, "2024-01-01", 1),
        ("2024-01-01T00:00:00+00:00", None, 1),
    ]
    assert price == s.StatsAggregationResult("price", 3, 146.75, 7.25, 120.0, 146.75 / 3)


def test_field_aggregations_refuse_what_they_cannot_read(repo: Repo, items: tuple[int, int, int]) -> None:
    with pytest.raises(BadRequest, match="'nothing': no field 'nothing' in a content type 'product'"):
        field_terms(repo, "nothing")  # the field name is the aggregation's name here
    with pytest.raises(BadRequest, match="range bound 'soon' is neither a number nor a date"):
        field_aggregations(
            repo,
            s.RangeAggregation(
                "r", "field", (("soon", None),), type_identifier="product", field_identifier="stock"
            ),
        )
    with pytest.raises(BadRequest, match="contentTypeIdentifier and fieldDefinitionIdentifier"):
        field_aggregations(repo, s.StatsAggregation("price", "field"))


def definition_id(repo: Repo, identifier: str) -> int:
    definition = repo.services.content_types.load(ADMIN, repo.type_id).field_definition(identifier)
    assert definition is not None
    return definition.id


def test_publishing_a_type_indexes_its_items_again_when_searchability_changes(
    repo: Repo, items: tuple[int, int, int]
) -> None:
    kettle, mug, _table = items
    types, fields = repo.services.content_types, repo.services.field_definitions
    assert repo.found(q.FullText("boils")) == [kettle, mug]
    types.create_draft(ADMIN, repo.type_id, ContentTypeInput())
    fields.update(
        ADMIN, repo.type_id, definition_id(repo, "body"), FieldDefinitionInput(is_searchable=False), None
    )
    types.publish_draft(ADMIN, repo.type_id)
    assert repo.found(q.FullText("boils")) == []  # the body is no longer searchable text
    assert repo.found(q.FullText("kettle")) == [kettle]  # the title still is
    types.create_draft(ADMIN, repo.type_id, ContentTypeInput())
    assert repo.found(q.FullText("steel")) == [kettle]
    fields.remove(ADMIN, repo.type_id, definition_id(repo, "tags"))
    types.publish_draft(ADMIN, repo.type_id)
    assert repo.found(q.FullText("steel")) == []  # only ever in the removed keywords
    with repo.engine.connect() as connection:
        assert stale_rows(connection) == 0


def stale_rows(connection: Any) -> int:
    """Rows of the field index left for definitions that are no longer defined."""
    from pressroom.storage.sql.schema import field_definitions

    defined = select(field_definitions.c.id).where(field_definitions.c.status == 0)
    query = (
        select(func.count()).select_from(field_index).where(field_index.c.field_definition_id.not_in(defined))
    )
    return int(connection.execute(query).scalar_one())


def test_publishing_a_type_that_changes_nothing_searchable_indexes_nothing(
    repo: Repo, items: tuple[int, int, int]
) -> None:
    types = repo.services.content_types
    types.create_draft(ADMIN, repo.type_id, ContentTypeInput(names={"eng-GB": "Goods"}))
    with StatementCounter() as counter:
        types.publish_draft(ADMIN, repo.type_id)
    assert not [s for s in counter.statements if "field_index" in s or "search_text" in s]
