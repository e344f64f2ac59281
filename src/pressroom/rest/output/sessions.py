"""Visitors for sessions and JWTs."""

from __future__ import annotations

from dataclasses import dataclass

from pressroom.domain.user import Session
from pressroom.rest.output.content import user_ref
from pressroom.rest.output.visitor import Out, Representation, visits


@dataclass(frozen=True, slots=True)
class SessionView:
    session: Session
    cookie_name: str
    csrf_token: str


@dataclass(frozen=True, slots=True)
class Token:
    token: str


@visits(SessionView, "Session")
def visit_session(out: Out, value: SessionView) -> Representation:
    body = {
        "_media-type": out.media("Session"),
        "_href": out.url("session.delete", sessionId=value.session.id),
        "name": value.cookie_name,
        "identifier": value.session.id,
        "csrfToken": value.csrf_token,
        "User": user_ref(out, value.session.user_id),
    }
    return Representation("Session", "Session", body)


@visits(Token, "JWT")
def visit_token(out: Out, value: Token) -> Representation:
    body = {"_media-type": out.media("JWT"), "_token": value.token, "token": value.token}
    return Representation("JWT", "JWT", body)
