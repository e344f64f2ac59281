"""POST /views, property-based: whatever criteria tree, operators, values, sort clauses and nesting a
ViewInput holds, in JSON or XML, the real app answers a View or a 4xx ErrorMessage on both databases,
never a 5xx (a 503 would tell the client to retry what can never succeed).

Runs are bounded (``max_examples``, no deadline, one app per database for the module) so the module
stays under a minute; a failure prints the body that broke it, to be added to the table tests."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.rest.input.criteria import CRITERION_KEYS
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.install import initialise
from tests.conftest import POSTGRES_URL, make_settings
from tests.functional.content_support import encode
from tests.functional.test_hostile_properties import assert_answered
from tests.helpers import Api, media, scratch_postgres

BOUNDED = settings(
    max_examples=75, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

EDGE_NUMBERS = [0, -1, 2**31, 2**63 - 1, 2**63, -(2**63) - 1, 2**64 - 1, 1e308, -1e308, 5e-324, 0.5]
numbers = (
    st.sampled_from(EDGE_NUMBERS)
    | st.integers(-5, 40)
    | st.integers(-(2**64) + 1, 2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
)
texts = st.sampled_from(
    ["", " ", "*", "a*", "%_\\", "/1/2/", "1,2,x", "eng-GB", "folder", "Media", "9" * 30, "1e400", "-0"]
) | st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=16)
scalars = numbers | texts | st.booleans() | st.none()


def listed(item: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """One value, a list of them, or the list in XML's nested form ``<value><value>a</value>...``."""
    many = st.lists(item, min_size=1, max_size=4)
    return item | many | many.map(lambda items: {"value": items})


ids = listed(st.integers(0, 60) | st.sampled_from(EDGE_NUMBERS) | st.just("1,2,59"))
words = listed(st.sampled_from(["folder", "image", "standard", "media", "eng-GB", "admin", "adm*"]))
paths = listed(st.sampled_from(["/1/", "/1/2/", "/1/5/", "/1/43/51/", "/1/2/999999999/"]))
flags = st.booleans() | st.sampled_from(["true", "false"])
operators = st.sampled_from(["EQ", "IN", "LT", "LTE", "GT", "GTE", "BETWEEN", "LIKE", "CONTAINS", "in"])
fields = st.sampled_from(["name", "title", "short_name", "image", "tags", "first_name", "nothing"])
bound_value = numbers | st.sampled_from(["1.5", "1e308", "99999999999999999999"])
bounds = st.fixed_dictionaries({}, optional={"min": bound_value, "max": bound_value})

VALUES: dict[str, st.SearchStrategy[Any]] = {
    "Field": st.fixed_dictionaries(
        {"name": fields, "operator": operators, "value": listed(numbers | texts | st.booleans())}
    ),
    "DateMetadataCriterion": st.fixed_dictionaries(
        {
            "Target": st.sampled_from(["modified", "created", "published"]),
            "Value": listed(numbers | st.sampled_from(["1000", "99999999999999999999"])),
        },
        optional={"Operator": operators},
    ),
    "UserMetadataCriterion": st.fixed_dictionaries(
        {"Target": st.sampled_from(["owner", "group", "modifier"]), "Value": ids}
    ),
    "ObjectStateIdentifierCriterion": st.fixed_dictionaries(
        {"value": words, "target": st.sampled_from(["ez_lock", ""])}
    ),
    "ImageCriterion": st.fixed_dictionaries(
        {"fieldDefIdentifier": fields},
        optional={
            "mimeTypes": words,
            "size": bounds,
            "width": bounds,
            "height": bounds,
            "orientation": st.sampled_from(["landscape", "portrait", "square"]),
        },
    ),
    "ImageFileSizeCriterion": st.fixed_dictionaries({"fieldDefIdentifier": fields, "size": bounds}),
    "ImageDimensionsCriterion": st.fixed_dictionaries(
        {"fieldDefIdentifier": fields}, optional={"width": bounds, "height": bounds}
    ),
    "ImageMimeTypeCriterion": st.fixed_dictionaries({"fieldDefIdentifier": fields, "type": words}),
    "ImageOrientationCriterion": st.fixed_dictionaries(
        {"fieldDefIdentifier": fields, "orientation": st.sampled_from(["landscape", "portrait"])}
    ),
    "ContentTypeIdentifierCriterion": listed(st.sampled_from(["folder", "image", "user"])),
    "SubtreeCriterion": paths,
    "AncestorCriterion": paths,
    "VisibilityCriterion": st.sampled_from([0, 1, "0", "1"]),
    "SiblingCriterion": st.integers(0, 60) | st.sampled_from(EDGE_NUMBERS),
    "FullTextCriterion": texts,
    "ContentNameCriterion": texts,
    **{key: flags for key in CRITERION_KEYS if key.startswith("Is")},
    **{key: ids for key in CRITERION_KEYS if key.endswith("IdCriterion")},
}
NUMERIC = [
    key for key, value in VALUES.items() if key.startswith(("Field", "Date", "Image", "UserMeta", "Sib"))
]
SORT_NAMES = ["ContentId", "ContentName", "DateModified", "DatePublished", "LocationDepth", "LocationPath",
              "LocationPriority", "LocationId", "SectionIdentifier", "SectionName", "Score"]  # fmt: skip


def _one_key(part: dict[str, Any]) -> dict[str, Any]:
    return part if len(part) == 1 else {"AND": part}


def _merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for part in parts:
        merged.update(part)
    return merged


class Inputs:
    """The strategies of a ViewInput. ``noisy``: now and then any value stands where a valid one would
    (an unknown name, a wrong type); else every part is well-formed, so the request reaches the
    compiler and the database with its edge values (one faulty part would stop it at the parser)."""

    def __init__(self, noisy: bool) -> None:
        self.noisy = noisy
        names = sorted(CRITERION_KEYS | ({"ContentId", "FieldCriterion", "MoreLikeThis"} if noisy else set()))
        # the criteria that carry numbers and bounds come up as often as all the others together
        leaves = (st.sampled_from(NUMERIC) | st.sampled_from(names)).flatmap(
            lambda name: self.usually(VALUES.get(name, words)).map(lambda value: {name: value})
        )
        self.criteria = st.recursive(
            leaves,
            lambda children: (
                st.lists(children, min_size=1, max_size=4).map(lambda parts: {"AND": _merged(parts)})
                | st.lists(children, min_size=1, max_size=4).map(
                    lambda parts: {"OR": [_one_key(part) for part in parts]}
                )
                | children.map(lambda child: {"NOT": _one_key(child)})
                | st.lists(children, min_size=1, max_size=3).map(_merged)
            ),
            max_leaves=12,
        )
        directions = self.usually(st.sampled_from(["ascending", "descending"]))
        field_sorts = st.fixed_dictionaries(
            {"direction": directions},
            optional={"identifier": st.sampled_from(["folder/name", "image/image", "user/first_name"])},
        ).map(lambda value: value if "identifier" in value else {**value, "identifier": "folder/name"})
        sort_clause = st.one_of(
            st.builds(lambda name, direction: {name: direction}, st.sampled_from(SORT_NAMES), directions),
            field_sorts.map(lambda value: {"Field": value}),
        )
        self.sort_clauses = st.one_of(
            st.lists(sort_clause, max_size=5),
            # many at once: past the bound, a 400 before any SQL is built
            st.builds(lambda clause, count: [clause] * count, sort_clause, st.sampled_from([17, 300, 2000])),
        )

    def usually(self, valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        """``valid``, or when noisy now and then any value at all."""
        return st.one_of(valid, valid, valid, listed(scalars)) if self.noisy else valid


INPUTS = {noisy: Inputs(noisy) for noisy in (False, True)}


@st.composite
def view_inputs(draw: st.DrawFn) -> tuple[dict[str, Any], str | None, int]:
    """A ViewInput body, the media type's version, and how many NOTs to wrap its Filter in."""
    inputs = INPUTS[draw(st.booleans())]
    query: dict[str, Any] = {}
    for key, strategy in (
        ("Filter", inputs.criteria),
        ("Query", inputs.criteria),
        ("SortClauses", inputs.sort_clauses),
        ("limit", inputs.usually(st.integers(0, 30))),
        ("offset", inputs.usually(st.integers(0, 30))),
    ):
        if draw(st.booleans()):
            query[key] = draw(strategy)
    kind, version = draw(
        st.sampled_from([("ContentQuery", "1.1"), ("LocationQuery", "1.1"), ("Query", None)])
    )
    body: dict[str, Any] = {"identifier": "fuzz", kind: query}
    if draw(st.booleans()):
        body["languageCode"] = draw(inputs.usually(st.sampled_from(["eng-GB", "ger-DE"])))
    depth = draw(st.sampled_from([0] * 16 + [1, 33, 1000]))
    return body, version, depth


PLACEHOLDER = "filter-goes-here"


def render(body: dict[str, Any], fmt: str, depth: int) -> str:
    """The body in ``fmt``; with ``depth``, its Filter wrapped in that many NOTs (written as text: no
    encoder nests a thousand levels)."""
    if depth:
        kind = next(key for key in body if key.endswith("Query"))
        body = {**body, kind: {**body[kind], "Filter": PLACEHOLDER}}
    # json, not orjson: integers past 64 bits are written as the digits a client would send
    text = json.dumps({"ViewInput": body}) if fmt == "json" else encode("ViewInput", body, fmt)
    if not depth:
        return text
    if fmt == "json":
        nested = '{"NOT":' * depth + '{"ContentIdCriterion": 1}' + "}" * depth
        return text.replace(f'"{PLACEHOLDER}"', nested)
    nested = "<NOT>" * depth + "<ContentIdCriterion>1</ContentIdCriterion>" + "</NOT>" * depth
    return text.replace(PLACEHOLDER, nested)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def view_api(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, template_sqlite: Path
) -> Iterator[Api]:
    """One app per database for the whole module (an app per example would cost seconds each)."""
    root = tmp_path_factory.mktemp("views")
    with _database(request, root, template_sqlite) as url:
        app = create_app(make_settings(url, root))
        with TestClient(app, base_url="http://testserver", raise_server_exceptions=False) as client:
            yield Api(client, check_schemas=False)  # random bodies probe "no 5xx", not the schemas


@contextmanager
def _database(request: pytest.FixtureRequest, root: Path, template: Path) -> Iterator[str]:
    if request.param == "sqlite":
        shutil.copy(template, root / "views.db")
        yield f"sqlite:///{root / 'views.db'}"
        return
    if not request.getfixturevalue("postgres_available"):
        pytest.skip("PostgreSQL not reachable (set PRESSROOM_TEST_REQUIRE_POSTGRES=1 to make this fail)")
    with scratch_postgres(POSTGRES_URL, "pressroom_test") as url:
        engine = make_engine(url)
        initialise(engine, "publish")
        engine.dispose()
        yield url


@pytest.mark.parametrize("fmt", ["json", "xml"])
@BOUNDED
@given(view=view_inputs(), anonymous=st.booleans())
def test_any_view_input_is_answered_without_a_5xx(
    view_api: Api, fmt: str, view: tuple[dict[str, Any], str | None, int], anonymous: bool
) -> None:
    body, version, depth = view
    api = Api(view_api.client, auth=None, check_schemas=False) if anonymous else view_api
    content_type = media("ViewInput", fmt) + (f"; version={version}" if version else "")
    response = api.post(
        "/views", body=render(body, fmt, depth), content_type=content_type, accept=media("View")
    )
    assert_answered(response)
