"""JSON Schemas of the main request and answer bodies, for the OpenAPI document, with an example per input.

Each input schema follows what its parser reads through the ``Node`` getters (rest/input/node.py): a
string element also takes a number, an integer also a numeric string, a boolean also ``"true"`` /
``"false"``, an optional element may be null; a reference is ``{"_href": ...}``, a repeated element one
item or a list. Each output schema lists what its visitor (rest/output/*.py) writes. They are declared by
hand, not derived from the parsers, so tests hold them to the code: every JSON body the functional tests
send and the server accepts must validate against its input schema, every JSON answer of a declared type
against its output schema (tests/helpers.py ``Api``), and every example is sent to a live server.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

STRING: Schema = {"type": ["string", "number"]}
INTEGER: Schema = {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^\\s*[-+]?[0-9]+\\s*$"}]}
BOOLEAN: Schema = {
    "anyOf": [
        {"type": "boolean"},
        {"type": "string", "pattern": "^\\s*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])\\s*$"},
    ]
}
HREF: Schema = {
    "type": "object",
    "required": ["_href"],
    "properties": {"_href": {"type": "string", "minLength": 1}},
}
ANY: Schema = {}


def optional(schema: Schema) -> Schema:
    """An optional element: absent, null or empty is the same as absent."""
    return {"anyOf": [schema, {"type": "null"}, {"const": ""}]}


def repeated(item: Schema) -> Schema:
    """A repeated element: XML gives one item where it appears once, so JSON may too."""
    return {"anyOf": [item, {"type": "array", "items": item}]}


def obj(required: dict[str, Schema], optional_keys: dict[str, Schema] | None = None) -> Schema:
    """An object with ``required`` and optional keys (optional ones may be null); others are ignored."""
    properties = dict(required)
    properties.update({key: optional(schema) for key, schema in (optional_keys or {}).items()})
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


TRANSLATED: Schema = obj(
    {},
    {"value": repeated(obj({"_languageCode": STRING}, {"#text": STRING}))},
)
FIELDS: Schema = obj(
    {},
    {
        "field": repeated(
            obj({"fieldDefinitionIdentifier": STRING, "fieldValue": ANY}, {"languageCode": STRING})
        )
    },
)
DATE: Schema = {"type": ["string", "integer"]}
SORT_FIELD: Schema = {"type": "string"}
_LOCATION_KEYS: dict[str, Schema] = {
    "priority": INTEGER,
    "hidden": BOOLEAN,
    "remoteId": STRING,
    "sortField": SORT_FIELD,
    "sortOrder": SORT_FIELD,
}
LOCATION_CREATE: Schema = obj({"ParentLocation": HREF}, _LOCATION_KEYS)
_FIELD_DEFINITION_KEYS: dict[str, Schema] = {
    "identifier": STRING,
    "fieldType": STRING,
    "fieldGroup": STRING,
    "position": INTEGER,
    "isTranslatable": BOOLEAN,
    "isRequired": BOOLEAN,
    "isInfoCollector": BOOLEAN,
    "isSearchable": BOOLEAN,
    "isThumbnail": BOOLEAN,
    "defaultValue": ANY,
    "names": TRANSLATED,
    "descriptions": TRANSLATED,
    "fieldSettings": {"type": "object"},
    "validatorConfiguration": {"type": "object"},
}
_CONTENT_TYPE_KEYS: dict[str, Schema] = {
    "remoteId": STRING,
    "names": TRANSLATED,
    "descriptions": TRANSLATED,
    "urlAliasSchema": STRING,
    "nameSchema": STRING,
    "isContainer": BOOLEAN,
    "mainLanguageCode": STRING,
    "defaultAlwaysAvailable": BOOLEAN,
    "defaultSortField": STRING,
    "defaultSortOrder": STRING,
    "modificationDate": DATE,
}
_CONTENT_PARTS: dict[str, Schema] = {"Section": HREF, "remoteId": STRING}
_LIMITATION: Schema = obj(
    {"_identifier": {"type": "string", "minLength": 1}, "values": obj({"ref": repeated(HREF)})}
)
# Criteria, sort clauses and aggregations are read by their own parsers (rest/input/criteria.py,
# aggregations.py, view.py), which answer 400 naming what they cannot read: described, not constrained.
_CRITERIA: Schema = {"description": 'Criteria, e.g. {"ContentTypeIdentifierCriterion": "folder"} (search.md)'}
_QUERY: Schema = obj(
    {},
    {
        "Filter": _CRITERIA,
        "Criteria": _CRITERIA,
        "Query": _CRITERIA,
        "limit": INTEGER,
        "offset": INTEGER,
        "SortClauses": {"description": 'Sort clauses, e.g. {"ContentName": "ascending"}, or a list of them'},
        "Aggregations": {"description": "Aggregations (search.md)"},
        "FacetBuilders": {"description": "Accepted and ignored, as the reference does"},
    },
)

# Input media type -> (the schema of its root element's value, an example the server accepts); the
# examples' hrefs are under EXAMPLE_PREFIX, which the document replaces by each dialect's prefix.
EXAMPLE_PREFIX = "/api/ibexa/v2"
_CONTENT_TYPE = "/api/ibexa/v2/content/types/1"
INPUTS: dict[str, tuple[Schema, Any]] = {
    "ContentCreate": (
        obj(
            {"ContentType": HREF, "mainLanguageCode": STRING},
            {
                "LocationCreate": repeated(LOCATION_CREATE),
                "Section": HREF,
                "User": HREF,
                "Owner": HREF,
                "remoteId": STRING,
                "alwaysAvailable": BOOLEAN,
                "modificationDate": DATE,
                "fields": FIELDS,
            },
        ),
        {
            "ContentType": {"_href": _CONTENT_TYPE},
            "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
            "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "News"}]},
        },
    ),
    "ContentUpdate": (
        obj(
            {},
            {
                "mainLanguageCode": STRING,
                "Section": HREF,
                "MainLocation": HREF,
                "Owner": HREF,
                "alwaysAvailable": BOOLEAN,
                "remoteId": STRING,
                "modificationDate": DATE,
                "publishDate": DATE,
                "publishedDate": DATE,
            },
        ),
        {"alwaysAvailable": True, "Section": {"_href": "/api/ibexa/v2/content/sections/1"}},
    ),
    "VersionUpdate": (
        obj({}, {"fields": FIELDS, "initialLanguageCode": STRING, "modificationDate": DATE}),
        {"fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "Renamed"}]}},
    ),
    "LocationCreate": (
        LOCATION_CREATE,
        {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43"}},
    ),
    "LocationUpdate": (obj({}, _LOCATION_KEYS), {"priority": 3, "sortField": "NAME", "sortOrder": "ASC"}),
    "ContentTypeCreate": (
        obj(
            {"identifier": STRING},
            {
                **_CONTENT_TYPE_KEYS,
                "FieldDefinitions": obj({}, {"FieldDefinition": repeated(obj({}, _FIELD_DEFINITION_KEYS))}),
            },
        ),
        {
            "identifier": "blog_post",
            "mainLanguageCode": "eng-GB",
            "names": {"value": [{"_languageCode": "eng-GB", "#text": "Blog post"}]},
            "nameSchema": "<title>",
            "FieldDefinitions": {
                "FieldDefinition": [
                    {
                        "identifier": "title",
                        "fieldType": "ezstring",
                        "position": 1,
                        "isRequired": True,
                        "names": {"value": [{"_languageCode": "eng-GB", "#text": "Title"}]},
                    }
                ]
            },
        },
    ),
    "ContentTypeUpdate": (
        obj({}, {"identifier": STRING, **_CONTENT_TYPE_KEYS}),
        {"names": {"value": [{"_languageCode": "eng-GB", "#text": "Folder"}]}, "isContainer": True},
    ),
    "FieldDefinitionCreate": (
        obj({}, _FIELD_DEFINITION_KEYS),
        {
            "identifier": "subtitle",
            "fieldType": "ezstring",
            "position": 9,
            "names": {"value": [{"_languageCode": "eng-GB", "#text": "Subtitle"}]},
        },
    ),
    "FieldDefinitionUpdate": (obj({}, _FIELD_DEFINITION_KEYS), {"position": 2, "isSearchable": True}),
    "UserCreate": (
        obj(
            {
                "mainLanguageCode": STRING,
                "login": STRING,
                "email": STRING,
                "password": STRING,
                "fields": FIELDS,
            },
            {**_CONTENT_PARTS, "enabled": BOOLEAN, "maxLogin": INTEGER, "ContentType": HREF},
        ),
        {
            "mainLanguageCode": "eng-GB",
            "login": "jane",
            "email": "jane@example.com",
            "password": "Correct-Horse-9",
            "fields": {
                "field": [
                    {"fieldDefinitionIdentifier": "first_name", "fieldValue": "Jane"},
                    {"fieldDefinitionIdentifier": "last_name", "fieldValue": "Doe"},
                ]
            },
        },
    ),
    "UserUpdate": (
        obj(
            {},
            {
                **_CONTENT_PARTS,
                "email": STRING,
                "password": STRING,
                "enabled": BOOLEAN,
                "maxLogin": INTEGER,
                "mainLanguageCode": STRING,
                "fields": FIELDS,
            },
        ),
        {"email": "admin@example.com", "enabled": True},
    ),
    "RoleInput": (obj({}, {"identifier": STRING}), {"identifier": "Reviewer"}),
    "PolicyCreate": (
        obj(
            {"module": STRING, "function": STRING},
            {"limitations": obj({}, {"limitation": repeated(_LIMITATION)})},
        ),
        {
            "module": "content",
            "function": "read",
            "limitations": {"limitation": [{"_identifier": "Section", "values": {"ref": [{"_href": "1"}]}}]},
        },
    ),
    "RoleAssignInput": (
        obj({"Role": HREF}, {"limitation": repeated(_LIMITATION)}),
        {
            "Role": {"_href": "/api/ibexa/v2/user/roles/1"},
            "limitation": {
                "_identifier": "Section",
                "values": {"ref": [{"_href": "/api/ibexa/v2/content/sections/1"}]},
            },
        },
    ),
    "ViewInput": (
        obj(
            {"identifier": STRING},
            {
                "languageCode": STRING,
                "useAlwaysAvailable": BOOLEAN,
                "Query": _QUERY,
                "ContentQuery": _QUERY,
                "LocationQuery": _QUERY,
            },
        ),
        {
            "identifier": "folders",
            "ContentQuery": {
                "Filter": {"ContentTypeIdentifierCriterion": "folder"},
                "limit": 10,
                "offset": 0,
                "SortClauses": {"ContentName": "ascending"},
            },
        },
    ),
    "SessionInput": (obj({"login": STRING, "password": STRING}), {"login": "admin", "password": "publish"}),
    "JWTInput": (obj({"username": STRING, "password": STRING}), {"username": "admin", "password": "publish"}),
}

# -- outputs ---------------------------------------------------------------------------------------------
TEXT: Schema = {"type": "string"}
NUMBER: Schema = {"type": "integer"}
FLAG: Schema = {"type": "boolean"}
TIME: Schema = {"type": "string", "format": "date-time"}
REF: Schema = {
    "type": "object",
    "required": ["_media-type", "_href"],
    "properties": {"_media-type": TEXT, "_href": TEXT},
}
NAMES: Schema = {
    "type": "object",
    "required": ["value"],
    "properties": {
        "value": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["_languageCode", "#text"],
                "properties": {"_languageCode": TEXT, "#text": TEXT},
            },
        }
    },
}


def shape(required: dict[str, Schema], optional_keys: dict[str, Schema] | None = None) -> Schema:
    """What a visitor writes: the keys it always writes, those it writes at times, and nothing else."""
    return {
        "type": "object",
        "required": list(required),
        "properties": {**required, **(optional_keys or {})},
        "additionalProperties": False,
    }


def representation(required: dict[str, Schema], optional_keys: dict[str, Schema] | None = None) -> Schema:
    return shape({"_media-type": TEXT, "_href": TEXT, **required}, optional_keys)


VERSION_INFO: Schema = shape(
    {
        "id": NUMBER,
        "versionNo": NUMBER,
        "status": TEXT,
        "modificationDate": TIME,
        "Creator": REF,
        "creationDate": TIME,
        "initialLanguageCode": TEXT,
        "languageCodes": TEXT,
        "names": NAMES,
        "Content": REF,
    },
    {"VersionTranslationInfo": {"type": "object"}},
)
FIELD: Schema = shape(
    {
        "id": NUMBER,
        "fieldDefinitionIdentifier": TEXT,
        "languageCode": TEXT,
        "fieldTypeIdentifier": TEXT,
        "fieldValue": ANY,
    }
)
VERSION: Schema = representation(
    {
        "VersionInfo": VERSION_INFO,
        "Fields": shape({"field": {"type": "array", "items": FIELD}}),
        "Relations": {"type": "object", "required": ["_media-type", "_href", "Relation"]},
        "Thumbnail": {"type": "object", "required": ["_media-type", "resource", "mimeType"]},
    }
)
CONTENT: Schema = representation(
    {
        "_remoteId": TEXT,
        "_id": NUMBER,
        "ContentType": REF,
        "Name": TEXT,
        "TranslatedName": TEXT,
        "Versions": REF,
        "CurrentVersion": {**REF, "properties": {**REF["properties"], "Version": VERSION}},
        "Section": REF,
        "Locations": REF,
        "Owner": REF,
        "lastModificationDate": TIME,
        "mainLanguageCode": TEXT,
        "currentVersionNo": NUMBER,
        "alwaysAvailable": FLAG,
        "isHidden": FLAG,
        "status": TEXT,
        "ObjectStates": REF,
    },
    {"MainLocation": REF, "publishedDate": TIME},
)
LOCATION: Schema = representation(
    {
        "id": NUMBER,
        "priority": NUMBER,
        "hidden": FLAG,
        "invisible": FLAG,
        "explicitlyHidden": FLAG,
        "pathString": TEXT,
        "depth": NUMBER,
        "childCount": NUMBER,
        "remoteId": TEXT,
        "Children": REF,
        "sortField": TEXT,
        "sortOrder": TEXT,
        "UrlAliases": REF,
        # the top location's parent is itself: no _href
        "ParentLocation": shape({"_media-type": TEXT}, {"_href": TEXT}),
    },
    {
        "Content": REF,  # not on the virtual root location, which has no content
        "ContentInfo": shape({"_media-type": TEXT, "_href": TEXT, "Content": CONTENT}),
    },
)
CONTENT_TYPE: Schema = representation(
    {
        "id": NUMBER,
        "status": TEXT,
        "identifier": TEXT,
        "names": NAMES,
        "descriptions": NAMES,
        "creationDate": TIME,
        "modificationDate": TIME,
        "Creator": REF,
        "Modifier": REF,
        "Groups": REF,
        "remoteId": TEXT,
        "urlAliasSchema": TEXT,
        "nameSchema": TEXT,
        "isContainer": FLAG,
        "mainLanguageCode": TEXT,
        "defaultAlwaysAvailable": FLAG,
        "defaultSortField": TEXT,
        "defaultSortOrder": TEXT,
        "FieldDefinitions": {**REF, "required": ["_media-type", "_href", "FieldDefinition"]},
    },
    {"Draft": REF},
)
USER: Schema = representation(
    {
        "_id": NUMBER,
        "_remoteId": TEXT,
        "ContentType": REF,
        "name": TEXT,
        "Versions": REF,
        "Section": REF,
        "Locations": REF,
        "Groups": REF,
        "Owner": REF,
        "lastModificationDate": TIME,
        "mainLanguageCode": TEXT,
        "alwaysAvailable": FLAG,
        "Version": VERSION,
        "login": TEXT,
        "email": TEXT,
        "enabled": FLAG,
        "UserGroups": REF,
        "Roles": REF,
    },
    {"MainLocation": REF, "publishDate": TIME},
)
ROLE: Schema = representation({"identifier": TEXT, "Policies": REF})
VIEW: Schema = representation(
    {
        "identifier": TEXT,
        "Query": {"type": "object", "required": ["_media-type"]},
        "Result": representation(
            {
                "count": NUMBER,
                "time": {"type": "number"},
                "timedOut": FLAG,
                "maxScore": {"type": ["number", "null"]},
                "searchHits": shape({"searchHit": {"type": "array", "items": {"type": "object"}}}),
                "aggregations": {"type": "array"},
            }
        ),
    }
)
ERROR_MESSAGE: Schema = shape(
    {"_media-type": TEXT, "errorCode": NUMBER, "errorMessage": TEXT, "errorDescription": TEXT},
    {"errorDetails": {"type": "object"}},
)

# Output media type -> the schema of its root element's value.
OUTPUTS: dict[str, Schema] = {
    "Content": CONTENT,
    "ContentInfo": CONTENT,
    "Version": VERSION,
    "Location": LOCATION,
    "ContentType": CONTENT_TYPE,
    "User": USER,
    "Role": ROLE,
    "View": VIEW,
    "ErrorMessage": ERROR_MESSAGE,
}
