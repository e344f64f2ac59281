"""Session login, check, refresh and logout; JWT issue; the current user (spec/auth.md)."""

from __future__ import annotations

from pressroom.domain.errors import Unauthorized
from pressroom.domain.user import Session
from pressroom.rest.auth import clearing_cookie, csrf_token_matches, siteaccess_of
from pressroom.rest.input.registry import plain
from pressroom.rest.output.sessions import SessionView, Token
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Empty, NoContent, Redirect, WithHeaders


def _set_cookie(req: RestRequest, session: Session) -> str:
    secure = "; Secure" if req.secure_cookies else ""
    expires = session.expires_at.strftime("%a, %d %b %Y %H:%M:%S GMT")
    return (
        f"{req.cookie_name}={session.id}; Expires={expires}; Max-Age={req.settings.session_ttl_seconds}"
        f"; Path=/; HttpOnly; SameSite=Lax{secure}"
    )


def _gone(req: RestRequest) -> Empty:
    return Empty(404, {"set-cookie": clearing_cookie(req.cookie_name, req.secure_cookies)})


def create_session(req: RestRequest) -> WithHeaders | Empty:
    node = req.input(plain)
    login, password = node.string("login"), node.string("password")
    current = req.session
    if current is not None:
        if req.user.login.lower() == login.lower():
            return WithHeaders(SessionView(current, req.cookie_name, current.csrf_token))
        if not req.user.is_anonymous:
            return Empty(409)
    siteaccess = siteaccess_of(req.headers, req.settings)
    user = req.services.auth.check_password(login, password, req.client, siteaccess=siteaccess)
    session = req.services.auth.start_session(user, replaces=current)
    return WithHeaders(
        SessionView(session, req.cookie_name, session.csrf_token),
        status=201,
        headers={"location": req.url("session.delete", sessionId=session.id)},
        cookies=(_set_cookie(req, session),),
    )


def current_session(req: RestRequest) -> SessionView | Empty:
    if req.session is None:
        return _gone(req)
    return SessionView(req.session, req.cookie_name, req.session.csrf_token)


def _own_session(req: RestRequest, sessionId: str) -> Session | None:
    session = req.session
    if session is None or session.id != sessionId:
        return None
    if not csrf_token_matches(req.headers.get("x-csrf-token"), session):
        raise Unauthorized("Missing or invalid CSRF token")
    return session


def refresh_session(req: RestRequest, sessionId: str) -> SessionView | Empty:
    session = _own_session(req, sessionId)
    if session is None:
        return _gone(req)
    return SessionView(session, req.cookie_name, session.csrf_token)


def delete_session(req: RestRequest, sessionId: str) -> NoContent | Empty:
    session = _own_session(req, sessionId)
    if session is None:
        return _gone(req)
    req.services.auth.end_session(req.user, session.id)
    return NoContent({"set-cookie": clearing_cookie(req.cookie_name, req.secure_cookies)})


def create_token(req: RestRequest) -> Token:
    node = req.input(plain)
    siteaccess = siteaccess_of(req.headers, req.settings)
    login, password = node.string("username"), node.string("password")
    user = req.services.auth.check_password(login, password, req.client, siteaccess=siteaccess)
    return Token(req.services.auth.issue_token(user))


def current_user(req: RestRequest) -> Redirect:
    if req.user.is_anonymous:
        raise Unauthorized("Not logged in.")
    return Redirect(req.url("user.load", userId=req.user.id))
