"""deploy/nginx/client-cert.conf, run in Debian's nginx (``make nginx`` installs it) in front of a real
``pressroom serve``: a CA, a server certificate and client certificates are made here; each certificate
names its user, a request without one is anonymous, and the certificate headers are believed from nginx
only (issue 28 item 4)."""

from __future__ import annotations

import datetime
import ipaddress
import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from tests.conftest import free_port, running_server
from tests.functional.users_support import EDITORS, create_user
from tests.helpers import Api, media

SHIPPED = Path(__file__).parents[2] / "deploy" / "nginx" / "client-cert.conf"
FORGED = {"X-SSL-Client-Verify": "SUCCESS", "X-SSL-Client-S-DN": "CN=admin"}


class Issuer(NamedTuple):
    certificate: x509.Certificate
    key: ec.EllipticCurvePrivateKey


def _write_pem(
    path: Path, certificate: x509.Certificate, key: ec.EllipticCurvePrivateKey
) -> tuple[Path, Path]:
    path.with_suffix(".crt").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    path.with_suffix(".key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return path.with_suffix(".crt"), path.with_suffix(".key")


def _issue(subject: x509.Name, issuer: Issuer | None, *, server: bool = False, ca: bool = False) -> Issuer:
    """A certificate for a fresh key, signed by ``issuer`` (self-signed without one)."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer.certificate.subject if issuer else subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if server:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False
        )
    elif not ca:
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False
        )
    return Issuer(builder.sign(issuer.key if issuer else key, hashes.SHA256()), key)


def _name(*attributes: tuple[x509.ObjectIdentifier, str]) -> x509.Name:
    return x509.Name([x509.NameAttribute(oid, value) for oid, value in attributes])


class Proxy(NamedTuple):
    url: str  # nginx, https
    direct: str  # pressroom itself, http
    certs: Path


def _nginx_config(root: Path, upstream: int, port: int) -> Path:
    """The shipped file with its ports and paths replaced (each exactly once: a changed example fails
    here rather than testing something else), inside a main configuration of the test's own."""
    text = SHIPPED.read_text()
    for old, new in (
        ("server 127.0.0.1:8080;", f"server 127.0.0.1:{upstream};"),
        ("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;"),
        ("/etc/pressroom/tls/server.crt", str(root / "server.crt")),
        ("/etc/pressroom/tls/server.key", str(root / "server.key")),
        ("/etc/pressroom/tls/client-ca.crt", str(root / "ca.crt")),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (root / "client-cert.conf").write_text(text)
    temp = " ".join(
        f"{kind}_temp_path {root / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = root / "nginx.conf"
    main.write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"worker_processes 1;\npid {root / 'nginx.pid'};\nerror_log {root / 'error.log'};\n"
        + "events { worker_connections 64; }\n"
        + f"http {{ access_log off; {temp} include {root / 'client-cert.conf'}; }}\n"
    )
    return main


def _wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    for _ in range(100):  # bounded: 10 s
        if process.poll() is not None:
            raise RuntimeError("nginx stopped: " + (log.read_text() if log.exists() else "no log"))
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("nginx did not listen")


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert os.access(nginx, os.X_OK), "Debian's nginx is needed: `make nginx` installs it"
    root = tmp_path_factory.mktemp("nginx")
    ca = _issue(_name((NameOID.COMMON_NAME, "Pressroom test CA")), None, ca=True)
    _write_pem(root / "ca", *ca)
    _write_pem(root / "server", *_issue(_name((NameOID.COMMON_NAME, "127.0.0.1")), ca, server=True))
    with running_server(
        root / "pressroom",
        PRESSROOM_AUTH_METHODS="session,jwt,basic,certificate",
        PRESSROOM_TRUSTED_PROXIES="127.0.0.1",
    ) as direct:
        port = free_port()
        config = _nginx_config(root, int(direct.rsplit(":", 1)[1]), port)
        process = subprocess.Popen(
            [nginx, "-p", str(root), "-c", str(config), "-e", str(root / "error.log"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            _wait_for(port, process, root / "error.log")
            yield Proxy(f"https://127.0.0.1:{port}", direct, root)
        finally:
            process.terminate()
            process.wait(timeout=10)


def client_certificate(
    proxy: Proxy, name: str, subject: x509.Name, *, rogue: bool = False
) -> tuple[Path, Path]:
    """A client certificate from the CA nginx trusts (or from another CA)."""
    ca = x509.load_pem_x509_certificate((proxy.certs / "ca.crt").read_bytes())
    key = serialization.load_pem_private_key((proxy.certs / "ca.key").read_bytes(), None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    issuer = Issuer(ca, key)
    if rogue:
        issuer = _issue(_name((NameOID.COMMON_NAME, "Pressroom test CA")), None, ca=True)
    return _write_pem(proxy.certs / name, *_issue(subject, issuer))


def through_nginx(
    proxy: Proxy, cert: tuple[Path, Path] | None, headers: dict[str, str] | None = None
) -> httpx.Response:
    context = ssl.create_default_context(cafile=proxy.certs / "ca.crt")
    if cert is not None:
        context.load_cert_chain(*cert)
    with httpx.Client(verify=context) as client:
        return current(client, proxy.url, headers)


def current(client: httpx.Client, base: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return client.get(
        base + "/api/ibexa/v2/user/current", headers={"Accept": media("User"), **(headers or {})}
    )


def user_id(response: httpx.Response) -> int:
    assert response.status_code == 307, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def test_each_certificate_names_its_user(proxy: Proxy) -> None:
    with httpx.Client(base_url=proxy.direct) as direct:
        editor = create_user(Api(direct), EDITORS)
    admin = client_certificate(proxy, "admin", _name((NameOID.COMMON_NAME, "admin")))
    subject = _name(
        (NameOID.ORGANIZATION_NAME, "Example, Inc."),  # nginx escapes the comma: \,
        (NameOID.COMMON_NAME, editor["login"]),
        (NameOID.EMAIL_ADDRESS, editor["email"]),
    )
    other = client_certificate(proxy, "editor", subject)
    assert user_id(through_nginx(proxy, admin)) == 14
    assert user_id(through_nginx(proxy, other)) == editor["_id"]


def test_without_a_certificate_the_caller_is_anonymous(proxy: Proxy) -> None:
    response = through_nginx(proxy, None)
    assert response.status_code == 401
    assert response.json()["ErrorMessage"]["errorDescription"] == "Not logged in."
    # nginx replaces the client's own certificate headers
    assert through_nginx(proxy, None, FORGED).status_code == 401


def test_a_certificate_from_another_ca_does_not_get_through(proxy: Proxy) -> None:
    rogue = client_certificate(proxy, "rogue", _name((NameOID.COMMON_NAME, "admin")), rogue=True)
    response = through_nginx(proxy, rogue)
    assert response.status_code == 400  # nginx refuses it
    assert "ErrorMessage" not in response.text


def test_forged_headers_from_a_direct_connection_are_ignored(proxy: Proxy) -> None:
    """A client on another address than the proxy's (loopback 127.0.0.2) reaching Pressroom itself."""
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(transport=transport) as client:
        response = current(client, proxy.direct, FORGED)
    assert response.status_code == 401
    assert response.json()["ErrorMessage"]["errorDescription"] == "Not logged in."
    with httpx.Client() as client:  # from the proxy's address the same headers are believed
        assert user_id(current(client, proxy.direct, FORGED)) == 14
