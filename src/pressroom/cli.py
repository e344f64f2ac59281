"""``pressroom serve | init | add-language | export | import``."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
from alembic.util.exc import CommandError
from sqlalchemy import Engine

from pressroom import __version__
from pressroom.app import (
    FileStoreMismatch,
    build_services,
    file_store_location,
    install,
    open_file_store,
    repository_file_store,
    with_file_store,
)
from pressroom.config import Settings, comma_list, settings_from_env
from pressroom.domain.errors import PressroomError
from pressroom.domain.event import Webhook, WebhookInput
from pressroom.domain.oauth import OAuthClient
from pressroom.logs import configure_logging
from pressroom.progress import Progress, for_stream
from pressroom.services.events import EventService
from pressroom.services.integrity import DEFAULT_GRACE_SECONDS, IntegrityService
from pressroom.services.language import LanguageService
from pressroom.storage.sql.archive import ArchiveError, export_repository, import_repository
from pressroom.storage.sql.archive_check import DEFAULT_LIMITS
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.install import DatabaseNotEmpty, is_initialised
from pressroom.storage.sql.migrate import current, head, upgrade
from pressroom.storage.sql.store import SqlStore

log = logging.getLogger("pressroom.serve")


def _init(args: argparse.Namespace) -> int:
    settings, _ = _configured(args)
    settings = settings.with_overrides(languages=comma_list(args.languages) if args.languages else None)
    engine = make_engine(settings.database_url)
    if is_initialised(engine) and not args.force:
        print("The database is already initialised; nothing to do (use --force to wipe and reinstall).")
        return 0
    try:
        install(settings, engine, force=args.force)
    except DatabaseNotEmpty as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print("Database initialised with the clean install.")
    return 0


class NotInitialised(Exception):
    """The command needs a database that holds a repository."""


def _installed(args: argparse.Namespace) -> tuple[Settings, Engine]:
    """The settings and engine of ``--database-url`` (or the environment's), which must hold a repository."""
    settings = settings_from_env().with_overrides(database_url=args.database_url)
    engine = make_engine(settings.database_url)
    if not is_initialised(engine):
        raise NotInitialised("the database is not initialised; run `pressroom init` first")
    return settings, engine


def _configured(args: argparse.Namespace) -> tuple[Settings, bool]:
    """The settings of the environment with ``--database-url`` and ``--file-store`` applied, and whether a
    file store was named at all (by that option, PRESSROOM_FILE_STORE or PRESSROOM_FILE_ROOT) rather than
    left to the repository's record."""
    settings = settings_from_env().with_overrides(database_url=args.database_url)
    option = getattr(args, "file_store", None)
    if option:
        return with_file_store(settings, option), True
    return settings, bool(os.environ.get("PRESSROOM_FILE_STORE") or os.environ.get("PRESSROOM_FILE_ROOT"))


def _with_files(args: argparse.Namespace, *, record: bool = False) -> tuple[Settings, Engine]:
    """:func:`_installed`, with the file store the repository recorded (``record``: record the one
    configured when there is no record yet)."""
    _, engine = _installed(args)
    settings, named = _configured(args)
    force = getattr(args, "force_file_store", False)
    return repository_file_store(settings, engine, named=named, force=force, record=record), engine


def _add_language(args: argparse.Namespace) -> int:
    settings, engine = _installed(args)
    language = LanguageService(SqlStore(engine, settings.anonymous_user_id)).add(args.code, args.name)
    print(f"Language {language.language_code} '{language.name}' installed with id {language.id}.")
    return 0


def _export(args: argparse.Namespace) -> int:
    settings, engine = _with_files(args)
    files = open_file_store(settings)
    manifest = export_repository(engine, files, Path(args.file), progress=_progress(settings))
    rows, tables = sum(manifest["tables"].values()), len(manifest["tables"])
    print(f"Exported {rows} rows of {tables} tables and {manifest['files']} files to {args.file}.")
    return 0


def _import(args: argparse.Namespace) -> int:
    settings, named = _configured(args)
    engine = make_engine(settings.database_url)
    if args.force and is_initialised(engine):  # a repository replaced: its files stay where they were
        settings = repository_file_store(settings, engine, named=named, force=args.force_file_store)
    # No stored file is larger than an upload's body could carry.
    limits = replace(DEFAULT_LIMITS, max_file_bytes=settings.max_body_bytes)
    if args.max_bytes is not None:
        limits = replace(limits, max_total_bytes=args.max_bytes, max_table_bytes=args.max_bytes)
    try:
        manifest = import_repository(
            engine,
            open_file_store(settings),
            Path(args.file),
            force=args.force,
            progress=_progress(settings),
            limits=limits,
            file_store=file_store_location(settings),
        )
    except (ArchiveError, DatabaseNotEmpty, OSError, zipfile.BadZipFile) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    rows = sum(manifest["tables"].values())
    print(f"Imported {rows} rows and {manifest['files']} files from {args.file}.")
    return 0


def _progress(settings: Settings) -> Progress:
    """Bars on a terminal, else a log line every PRESSROOM_PROGRESS_INTERVAL seconds."""
    return for_stream(sys.stderr.isatty(), settings.progress_interval_seconds)


def _integrity(args: argparse.Namespace) -> IntegrityService:
    settings, engine = _with_files(args)
    return IntegrityService(SqlStore(engine, settings.anonymous_user_id), open_file_store(settings))


def _check(args: argparse.Namespace) -> int:
    report = _integrity(args).check()
    if args.json:
        print(orjson.dumps(report.summary(), option=orjson.OPT_INDENT_2).decode())
        return 0 if report.ok else 1
    for problem in report.problems[: args.limit]:
        print(f"{problem.kind}: {problem.message}")
    if len(report.problems) > args.limit:
        print(f"... {len(report.problems) - args.limit} more, by kind:")
        for kind, count in report.counts().items():
            print(f"  {kind}: {count}")
    checked = ", ".join(f"{count} {what}" for what, count in report.checked)
    if report.ok:
        print(f"Checked {checked}: no problems.")
        return 0
    print(f"Checked {checked}: {len(report.problems)} problem(s).")
    return 1


def _events(args: argparse.Namespace) -> EventService:
    settings, engine = _installed(args)
    return build_services(settings, engine).events


def _print_webhook(webhook: Webhook) -> None:
    state = "enabled" if webhook.enabled else f"disabled ({webhook.disabled_reason or 'by hand'})"
    types = ",".join(webhook.event_types) or "all events"
    below = f" below {webhook.subtree}" if webhook.subtree else ""
    print(f"{webhook.id}\t{webhook.url}\t{types}{below}\t{state}")


def _webhook_input(args: argparse.Namespace) -> WebhookInput:
    enabled = {"on": True, "off": False}.get(getattr(args, "enabled", None) or "")
    return WebhookInput(
        url=getattr(args, "url", None),
        event_types=comma_list(args.types) if args.types is not None else None,
        subtree=args.subtree,
        enabled=enabled,
        secret=args.secret,
    )


def _webhook(args: argparse.Namespace) -> int:
    """``pressroom webhook add|list|update|delete|test|deliveries|replay``, as the operator."""
    events = _events(args)
    if args.action == "add":
        webhook = events.create(None, _webhook_input(args))
        _print_webhook(webhook)
        print(f"secret (shown once): {webhook.secret}")
    elif args.action == "list":
        for webhook in events.subscriptions(None):
            _print_webhook(webhook)
    elif args.action == "update":
        _print_webhook(events.update(None, args.id, _webhook_input(args)))
    elif args.action == "delete":
        events.delete(None, args.id)
        print(f"Webhook {args.id} deleted.")
    elif args.action == "test":
        outcome = events.test(None, args.id)
        print(
            f"delivered, status {outcome.status}"
            if outcome.ok
            else f"failed: {outcome.error or outcome.status}"
        )
        return 0 if outcome.ok else 1
    elif args.action == "deliveries":
        for delivery in events.deliveries(None, args.id, args.limit):
            print(
                f"{delivery.id}\tevent {delivery.event_id}\t{delivery.status}\t{delivery.attempts} attempt(s)"
                f"\t{delivery.last_status or ''}\t{delivery.last_error or ''}"
            )
    else:  # replay
        delivery = events.replay(None, args.id, args.delivery)
        print(f"Delivery {delivery.id} will be sent again.")
    return 0


def _webhook_commands(commands: Any) -> None:
    webhook = commands.add_parser("webhook", help="manage webhook subscriptions to repository events")
    actions = webhook.add_subparsers(dest="action", required=True)

    def options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--types", default=None, help="event types, comma list (pressroom.content.*)")
        parser.add_argument("--subtree", default=None, help="only content events below this path, /1/2/")
        parser.add_argument("--secret", default=None, help="whsec_<base64> (generated when absent)")
        parser.add_argument("--database-url", default=None)

    add = actions.add_parser("add", help="subscribe a URL")
    add.add_argument("url")
    options(add)
    listing = actions.add_parser("list", help="every subscription")
    listing.add_argument("--database-url", default=None)
    update = actions.add_parser("update", help="change a subscription")
    update.add_argument("id", type=int)
    update.add_argument("--url", default=None)
    update.add_argument("--enabled", choices=("on", "off"), default=None)
    options(update)
    for name, text in (("delete", "delete a subscription"), ("test", "send it a test event now")):
        action = actions.add_parser(name, help=text)
        action.add_argument("id", type=int)
        action.add_argument("--database-url", default=None)
    deliveries = actions.add_parser("deliveries", help="the latest deliveries of a subscription")
    deliveries.add_argument("id", type=int)
    deliveries.add_argument("--limit", type=int, default=50)
    deliveries.add_argument("--database-url", default=None)
    replay = actions.add_parser("replay", help="send a delivery again")
    replay.add_argument("id", type=int)
    replay.add_argument("delivery", type=int)
    replay.add_argument("--database-url", default=None)
    webhook.set_defaults(run=_webhook)


def _print_client(client: OAuthClient) -> None:
    kind = "public" if client.public else "confidential"
    acting = f"\tclient credentials as user {client.user_id}" if client.user_id is not None else ""
    print(f"{client.id}\t{client.name}\t{kind}\t{' '.join(client.redirect_uris)}{acting}")


def _oauth_client(args: argparse.Namespace) -> int:
    """``pressroom oauth-client create|list|update|delete``, as the operator."""
    settings, engine = _installed(args)
    oauth = build_services(settings, engine).oauth
    if args.action == "create":
        made = oauth.create_client(
            args.name, args.redirect_uri or [], public=args.public, user_login=args.user
        )
        _print_client(made.client)
        if made.secret is not None:
            print(f"secret (shown once): {made.secret}")
    elif args.action == "list":
        for client in oauth.clients():
            _print_client(client)
    elif args.action == "update":
        _print_client(oauth.set_redirect_uris(args.id, args.redirect_uri or []))
    else:  # delete
        oauth.delete_client(args.id)
        print(f"OAuth client {args.id} deleted.")
    return 0


def _oauth_client_commands(commands: Any) -> None:
    oauth = commands.add_parser("oauth-client", help="manage the clients of the OAuth 2.0 server")
    actions = oauth.add_subparsers(dest="action", required=True)
    create = actions.add_parser(
        "create", help="register a client (a confidential one's secret is shown once)"
    )
    create.add_argument("--name", required=True, help="shown to users on the consent page")
    create.add_argument("--public", action="store_true", help="no secret: PKCE only (browser, mobile apps)")
    create.add_argument("--user", default=None, help="login the client credentials grant acts as")
    listing = actions.add_parser("list", help="every client")
    update = actions.add_parser("update", help="replace a client's redirect URIs")
    update.add_argument("id")
    delete = actions.add_parser("delete", help="delete a client; its tokens stop working")
    delete.add_argument("id")
    for parser in (create, update):
        parser.add_argument(
            "--redirect-uri", action="append", required=True, help="an exact redirect URI (repeat for more)"
        )
    for parser in (create, listing, update, delete):
        parser.add_argument("--database-url", default=None)
    oauth.set_defaults(run=_oauth_client)


def _at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _gc_files(args: argparse.Namespace) -> int:
    service = _integrity(args)
    found = service.orphans(args.older_than) if args.dry_run else service.collect_garbage(args.older_than)
    for file_id in found:
        print(file_id)
    done = "would be deleted" if args.dry_run else "deleted"
    print(f"{len(found)} unreferenced file(s) older than {args.older_than:g} s {done}.")
    return 0


def _migrate(args: argparse.Namespace) -> int:
    _, engine = _installed(args)
    try:
        with engine.begin() as connection:
            before = current(connection)
            upgrade(connection)
    except CommandError as error:  # a revision this code does not know: a newer server wrote it
        print(f"error: {error}", file=sys.stderr)
        return 2
    _with_files(args, record=True)  # an older repository records its file store now
    print(f"Schema at {head()} (was {before}).")
    return 0


def _serve(args: argparse.Namespace) -> int:
    settings, named = _configured(args)
    engine = make_engine(settings.database_url)
    if not is_initialised(engine):
        install(settings, engine)
        log.info("Empty database: schema created and clean install loaded.")
    else:
        with engine.begin() as connection:  # once, before any worker starts
            upgrade(connection)
    settings = repository_file_store(settings, engine, named=named, force=args.force_file_store, record=True)
    engine.dispose()
    # Workers are separate processes: they read the settings from the environment.
    os.environ["PRESSROOM_DATABASE_URL"] = settings.database_url
    os.environ["PRESSROOM_FILE_STORE"] = settings.file_store
    os.environ["PRESSROOM_FILE_ROOT"] = str(settings.file_root)
    os.environ["PRESSROOM_PORT"] = str(args.port)  # webhooks may not point back at it
    if args.access_log:
        os.environ["PRESSROOM_ACCESS_LOG"] = "1"
    # The main process starts again with Granian alone (pressroom/serve.py): what was loaded here to
    # prepare the database would otherwise stay in its memory for as long as the server runs.
    sys.stdout.flush()
    sys.stderr.flush()
    command = [sys.executable, "-m", "pressroom.serve", "--host", args.host, "--port", str(args.port)]
    os.execv(sys.executable, [*command, "--workers", str(args.workers)])  # noqa: S606 (our own interpreter)


def _file_store_options(parser: argparse.ArgumentParser, *, force: bool = True) -> None:
    parser.add_argument(
        "--file-store", default=None, metavar="DIR|s3://...",
        help="the file store (default: the one the repository recorded, else PRESSROOM_FILE_STORE/_ROOT)",
    )  # fmt: skip
    if force:
        parser.add_argument(
            "--force-file-store", action="store_true",
            help="the files have moved to the store named: use it although the repository recorded another, "
            "and record it",
        )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    configure_logging(settings_from_env().log_format)
    parser = argparse.ArgumentParser(prog="pressroom", description="Pressroom content repository server")
    parser.add_argument("--version", action="version", version=f"pressroom {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the HTTP server (initialises an empty database first)")
    serve.add_argument("--host", default=os.environ.get("PRESSROOM_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("PRESSROOM_PORT", "8080")))
    serve.add_argument("--workers", type=int, default=int(os.environ.get("PRESSROOM_WORKERS", "1")))
    serve.add_argument("--database-url", default=None, help="sqlite:///path or postgresql://...")
    serve.add_argument("--access-log", action="store_true", help="one JSON line per request (stderr)")
    _file_store_options(serve)
    serve.set_defaults(run=_serve)
    init = commands.add_parser("init", help="create the schema and load the clean install")
    init.add_argument("--database-url", default=None)
    init.add_argument("--force", action="store_true", help="wipe a database that already holds data")
    init.add_argument(
        "--languages", default=None, help="comma list of language codes to install, e.g. eng-GB,pol-PL"
    )
    _file_store_options(init, force=False)
    init.set_defaults(run=_init)
    add_language = commands.add_parser("add-language", help="install one more language, e.g. pol-PL")
    add_language.add_argument("code", help="language code of the form pol-PL")
    add_language.add_argument("--name", default=None, help="display name (derived from the code if absent)")
    add_language.add_argument("--database-url", default=None)
    add_language.set_defaults(run=_add_language)
    migrate = commands.add_parser("migrate", help="bring the database schema up to this version's")
    migrate.add_argument("--database-url", default=None)
    _file_store_options(migrate)
    migrate.set_defaults(run=_migrate)
    export = commands.add_parser(
        "export", help="write the whole repository (data and files) to a zip archive"
    )
    export.add_argument("file", help="the archive to write")
    export.add_argument("--database-url", default=None)
    _file_store_options(export)
    export.set_defaults(run=_export)
    import_ = commands.add_parser("import", help="load an archive made by `export` into an empty database")
    import_.add_argument("file", help="the archive to read")
    import_.add_argument("--database-url", default=None)
    import_.add_argument("--force", action="store_true", help="wipe a database that already holds data")
    _file_store_options(import_)
    import_.add_argument(
        "--max-bytes",
        type=int,
        default=None,
        metavar="BYTES",
        help=f"refuse an archive that unpacks to more (default {DEFAULT_LIMITS.max_total_bytes})",
    )
    import_.set_defaults(run=_import)
    check = commands.add_parser(
        "check", help="find damage: content without versions, broken paths, missing or orphan files"
    )
    check.add_argument("--database-url", default=None)
    _file_store_options(check)
    check.add_argument(
        "--limit", type=_at_least_one, default=100, metavar="N",
        help="print at most N problems, then a count per kind (default 100)",
    )  # fmt: skip
    check.add_argument("--json", action="store_true", help="one JSON document: counts and every problem")
    check.set_defaults(run=_check)
    gc_files = commands.add_parser("gc-files", help="delete stored files that nothing references")
    gc_files.add_argument(
        "--older-than",
        type=float,
        default=DEFAULT_GRACE_SECONDS,
        metavar="SECONDS",
        help=f"spare younger files, whose upload may still commit (default {DEFAULT_GRACE_SECONDS})",
    )
    gc_files.add_argument("--dry-run", action="store_true", help="list the files, delete nothing")
    gc_files.add_argument("--database-url", default=None)
    _file_store_options(gc_files)
    gc_files.set_defaults(run=_gc_files)
    _webhook_commands(commands)
    _oauth_client_commands(commands)
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
    except PressroomError as error:  # a bad language code, a language already installed, ...
        print(f"error: {error.message}", file=sys.stderr)
        return 2
    except (NotInitialised, FileStoreMismatch) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    raise SystemExit(main())
