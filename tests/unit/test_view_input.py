"""ViewInput parsing: every criterion key of spec/search.md into its domain node, sort clauses,
aggregations, JSON and XML trees, and the 400s that name the fault."""

from __future__ import annotations

from typing import Any

import pytest

from pressroom.domain import query as q
from pressroom.domain.errors import BadRequest
from pressroom.domain.search import (
    RangeAggregation,
    SortClause,
    SortKey,
    StatsAggregation,
    TermAggregation,
)
from pressroom.rest.input.criteria import CRITERION_KEYS, MAX_CRITERIA, MAX_DEPTH, MAX_VALUES, parse_criteria
from pressroom.rest.input.decoders import decode
from pressroom.rest.input.node import Node
from pressroom.rest.input.view import (
    MAX_SORT_CLAUSES,
    SIMPLE_SORTS,
    ViewRequest,
    parse_sort_clauses,
    parse_view_input,
)

MB = 1024 * 1024


def one(key: str, value: Any) -> q.Criterion:
    return parse_criteria({key: value}, "Filter")


CASES: list[tuple[str, Any, q.Criterion]] = [
    ("ContentIdCriterion", "1,2, 3", q.ContentId((1, 2, 3))),
    ("ContentIdCriterion", 7, q.ContentId((7,))),
    ("ContentRemoteIdCriterion", "a,b", q.ContentRemoteId(("a", "b"))),
    ("ContentTypeIdCriterion", [1, 2], q.ContentTypeId((1, 2))),
    ("ContentTypeIdentifierCriterion", ["article", "news"], q.ContentTypeIdentifier(("article", "news"))),
    ("ContentTypeIdentifierCriterion", "folder", q.ContentTypeIdentifier(("folder",))),
    ("ContentTypeGroupIdCriterion", 1, q.ContentTypeGroupId((1,))),
    ("SectionIdCriterion", [1, "3"], q.SectionId((1, 3))),
    ("SectionIdentifierCriterion", "standard,media", q.SectionIdentifier(("standard", "media"))),
    ("LocationIdCriterion", "2,5", q.LocationId((2, 5))),
    ("LocationRemoteIdCriterion", "r1", q.LocationRemoteId(("r1",))),
    ("ParentLocationIdCriterion", 2, q.ParentLocationId((2,))),
    ("ParentLocationRemoteIdCriterion", "r2,r3", q.ParentLocationRemoteId(("r2", "r3"))),
    ("SubtreeCriterion", "/1/2/,/1/5/", q.Subtree(("/1/2/", "/1/5/"))),
    ("AncestorCriterion", "/1/2/5/", q.LocationId((1, 2, 5))),
    ("AncestorCriterion", "/1/2/5/,/1/2/9/", q.LocationId((1, 2, 5, 9))),
    ("LanguageCodeCriterion", "eng-GB,ger-DE", q.LanguageCode(("eng-GB", "ger-DE"))),
    ("FullTextCriterion", "hello world", q.FullText("hello world")),
    ("ContentNameCriterion", "Art*", q.ContentName("Art*")),
    ("ObjectStateIdCriterion", "1,2", q.ObjectStateId((1, 2))),
    (
        "ObjectStateIdentifierCriterion",
        {"value": "locked,not_locked", "target": "ez_lock"},
        q.ObjectStateIdentifier(("locked", "not_locked"), "ez_lock"),
    ),
    ("ObjectStateIdentifierCriterion", {"value": "a", "target": ""}, q.ObjectStateIdentifier(("a",), None)),
    ("VisibilityCriterion", 0, q.Visibility(visible=True)),
    ("VisibilityCriterion", "1", q.Visibility(visible=False)),
    ("SiblingCriterion", 54, q.Sibling(54)),
    ("UserIdCriterion", "14,10", q.UserId((14, 10))),
    ("UserLoginCriterion", "ad*", q.UserLogin(("ad*",), "LIKE")),
    ("UserLoginCriterion", "admin,anonymous", q.UserLogin(("admin", "anonymous"), "IN")),
    ("UserEmailCriterion", "*@example.com", q.UserEmail(("*@example.com",), "LIKE")),
    ("UserEmailCriterion", "a@b.c", q.UserEmail(("a@b.c",), "IN")),
    ("IsUserBasedCriterion", True, q.IsUserBased(True)),
    ("IsUserEnabledCriterion", "false", q.IsUserEnabled(False)),
    ("IsContainerCriterion", "true", q.IsContainer(True)),
    ("IsBookmarkedCriterion", False, q.IsBookmarked(False)),
    ("UserMetadataCriterion", {"Target": "OWNER", "Value": "14,10"}, q.UserMetadata("owner", (14, 10))),
    ("UserMetadataCriterion", {"Target": "group", "Value": [12]}, q.UserMetadata("group", (12,))),
    (
        "DateMetadataCriterion",
        {"Target": "Modified", "Value": [100, "200"], "Operator": "between"},
        q.DateMetadata("modified", "BETWEEN", (100, 200)),
    ),
    (
        "DateMetadataCriterion",
        {"Target": "created", "Value": 100, "Operator": "GT"},
        q.DateMetadata("created", "GT", (100,)),
    ),
    ("DateMetadataCriterion", {"Target": "published", "Value": 5}, q.DateMetadata("published", "IN", (5,))),
    ("Field", {"name": "title", "operator": "EQ", "value": "x"}, q.Field("title", "EQ", ("x",))),
    ("Field", {"name": "n", "operator": "in", "value": [1, 2.5]}, q.Field("n", "IN", (1, 2.5))),
    ("Field", {"name": "n", "operator": "BETWEEN", "value": [1, 9]}, q.Field("n", "BETWEEN", (1, 9))),
    (
        "ImageMimeTypeCriterion",
        {"fieldDefIdentifier": "image", "type": ["image/png", "image/jpeg"]},
        q.ImageMimeType("image", ("image/png", "image/jpeg")),
    ),
    (
        "ImageFileSizeCriterion",
        {"fieldDefIdentifier": "image", "size": {"max": 1.5}},
        q.ImageFileSize("image", 0, int(1.5 * MB)),
    ),
    (
        "ImageFileSizeCriterion",
        {"fieldDefIdentifier": "image", "size": {"min": "1", "max": 2}},
        q.ImageFileSize("image", MB, 2 * MB),
    ),
    (
        "ImageDimensionsCriterion",
        {"fieldDefIdentifier": "image", "width": {"min": 100}, "height": {"min": 10, "max": 20}},
        q.ImageDimensions("image", (100, None), (10, 20)),
    ),
    (
        "ImageOrientationCriterion",
        {"fieldDefIdentifier": "image", "orientation": "portrait"},
        q.ImageOrientation("image", "portrait"),
    ),
    (
        "ImageCriterion",
        {"fieldDefIdentifier": "image", "mimeTypes": "image/png", "orientation": "square"},
        q.LogicalAnd((q.ImageMimeType("image", ("image/png",)), q.ImageOrientation("image", "square"))),
    ),
]


@pytest.mark.parametrize(("key", "value", "expected"), CASES)
def test_every_criterion_key_becomes_its_node(key: str, value: Any, expected: q.Criterion) -> None:
    assert one(key, value) == expected


def test_every_key_of_the_spec_table_is_covered() -> None:
    assert {key for key, _, _ in CASES} == CRITERION_KEYS


def test_criteria_maps_and_logical_operators() -> None:
    assert parse_criteria(None, "Filter") == q.MatchAll()
    assert parse_criteria({}, "Filter") == q.MatchAll()
    assert parse_criteria({"ContentIdCriterion": 1, "SectionIdCriterion": 2}, "F") == q.LogicalAnd(
        (q.ContentId((1,)), q.SectionId((2,)))
    )
    # AND/OR: an array value is several criteria of the key; a list of one-key maps reads the same.
    assert one("OR", {"ContentTypeIdentifierCriterion": ["article", "news"]}) == q.LogicalOr(
        (q.ContentTypeIdentifier(("article",)), q.ContentTypeIdentifier(("news",)))
    )
    assert one("AND", [{"ContentIdCriterion": 1}, {"NOT": {"SectionIdCriterion": 3}}]) == q.LogicalAnd(
        (q.ContentId((1,)), q.LogicalNot(q.SectionId((3,))))
    )
    # Top level: an array goes to the criterion as it is.
    assert one("ContentTypeIdCriterion", [1, 2]) == q.ContentTypeId((1, 2))


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("Nope", 1, "Unknown criterion 'Nope'"),
        ("ContentId", 1, "did you mean 'ContentIdCriterion'"),
        ("FieldCriterion", {}, "did you mean 'Field'"),
        ("MoreLikeThis", {}, "not implemented"),
        ("LogicalOperator", {}, "not implemented"),
        ("NOT", {"ContentIdCriterion": 1, "SectionIdCriterion": 1}, "exactly one"),
        ("NOT", {}, "exactly one"),
        ("OR", {}, "at least one"),
        ("AND", "x", "AND"),
        ("ContentIdCriterion", "1,x", "'x'"),
        ("ContentIdCriterion", "", "at least one"),
        ("ContentIdCriterion", {"a": 1}, "ContentIdCriterion"),
        ("LocationIdCriterion", "99999999999", "99999999999"),
        ("SubtreeCriterion", "/1/2", "/1/2"),
        ("AncestorCriterion", "1/2/", "1/2/"),
        ("VisibilityCriterion", 2, "0 (visible) or 1 (hidden)"),
        ("VisibilityCriterion", True, "VisibilityCriterion"),
        ("SiblingCriterion", "1,2", "one id"),
        ("IsContainerCriterion", "yes", "true or false"),
        ("FullTextCriterion", {"x": 1}, "FullTextCriterion"),
        ("ObjectStateIdentifierCriterion", {"value": "a"}, "target"),
        ("UserMetadataCriterion", {"Target": "boss", "Value": 1}, "Target"),
        ("UserMetadataCriterion", {"Target": "owner"}, "Value"),
        ("DateMetadataCriterion", {"Target": "created", "Value": 1, "Operator": "LIKE"}, "Operator"),
        ("DateMetadataCriterion", {"Target": "born", "Value": 1}, "Target"),
        ("DateMetadataCriterion", {"Target": "created", "Value": "yesterday"}, "Unix timestamps"),
        ("DateMetadataCriterion", {"Target": "created", "Value": 1, "Operator": "BETWEEN"}, "two values"),
        ("Field", {"operator": "EQ", "value": 1}, "'name'"),
        ("Field", {"name": "a", "value": 1}, "'operator'"),
        ("Field", {"name": "a", "operator": "EQ"}, "'value'"),
        ("Field", {"name": "a", "operator": "EQ", "value": [1, 2]}, "one value"),
        ("Field", {"name": "a", "operator": "EQ", "value": {"x": 1}}, "value"),
        ("ImageOrientationCriterion", {"fieldDefIdentifier": "i", "orientation": "round"}, "orientation"),
        ("ImageFileSizeCriterion", {"fieldDefIdentifier": "i", "size": {"max": -1}}, "size.max"),
        ("ImageFileSizeCriterion", {"fieldDefIdentifier": "i"}, "size"),
        ("ImageMimeTypeCriterion", {"type": "image/png"}, "fieldDefIdentifier"),
        ("ImageCriterion", {"fieldDefIdentifier": "i"}, "at least one"),
    ],
)
def test_bad_criteria_are_400s_naming_them(key: str, value: Any, named: str) -> None:
    with pytest.raises(BadRequest) as raised:
        one(key, value)
    assert named in raised.value.message


def view(data: dict[str, Any], version: str | None = "1.1") -> ViewRequest:
    return parse_view_input(Node(data, "ViewInput"), version)


def test_view_input_versions_and_query_settings() -> None:
    old = view({"identifier": "v", "Query": {"Filter": {"ContentIdCriterion": 1}}}, None)
    assert old.identifier == "v" and not old.locations
    assert old.query.filter == q.ContentId((1,)) and old.query.limit == 25 and old.query.offset == 0
    assert old.query.languages is None and old.query.use_always_available
    located = view({"identifier": "v", "ContentQuery": {}, "LocationQuery": {"limit": "5", "offset": 2}})
    assert located.locations and located.query.limit == 5 and located.query.offset == 2
    content = view(
        {
            "identifier": "v",
            "languageCode": "ger-DE",
            "useAlwaysAvailable": "false",
            "ContentQuery": {"Query": {"FullTextCriterion": "x"}, "FacetBuilders": {"ContentType": {}}},
        }
    )
    assert not content.locations and content.query.query == q.FullText("x")
    assert content.query.filter == q.MatchAll()
    assert content.query.languages == ("ger-DE",) and not content.query.use_always_available


def test_deprecated_criteria_merge_into_the_filter() -> None:
    legacy = view({"identifier": "v", "ContentQuery": {"Criteria": {"ContentIdCriterion": 1}}})
    assert legacy.query.filter == q.ContentId((1,))
    both = {"Criteria": {"ContentIdCriterion": 1}, "Filter": {"SectionIdCriterion": 2}}
    merged = view({"identifier": "v", "ContentQuery": both})
    assert merged.query.filter == q.LogicalAnd((q.SectionId((2,)), q.ContentId((1,))))


@pytest.mark.parametrize(
    ("data", "version", "named"),
    [
        ({"ContentQuery": {}}, "1.1", "identifier"),
        ({"identifier": "v", "Query": {}}, "1.1", "ContentQuery"),
        ({"identifier": "v", "ContentQuery": {}}, None, "version=1.1"),
        ({"identifier": "v", "ContentQuery": {"limit": -1}}, "1.1", "'limit'"),
        ({"identifier": "v", "ContentQuery": {"offset": "x"}}, "1.1", "'offset'"),
        ({"identifier": "v", "ContentQuery": {"Filter": "x"}}, "1.1", "Filter"),
    ],
)
def test_bad_view_inputs(data: dict[str, Any], version: str | None, named: str) -> None:
    with pytest.raises(BadRequest) as raised:
        view(data, version)
    assert named in raised.value.message


def sort(clauses: Any) -> tuple[SortClause, ...]:
    return view({"identifier": "v", "ContentQuery": {"SortClauses": clauses}}).query.sort


def test_sort_clauses() -> None:
    # the second DatePublished cannot change the order the first gives: left out
    assert sort({"ContentName": "ascending", "DatePublished": ["descending", "ascending"]}) == (
        SortClause(SortKey.CONTENT_NAME, True),
        SortClause(SortKey.DATE_PUBLISHED, False),
    )
    field = SortClause(SortKey.FIELD, False, type_identifier="article", field_identifier="title")
    assert sort({"Field": {"identifier": "article/title", "direction": "descending"}}) == (field,)
    long_form = {
        "contentTypeIdentifier": "article",
        "fieldDefinitionIdentifier": "title",
        "direction": "descending",
    }
    assert sort({"Field": long_form}) == (field,)
    # XML: <Field identifier="article/title">descending</Field>
    assert sort({"Field": {"_identifier": "article/title", "#text": "descending"}}) == (field,)
    assert [clause.key for clause in sort({"LocationDepth": "ascending", "Score": "descending"})] == [
        SortKey.LOCATION_DEPTH,
        SortKey.SCORE,
    ]


@pytest.mark.parametrize(
    ("clauses", "named"),
    [
        ({"ContentName": "asc"}, "'ascending' or 'descending'"),
        ({"ContentName": "Ascending"}, "'ascending' or 'descending'"),
        ({"Popularity": "ascending"}, "Unknown sort clause 'Popularity'"),
        ({"Field": "ascending"}, "Field"),
        ({"Field": {"identifier": "title", "direction": "ascending"}}, "article/title"),
        ({"Field": {"identifier": "a/b", "direction": "up"}}, "direction"),
        ("ContentName", "SortClauses"),
    ],
)
def test_bad_sort_clauses(clauses: Any, named: str) -> None:
    with pytest.raises(BadRequest) as raised:
        sort(clauses)
    assert named in raised.value.message


def aggregations(raw: Any) -> tuple[Any, ...]:
    return view({"identifier": "v", "ContentQuery": {"Aggregations": raw}}).query.aggregations


def test_aggregations() -> None:
    field = {"contentTypeIdentifier": "product", "fieldDefinitionIdentifier": "price"}
    parsed = aggregations(
        [
            {"ContentTypeTermAggregation": {"name": "types", "limit": 5, "minCount": "2"}},
            {"UserMetadataTermAggregation": {"name": "owners", "type": "owner"}},
            {"ObjectStateTermAggregation": {"name": "s", "objectStateGroupIdentifier": "ez_lock"}},
            {"SubtreeTermAggregation": {"name": "t", "pathString": "/1/2/"}},
            {"KeywordTermAggregation": {"name": "k", **field}},
            {"RawTermAggregation": {"name": "r", "fieldName": "content_type_id_id"}},
            {"IntegerRangeAggregation": {"name": "p", **field, "ranges": [{"from": None, "to": 10}]}},
            {
                "DateMetadataRangeAggregation": {
                    "name": "d",
                    "type": "created",
                    "ranges": [{"from": "@100", "to": 200}],
                }
            },
            {"FloatStatsAggregation": {"name": "f", **field}},
            {"RawStatsAggregation": {"name": "rs", "fieldName": "x"}},
        ]
    )
    assert parsed == (
        TermAggregation("types", "content_type", limit=5, min_count=2),
        TermAggregation("owners", "user_metadata", target="owner"),
        TermAggregation("s", "object_state", object_state_group="ez_lock"),
        TermAggregation("t", "subtree", path_string="/1/2/"),
        TermAggregation("k", "field", type_identifier="product", field_identifier="price"),
        TermAggregation("r", "raw", field_name="content_type_id_id"),
        RangeAggregation("p", "field", ((None, 10),), type_identifier="product", field_identifier="price"),
        RangeAggregation("d", "date_metadata", ((100, 200),), target="created"),
        StatsAggregation("f", "field", type_identifier="product", field_identifier="price"),
        StatsAggregation("rs", "raw", field_name="x"),
    )


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        ([{"Nope": {"name": "x"}}], "Unknown aggregation 'Nope'"),
        ([{"ContentTypeTermAggregation": {}}], "'name'"),
        ([{"ContentTypeTermAggregation": {"name": "x", "limit": -1}}], "'limit'"),
        ([{"UserMetadataTermAggregation": {"name": "x", "type": "boss"}}], "'type'"),
        (
            [
                {
                    "IntegerRangeAggregation": {
                        "name": "x",
                        "contentTypeIdentifier": "a",
                        "fieldDefinitionIdentifier": "b",
                        "ranges": [{"from": 1}],
                    }
                }
            ],
            "'to'",
        ),
        (
            [
                {
                    "IntegerRangeAggregation": {
                        "name": "x",
                        "contentTypeIdentifier": "a",
                        "fieldDefinitionIdentifier": "b",
                        "ranges": [{"from": "x", "to": 1}],
                    }
                }
            ],
            "from",
        ),
        ([{"IntegerStatsAggregation": {"name": "x"}}], "contentTypeIdentifier"),
        ("x", "Aggregations"),
    ],
)
def test_bad_aggregations(raw: Any, named: str) -> None:
    with pytest.raises(BadRequest) as raised:
        aggregations(raw)
    assert named in raised.value.message


def from_xml(body: str) -> ViewRequest:
    root, data = decode(body.encode(), "xml")
    return parse_view_input(Node(data, root), "1.1")


def test_xml_trees_read_like_json() -> None:
    parsed = from_xml(
        """<ViewInput><identifier>x</identifier><LocationQuery>
        <Filter>
          <ContentTypeIdentifierCriterion>article</ContentTypeIdentifierCriterion>
          <ContentTypeIdentifierCriterion>news</ContentTypeIdentifierCriterion>
          <OR><SectionIdCriterion>1</SectionIdCriterion><SectionIdCriterion>2</SectionIdCriterion></OR>
          <Field><name>price</name><operator>BETWEEN</operator><value>1</value><value>5</value></Field>
          <IsContainerCriterion>true</IsContainerCriterion>
        </Filter>
        <limit>10</limit><offset>5</offset>
        <SortClauses><LocationPriority>descending</LocationPriority>
          <Field identifier="article/title">ascending</Field></SortClauses>
        <Aggregations>
          <ContentTypeTermAggregation><name>types</name></ContentTypeTermAggregation>
          <SectionTermAggregation><name>sections</name><limit>3</limit></SectionTermAggregation>
          <IntegerRangeAggregation><name>p</name><contentTypeIdentifier>a</contentTypeIdentifier>
            <fieldDefinitionIdentifier>b</fieldDefinitionIdentifier>
            <ranges><Range><from/><to>10</to></Range><Range><from>10</from><to/></Range></ranges>
          </IntegerRangeAggregation>
        </Aggregations>
        </LocationQuery></ViewInput>"""
    )
    assert parsed.locations and parsed.query.limit == 10 and parsed.query.offset == 5
    assert parsed.query.filter == q.LogicalAnd(
        (
            q.ContentTypeIdentifier(("article", "news")),
            q.LogicalOr((q.SectionId((1,)), q.SectionId((2,)))),
            q.Field("price", "BETWEEN", ("1", "5")),
            q.IsContainer(True),
        )
    )
    assert parsed.query.sort == (
        SortClause(SortKey.LOCATION_PRIORITY, False),
        SortClause(SortKey.FIELD, True, type_identifier="article", field_identifier="title"),
    )
    assert parsed.query.aggregations == (
        TermAggregation("types", "content_type"),
        TermAggregation("sections", "section", limit=3),
        RangeAggregation("p", "field", ((None, 10), (10, None)), type_identifier="a", field_identifier="b"),
    )


def test_criteria_maps_are_bounded_before_the_database_fails_them() -> None:
    ids = list(range(1, MAX_CRITERIA))  # an OR of 255 criteria: 256 with the OR itself
    assert len(one("OR", {"ContentIdCriterion": ids}).criteria) == MAX_CRITERIA - 1  # type: ignore[attr-defined]
    with pytest.raises(BadRequest, match="criteria; at most 256 are accepted"):
        one("OR", {"ContentIdCriterion": [*ids, 0]})
    values = ",".join(str(number) for number in range(MAX_VALUES))
    assert len(one("ContentIdCriterion", values).ids) == MAX_VALUES  # type: ignore[attr-defined]
    with pytest.raises(BadRequest, match="values; at most 10000 are accepted"):
        one("ContentIdCriterion", values + ",1")
    nested: dict[str, Any] = {"ContentIdCriterion": 1}
    for _ in range(MAX_DEPTH):
        nested = {"NOT": nested}
    with pytest.raises(BadRequest, match="more than 32 levels"):
        parse_criteria(nested, "Filter")
    assert isinstance(parse_criteria(nested["NOT"], "Filter"), q.LogicalNot)


def test_xml_nested_values_are_lists_for_every_criterion_that_takes_one() -> None:
    """``<value><value>a</value><value>b</value></value>`` decodes to ``{"value": [...]}``: a list."""
    _, tree = decode(
        b"<Filter><Field><name>tags</name><operator>IN</operator>"
        b"<value><value>a</value><value>b</value></value></Field></Filter>",
        "xml",
    )
    assert parse_criteria(tree, "Filter") == q.Field("tags", "IN", ("a", "b"))
    nested = {"value": ["1", "2"]}
    assert one("ContentIdCriterion", nested) == q.ContentId((1, 2))
    assert one("SubtreeCriterion", {"value": "/1/2/"}) == q.Subtree(("/1/2/",))
    assert one("UserMetadataCriterion", {"Target": "owner", "Value": nested}) == q.UserMetadata(
        "owner", (1, 2)
    )
    assert one(
        "DateMetadataCriterion", {"Target": "created", "Operator": "BETWEEN", "Value": nested}
    ) == q.DateMetadata("created", "BETWEEN", (1, 2))


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("DateMetadataCriterion", {"Target": "created", "Value": 2**63}, "Value is out of range"),
        ("DateMetadataCriterion", {"Target": "created", "Value": "-9223372036854775809"}, "out of range"),
        ("ImageFileSizeCriterion", {"fieldDefIdentifier": "i", "size": {"max": 1e308}}, "size.max"),
        ("ImageDimensionsCriterion", {"fieldDefIdentifier": "i", "height": {"min": "1e13"}}, "height.min"),
    ],
)
def test_numbers_past_what_the_database_holds_are_refused_by_name(key: str, value: Any, named: str) -> None:
    with pytest.raises(BadRequest, match=named):
        one(key, value)


def test_sort_clauses_are_bounded_and_a_repeated_key_is_left_out() -> None:
    names = ["ContentId", "ContentName", "DatePublished", "DateModified"]
    sixteen = parse_sort_clauses([{name: "descending"} for name in names] * 4, "SortClauses")
    assert sixteen == tuple(SortClause(SIMPLE_SORTS[name], False) for name in names)
    fields = parse_sort_clauses(
        [{"Field": {"identifier": f"a/{name}", "direction": "ascending"}} for name in ("x", "y", "x")], "S"
    )
    assert [clause.field_identifier for clause in fields] == ["x", "y"]
    with pytest.raises(BadRequest, match=f"more than {MAX_SORT_CLAUSES} sort clauses"):
        parse_sort_clauses({"ContentId": ["ascending"] * (MAX_SORT_CLAUSES + 1)}, "SortClauses")
