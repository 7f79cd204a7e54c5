"""The ASGI application of ``ts358 serve --public`` (Starlette): the lobby page and its
requests (people, tables, ratings), the table page, and the WebSocket of seats and
spectators (docs/web.md, Online).

The tables in play are the browser's (:class:`ts358.web.app.Room`: a table's lock, its
seats' sockets, the computer players on worker threads) with what an online table adds:
spectators, who are sent a state with no hidden card (:meth:`ts358.web.table.Table.
spectator_state`); people who sign in, whose session cookie must match the seat they join;
a computer player taking the seat of a person away for :data:`LEAVE_SECONDS`; no hints or
reviews (the matches are rated).

Security: a request must name the server's host (``Host``, against DNS rebinding); a POST
must be JSON, come from the server's own page (``Origin``) and, once signed in, carry the
session's CSRF token; the session cookie is HttpOnly, SameSite=Lax, and Secure behind
HTTPS; sign-in, sign-up, guests and new tables are rate-limited; messages are capped in
size and read at a pace (:class:`ts358.web.app.Flood`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ts358.analysis.hints import HintService
from ts358.deal import Answer, Pending
from ts358.online.accounts import AccountError, Accounts, Person
from ts358.online.bus import (
    LOBBY,
    Bus,
    RemoteSocket,
    SharedLimiter,
    new_connection,
    table_channel,
)
from ts358.online.db import DatabaseError
from ts358.online.errors import RequestError
from ts358.online.limits import Limiter
from ts358.online.rooms import BEAT_SECONDS, LobbyError, OnlineTable, Rooms, TableOptions
from ts358.online.thinking import Thinkers
from ts358.players import LEVELS
from ts358.rules import MATCH_LENGTHS, PRESETS
from ts358.table.saves import WriteError
from ts358.table.texts import LANGUAGES, MESSAGES, t
from ts358.web.app import JOIN_SECONDS, STATIC, Room, json_body, paced, serve_seat
from ts358.web.messages import error_message, welcome_message
from ts358.web.protocol import (
    Hint,
    Join,
    Name,
    ProtocolError,
    Refresh,
    Watch,
    parse_request,
)
from ts358.web.protocol import Request as SeatRequest
from ts358.web.table import DecisionRefused
from ts358.web.workers import Workers

__all__ = ["COOKIE", "LEAVE_SECONDS", "ONLINE_STATIC", "OnlineRoom", "create_public_app"]

ONLINE_STATIC = Path(__file__).parent / "static"
"""The lobby page: HTML, JavaScript and CSS, no build step."""
COOKIE = "ts358_session"
"""The session cookie's name."""
LEAVE_SECONDS = 60.0
"""How long a person's seat waits for them (a reload, a lost network) before a computer
player plays it for them."""
PRESENT_SECONDS = 30.0
"""A person seen (a request, an open table) this recently counts as online."""
RELAY_ANSWER_SECONDS = 10.0
"""How long a relayed connection waits for the table's process to answer its join."""
RELAY_BEAT_SECONDS = 5.0
"""How often a relayed connection tells the table's process that it is there (three
missed: it is gone)."""
IDLE_SECONDS = 60.0
"""How long a table in play stays in memory with nobody connected (its save is in the
database; it is opened again when someone comes)."""

_log = logging.getLogger("ts358.online")


class OnlineRoom(Room):
    """A table in play on the online server: the browser table's room with spectators and
    the time each person's seat has been left."""

    def __init__(
        self,
        table: OnlineTable,
        workers: Workers,
        hints: HintService,
        thinkers: Thinkers | None = None,
    ) -> None:
        super().__init__(table, workers, hints)
        self.table: OnlineTable = table
        self.thinkers = thinkers
        self.watchers: set[WebSocket] = set()
        self.away: dict[int, float] = {s: time.monotonic() for s in table.humans}

    async def think(self, pending: Pending) -> Answer:
        """The computer player's answer, from the thinking processes (or Dask) when the
        server has them."""
        seat = self.table.computers.get(pending.seat)
        job = None
        if self.thinkers is not None and seat is not None:
            job = self.thinkers.job(seat, pending, self.table.step)
        if job is None:
            return await super().think(pending)
        return await self.thinkers.think(job)  # type: ignore[union-attr]

    async def broadcast(self) -> None:
        await super().broadcast()
        if self.watchers:
            text = json.dumps(self.table.spectator_state(), ensure_ascii=False)
            for socket in list(self.watchers):
                try:
                    await socket.send_text(text)
                except (RuntimeError, OSError, WebSocketDisconnect):
                    self.watchers.discard(socket)

    def leave(self, seat: int, socket: WebSocket) -> bool:
        left = super().leave(seat, socket)
        if left:
            self.away[seat] = time.monotonic()
        return left

    def idle(self, now: float, idle_seconds: float) -> bool:
        return not self.watchers and super().idle(now, idle_seconds)

    def watched(self) -> bool:
        return bool(self.watchers) or super().watched()

    async def handle(self, seat: int, request: SeatRequest) -> None:
        if isinstance(request, Hint):
            raise DecisionRefused(t("online.no_hints", self.table.lang))
        if isinstance(request, Name):
            raise DecisionRefused(t("online.no_rename", self.table.lang))
        await super().handle(seat, request)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def create_public_app(
    rooms: Rooms,
    accounts: Accounts,
    *,
    public_url: str = "http://127.0.0.1:8358",
    hosts: Iterable[str] = (),
    workers: Workers | None = None,
    thinkers: Thinkers | None = None,
    leave_seconds: float = LEAVE_SECONDS,
    idle_seconds: float = IDLE_SECONDS,
    sweep_seconds: float = 5.0,
    limits: dict[str, Limiter] | None = None,
    bus: Bus | None = None,
) -> Starlette:
    """The online server's application over ``rooms`` and ``accounts``.

    Args:
        rooms: the lobby and the tables of this process.
        accounts: the people and their sessions.
        public_url: the address people reach the server at (``https://...`` behind a
            proxy with TLS: the cookie is then Secure); its origin is the only one whose
            pages may change anything.
        hosts: other host names requests may name (the ``Host`` header), beside the public
            URL's.
        workers: the threads of the computer players (default: pools for this machine).
        thinkers: where the computer players think (:class:`~ts358.online.thinking.
            Thinkers`: worker processes or Dask; closed with the app); None: on
            ``workers``' threads.
        leave_seconds: a person away this long has a computer play their seat.
        idle_seconds: a table nobody is connected to leaves memory after this long.
        sweep_seconds: how often the tables are looked at for those two.
        limits: the rate limits, by name (``signin``, ``signin-name``, ``signup``,
            ``guest``, ``create``); default: :func:`default_limits`.
        bus: Redis, shared with the other server processes of the same database: a seat
            whose table another process plays is relayed to it (:mod:`ts358.online.bus`);
            None: one process alone.
    """
    origin = _origin(public_url)
    secure = urlsplit(public_url).scheme == "https"
    allowed = {h.strip("[]").lower() for h in hosts} | {(urlsplit(public_url).hostname or "")}
    pools = workers or Workers()
    hints = HintService()  # never asked (no hints online); the room takes one
    limiter: dict[str, Any] = {**default_limits(), **(limits or {})}
    if bus is not None and limits is None:  # the same limits across the processes
        limiter = {
            name: SharedLimiter(bus, name, round(local.rate * 60), local)
            for name, local in limiter.items()
        }
    online_rooms: dict[str, OnlineRoom] = {}
    seen: dict[int, float] = {}  # people this process saw lately: id -> time.time()
    connected: dict[int, int] = {}  # people with a socket here: id -> how many

    def saw(person_id: int) -> None:
        seen[person_id] = time.time()

    def online_people() -> set[int]:
        """The people seen in the last :data:`PRESENT_SECONDS`, by any process."""
        since = time.time() - PRESENT_SECONDS
        for key in [k for k, at in seen.items() if at < since and k not in connected]:
            del seen[key]
        here = {k for k, at in seen.items() if at >= since} | set(connected)
        return here | bus.present(since) if bus is not None else here

    def room_of(table: OnlineTable) -> OnlineRoom:
        room = online_rooms.get(table.id)
        if room is None or room.table is not table:
            room = online_rooms[table.id] = OnlineRoom(table, pools, hints, thinkers)
        return room

    # ------------------------------------------------------------------ checks

    def host_ok(connection: HTTPConnection) -> bool:
        host = connection.headers.get("host", "")
        return (urlsplit(f"//{host}").hostname or "").lower() in allowed

    def origin_ok(connection: HTTPConnection) -> bool:
        """A browser names the page's origin: it must be the server's. A program that is
        not a browser names none (and has no cookie of a browser's to abuse)."""
        sent = connection.headers.get("origin")
        return sent is None or sent.lower() == origin

    def client(request: HTTPConnection) -> str:
        return request.client.host if request.client is not None else "?"

    async def person_of(connection: HTTPConnection) -> tuple[Person, str] | None:
        token = connection.cookies.get(COOKIE)
        return await asyncio.to_thread(accounts.session, token) if token else None

    def refused(status: int, message: str, **headers: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status, headers=headers or None)

    def language(connection: HTTPConnection) -> str:
        """The language to refuse ``connection`` in: the lobby page names its own in the
        header, the table page in its WebSocket's address (``?lang=``)."""
        return page_language(
            connection.query_params.get("lang"), connection.headers.get("accept-language")
        )

    def limited(request: Request, name: str, key: str) -> JSONResponse | None:
        bucket = limiter[name]
        if bucket.allow(key):
            return None
        wait = max(1, round(bucket.retry_after(key)))
        said = t("online.too_many", language(request), seconds=wait)
        return refused(429, said, **{"Retry-After": str(wait)})

    async def read_json(request: Request) -> Any:
        return await json_body(request, LobbyError)

    Handler = Callable[[Request, Person | None], Awaitable[Response]]

    def endpoint(
        handler: Handler, *, signed: bool = True, fresh: bool = False
    ) -> Callable[[Request], Awaitable[Response]]:
        """``handler`` behind the checks: the host; for a POST the origin, JSON and, from a
        signed-in browser, the session's CSRF token (but for signing up or in: ``fresh``);
        a session when ``signed``."""

        async def guarded(request: Request) -> Response:
            if not host_ok(request):
                return refused(400, "unknown host")
            found = None
            try:
                if request.method == "POST":
                    if not origin_ok(request):
                        return refused(403, "a request from another site's page")
                    kind = request.headers.get("content-type", "")
                    if not kind.startswith("application/json"):
                        return refused(415, "send the request as JSON")
                found = await person_of(request)
                if found is not None:
                    saw(found[0].id)
                if signed and found is None:
                    return refused(401, t("online.sign_in_first", language(request)))
                if (
                    request.method == "POST"
                    and found is not None
                    and not fresh
                    and request.headers.get("x-csrf-token") != found[1]
                ):
                    return refused(403, t("online.out_of_date", language(request)))
                return await handler(request, found[0] if found else None)
            except (LobbyError, AccountError) as exc:
                return refused(400, exc.say(language(request)))
            except DatabaseError as exc:
                _log.error("%s", exc)
                return refused(503, t("online.database", language(request)))

        return guarded

    def signed_in(person: Person, token: str, csrf: str) -> JSONResponse:
        response = JSONResponse({"person": _person(person), "csrf": csrf})
        response.set_cookie(
            COOKIE,
            token,
            max_age=30 * 24 * 3600,
            httponly=True,
            secure=secure,
            samesite="lax",
            path="/",
        )
        return response

    # ------------------------------------------------------------------ people

    async def me(request: Request, person: Person | None) -> Response:
        found = await person_of(request)
        lang = language(request)
        return JSONResponse(
            {
                "person": _person(found[0]) if found else None,
                "csrf": found[1] if found else None,
                "rules": list(PRESETS),
                "levels": list(LEVELS),
                "lengths": list(MATCH_LENGTHS),
                "languages": list(LANGUAGES),
                "defaults": _defaults(lang),
                "lang": lang,
                "texts": lobby_texts(lang),
            }
        )

    async def sign_up(request: Request, person: Person | None) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise AccountError("send a name and a password")
        if (refusal := limited(request, "signup", client(request))) is not None:
            return refusal
        made = await asyncio.to_thread(accounts.sign_up, data.get("name"), data.get("password"))
        return signed_in(made, *await asyncio.to_thread(accounts.open_session, made))

    async def sign_in(request: Request, person: Person | None) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise AccountError("send a name and a password")
        name = data.get("name")
        key = f"name:{' '.join(name.split()).casefold()}" if isinstance(name, str) else "name:?"
        for refusal in (
            limited(request, "signin", client(request)),
            limited(request, "signin-name", key),
        ):
            if refusal is not None:
                return refusal
        found = await asyncio.to_thread(accounts.sign_in, name, data.get("password"))
        return signed_in(found, *await asyncio.to_thread(accounts.open_session, found))

    async def guest(request: Request, person: Person | None) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise AccountError("send a name")
        if (refusal := limited(request, "guest", client(request))) is not None:
            return refusal
        made = await asyncio.to_thread(accounts.guest, data.get("name"))
        return signed_in(made, *await asyncio.to_thread(accounts.open_session, made, 1))

    async def sign_out(request: Request, person: Person | None) -> Response:
        await asyncio.to_thread(accounts.close_session, request.cookies.get(COOKIE))
        response = JSONResponse({"person": None})
        response.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
        return response

    # ------------------------------------------------------------------ tables

    def table_json(
        info: Any, person: Person | None, online: set[int] | None = None
    ) -> dict[str, Any]:
        data = {
            **info.to_json(),
            "mine": info.seat_of(person) if person else None,
            "owner_is_you": person is not None and info.owner_id == person.id,
        }
        if online is not None:
            for row, seat in zip(data["seats"], info.seats, strict=True):
                row["online"] = seat.kind in ("person", "guest") and seat.user_id in online
        return data

    async def tables(request: Request, person: Person | None) -> Response:
        found = await asyncio.to_thread(rooms.listing, person)
        online = await asyncio.to_thread(online_people)
        return JSONResponse(
            {"tables": [table_json(i, person, online) for i in found], "online": len(online)}
        )

    async def create(request: Request, person: Person | None) -> Response:
        assert person is not None
        options = TableOptions.from_json(await read_json(request))
        if (refusal := limited(request, "create", f"person:{person.id}")) is not None:
            return refusal
        info = await asyncio.to_thread(rooms.create, person, options)
        return JSONResponse({"table": table_json(info, person), "seat": 0})

    async def one_table(request: Request, person: Person | None) -> Response:
        # A private table's id is its link: knowing it is enough to look and watch.
        info = await asyncio.to_thread(rooms.info, request.path_params["id"])
        return JSONResponse({"table": table_json(info, person)})

    async def sit(request: Request, person: Person | None) -> Response:
        assert person is not None
        data = await read_json(request)
        seat = data.get("seat") if isinstance(data, dict) else None
        table_id = request.path_params["id"]
        async with table_lock(table_id):  # a seat taken back changes the table in play
            chosen = await asyncio.to_thread(rooms.sit, person, table_id, seat)
        await after_change(table_id)
        info = await asyncio.to_thread(rooms.info, table_id)
        return JSONResponse({"table": table_json(info, person), "seat": chosen})

    async def leave(request: Request, person: Person | None) -> Response:
        assert person is not None
        table_id = request.path_params["id"]
        async with table_lock(table_id):  # a computer takes the seat at the table in play
            await asyncio.to_thread(rooms.leave, person, table_id)
        await after_change(table_id)
        info = await asyncio.to_thread(rooms.info, table_id)
        return JSONResponse({"table": table_json(info, person)})

    async def start(request: Request, person: Person | None) -> Response:
        assert person is not None
        table_id = request.path_params["id"]
        table = await asyncio.to_thread(rooms.start, person, table_id)
        room_of(table).kick()
        info = await asyncio.to_thread(rooms.info, table_id)
        return JSONResponse({"table": table_json(info, person)})

    async def play(request: Request, person: Person | None) -> Response:
        """The seat's token of ``person`` at a table in play (their seat given back if a
        computer played it), for the table page; the table may be played by another
        process, which the page's connection then reaches through the bus."""
        assert person is not None
        table_id = request.path_params["id"]
        info = await asyncio.to_thread(rooms.info, table_id)
        seat = info.seat_of(person)
        if seat is None or info.status != "playing":
            raise LobbyError.of("online.watch_it")
        table = await local_table(table_id)
        if table is None:  # played by another process: the seat is given back there
            await asyncio.to_thread(rooms.sit, person, table_id)
        else:
            room = room_of(table)
            async with room.lock:
                await asyncio.to_thread(rooms.sit, person, table_id)
            room.away.pop(seat, None)
            await room.broadcast()
            room.kick()
        token = await asyncio.to_thread(rooms.seat_token, table_id, seat)
        return JSONResponse({"token": token, "seat": seat, "url": f"/table#seat={token}"})

    async def local_table(table_id: str) -> OnlineTable | None:
        """The table in this process (opened here if no live process plays it), or None
        when another live process plays it and the bus can reach it; LobbyError if the
        table is not in play, or is played elsewhere and there is no bus."""
        if table_id in rooms.tables:
            return rooms.tables[table_id]
        owner = await asyncio.to_thread(rooms.owner, table_id)
        if owner is not None and owner != rooms.process:
            if bus is None:
                raise LobbyError(f"table {table_id} is played by another server ({owner})")
            return None
        return await asyncio.to_thread(rooms.open_table, table_id)

    def table_lock(table_id: str) -> Any:
        """The lock of the table in play here (its changes are made one at a time), or
        none when it is not played here."""
        room = online_rooms.get(table_id)
        return room.lock if room is not None else contextlib.nullcontext()

    async def after_change(table_id: str) -> None:
        room = online_rooms.get(table_id)
        if room is not None:
            await room.broadcast()
            room.kick()

    # ------------------------------------------------------------------ ratings

    async def leaderboard(request: Request, person: Person | None) -> Response:
        preset = request.query_params.get("rules", "house")
        board = await asyncio.to_thread(rooms.leaderboard, preset)
        return JSONResponse({"rules": preset, "leaderboard": board})

    async def history(request: Request, person: Person | None) -> Response:
        assert person is not None
        found = await asyncio.to_thread(rooms.history, person)
        ratings = {p: await asyncio.to_thread(rooms.rating, person, p) for p in PRESETS}
        return JSONResponse({"person": _person(person), "history": found, "ratings": ratings})

    async def record(request: Request, person: Person | None) -> Response:
        assert person is not None
        found = await asyncio.to_thread(rooms.record, person, request.path_params["id"])
        return JSONResponse(found)

    # ------------------------------------------------------------------ pages

    async def lobby_page(request: Request) -> Response:
        if not host_ok(request):
            return refused(400, "unknown host")
        return FileResponse(ONLINE_STATIC / "lobby.html", headers={"Cache-Control": "no-store"})

    async def table_page(request: Request) -> Response:
        if not host_ok(request):
            return refused(400, "unknown host")
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def texts(request: Request) -> Response:
        chosen = request.query_params.get("lang", "en")
        return JSONResponse(welcome_message(-1, chosen if chosen in LANGUAGES else "en"))

    # ------------------------------------------------------------------ the WebSocket

    async def socket_endpoint(socket: WebSocket) -> None:
        if not host_ok(socket) or not origin_ok(socket):
            await socket.close(code=4003)
            return
        await socket.accept()
        try:
            text = await asyncio.wait_for(socket.receive_text(), JOIN_SECONDS)
            request = parse_request(text)
            if not isinstance(request, (Join, Watch)):
                raise ProtocolError("join or watch first")
        except (asyncio.TimeoutError, ProtocolError, KeyError) as exc:
            await socket.send_text(json.dumps(error_message(f"join first: {exc}")))
            await socket.close(code=4002)
            return
        except WebSocketDisconnect:
            return
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            if isinstance(request, Watch):
                await watch(socket, request.table)
            else:
                await join(socket, request.token)

    async def gone(socket: WebSocket, why: RequestError) -> None:
        said = why.say(language(socket))
        await socket.send_text(json.dumps({**error_message(said), "gone": True}))
        await socket.close(code=4004)

    async def join(socket: WebSocket, token: str) -> None:
        found = await person_of(socket)
        seat_of = await asyncio.to_thread(rooms.find_seat, token)
        if seat_of is None or found is None:
            await gone(socket, RequestError.of("online.old_link"))
            return
        table_id, seat, user_id = seat_of
        if user_id != found[0].id:
            await gone(socket, RequestError.of("online.not_yours"))
            return
        try:
            table = await local_table(table_id)
        except LobbyError as exc:
            await gone(socket, exc)
            return
        connected[user_id] = connected.get(user_id, 0) + 1
        try:
            await seated(socket, table, table_id, seat, found[0])
        finally:
            connected[user_id] -= 1
            if not connected[user_id]:
                del connected[user_id]
            saw(user_id)

    async def seated(
        socket: WebSocket, table: OnlineTable | None, table_id: str, seat: int, person: Person
    ) -> None:
        if table is None:
            await relay(socket, table_id, seat)
            return
        room = room_of(table)
        if seat not in table.humans:  # a computer played it meanwhile: the person is back
            async with room.lock:
                await asyncio.to_thread(rooms.sit, person, table.id)
        await attach(room, seat, socket)
        try:
            await serve_seat(socket, room, seat)
        finally:
            await detach(room, seat, socket)

    async def attach(room: OnlineRoom, seat: int, socket: Any) -> None:
        """``socket`` (a browser's here, or one on another process) is ``seat``'s now."""
        old = room.sockets.get(seat)
        if old is not None and old is not socket:
            with contextlib.suppress(RuntimeError, OSError):
                await old.close(code=4000)
        room.sockets[seat] = socket
        room.empty_since = None
        room.away.pop(seat, None)
        room.table.connected.add(seat)
        await room.send(seat, {**welcome_message(seat, room.table.lang), "analysis": False})
        await room.broadcast()
        room.kick()

    async def detach(room: OnlineRoom, seat: int, socket: Any) -> None:
        if room.leave(seat, socket):
            await room.broadcast()

    async def watch(socket: WebSocket, table_id: str) -> None:
        try:
            table = await local_table(table_id)
        except LobbyError as exc:
            await gone(socket, exc)
            return
        if table is None:
            await relay(socket, table_id, None)
            return
        room = room_of(table)
        await start_watching(room, socket)
        try:
            async for text in paced(socket):
                await watcher_said(room, socket, text)
        finally:
            stop_watching(room, socket)

    async def start_watching(room: OnlineRoom, socket: Any) -> None:
        room.watchers.add(socket)
        room.empty_since = None
        await socket.send_text(
            json.dumps({**welcome_message(-1, room.table.lang), "spectator": True})
        )
        await socket.send_text(json.dumps(room.table.spectator_state(), ensure_ascii=False))

    async def watcher_said(room: OnlineRoom, socket: Any, text: str | bytes) -> None:
        try:
            asked = parse_request(text)
        except ProtocolError as exc:
            await socket.send_text(json.dumps(error_message(str(exc))))
            return
        if isinstance(asked, Refresh):
            await socket.send_text(json.dumps(room.table.spectator_state(), ensure_ascii=False))
        else:
            await socket.send_text(json.dumps(error_message("a spectator only watches")))

    def stop_watching(room: OnlineRoom, socket: Any) -> None:
        room.watchers.discard(socket)
        if not room.sockets and not room.watchers:
            room.empty_since = time.monotonic()

    # ------------------------------------------------------------------ other processes

    remotes: dict[str, tuple[str, int | None, RemoteSocket, asyncio.Queue[Any]]] = {}

    async def relay(socket: WebSocket, table_id: str, seat: int | None) -> None:
        """Carry a browser's connection to the process that plays its table, and back,
        until either side goes or that process stops answering (the browser then
        reconnects, and the table is opened where it can be)."""
        assert bus is not None
        connection = new_connection()
        async with bus.connection(connection) as inbox:
            hello = {"connection": connection, "kind": "join" if seat is not None else "watch"}
            await bus.apublish(table_channel(table_id), {**hello, "seat": seat})
            heard = asyncio.Event()

            async def down() -> None:
                async for message in inbox:
                    heard.set()
                    if "close" in message:
                        await socket.close(code=int(message["close"]))
                        return
                    await socket.send_text(str(message.get("text", "")))

            async def up() -> None:
                async for data in paced(socket):
                    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
                    await bus.apublish(
                        table_channel(table_id),
                        {"connection": connection, "kind": "message", "seat": seat, "text": text},
                    )

            async def alive() -> None:
                try:
                    await asyncio.wait_for(heard.wait(), RELAY_ANSWER_SECONDS)
                except asyncio.TimeoutError:
                    return  # nobody plays the table any more: reconnect
                while True:
                    await asyncio.sleep(RELAY_BEAT_SECONDS)
                    owner = await asyncio.to_thread(rooms.owner, table_id)
                    if owner is None:
                        return
                    await bus.apublish(
                        table_channel(table_id),
                        {"connection": connection, "kind": "alive", "seat": seat},
                    )

            tasks = [asyncio.ensure_future(job()) for job in (down, up, alive)]
            try:
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in tasks:
                    task.cancel()
                await bus.apublish(
                    table_channel(table_id),
                    {"connection": connection, "kind": "leave", "seat": seat},
                )
                with contextlib.suppress(RuntimeError, OSError):
                    await socket.close(code=4005)  # the page reconnects

    async def from_bus(channel: str, data: dict[str, Any]) -> None:
        """A message of another process: a lobby change, or a connection at one of this
        process's tables."""
        if channel == LOBBY:
            table_id = data.get("table")
            room = online_rooms.get(table_id) if isinstance(table_id, str) else None
            if room is None:
                return
            async with room.lock:
                changed = await asyncio.to_thread(rooms.sync_seats, room.table.id)
            if changed:
                await room.broadcast()
                room.kick()
            return
        table_id = channel.split(":")[2]
        connection = data.get("connection")
        table = rooms.tables.get(table_id)
        if table is None or not isinstance(connection, str):
            return
        room = room_of(table)
        kind, seat = data.get("kind"), data.get("seat")
        if kind in ("join", "watch"):
            remote = RemoteSocket(bus, connection)  # type: ignore[arg-type]
            inbox: asyncio.Queue[Any] = asyncio.Queue()
            remotes[connection] = (table_id, seat, remote, inbox)
            room.spawn(serve_remote(room, connection))
        elif connection in remotes:
            remotes[connection][2].heard = time.monotonic()
            await remotes[connection][3].put(data)

    async def serve_remote(room: OnlineRoom, connection: str) -> None:
        """One connection of another process at ``room``'s table, its messages in order."""
        table_id, seat, remote, inbox = remotes[connection]
        try:
            if seat is None:
                await start_watching(room, remote)
            else:
                if not isinstance(seat, int) or seat not in room.table.tokens:
                    await remote.close(4004)
                    return
                async with room.lock:
                    await asyncio.to_thread(rooms.sync_seats, table_id)
                await attach(room, seat, remote)
            lang = room.table.lang
            while True:
                data = await inbox.get()
                if data.get("kind") == "leave":
                    return
                if data.get("kind") != "message":
                    continue
                text = str(data.get("text", ""))
                if seat is None:
                    await watcher_said(room, remote, text)
                    continue
                current: Any = room.sockets.get(seat)
                if current is not remote:
                    return  # the seat was opened again elsewhere
                try:
                    await room.handle(seat, parse_request(text))
                except ProtocolError as exc:
                    await room.send(
                        seat, error_message(t("web.bad_message", lang, reason=str(exc)))
                    )
                except (DecisionRefused, WriteError) as exc:
                    await room.send(seat, error_message(str(exc)))
        finally:
            remotes.pop(connection, None)
            if seat is None:
                stop_watching(room, remote)
            else:
                await detach(room, seat, remote)

    # ------------------------------------------------------------------ upkeep

    async def sweep() -> None:
        now = time.monotonic()
        for _, _, remote, inbox in list(remotes.values()):
            if now - remote.heard > 3 * RELAY_BEAT_SECONDS:
                await inbox.put({"kind": "leave"})  # its process has gone silent
        for table_id, room in list(online_rooms.items()):
            table = room.table
            for seat, since in list(room.away.items()):
                if seat in room.sockets or seat not in table.humans:
                    room.away.pop(seat, None)
                elif now - since >= leave_seconds and not table.match.done:
                    async with room.lock:
                        handed = await asyncio.to_thread(rooms.hand_over, table_id, seat)
                    if handed:
                        room.away.pop(seat, None)
                        await room.broadcast()
                        room.kick()
            if room.idle(now, idle_seconds) or table.closed:
                del online_rooms[table_id]
                await asyncio.to_thread(rooms.close_table, table_id)
        for table_id in await asyncio.to_thread(rooms.orphans):
            with contextlib.suppress(LobbyError):
                room = room_of(await asyncio.to_thread(rooms.open_table, table_id))
                room.kick()

    async def upkeep() -> None:
        beat = 0.0
        while True:
            await asyncio.sleep(sweep_seconds)
            try:
                if time.monotonic() - beat >= BEAT_SECONDS:
                    await asyncio.to_thread(rooms.beat)
                    beat = time.monotonic()
                for person_id in connected:
                    saw(person_id)
                if bus is not None:
                    await asyncio.to_thread(bus.mark_present, dict(seen))
                await sweep()
            except Exception:  # a bug or the database away: logged, and the server goes on
                _log.exception("the online server's upkeep failed")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if thinkers is not None:
            await asyncio.to_thread(thinkers.warm)
        task = asyncio.ensure_future(upkeep())
        listening = asyncio.ensure_future(bus.listen(from_bus)) if bus is not None else None
        try:
            yield
        finally:
            task.cancel()
            if listening is not None:
                listening.cancel()
            for room in online_rooms.values():
                for job in list(room.tasks):
                    job.cancel()
            await asyncio.to_thread(rooms.close)
            if thinkers is not None:
                thinkers.close()

    routes = [
        Route("/", lobby_page),
        Route("/table", table_page),
        Route("/api/texts", texts),
        Route("/api/me", endpoint(me, signed=False)),
        Route("/api/signup", endpoint(sign_up, signed=False, fresh=True), methods=["POST"]),
        Route("/api/signin", endpoint(sign_in, signed=False, fresh=True), methods=["POST"]),
        Route("/api/guest", endpoint(guest, signed=False, fresh=True), methods=["POST"]),
        Route("/api/signout", endpoint(sign_out, signed=False), methods=["POST"]),
        Route("/api/tables", endpoint(tables, signed=False)),
        Route("/api/tables", endpoint(create), methods=["POST"]),
        Route("/api/tables/{id}", endpoint(one_table, signed=False)),
        Route("/api/tables/{id}/sit", endpoint(sit), methods=["POST"]),
        Route("/api/tables/{id}/leave", endpoint(leave), methods=["POST"]),
        Route("/api/tables/{id}/start", endpoint(start), methods=["POST"]),
        Route("/api/tables/{id}/play", endpoint(play), methods=["POST"]),
        Route("/api/leaderboard", endpoint(leaderboard, signed=False)),
        Route("/api/history", endpoint(history)),
        Route("/api/history/{id}/record", endpoint(record)),
        WebSocketRoute("/ws", socket_endpoint),
        Mount("/static/online", StaticFiles(directory=ONLINE_STATIC), name="online"),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # Older browsers read connect-src 'self' without the WebSocket's own scheme.
    sockets = origin.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
    return Starlette(routes=routes, lifespan=lifespan, middleware=[_headers_middleware(sockets)])


def default_limits() -> dict[str, Limiter]:
    """The rate limits of the online server: per address, sign-ins (10 a minute) and
    sign-ups and guests (5 a minute); per name, sign-ins (5 a minute, against guessing one
    person's password from many addresses); per person, new tables (6 a minute)."""
    return {
        "signin": Limiter(per_minute=10, burst=10),
        "signin-name": Limiter(per_minute=5, burst=5),
        "signup": Limiter(per_minute=5, burst=5),
        "guest": Limiter(per_minute=5, burst=5),
        "create": Limiter(per_minute=6, burst=6),
    }


def _person(person: Person) -> dict[str, Any]:
    return {"id": person.id, "name": person.name, "kind": person.kind}


_LOBBY_TEXTS = ("lobby.", "rules.", "level.", "lang.")


def lobby_texts(lang: str) -> dict[str, str]:
    """The lobby page's words in ``lang`` (one of :data:`~ts358.table.texts.LANGUAGES`): its
    own, under ``lobby.``, and the names of the rules presets, levels and languages."""
    return {k: v for k, v in MESSAGES[lang].items() if k.startswith(_LOBBY_TEXTS)}


def page_language(asked: str | None, accepted: str | None) -> str:
    """The lobby's language: ``asked`` (the page's ``?lang=``, or the choice it kept) if the
    server speaks it, else the first language of the browser's ``Accept-Language`` header
    (``accepted``) it speaks, else English.

    >>> page_language("cs", "pl-PL,pl;q=0.9")
    'cs'
    >>> page_language("xx", "de-DE,pl;q=0.8,en;q=0.5")
    'pl'
    >>> page_language(None, None)
    'en'
    """
    if asked in LANGUAGES:
        return asked
    for part in (accepted or "").split(","):
        primary = part.split(";")[0].strip().split("-")[0].lower()
        if primary in LANGUAGES:
            return primary
    return "en"


def _defaults(lang: str) -> dict[str, Any]:
    options = TableOptions()
    return {
        "rules": options.rules,
        "deals": options.deals,
        "level": options.level,
        "lang": lang,
        "private": options.private,
        "pace": options.pace,
    }


def _security_headers(sockets: str) -> list[tuple[bytes, bytes]]:
    policy = (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        f"connect-src 'self' {sockets}; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'self'"
    )
    return [
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"content-security-policy", policy.encode()),
    ]


def _headers_middleware(sockets: str) -> Any:
    from starlette.middleware import Middleware

    headers = _security_headers(sockets)

    class SecurityHeaders:
        """Every response says: no sniffing its type, no framing, no Referer, and the
        page's content only from this server (a user's text can't run as a script even if
        a page wrote it unescaped)."""

        def __init__(self, app: ASGIApp) -> None:
            self.app = app

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await self.app(scope, receive, send)
                return

            async def sending(message: Any) -> None:
                if message["type"] == "http.response.start":
                    message.setdefault("headers", [])
                    message["headers"] = list(message["headers"]) + headers
                await send(message)

            await self.app(scope, receive, sending)

    return Middleware(SecurityHeaders)
