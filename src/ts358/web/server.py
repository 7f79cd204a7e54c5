"""Running the table server: a socket bound first (so that a port taken or a host that is not
this machine's is one clear line), then uvicorn serving :func:`ts358.web.app.create_app`
on it until Ctrl-C or SIGTERM; the tables' saves are released on the way out (every save is
written as the matches go, so stopping loses nothing).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import webbrowser
from collections.abc import Callable

from ts358.web.lobby import Lobby
from ts358.web.table import Table

__all__ = ["ServeError", "bind", "lan_address", "public_url", "serve"]

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


def serve(
    host: str = "127.0.0.1",
    port: int = 8358,
    *,
    open_browser: bool = False,
    echo: Callable[[str], None] = print,
    lobby: Lobby | None = None,
) -> None:
    """Serve the tables on ``host``:``port`` until stopped; ``echo`` gets the addresses (the
    start page's, and each table's links for friends). ServeError if it can't start."""
    import uvicorn

    from ts358.web.app import create_app

    sock = bind(host, port)
    port = sock.getsockname()[1]
    local = f"http://127.0.0.1:{port}" if host in ("0.0.0.0", "::", "") else public_url(host, port)
    base = public_url(host, port)

    def opened(table: Table) -> None:
        for link in table.links(base):
            echo(f"seat {link['seat']} ({link['name']}): {link['url']}")

    lobby = lobby or Lobby(on_table=opened)
    if lobby.on_table is None:
        lobby.on_table = opened
    app = create_app(lobby, base_url=base, hosts=("127.0.0.1", "localhost", "::1", host))
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_max_size=WEBSOCKET_MAX_BYTES,
        lifespan="on",
    )
    server = uvicorn.Server(config)
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
