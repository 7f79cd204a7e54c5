"""Running the online server, ``ts358 serve --public``: the database opened and migrated,
the socket bound (one clear line if either fails), then uvicorn serving
:func:`ts358.online.app.create_public_app` until Ctrl-C, SIGTERM or SIGHUP; every table of
this process is saved and let go on the way out (its save is in the database all along)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from ts358.online.accounts import Accounts
from ts358.online.db import Database, DatabaseError, default_url
from ts358.online.rooms import Rooms
from ts358.online.thinking import Thinkers
from ts358.web.server import ServeError, bind, public_url, server_config, stoppable_server

__all__ = ["serve_public"]


def serve_public(
    host: str = "127.0.0.1",
    port: int = 8358,
    *,
    db_url: str | None = None,
    url: str | None = None,
    hosts: Iterable[str] = (),
    forwarded_allow_ips: str | None = None,
    thinking: str = "processes",
    scheduler: str | None = None,
    redis_url: str | None = None,
    echo: Callable[[str], None] = print,
) -> int | None:
    """Serve the online lobby on ``host``:``port`` until stopped.

    Args:
        db_url: the database (default: SQLite in the user data directory,
            :func:`~ts358.online.db.default_url`).
        url: the address people reach the server at (``https://358.example.org`` behind a
            proxy; default: this socket's own address).
        hosts: more host names requests may name.
        forwarded_allow_ips: the proxies whose ``X-Forwarded-For`` and
            ``X-Forwarded-Proto`` are believed (uvicorn's option; the rate limits count
            the address they give).
        thinking: where the computer players think: ``processes`` (a pool of this
            machine's cores) or ``threads`` (the server's own, as ``ts358 serve``).
        scheduler: a Dask scheduler's address: the computer players think on its cluster.
        redis_url: the Redis shared by every server process of the database (``redis://
            host:6379/0``): a seat whose table another process plays is relayed to it.
        echo: gets the address.

    Returns the number of the signal that stopped it, if one did; ServeError (one line) if
    it can't start.
    """
    from ts358.online.app import create_public_app

    try:
        db = Database(db_url or default_url())
        db.migrate()
    except DatabaseError as exc:
        raise ServeError(str(exc)) from None
    sock = bind(host, port)
    port = sock.getsockname()[1]
    address = url or public_url(host, port)
    if urlsplit(address).scheme not in ("http", "https") or not urlsplit(address).hostname:
        sock.close()
        raise ServeError(f"--url {address!r}: not an address (http://... or https://...)")
    bus = None
    if redis_url:
        from ts358.online.bus import Bus

        try:
            bus = Bus(redis_url)
            bus.check()
        except (ConnectionError, ValueError) as exc:
            sock.close()
            raise ServeError(str(exc).splitlines()[0]) from None
    accounts = Accounts(db)
    rooms = Rooms(db, accounts, on_change=bus.lobby_changed if bus is not None else None)
    local = ("127.0.0.1", "localhost", "::1") if host in ("127.0.0.1", "localhost", "::1") else ()
    thinkers = (
        None if thinking == "threads" and not scheduler else Thinkers(thinking, scheduler=scheduler)
    )
    app = create_public_app(
        rooms,
        accounts,
        public_url=address.rstrip("/"),
        hosts=(*hosts, *local, host),
        thinkers=thinkers,
        bus=bus,
    )
    options = {}
    if forwarded_allow_ips:
        options = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips}
    server = stoppable_server(server_config(app, **options))
    echo(
        f"ts358 serve --public: the lobby is at {address.rstrip('/')}/ (database "
        f"{db.url.render_as_string(hide_password=True)}; Ctrl-C stops)"
    )
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        db.close()
    stopped: int | None = server.stopped_by
    return stopped
