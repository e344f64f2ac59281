"""``User.serving`` is ``dataclasses.replace(user, request=...)`` without its cost: every field kept."""

from __future__ import annotations

from dataclasses import fields, replace

from pressroom.domain.caller import RequestCaller
from pressroom.domain.user import User


def test_serving_keeps_every_field_and_sets_the_request() -> None:
    earlier = RequestCaller(7)
    # A value for each field, none of them the default: a field added to User fails here until serving
    # copies it.
    values = {"id": 7, "login": "anna", "email": "anna@example.com", "enabled": False, "is_anonymous": True}
    user = User(**values, request=earlier)
    request = RequestCaller(7)
    serving = user.serving(request)
    assert serving.request is request
    assert user.request is earlier
    assert {field.name for field in fields(User)} == {*values, "request"}
    for name, value in values.items():
        assert getattr(serving, name) == getattr(replace(user, request=request), name) == value
