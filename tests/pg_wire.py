"""A TCP proxy in front of PostgreSQL that records what clients send, message by message, to count
network round trips (tests of the PostgreSQL read path).

A client waits for the server once per synchronisation point of the frontend protocol: a simple query
(``Q``, e.g. ``BEGIN`` or ``ROLLBACK``) or a ``Sync`` (``S``) that ends an extended-protocol exchange
(Parse/Bind/Describe/Execute). Each is one round trip, whatever statements it carries. The startup
exchange (with its SSL or GSS encryption requests, refused here so that messages stay readable) is not
recorded. Statement-level counters (``before_cursor_execute``) cannot see what the driver sends on its
own (BEGIN, ROLLBACK, a pool's reset, psycopg's server-side prepare), which is why this proxy exists.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

_SSL_REQUEST = 80877103
_GSS_REQUEST = 80877104
_CANCEL_REQUEST = 80877102


@dataclass(frozen=True)
class Message:
    kind: str  # the frontend message type: "Q" simple query, "P" parse, "B" bind, "E" execute, "S" sync ...
    sql: str = ""  # the text of a simple query or a Parse (prepared statements: empty for Bind/Execute)


@dataclass
class Exchange:
    """What the clients sent while recording, in order."""

    messages: list[Message] = field(default_factory=list)

    @property
    def round_trips(self) -> int:
        return sum(1 for message in self.messages if message.kind in ("Q", "S"))

    @property
    def simple_queries(self) -> list[str]:
        """The texts sent as simple queries (how psycopg sends BEGIN, ROLLBACK and COMMIT)."""
        return [message.sql for message in self.messages if message.kind == "Q"]

    def __str__(self) -> str:
        return " | ".join(f"{m.kind}:{m.sql[:60]}" if m.sql else m.kind for m in self.messages)


def _read_exact(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


class WireProxy:
    """Listens on a free local port and forwards every connection to ``upstream`` (host, port)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._recording: Exchange | None = None
        self._sockets: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._accept, name="pg-wire-proxy", daemon=True).start()

    def url(self, database_url: str) -> str:
        """``database_url`` pointed at this proxy, unencrypted (the proxy reads the messages)."""
        parts = urlsplit(database_url)
        netloc = parts.netloc.rpartition("@")
        user = netloc[0] + "@" if netloc[1] else ""
        query = "&".join(filter(None, [parts.query, "sslmode=disable", "gssencmode=disable"]))
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}", query=query))

    @contextmanager
    def recording(self) -> Iterator[Exchange]:
        exchange = Exchange()
        with self._lock:
            self._recording = exchange
        try:
            yield exchange
        finally:
            with self._lock:
                self._recording = None

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        with self._lock:
            for sock in self._sockets:
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            for sock in (client, server):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._sockets += [client, server]
            threading.Thread(target=self._upstream, args=(client, server), daemon=True).start()
            threading.Thread(target=self._downstream, args=(server, client), daemon=True).start()

    def _downstream(self, server: socket.socket, client: socket.socket) -> None:
        try:
            while chunk := server.recv(65536):
                client.sendall(chunk)
        except OSError:
            pass
        finally:
            for sock in (client, server):
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def _upstream(self, client: socket.socket, server: socket.socket) -> None:
        try:
            self._startup(client, server)
            while True:
                header = _read_exact(client, 5)
                kind, length = chr(header[0]), struct.unpack("!I", header[1:])[0]
                body = _read_exact(client, length - 4)
                server.sendall(header + body)
                self._record(kind, body)
        except (OSError, ConnectionError):
            pass

    def _startup(self, client: socket.socket, server: socket.socket) -> None:
        """Forward the untyped startup messages; refuse encryption requests ourselves."""
        while True:
            header = _read_exact(client, 8)
            length, code = struct.unpack("!II", header)
            if code in (_SSL_REQUEST, _GSS_REQUEST):
                client.sendall(b"N")
                continue
            server.sendall(header + _read_exact(client, length - 8))
            if code == _CANCEL_REQUEST:
                raise ConnectionError("a cancel request ends its connection")
            return

    def _record(self, kind: str, body: bytes) -> None:
        with self._lock:
            recording = self._recording
        if recording is None or kind in ("p",):  # password exchange: not part of a request
            return
        sql = ""
        if kind == "Q":
            sql = body.rstrip(b"\0").decode()
        elif kind == "P":
            _name, _, rest = body.partition(b"\0")
            sql = rest.partition(b"\0")[0].decode()
        recording.messages.append(Message(kind, sql))
