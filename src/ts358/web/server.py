"""Running the table server: a socket bound first (so that a port taken or a host that is not
this machine's is one clear line), then uvicorn serving :func:`ts358.web.app.create_app`
on it until Ctrl-C, SIGTERM or SIGHUP; every table is saved and its save released on the
way out (every save is written as the matches go, so stopping loses nothing).

uvicorn is configured here (:func:`server_config`) for a server that stays up: a request's
head must arrive within :data:`REQUEST_HEAD_SECONDS` (uvicorn itself waits for ever on a
connection that opens and sends nothing, or sends its headers a byte at a time), a dead
WebSocket is found by its unanswered pings, and the shutdown waits at most
:data:`SHUTDOWN_SECONDS` for connections.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
import webbrowser
from collections.abc import Callable, Generator, Mapping
from typing import TYPE_CHECKING, Any

from ts358.web.lobby import Lobby
from ts358.web.table import Table

if TYPE_CHECKING:
    import uvicorn

__all__ = [
    "REQUEST_HEAD_SECONDS",
    "SHUTDOWN_SECONDS",
    "ServeError",
    "bind",
    "lan_address",
    "public_url",
    "serve",
    "server_config",
    "stoppable_server",
]

REQUEST_HEAD_SECONDS = 10.0
"""How long a connection may take to send a request's line and headers."""

SHUTDOWN_SECONDS = 5.0
"""How long a stopping server waits for its connections to close."""

_STOP_SIGNALS = tuple(
    getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)
)

WEBSOCKET_MAX_BYTES = 65536
"""The largest WebSocket frame uvicorn takes; a larger one closes the connection (messages
above :data:`ts358.web.protocol.MAX_MESSAGE_BYTES` and below this get an error and the
connection stays)."""


class ServeError(RuntimeError):
    """The server can't start; the message says why in one line."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; ServeError if it can't be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ServeError(
            f"--host {host}: not an address of this machine ({exc.strerror})"
        ) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host in ("::", ""):
            # Every address, IPv4's too (127.0.0.1 included), whatever the system's default.
            with contextlib.suppress(OSError, AttributeError):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
            raise ServeError(
                f"port {port} is taken on {host} (is ts358 serve running already? "
                "--port chooses another)"
            ) from None
        raise ServeError(f"can't listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def lan_address() -> str:
    """This machine's address on its network, as others there reach it (no packet is sent:
    a UDP socket connected to a private address only picks the route)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))
        address: str = s.getsockname()[0]
        return address
    return "127.0.0.1"


def public_url(host: str, port: int) -> str:
    """The address that the seats' links start with: the network address when the server
    listens on every interface, else ``host`` itself."""
    if host in ("0.0.0.0", "::", ""):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def _timed_http() -> type[Any]:
    """uvicorn's HTTP/1.1 protocol with a deadline on each request's head (the module's
    docstring says why), from connection or the end of the last response on."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedHTTP(H11Protocol):
        _head_timer: Any = None

        def _wait_head(self) -> None:
            self._stop_head_timer()
            self._head_timer = self.loop.call_later(REQUEST_HEAD_SECONDS, self._head_late)

        def _stop_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._wait_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head_timer()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # a request's head has arrived
                self._stop_head_timer()

        def on_response_complete(self) -> None:
            self._wait_head()  # first: a pipelined request is read within the call
            super().on_response_complete()

    return TimedHTTP


def server_config(app: Any, **options: Any) -> uvicorn.Config:
    """uvicorn's configuration of the server of ``app`` (``options`` override it)."""
    import uvicorn

    settings: dict[str, Any] = {
        "log_level": "warning",
        "ws_max_size": WEBSOCKET_MAX_BYTES,
        "lifespan": "on",
        "http": _timed_http(),
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
        **options,
    }
    return uvicorn.Config(app, **settings)


def stoppable_server(config: uvicorn.Config) -> Any:
    """A uvicorn server that, stopped by a signal, says which (``stopped_by``) instead of
    raising it again once stopped: the command then exits with 128 + its number, as
    ``ts358 play`` does."""
    import uvicorn

    class Server(uvicorn.Server):
        stopped_by: int | None = None

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.stopped_by is None:
                self.stopped_by = sig
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self) -> Generator[None, None, None]:
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            # A signal ignored when the server starts (nohup) stays ignored.
            previous = {
                sig: signal.signal(sig, self.handle_exit)
                for sig in _STOP_SIGNALS
                if signal.getsignal(sig) is not signal.SIG_IGN
            }
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    # None: a handler not installed from Python, i.e. the default one.
                    signal.signal(sig, signal.SIG_DFL if handler is None else handler)

    return Server(config)


def serve(
    host: str = "127.0.0.1",
    port: int = 8358,
    *,
    open_browser: bool = False,
    echo: Callable[[str], None] = print,
    lobby: Lobby | None = None,
    lobby_bots: Mapping[str, str] | None = None,
) -> int | None:
    """Serve the tables on ``host``:``port`` until stopped; ``echo`` gets the addresses (the
    start page's, and each table's links for friends). ServeError if it can't start.
    ``lobby_bots``: the bots a new match may seat, by name (``cmd:COMMAND`` each), for the
    lobby made here.
    Returns the number of the signal that stopped it (SIGINT, SIGTERM, SIGHUP), if one did."""
    from ts358.web.app import create_app

    sock = bind(host, port)
    port = sock.getsockname()[1]
    local = f"http://127.0.0.1:{port}" if host in ("0.0.0.0", "::", "") else public_url(host, port)
    base = public_url(host, port)

    def opened(table: Table) -> None:
        for link in table.links(base):
            echo(f"seat {link['seat']} ({link['name']}): {link['url']}")

    lobby = lobby or Lobby(on_table=opened, bots=lobby_bots)
    if lobby.on_table is None:
        lobby.on_table = opened
    app = create_app(lobby, base_url=base, hosts=("127.0.0.1", "localhost", "::1", host))
    server = stoppable_server(server_config(app))
    echo(f"ts358 serve: the table is at {local}/ (Ctrl-C stops; the matches are saved)")
    if base != local:
        echo(f"friends on your network join by the links the start page gives, at {base}/")
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(f"{local}/",)).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        lobby.close()
    stopped: int | None = server.stopped_by
    return stopped
