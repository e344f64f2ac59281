"""Settings, read once from the environment (``PRESSROOM_*``) and overridden by CLI flags."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pressroom.domain.image_variation import (
    DEFAULT_MAX_PIXELS,
    DEFAULT_VARIATIONS,
    Variation,
    parse_variations,
)

DEFAULT_DATABASE_URL = "sqlite:///var/pressroom.db"
# Authentication methods an operator can choose from (PRESSROOM_AUTH_METHODS), and the default set.
AUTH_METHODS = ("session", "jwt", "basic", "oauth", "certificate", "oidc")
DEFAULT_AUTH_METHODS = ("session", "jwt", "basic")
CERT_LOGIN_FROM = ("cn", "email")
# The claims of an external provider's token that may name the user (PRESSROOM_OIDC_LOGIN_CLAIM).
OIDC_LOGIN_CLAIMS = ("preferred_username", "email", "sub")
# Signature algorithms an external provider's tokens may use: asymmetric ones only. HS* would verify with a
# shared secret (a provider's public key must never serve as one) and "none" with nothing.
OIDC_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class Dialect:
    """One URL prefix and the vendor segment its media types carry."""

    prefix: str  # "/api/ibexa/v2"
    vendor: str  # "ibexa" -> application/vnd.ibexa.api.X+json


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    # The first dialect is the default one; a request answers in the dialect its path came in on.
    dialects: tuple[Dialect, ...] = (Dialect("/api/ibexa/v2", "ibexa"), Dialect("/api/ezp/v2", "ez"))
    # Secret for signing JWTs. Empty: a random one is generated once and kept in the database.
    secret_key: str = ""
    # Secrets used before the current one: JWTs they signed stay valid until they expire, so a key can be
    # rotated without logging everyone out. New tokens are always signed with ``secret_key``.
    previous_secret_keys: tuple[str, ...] = ()
    jwt_ttl_seconds: int = 3600
    session_ttl_seconds: int = 86400
    # Languages a new repository is installed with (eng-GB is always one of them, with id 2).
    languages: tuple[str, ...] = ("eng-GB",)
    siteaccesses: tuple[str, ...] = ("site", "admin")
    default_siteaccess: str = "site"
    anonymous_user_id: int = 10
    # The documented clean-install password clients expect; only `init` uses it, to seed the accounts.
    admin_password: str = "publish"  # noqa: S105
    # Request bodies: the largest limit only for callers who are logged in and send a media type that can
    # carry files (base64 field values); every other body is small, and an anonymous caller can only log in.
    max_body_bytes: int = 32 * 1024 * 1024
    max_plain_body_bytes: int = 1024 * 1024
    max_anonymous_body_bytes: int = 64 * 1024
    # A client that sends nothing of its body for this long gets a 408 and its connection back.
    body_read_timeout_seconds: float = 10.0
    # A whole body has this long to arrive, and one more second for every ``body_min_rate`` bytes it
    # brings (0: no more): a client trickling a byte at a time holds its request slot for the deadline,
    # not for ever.
    body_deadline_seconds: float = 30.0
    body_min_rate: int = 4096
    # Granian: time to receive the request headers, connections queued by the kernel, and requests one
    # worker takes at once. A request waiting for its body costs little, so there is room for many, and a
    # stalled one holds its place only until a timeout ends it.
    header_read_timeout_ms: int = 5000
    backlog: int = 2048
    max_concurrent_requests: int = 2048
    # How long a SQLite writer waits for another writer's lock before its request gets a 503.
    sqlite_busy_timeout_ms: int = 30000
    file_root: Path = field(default_factory=lambda: Path("var/storage"))
    # Empty: files under file_root. "s3://bucket/prefix?endpoint=...&region=...": S3-compatible storage.
    file_store: str = ""
    cookie_secure: bool = False
    # Reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (rest/forwarded.py); empty:
    # nobody's, every client is its TCP peer.
    trusted_proxies: tuple[Network, ...] = ()
    # The authentication methods accepted (AUTH_METHODS); credentials of any other are ignored like an
    # unknown scheme, and the routes that issue them (session login, JWT) do not exist.
    auth_methods: tuple[str, ...] = DEFAULT_AUTH_METHODS
    # Client certificates (rest/certificate.py): a trusted proxy that verified one passes the result and the
    # subject DN in these headers; the subject's CN is a login, or its e-mail address a user's e-mail.
    cert_verify_header: str = "X-SSL-Client-Verify"
    cert_subject_header: str = "X-SSL-Client-S-DN"
    cert_login_from: str = "cn"
    # An external OpenID Connect provider (services/oidc.py): empty issuer, off. Its access tokens must name
    # ``oidc_audience`` in ``aud``; ``oidc_login_claim`` names the user (``email``: the e-mail address of
    # exactly one user). Unknown users are refused unless ``oidc_create_users_in`` names a user group
    # (content id or remote id) to create them in. The provider's keys are kept ``oidc_jwks_ttl`` seconds;
    # a token signed with a key not among them fetches them again, at most every ``oidc_jwks_refetch``
    # seconds (key rollover, without letting made-up key ids hammer the provider).
    oidc_issuer: str = ""
    oidc_audience: str = ""
    oidc_login_claim: str = "preferred_username"
    oidc_create_users_in: str = ""
    oidc_algorithms: tuple[str, ...] = ("RS256", "ES256")
    oidc_jwks_ttl: float = 3600.0
    oidc_jwks_refetch: float = 30.0
    oidc_timeout_seconds: float = 5.0
    # OAuth 2.0 (services/oauth.py, with the ``oauth`` method): the issuer (the server's base URL, as
    # clients reach it: empty, taken from each request's scheme and Host), access and refresh token
    # lifetimes, and how old the signing key gets before a new one signs.
    oauth_issuer: str = ""
    oauth_access_ttl_seconds: int = 600
    oauth_refresh_ttl_seconds: int = 30 * 86400
    oauth_key_rotation_seconds: int = 30 * 86400
    # One JSON line per request on the "pressroom.access" logger; logs are JSON lines unless "text".
    access_log: bool = False
    log_format: str = "json"
    # Origins a browser may call the API from (CORS); empty: CORS off. "*" admits any origin, without
    # credentials.
    cors_origins: tuple[str, ...] = ()
    # Named image variations (renditions); PRESSROOM_IMAGE_VARIATIONS adds to or redefines the defaults.
    image_variations: tuple[Variation, ...] = DEFAULT_VARIATIONS
    # Images of more pixels are refused on upload and not rendered (decoding costs time and memory with
    # the pixels, whatever the file's size). Process-wide: set when the app is built.
    max_image_pixels: int = DEFAULT_MAX_PIXELS
    # Rendered content each worker keeps, compressed (rest/output/cache.py): about 2.5 KB per item for its
    # JSON and XML forms, so the default holds some 25,000 items at most that much memory per worker.
    representation_cache_mb: int = 64
    # Events (domain/event.py): each worker runs the dispatcher (webhook deliveries, the broker) unless
    # off; it looks for new work every ``events_poll_seconds``; events older than the retention are pruned.
    events_dispatch: bool = True
    events_poll_seconds: float = 0.5
    events_retention_days: float = 30.0
    # NATS JetStream: empty, no broker; else events go to the stream as "<subject prefix>.<event type>".
    events_nats_url: str = ""
    events_nats_stream: str = "PRESSROOM_EVENTS"
    events_nats_subject: str = "pressroom.events"
    # Webhook URLs may not point at private, loopback or link-local addresses unless this is on.
    webhook_allow_private: bool = False
    webhook_timeout_seconds: float = 10.0
    # /metrics: empty address, on the API's port; "host:port", only there (the API's port answers 404).
    # A token: callers must send ``Authorization: Bearer <token>``.
    metrics_address: tuple[str, int] | None = None
    metrics_token: str = ""
    # export/import on a non-terminal: one progress line on the log at most this often.
    progress_interval_seconds: float = 5.0
    # HTTP cache (rest/httpcache.py): shared caches keep cacheable answers ``http_cache_ttl`` seconds
    # (s-maxage; browsers revalidate); the user-context hash answer is kept per credential for
    # ``user_context_hash_ttl``. Purge endpoints ("varnish:http://127.0.0.1:6081", "fastly:<service id>",
    # several comma separated) get the keys every committed write touched (storage/purge.py), Fastly's with
    # the API token ``fastly_api_token`` at ``fastly_api_url``; soft purges when ``soft`` is on; with
    # ``sync`` a write's response waits until its keys are purged. Each purge is sent again
    # ``repurge_seconds`` later (0: not), for reads that were under way when it came (storage/purge.py).
    http_cache_ttl: int = 86400
    user_context_hash_ttl: int = 600
    http_cache_purge: tuple[str, ...] = ()
    http_cache_soft_purge: bool = False
    http_cache_sync_purge: bool = False
    http_cache_repurge_seconds: float = 2.0
    fastly_api_token: str = field(default="", repr=False)
    fastly_api_url: str = "https://api.fastly.com"
    debug: bool = False

    def with_overrides(self, **overrides: Any) -> Settings:
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


def _parse_dialects(text: str) -> tuple[Dialect, ...]:
    """``/api/ibexa/v2=ibexa,/api/ezp/v2=ez`` -> dialects."""
    dialects = []
    for item in text.split(","):
        prefix, _, vendor = item.strip().partition("=")
        if not prefix.startswith("/") or not vendor:
            raise ValueError(f"PRESSROOM_DIALECTS entry '{item}' must look like /api/ibexa/v2=ibexa")
        dialects.append(Dialect(prefix.rstrip("/"), vendor))
    return tuple(dialects)


def parse_networks(text: str) -> tuple[Network, ...]:
    """``10.0.0.1, 192.168.0.0/16, fd00::/8`` -> networks (an address is a network of one)."""
    networks = []
    for item in comma_list(text):
        try:
            networks.append(ipaddress.ip_network(item))
        except ValueError as error:
            raise ValueError(
                f"PRESSROOM_TRUSTED_PROXIES entry '{item}' is not an IP address or CIDR network ({error})"
            ) from None
    return tuple(networks)


def parse_auth_methods(text: str) -> tuple[str, ...]:
    """``session, basic`` -> the methods, each once; an unknown one is an error."""
    methods = tuple(dict.fromkeys(item.lower() for item in comma_list(text)))
    unknown = [method for method in methods if method not in AUTH_METHODS]
    if unknown or not methods:
        raise ValueError(
            f"PRESSROOM_AUTH_METHODS '{text}' must name some of {', '.join(AUTH_METHODS)}"
            + (f" (not {', '.join(unknown)})" if unknown else "")
        )
    return methods


def parse_address(text: str) -> tuple[str, int]:
    """``127.0.0.1:9100``, ``[::1]:9100`` or ``:9100`` (every interface) -> (host, port)."""
    host, colon, port = text.strip().rpartition(":")
    if not colon or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"PRESSROOM_METRICS_ADDRESS '{text}' must look like 127.0.0.1:9100")
    return host.strip("[]") or "0.0.0.0", int(port)  # noqa: S104 (asked for: every interface)


def _login_from(text: str) -> str:
    if text.lower() not in CERT_LOGIN_FROM:
        raise ValueError(f"PRESSROOM_CERT_LOGIN_FROM '{text}' must be cn or email")
    return text.lower()


def _oidc_login_claim(text: str) -> str:
    if text not in OIDC_LOGIN_CLAIMS:
        raise ValueError(f"PRESSROOM_OIDC_LOGIN_CLAIM '{text}' must be one of {', '.join(OIDC_LOGIN_CLAIMS)}")
    return text


def parse_oidc_algorithms(text: str) -> tuple[str, ...]:
    """``RS256, ES256`` -> the algorithms, each once; ``none``, HS* and unknown names are errors."""
    algorithms = tuple(dict.fromkeys(comma_list(text)))
    refused = [name for name in algorithms if name not in OIDC_ALGORITHMS]
    if refused or not algorithms:
        raise ValueError(
            f"PRESSROOM_OIDC_ALGORITHMS '{text}' must name some of {', '.join(OIDC_ALGORITHMS)}"
            + (f" (not {', '.join(refused)})" if refused else "")
        )
    return algorithms


def _oidc_issuer(text: str) -> str:
    if not text.startswith(("https://", "http://")):
        raise ValueError(f"PRESSROOM_OIDC_ISSUER '{text}' must be an http(s) URL")
    return text


def _check_oidc(settings: Settings) -> None:
    """An issuer needs its audience, and the ``oidc`` method needs an issuer."""
    if settings.oidc_issuer and not settings.oidc_audience:
        raise ValueError("PRESSROOM_OIDC_AUDIENCE must be set with PRESSROOM_OIDC_ISSUER")
    if "oidc" in settings.auth_methods and not settings.oidc_issuer:
        raise ValueError("PRESSROOM_AUTH_METHODS includes oidc, which needs PRESSROOM_OIDC_ISSUER")


def _issuer(text: str) -> str:
    """``https://cms.example.com`` (no path, query or trailing slash)."""
    issuer = text.strip().rstrip("/")
    scheme, _, rest = issuer.partition("://")
    if scheme not in {"http", "https"} or not rest or any(c in rest for c in "/?#"):
        raise ValueError(f"PRESSROOM_OAUTH_ISSUER '{text}' must look like https://cms.example.com")
    return issuer


def _bool(text: str) -> bool:
    return text.strip().lower() in {"1", "true", "yes", "on"}


def comma_list(text: str) -> tuple[str, ...]:
    """``"a, b,,c"`` -> ``("a", "b", "c")``."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


def settings_from_env(env: Mapping[str, str] | None = None) -> Settings:
    """Build settings from ``PRESSROOM_*`` variables; unknown variables are ignored."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    simple: dict[str, Any] = {
        "DATABASE_URL": ("database_url", str),
        "SECRET_KEY": ("secret_key", str),
        "JWT_TTL": ("jwt_ttl_seconds", int),
        "SESSION_TTL": ("session_ttl_seconds", int),
        "ANONYMOUS_USER_ID": ("anonymous_user_id", int),
        "ADMIN_PASSWORD": ("admin_password", str),
        "MAX_BODY_BYTES": ("max_body_bytes", int),
        "MAX_PLAIN_BODY_BYTES": ("max_plain_body_bytes", int),
        "MAX_ANONYMOUS_BODY_BYTES": ("max_anonymous_body_bytes", int),
        "BODY_READ_TIMEOUT": ("body_read_timeout_seconds", float),
        "BODY_DEADLINE": ("body_deadline_seconds", float),
        "BODY_MIN_RATE": ("body_min_rate", int),
        "HEADER_READ_TIMEOUT_MS": ("header_read_timeout_ms", int),
        "BACKLOG": ("backlog", int),
        "MAX_CONCURRENT_REQUESTS": ("max_concurrent_requests", int),
        "SQLITE_BUSY_TIMEOUT_MS": ("sqlite_busy_timeout_ms", int),
        "FILE_ROOT": ("file_root", Path),
        "FILE_STORE": ("file_store", str),
        "COOKIE_SECURE": ("cookie_secure", _bool),
        "ACCESS_LOG": ("access_log", _bool),
        "LOG_FORMAT": ("log_format", str),
        "DEBUG": ("debug", _bool),
        "PROGRESS_INTERVAL": ("progress_interval_seconds", float),
        "METRICS_ADDRESS": ("metrics_address", parse_address),
        "METRICS_TOKEN": ("metrics_token", str),
        "DEFAULT_SITEACCESS": ("default_siteaccess", str),
        "REPRESENTATION_CACHE_MB": ("representation_cache_mb", int),
        "EVENTS_DISPATCH": ("events_dispatch", _bool),
        "EVENTS_POLL_SECONDS": ("events_poll_seconds", float),
        "EVENTS_RETENTION_DAYS": ("events_retention_days", float),
        "EVENTS_NATS_URL": ("events_nats_url", str),
        "EVENTS_NATS_STREAM": ("events_nats_stream", str),
        "EVENTS_NATS_SUBJECT": ("events_nats_subject", str),
        "WEBHOOK_ALLOW_PRIVATE": ("webhook_allow_private", _bool),
        "WEBHOOK_TIMEOUT_SECONDS": ("webhook_timeout_seconds", float),
        "MAX_IMAGE_PIXELS": ("max_image_pixels", int),
        "CERT_VERIFY_HEADER": ("cert_verify_header", str),
        "CERT_SUBJECT_HEADER": ("cert_subject_header", str),
        "CERT_LOGIN_FROM": ("cert_login_from", _login_from),
        "OIDC_ISSUER": ("oidc_issuer", _oidc_issuer),
        "OIDC_AUDIENCE": ("oidc_audience", str),
        "OIDC_LOGIN_CLAIM": ("oidc_login_claim", _oidc_login_claim),
        "OIDC_CREATE_USERS_IN": ("oidc_create_users_in", str),
        "OIDC_ALGORITHMS": ("oidc_algorithms", parse_oidc_algorithms),
        "OIDC_JWKS_TTL": ("oidc_jwks_ttl", float),
        "OIDC_JWKS_REFETCH": ("oidc_jwks_refetch", float),
        "OIDC_TIMEOUT_SECONDS": ("oidc_timeout_seconds", float),
        "OAUTH_ISSUER": ("oauth_issuer", _issuer),
        "OAUTH_ACCESS_TTL": ("oauth_access_ttl_seconds", int),
        "OAUTH_REFRESH_TTL": ("oauth_refresh_ttl_seconds", int),
        "OAUTH_KEY_ROTATION": ("oauth_key_rotation_seconds", int),
        "HTTP_CACHE_TTL": ("http_cache_ttl", int),
        "USER_CONTEXT_HASH_TTL": ("user_context_hash_ttl", int),
        "HTTP_CACHE_SOFT_PURGE": ("http_cache_soft_purge", _bool),
        "HTTP_CACHE_SYNC_PURGE": ("http_cache_sync_purge", _bool),
        "HTTP_CACHE_REPURGE_SECONDS": ("http_cache_repurge_seconds", float),
        "FASTLY_API_TOKEN": ("fastly_api_token", str),
        "FASTLY_API_URL": ("fastly_api_url", str),
    }
    for suffix, (name, convert) in simple.items():
        raw = env.get("PRESSROOM_" + suffix)
        if raw is not None and raw != "":
            values[name] = convert(raw)
    if env.get("PRESSROOM_DIALECTS"):
        values["dialects"] = _parse_dialects(env["PRESSROOM_DIALECTS"])
    for suffix, name in (
        ("SITEACCESSES", "siteaccesses"),
        ("LANGUAGES", "languages"),
        ("CORS_ORIGINS", "cors_origins"),
        ("PREVIOUS_SECRET_KEYS", "previous_secret_keys"),
        ("HTTP_CACHE_PURGE", "http_cache_purge"),
    ):
        if env.get("PRESSROOM_" + suffix):
            values[name] = comma_list(env["PRESSROOM_" + suffix])
    if env.get("PRESSROOM_TRUSTED_PROXIES"):
        values["trusted_proxies"] = parse_networks(env["PRESSROOM_TRUSTED_PROXIES"])
    if env.get("PRESSROOM_AUTH_METHODS"):
        values["auth_methods"] = parse_auth_methods(env["PRESSROOM_AUTH_METHODS"])
        if "certificate" in values["auth_methods"] and not values.get("trusted_proxies"):
            raise ValueError(
                "PRESSROOM_AUTH_METHODS includes certificate, which needs the TLS-terminating proxy in "
                "PRESSROOM_TRUSTED_PROXIES"
            )
    if env.get("PRESSROOM_IMAGE_VARIATIONS"):
        values["image_variations"] = with_variations(
            DEFAULT_VARIATIONS, parse_variations(env["PRESSROOM_IMAGE_VARIATIONS"])
        )
    settings = Settings(**values)
    _check_oidc(settings)
    return settings


def with_variations(base: tuple[Variation, ...], extra: tuple[Variation, ...]) -> tuple[Variation, ...]:
    """``base`` with ``extra`` added; an extra variation of a known name replaces it in place."""
    merged = {variation.name: variation for variation in base}
    merged.update({variation.name: variation for variation in extra})
    return tuple(merged.values())
