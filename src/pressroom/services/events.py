"""The event feed and webhook subscriptions: who may read which events, and managing where they go.

Reading: anonymous never; a caller with ``setup/administrate`` reads every event, anyone else the events
about content it may read now (the read filter of lists and searches, applied to the event's item).
Managing webhooks takes ``setup/administrate``.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from pressroom.domain.caller import RequestCaller
from pressroom.domain.errors import InvalidArgument, Unauthorized
from pressroom.domain.event import (
    EVENT_TYPES,
    TYPE_PREFIX,
    Cursor,
    Delivery,
    Event,
    Webhook,
    WebhookInput,
    check_secret,
    new_secret,
)
from pressroom.domain.read_scope import UNRESTRICTED, ReadScope
from pressroom.domain.user import User
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store

MAX_FEED_PAGE = 1000
MAX_URL_LENGTH = 2000


def _may_administrate(permissions: Permissions, user: User) -> bool:
    return permissions.can(user, "setup", "administrate")


def resolved_addresses(host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        found = socket.getaddrinfo(host, None)
        return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]
    except (OSError, ValueError):
        return []


def refusal(url: str, *, allow_private: bool, own_ports: frozenset[int] = frozenset()) -> str | None:
    """Why a webhook may not be sent to ``url`` (None: it may). Checked on save and before each delivery,
    since a name can come to resolve elsewhere."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        return "the URL must be http:// or https:// with a host"
    if parts.username or parts.password:
        return "the URL must not carry credentials"
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return "the URL's port is not a number from 0 to 65535"
    addresses = resolved_addresses(parts.hostname)
    if not addresses:
        return f"the host '{parts.hostname}' does not resolve"
    for address in addresses:
        local = address.is_loopback or address.is_unspecified
        if local and port in own_ports:
            return "the URL points at this server itself"
        private = local or address.is_private or address.is_link_local or address.is_reserved
        if (private or address.is_multicast) and not allow_private:
            return f"the URL resolves to a private address ({address}); see PRESSROOM_WEBHOOK_ALLOW_PRIVATE"
    return None


def _request_of(user: User | None) -> RequestCaller | None:
    """The request ``user`` calls in (None for the command line, which passes no user)."""
    return None if user is None else user.request


class EventService:
    def __init__(
        self, store: Store, permissions: Permissions, *, allow_private: bool = False,
        own_ports: frozenset[int] = frozenset(), sender: Callable[[Webhook, Event], Any] | None = None,
    ) -> None:  # fmt: skip
        self.store = store
        self.permissions = permissions
        self.allow_private = allow_private
        self.own_ports = own_ports
        self.sender = sender  # sends one event to one subscription now (the test delivery)

    # -- the feed -------------------------------------------------------------------------------------------
    def feed(self, user: User, after: str | None, limit: int) -> tuple[list[Event], Cursor]:
        """Events after the cursor (from the start when None), at most ``limit``, and the cursor to go on
        from (past events the caller may not see, so that it does not read them again)."""
        if user.is_anonymous:
            raise Unauthorized("The events feed needs a logged-in user")
        try:
            cursor = Cursor.decode(after) if after else Cursor()
        except ValueError as error:
            raise InvalidArgument(f"after: {error}") from None
        if not 1 <= limit <= MAX_FEED_PAGE:
            raise InvalidArgument(f"limit: must be from 1 to {MAX_FEED_PAGE}")
        with self.store.read(caller=user.request) as tx:
            readable: ReadScope = (
                UNRESTRICTED
                if _may_administrate(self.permissions, user)
                else self.permissions.read_criterion(user, tx)
            )
            # Read the unfiltered page to know how far the filtered one reaches.
            page = tx.events.read(cursor, limit, UNRESTRICTED)
            if not page:
                return [], cursor
            visible = page if readable is UNRESTRICTED else tx.events.read(cursor, limit, readable)
            last = page[-1].cursor
        return [event for event in visible if (event.tx, event.id) <= (last.tx, last.id)], last

    # -- subscriptions --------------------------------------------------------------------------------------
    def _require(self, user: User | None) -> None:
        """``setup/administrate``; None is the operator at the command line, who holds the database."""
        if user is not None and not _may_administrate(self.permissions, user):
            raise Unauthorized("The User does not have the 'administrate' 'setup' permission")

    def _check(self, struct: WebhookInput, *, creating: bool) -> None:
        """Every field of the input, the URL last (it resolves the host name)."""
        for event_type in struct.event_types or ():
            family = event_type.endswith(".*") and any(t.startswith(event_type[:-1]) for t in EVENT_TYPES)
            if event_type not in EVENT_TYPES and not family:
                raise InvalidArgument(f"eventTypes: unknown event type '{event_type}'")
        if struct.subtree and not (struct.subtree.startswith("/") and struct.subtree.endswith("/")):
            raise InvalidArgument("subtree: a location path string such as /1/2/")
        if struct.secret is not None:
            try:
                check_secret(struct.secret)
            except ValueError as error:
                raise InvalidArgument(f"secret: {error}") from None
        if creating and not struct.url:
            raise InvalidArgument("url: a webhook needs a URL")
        if struct.url is not None:
            if len(struct.url) > MAX_URL_LENGTH:
                raise InvalidArgument(f"url: at most {MAX_URL_LENGTH} characters")
            why = refusal(struct.url, allow_private=self.allow_private, own_ports=self.own_ports)
            if why:
                raise InvalidArgument(f"url: {why}")

    def create(self, user: User | None, struct: WebhookInput) -> Webhook:
        """A new subscription; its secret is generated unless given (shown in this answer only)."""
        self._require(user)
        self._check(struct, creating=True)
        with self.store.write(caller=_request_of(user)) as tx:
            return tx.webhooks.create(struct, struct.secret or new_secret(), int(time.time()))

    def subscriptions(self, user: User | None) -> list[Webhook]:
        self._require(user)
        with self.store.read(caller=_request_of(user)) as tx:
            return tx.webhooks.subscriptions()

    def get(self, user: User | None, webhook_id: int) -> Webhook:
        self._require(user)
        with self.store.read(caller=_request_of(user)) as tx:
            return tx.webhooks.get(webhook_id)

    def update(self, user: User | None, webhook_id: int, struct: WebhookInput) -> Webhook:
        self._require(user)
        self._check(struct, creating=False)
        with self.store.write(caller=_request_of(user)) as tx:
            return tx.webhooks.update(webhook_id, struct)

    def delete(self, user: User | None, webhook_id: int) -> None:
        self._require(user)
        with self.store.write(caller=_request_of(user)) as tx:
            tx.webhooks.delete(webhook_id)

    def deliveries(
        self, user: User | None, webhook_id: int, limit: int = 50, offset: int = 0
    ) -> list[Delivery]:
        self._require(user)
        with self.store.read(caller=_request_of(user)) as tx:
            tx.webhooks.get(webhook_id)
            return tx.webhooks.deliveries(webhook_id, limit, offset)

    def test(self, user: User | None, webhook_id: int) -> Any:
        """Send a ``pressroom.webhook.test`` event to the subscription now (not through the log) and
        return the outcome (``ok``, ``status``, ``error``)."""
        webhook = self.get(user, webhook_id)
        if self.sender is None:
            raise InvalidArgument("Test deliveries are not available here")
        now = time.time()
        sender = user.id if user is not None else None
        ping = Event(0, 0, TYPE_PREFIX + "webhook.test", now, sender, None, f"webhook/{webhook_id}", {})
        return self.sender(webhook, ping)

    def replay(self, user: User | None, webhook_id: int, delivery_id: int) -> Delivery:
        self._require(user)
        with self.store.write(caller=_request_of(user)) as tx:
            return tx.webhooks.replay(webhook_id, delivery_id, time.time())
