"""The only wiring module: settings -> engine, store, services, router -> the ASGI application."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from pressroom.config import Settings, settings_from_env
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.image_variation import set_max_pixels
from pressroom.logs import configure_logging
from pressroom.metrics import count_statements, metrics
from pressroom.rest.app import RestApp
from pressroom.rest.routes import build_router
from pressroom.services.auth import AuthService
from pressroom.services.bookmark import BookmarkService
from pressroom.services.container import Services
from pressroom.services.content import ContentService
from pressroom.services.content_type import ContentTypeService
from pressroom.services.content_type_group import ContentTypeGroupService
from pressroom.services.event_dispatch import Dispatcher, WebhookSender
from pressroom.services.events import EventService
from pressroom.services.field_definition import FieldDefinitionService
from pressroom.services.file import FileService
from pressroom.services.health import HealthService
from pressroom.services.image import ImageService
from pressroom.services.language import LanguageService, languages_to_install
from pressroom.services.location import LocationService
from pressroom.services.oauth import OAuthService
from pressroom.services.object_state import ObjectStateService
from pressroom.services.oidc import OidcService, Provider
from pressroom.services.permissions import Permissions
from pressroom.services.relation import RelationService
from pressroom.services.role import RoleService
from pressroom.services.role_assignment import RoleAssignmentService
from pressroom.services.search import SearchService
from pressroom.services.section import SectionService
from pressroom.services.trash import TrashService
from pressroom.services.url_alias import UrlAliasService, UrlWildcardService
from pressroom.services.user import UserService
from pressroom.services.user_group import UserGroupService
from pressroom.services.version import VersionService
from pressroom.storage.broker import EventPublisher, NatsPublisher
from pressroom.storage.files import LocalFileStore
from pressroom.storage.purge import XkeyPurger, parse_endpoints
from pressroom.storage.spi import Store
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.install import initialise, is_initialised, record_file_store, recorded_file_store
from pressroom.storage.sql.store import SqlStore

log = logging.getLogger("pressroom")


def open_file_store(settings: Settings) -> FileStore:
    """``PRESSROOM_FILE_STORE``: an ``s3://bucket/prefix?endpoint=...`` URL, or empty for the local
    directory ``PRESSROOM_FILE_ROOT``."""
    if settings.file_store.startswith("s3://"):
        try:
            from pressroom.storage.s3files import S3FileStore  # noqa: PLC0415 (an optional extra)
        except ImportError as missing:
            raise ValueError(
                "PRESSROOM_FILE_STORE is an s3:// URL but the S3 client is not installed: "
                "pip install 'pressroom[s3]'"
            ) from missing
        return S3FileStore(settings.file_store)
    if settings.file_store:
        raise ValueError(f"PRESSROOM_FILE_STORE '{settings.file_store}' is not an s3:// URL")
    return LocalFileStore(settings.file_root)


def file_store_location(settings: Settings) -> str:
    """Where ``settings`` put files: the s3:// URL, or the directory made absolute."""
    return settings.file_store or str(settings.file_root.resolve())


def with_file_store(settings: Settings, location: str) -> Settings:
    """``settings`` with files at ``location`` (an s3:// URL or a directory)."""
    if location.startswith("s3://"):
        return replace(settings, file_store=location)
    return replace(settings, file_store="", file_root=Path(location))


class FileStoreMismatch(Exception):
    """The file store named for a command is not the one the repository recorded."""


def repository_file_store(
    settings: Settings, engine: Engine, *, named: bool, force: bool = False, record: bool = False
) -> Settings:
    """``settings`` with the repository's own file store, the one recorded in its database.

    ``named``: the environment or an option names a store; it must be the recorded one (FileStoreMismatch
    otherwise) unless ``force``: the files have moved there, which is recorded. A repository with nothing
    recorded (made before the record was kept) uses the configured store, recorded when ``record``."""
    configured = file_store_location(settings)
    with engine.connect() as connection:
        recorded = recorded_file_store(connection)
    if recorded is not None and not named:
        return with_file_store(settings, recorded)
    if recorded is not None and _same_location(recorded, configured):
        return settings
    if recorded is not None and not force:
        raise FileStoreMismatch(
            f"this repository keeps its files in '{recorded}' (recorded in its database), but "
            f"PRESSROOM_FILE_ROOT, PRESSROOM_FILE_STORE or --file-store names '{configured}'. Leave them "
            "unset to use the recorded store, or add --force-file-store if the files have moved there "
            "(it is then recorded)"
        )
    if recorded is not None or record:  # moved by force, or a repository's first record
        with engine.begin() as connection:
            record_file_store(connection, configured)
        log.info("file store of the repository recorded: %s", configured, extra={"file_store": configured})
    return settings


def _same_location(recorded: str, configured: str) -> bool:
    if recorded.startswith("s3://") or configured.startswith("s3://"):
        return recorded == configured
    return Path(recorded).resolve() == Path(configured).resolve()


def build_services(settings: Settings, engine: Engine) -> Services:
    store = SqlStore(engine, settings.anonymous_user_id)
    files = open_file_store(settings)
    secret = settings.secret_key
    if not secret:
        with store.read() as tx:
            secret = tx.settings.get("secret_key") or ""
    if not secret:
        raise RuntimeError("No secret key: set PRESSROOM_SECRET_KEY or run `pressroom init`")
    permissions = Permissions(store)
    locations = LocationService(store, permissions, files)
    content = ContentService(store, permissions, files)
    auth = AuthService(
        store,
        permissions,
        secret_key=secret,
        previous_secret_keys=settings.previous_secret_keys,
        anonymous_user_id=settings.anonymous_user_id,
        session_ttl=settings.session_ttl_seconds,
        jwt_ttl=settings.jwt_ttl_seconds,
    )
    if settings.oidc_issuer:
        provider = Provider(
            settings.oidc_issuer, settings.oidc_audience, settings.oidc_login_claim,
            settings.oidc_create_users_in, settings.oidc_algorithms, settings.oidc_jwks_ttl,
            settings.oidc_jwks_refetch, settings.oidc_timeout_seconds,
        )  # fmt: skip
        auth.oidc = OidcService(provider, store, permissions, files, anonymous=auth.anonymous)
    return Services(
        permissions=permissions,
        auth=auth,
        sections=SectionService(store, permissions),
        languages=LanguageService(store),
        content_type_groups=ContentTypeGroupService(store, permissions),
        content_types=ContentTypeService(store, permissions),
        field_definitions=FieldDefinitionService(store, permissions),
        files=FileService(store, files, permissions),
        health=HealthService(store),
        images=ImageService(store, permissions, files, settings.image_variations),
        content=content,
        versions=VersionService(store, permissions, files),
        relations=RelationService(store, permissions),
        locations=locations,
        trash=TrashService(store, permissions, locations, files),
        object_states=ObjectStateService(store, permissions),
        bookmarks=BookmarkService(store, permissions),
        url_aliases=UrlAliasService(store, permissions),
        url_wildcards=UrlWildcardService(store, permissions),
        users=UserService(store, permissions, files),
        user_groups=UserGroupService(store, permissions, files, locations),
        roles=RoleService(store, permissions, settings.siteaccesses),
        role_assignments=RoleAssignmentService(store, permissions),
        search=SearchService(store, permissions, content.versions),
        events=EventService(
            store, permissions, allow_private=settings.webhook_allow_private, own_ports=own_ports(),
            sender=WebhookSender(
                settings.dialects[0].prefix, timeout=settings.webhook_timeout_seconds,
                allow_private=settings.webhook_allow_private, own_ports=own_ports(),
            ),
        ),
        oauth=OAuthService(
            store, secret_keys=(secret, *settings.previous_secret_keys),
            access_ttl=settings.oauth_access_ttl_seconds, refresh_ttl=settings.oauth_refresh_ttl_seconds,
            key_rotation=settings.oauth_key_rotation_seconds,
        ),
    )  # fmt: skip


def install(settings: Settings, engine: Engine, *, force: bool = False) -> None:
    """Schema and clean install, with the languages the settings name (``PRESSROOM_LANGUAGES``); the
    repository records the file store of ``settings`` as its own."""
    initialise(
        engine,
        settings.admin_password,
        force=force,
        languages=languages_to_install(settings.languages),
        file_store=file_store_location(settings),
    )


def create_app(settings: Settings | None = None, *, initialise_empty: bool = True) -> RestApp:
    """Build the application; an empty database gets the schema and the clean install first."""
    settings = settings or settings_from_env()
    count_statements()
    set_max_pixels(settings.max_image_pixels)
    engine = make_engine(settings.database_url, busy_timeout_ms=settings.sqlite_busy_timeout_ms)
    if initialise_empty and not is_initialised(engine):
        log.info("empty database: creating the schema and loading the clean install")
        install(settings, engine)
    return RestApp(settings, build_services(settings, engine), build_router(settings.auth_methods))


def asgi_from_env() -> RestApp | WithDispatcher:
    """Entry point for Granian workers (``pressroom.app:asgi_from_env``, factory mode)."""
    settings = settings_from_env()
    configure_logging(settings.log_format)
    app = create_app(settings, initialise_empty=False)
    metrics()  # its metric files exist from the start: /metrics finds every worker's process metrics
    settle_heap()
    if not settings.events_dispatch:
        return app
    dispatcher = make_dispatcher(settings, app.services.events.store)
    return WithDispatcher(app, dispatcher, sync_purge=settings.http_cache_sync_purge)


def make_dispatcher(settings: Settings, store: Store) -> Dispatcher:
    """The worker's event dispatcher (webhooks, NATS when ``PRESSROOM_EVENTS_NATS_URL`` is set, HTTP cache
    purges when ``PRESSROOM_HTTP_CACHE_PURGE`` is)."""
    source = settings.dialects[0].prefix
    publishers: list[EventPublisher] = []
    if settings.http_cache_purge:
        publishers.append(
            XkeyPurger(
                parse_endpoints(
                    settings.http_cache_purge, fastly_token=settings.fastly_api_token,
                    fastly_api_url=settings.fastly_api_url,
                ),
                soft=settings.http_cache_soft_purge,
                repeat_after=settings.http_cache_repurge_seconds,
            )
        )  # fmt: skip
    if settings.events_nats_url:
        publishers.append(
            NatsPublisher(
                settings.events_nats_url, settings.events_nats_stream, settings.events_nats_subject, source
            )
        )
    return Dispatcher(
        store, source=source, publishers=publishers, poll_seconds=settings.events_poll_seconds,
        retention_days=settings.events_retention_days, timeout=settings.webhook_timeout_seconds,
        allow_private=settings.webhook_allow_private, own_ports=own_ports(),
    )  # fmt: skip


def own_ports() -> frozenset[int]:
    """The port this server answers on (``serve`` passes it to its workers): webhooks may not point at it."""
    port = os.environ.get("PRESSROOM_PORT", "")
    return frozenset({int(port)}) if port.isdigit() else frozenset()


class WithDispatcher:
    """The application with the event dispatcher running beside it for the worker's lifetime. With
    ``sync_purge``, the answer to a write waits until the HTTP cache purged what the write committed.

    A read this worker computed before the write committed may still be on its way to the proxy when the
    purge arrives, and the proxy would then keep (and hand to readers waiting on that fetch) the old answer
    after the purge. So the write's answer also waits (at most :data:`READ_WAIT` seconds) for the reads in
    flight when it was about to answer, then sends its keys once more: after its answer, no read through the
    proxy shows what it replaced. Reads in other workers are left to the purge's repetition
    (``PRESSROOM_HTTP_CACHE_REPURGE_SECONDS``)."""

    def __init__(self, app: RestApp, dispatcher: Dispatcher, *, sync_purge: bool = False) -> None:
        self.app = app
        self.dispatcher = dispatcher
        self.purgers = [p for p in dispatcher.publishers if isinstance(p, XkeyPurger)]
        self.sync_purge = sync_purge
        self.reads: set[asyncio.Future[None]] = set()  # reads in flight (synchronous mode only)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.sync_purge and self.purgers:
            if scope["method"] in ("GET", "HEAD"):
                await self._read(scope, receive, send)
                return
            if scope["method"] != "OPTIONS":
                await self.app(scope, receive, self._purging(send, time.monotonic()))
                return
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        stop = asyncio.Event()
        task: asyncio.Task[None] | None = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await self.purge_now()  # a new purger's cursor starts before the first write
                task = asyncio.create_task(self.dispatcher.run(stop))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                stop.set()
                if task is not None:
                    await task
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _read(self, scope: Any, receive: Any, send: Any) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.reads.add(done)
        try:
            await self.app(scope, receive, send)
        finally:
            self.reads.discard(done)
            done.set_result(None)

    def _purging(self, send: Any, started: float) -> Any:
        async def purged_first(message: Any) -> None:
            if message["type"] == "http.response.start":
                under_way = set(self.reads)  # may have read what this write replaced
                await self.purge_now()
                if under_way:
                    await asyncio.wait(under_way, timeout=READ_WAIT)
                    for purger in self.purgers:
                        await purger.send_again(started)
            await send(message)

        return purged_first

    async def purge_now(self) -> None:
        """Purge every committed event not purged yet (a bounded number of batches); a proxy that does
        not answer leaves them to the dispatcher's loop, which retries until it does."""
        for purger in self.purgers:
            try:
                for _ in range(SYNC_PURGE_BATCHES):
                    if not await self.dispatcher.publish(purger):
                        break
            except Exception:
                log.warning("synchronous purge failed; the dispatcher retries", exc_info=True)


READ_WAIT = 1.0
SYNC_PURGE_BATCHES = 20


def settle_heap() -> None:
    """Move what start-up built (modules, routes, compiled statements: ~120k objects) out of the
    collector's reach. A full collection otherwise walks all of them again every few seconds under load,
    a pause of ~100 ms on a 2-core box that every request in flight waits for (the p99 of ``make bench``).
    Frozen objects are still freed by reference counting; only a cycle among them would stay."""
    gc.collect()
    gc.freeze()
