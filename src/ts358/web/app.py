"""The ASGI application of ``ts358 serve`` (Starlette): the page, the start page's requests
and one WebSocket per seat (docs/web.md).

The event loop never waits on a computer player, a hint or an analysis: each runs on the
server's worker threads (:mod:`ts358.web.workers`: a pool for each kind, with bounded
queues) while the loop goes on serving the other tables and seats. A table's changes are
made under its own :class:`asyncio.Lock`, so two seats' messages and the computer players'
answers are applied one at a time, and every seat gets its new state after each change. The
computer players' cards come at least the table's pace apart (their thinking time counts
towards it), so that a person can follow them. A seat has one hint in flight at most (more
are refused as busy at once), and a connection that sends messages faster than
:data:`MESSAGES_PER_SECOND` is read at that pace (:class:`Flood`).

A table is closed (saved, its save's lock released, its memory freed) once nobody has been
connected to it for ``idle_seconds``, or :data:`FINISHED_SECONDS` after its match ended.

The start page (new match, resume, statistics) answers only requests from this computer
(the loopback address) that name one of the server's own host names (against DNS
rebinding); its POST requests must be JSON, which a page of another site can't send without
asking first (CORS). A WebSocket from a page of another site is refused. The seats' links
carry their tokens; nothing else opens a seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ts358._input import InputError, parse_json
from ts358.analysis.hints import HintService
from ts358.deal import Answer, DealResult, Pending
from ts358.players import LEVELS
from ts358.rules import MATCH_LENGTHS, PRESETS
from ts358.table.saves import WriteError
from ts358.table.texts import LANGUAGES, detect_language, t
from ts358.view import SeatView
from ts358.web.analysis import AnalysisService
from ts358.web.lobby import Lobby, LobbyError, MatchOptions
from ts358.web.messages import advice_message, error_message, review_message, welcome_message
from ts358.web.protocol import (
    MAX_MESSAGE_BYTES,
    Hint,
    Join,
    Name,
    Next,
    Pace,
    ProtocolError,
    Refresh,
    Watch,
    parse_request,
)
from ts358.web.protocol import Request as SeatRequest
from ts358.web.table import DecisionRefused, Table
from ts358.web.workers import Busy, Workers

__all__ = [
    "BODY_SECONDS",
    "FINISHED_SECONDS",
    "IDLE_SECONDS",
    "JOIN_SECONDS",
    "MESSAGES_PER_SECOND",
    "MESSAGE_BURST",
    "STATIC",
    "Flood",
    "Room",
    "create_app",
    "json_body",
    "paced",
    "serve_seat",
]

STATIC = Path(__file__).parent / "static"
"""The page: HTML, JavaScript and CSS, no build step."""

JOIN_SECONDS = 30.0
"""How long a new WebSocket may take to send its seat's token."""

BODY_SECONDS = 10.0
"""How long a request of the start page may take to send its body."""

IDLE_SECONDS = 30.0
"""How long a table stays open with nobody connected (a reload, a lost network come back
well within it); then it is saved and closed, and resumes from the start page."""

FINISHED_SECONDS = 30.0
"""How long a finished match's table stays open with nobody connected."""

MESSAGES_PER_SECOND = 20.0
"""The pace of messages a connection may keep up (a person sends one every few seconds; a
program playing as fast as the table answers, a few a second)."""

MESSAGE_BURST = 100
"""How many messages a connection may send at once, above that pace."""

_log = logging.getLogger("ts358.web")
_INTERNAL = "ts358 serve: internal error (the server's log says more); the match is saved"


class Flood:
    """How fast one connection is read: a token bucket of :data:`MESSAGE_BURST` messages
    refilled at :data:`MESSAGES_PER_SECOND`. A message beyond it waits for its token before
    it is read, and so do the connection's next ones (the network holds them, then the
    sender): a flood is slowed to the pace, nothing is lost, and the other seats and tables
    are not delayed."""

    def __init__(
        self, rate: float = MESSAGES_PER_SECOND, burst: int = MESSAGE_BURST, clock: Any = None
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock or time.monotonic
        self.tokens = float(burst)
        self._at = self.clock()

    def delay(self) -> float:
        """Takes a message's token: how many seconds to wait before serving it."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self._at) * self.rate) - 1
        self._at = now
        return max(0.0, -self.tokens / self.rate)


class Room:
    """A table on the server: its lock, the seats' WebSockets, the task that plays the
    computer players' decisions, the hints being computed."""

    def __init__(self, table: Table, workers: Workers, hints: HintService) -> None:
        self.table = table
        self.workers = workers
        self.hints = hints
        self.lock = asyncio.Lock()
        self.sockets: dict[int, WebSocket] = {}
        self.hinting: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self._driver: asyncio.Task[None] | None = None
        self._changed = time.monotonic()
        self.empty_since: float | None = self._changed  # nobody connected since then

    def leave(self, seat: int, socket: WebSocket) -> bool:
        """``socket`` of ``seat`` went; whether it was the seat's connection."""
        if self.sockets.get(seat) is not socket:
            return False
        del self.sockets[seat]
        self.table.connected.discard(seat)
        if not self.sockets:
            self.empty_since = time.monotonic()
        return True

    def idle(self, now: float, idle_seconds: float) -> bool:
        """Whether the table is to be closed: nobody connected for ``idle_seconds``
        (:data:`FINISHED_SECONDS` once the match is over) and nothing running."""
        if self.sockets or self.tasks or self.empty_since is None:
            return False
        wait = min(idle_seconds, FINISHED_SECONDS) if self.table.match.done else idle_seconds
        return now - self.empty_since >= wait

    def watched(self) -> bool:
        """Whether anyone sees the table: the computer players keep the pace only then."""
        return bool(self.sockets)

    # ------------------------------------------------------------------ sending

    async def send(self, seat: int, message: dict[str, Any]) -> None:
        """Send ``message`` to ``seat`` if it is connected (a broken connection is dropped)."""
        socket = self.sockets.get(seat)
        if socket is None:
            return
        try:
            await socket.send_text(json.dumps(message, ensure_ascii=False))
        except (RuntimeError, OSError, WebSocketDisconnect):
            self.leave(seat, socket)

    async def broadcast(self) -> None:
        """Every connected seat's state."""
        for seat in list(self.sockets):
            await self.send(seat, self.table.state(seat))

    async def tell_all(self, message: str) -> None:
        for seat in list(self.sockets):
            await self.send(seat, error_message(message))

    def spawn(self, work: Awaitable[None]) -> None:
        """Run ``work`` as a task of this room (kept until it ends, cancelled at shutdown)."""
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # ------------------------------------------------------------------ the table

    def changed(self) -> None:
        self._changed = time.monotonic()

    def kick(self) -> None:
        """Play the computer players' decisions due, unless that is under way already."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.ensure_future(self._drive())
            self.tasks.add(self._driver)
            self._driver.add_done_callback(self.tasks.discard)

    async def _drive(self) -> None:
        table = self.table
        try:
            while True:
                async with self.lock:
                    pending = table.computer_due()
                if pending is None:
                    return
                answer = await self.think(pending)
                wait = table.pace - (time.monotonic() - self._changed)
                if wait > 0 and self.watched():
                    await asyncio.sleep(wait)
                async with self.lock:
                    result = table.apply_computer(pending, answer)
                    self.changed()
                for notice in table.notices(pending.seat):  # a bot's faults
                    await self.tell_all(notice)
                await self.after(result)
        except (WriteError, DecisionRefused) as exc:
            _log.error("%s", exc)
            await self.tell_all(str(exc))
        except Exception:  # a bug: said, not lost in a task nobody awaits
            _log.exception("the computer players stopped")
            await self.tell_all(_INTERNAL)

    async def think(self, pending: Pending) -> Answer:
        """The computer player's answer to ``pending``, from a worker thread."""
        return await self.workers.players.run(self.table.think, pending)

    async def after(self, result: DealResult | None) -> None:
        """After a change: every seat's state, and the analysis of a deal just finished."""
        await self.broadcast()
        if result is not None and self.table.saved.settings.analysis:
            self.spawn(self._review(result))

    async def _review(self, result: DealResult) -> None:
        try:
            review = await self.workers.reviews.run(self.table.analyse, result)
        except Busy:
            _log.warning("no review of deal %d: the server is busy", result.number)
            await self.tell_all(t("web.review_busy", self.table.lang))
            return
        except Exception:
            _log.exception("the analysis of deal %d failed", result.number)
            return
        if review is not None:
            for seat in list(self.sockets):
                await self.send(seat, self.review_for(seat))

    def review_for(self, seat: int) -> dict[str, Any]:
        """The latest deal's analysis for ``seat``; an empty dict when there is none."""
        table = self.table
        for review in table.reviews.values():
            return review_message(review, seat, table.names, table.lang)
        return {}

    async def _hint(self, seat: int, view: SeatView, step: int) -> None:
        table = self.table
        try:
            advice = await self.workers.hints.run(self.hints, view)
        except Busy:
            raise DecisionRefused(t("web.server_busy", table.lang)) from None
        finally:
            self.hinting.discard(seat)
        if table.step == step:  # still the same decision
            await self.send(seat, advice_message(view.deal_number, advice, table.lang))

    async def handle(self, seat: int, request: SeatRequest) -> None:
        """One request of ``seat``; DecisionRefused or ProtocolError when it can't be done."""
        table = self.table
        if isinstance(request, (Join, Watch)):
            raise ProtocolError(
                f"{type(request).__name__.lower()}: this connection has joined its seat already"
            )
        if isinstance(request, Refresh):
            await self.send(seat, table.state(seat))
        elif isinstance(request, Hint):
            # Marked busy before anything is awaited: the seat's next message (read once
            # this one is handled) finds the hint in flight.
            if seat in self.hinting:
                raise DecisionRefused(t("web.hint_busy", table.lang))
            view = table.hint_view(seat)  # refused now, not from the task
            self.hinting.add(seat)
            self.spawn(self._guarded(seat, self._hint(seat, view, table.step)))
        elif isinstance(request, Next):
            async with self.lock:
                table.go_on(seat)
            await self.broadcast()
            self.kick()
        elif isinstance(request, Pace):
            async with self.lock:
                table.set_pace(request.seconds)
            await self.broadcast()
        elif isinstance(request, Name):
            async with self.lock:
                table.set_name(seat, request.name)
            await self.broadcast()
        else:
            async with self.lock:
                result = table.decide_request(seat, request)
                self.changed()
            await self.after(result)
            self.kick()

    async def _guarded(self, seat: int, work: Awaitable[None]) -> None:
        try:
            await work
        except (DecisionRefused, WriteError) as exc:
            await self.send(seat, error_message(str(exc)))
        except Exception:
            _log.exception("a request of seat %d failed", seat)
            await self.send(seat, error_message(_INTERNAL))


def _same_origin(origin: str, host: str) -> bool:
    """Whether ``origin`` (a browser's Origin header) is the origin of a page served by
    the request's ``host`` (its Host header): the same host name and port."""
    page = urlsplit(origin)
    served = urlsplit(f"//{host}")
    try:
        default = {"http": 80, "https": 443}.get(page.scheme)
        return (page.hostname or "").lower() == (served.hostname or "").lower() and (
            page.port or default
        ) == (served.port or default)
    except ValueError:  # a port that is not a number
        return False


def _loopback(request: Request) -> bool:
    host = request.client.host if request.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    # A socket on "::" takes IPv4 connections too, as IPv4-mapped addresses (::ffff:127.0.0.1).
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def create_app(
    lobby: Lobby,
    *,
    base_url: str = "http://127.0.0.1:8358",
    hosts: Iterable[str] = ("127.0.0.1", "localhost", "::1"),
    lang: str | None = None,
    workers: Workers | None = None,
    idle_seconds: float = IDLE_SECONDS,
    sweep_seconds: float = 5.0,
) -> Starlette:
    """The application serving ``lobby``'s tables.

    Args:
        lobby: the tables, saves and statistics.
        base_url: the address the seats' links start with (where friends reach the server).
        hosts: the host names requests may name (the Host and Origin headers).
        lang: the start page's language (default: the locale's).
        workers: the threads of the slow work (default: pools sized for this machine).
        idle_seconds: a table nobody is connected to is closed after this long
            (:data:`IDLE_SECONDS`).
        sweep_seconds: how often the tables are looked at for that.
    """
    allowed = {h.strip("[]").lower() for h in hosts} | {(urlsplit(base_url).hostname or "").lower()}
    page_lang = lang or detect_language()
    pools = workers or Workers()
    rooms: dict[Table, Room] = {}
    boards = AnalysisService(lobby.folder)  # the analysis board's searches, on its own threads

    def room_of(table: Table) -> Room:
        if table not in rooms:
            rooms[table] = Room(table, pools, lobby.hints)
        return rooms[table]

    def sweep() -> None:
        """Close the tables nobody uses any more (saved, lock released, memory freed)."""
        now = time.monotonic()
        for table in lobby.open_tables():
            if room_of(table).idle(now, idle_seconds):
                del rooms[table]
                try:
                    lobby.close_table(table)
                except WriteError as exc:
                    _log.error("%s", exc)

    def named_host(value: str | None) -> bool:
        return (urlsplit(f"//{value}").hostname or "").lower() in allowed if value else False

    def host_only(
        handler: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def guarded(request: Request) -> Response:
            if not _loopback(request) or not named_host(request.headers.get("host")):
                return JSONResponse({"error": t("web.lobby_local", page_lang)}, status_code=403)
            if request.method == "POST" and not request.headers.get("content-type", "").startswith(
                "application/json"
            ):
                return JSONResponse({"error": "send the request as JSON"}, status_code=415)
            try:
                return await handler(request)
            except LobbyError as exc:
                return JSONResponse({"error": str(exc)}, status_code=400)

        return guarded

    async def body(request: Request) -> Any:
        return await json_body(request, LobbyError)

    def seated(table: Table) -> JSONResponse:
        return JSONResponse(
            {
                "token": table.tokens[table.host],
                "seat": table.host,
                "links": table.links(base_url),
                "bots": table.bot_links(base_url),
            }
        )

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def lobby_info(request: Request) -> Response:
        chosen = request.query_params.get("lang", page_lang)
        chosen = chosen if chosen in LANGUAGES else page_lang
        saves, unreadable = lobby.saves(chosen)
        return JSONResponse(
            {
                **welcome_message(-1, chosen),
                "type": "lobby",
                "languages": list(LANGUAGES),
                "levels": list(LEVELS),
                "bots": sorted(lobby.bots),
                "lengths": list(MATCH_LENGTHS),
                "rules": list(PRESETS),
                "defaults": dataclasses_defaults(chosen),
                "saves": saves,
                "unreadable": unreadable,
                "stats": lobby.statistics(chosen),
            }
        )

    async def page_texts(request: Request) -> Response:
        """The page's texts in the language asked for (the form that asks a friend's name)."""
        chosen = request.query_params.get("lang", page_lang)
        return JSONResponse(welcome_message(-1, chosen if chosen in LANGUAGES else page_lang))

    # A new table makes its computer players (a hard one allocates its solvers' tables) and
    # writes its save: on a worker thread too, so that the tables in play are not kept waiting.
    async def new_table(request: Request) -> Response:
        options = MatchOptions.from_json(await body(request), page_lang, lobby.bots)
        return seated(await asyncio.to_thread(lobby.new_match, options))

    async def delete(request: Request) -> Response:
        data = await body(request)
        if not isinstance(data, dict) or set(data) != {"id"}:
            raise LobbyError('delete: send {"id": ...} (the id of a saved match)')
        await asyncio.to_thread(lobby.delete, data["id"])
        return JSONResponse({"deleted": data["id"]})

    async def resume(request: Request) -> Response:
        data = await body(request)
        if not isinstance(data, dict) or set(data) != {"id"}:
            raise LobbyError('resume: send {"id": ...} (the id of a saved match)')
        return seated(await asyncio.to_thread(lobby.resume, data["id"]))

    def foreign(socket: WebSocket) -> bool:
        """Whether ``socket`` was opened by a page of another origin. A browser always sends
        the page's origin: it must be this server's page (another site, or another
        program's page on this computer, is refused); a program that is not a browser sends
        none, and still needs a token."""
        origin = socket.headers.get("origin")
        return origin is not None and not (
            named_host(urlsplit(origin).netloc)
            and _same_origin(origin, socket.headers.get("host", ""))
        )

    async def bot_socket(socket: WebSocket) -> None:
        """A bot on another computer at its seat: the protocol's messages both ways."""
        if foreign(socket):
            await socket.close(code=4003)
            return
        await socket.accept()
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await _serve_remote_bot(socket, lobby)

    async def seat_socket(socket: WebSocket) -> None:
        if foreign(socket):
            await socket.close(code=4003)
            return
        await socket.accept()
        try:
            found = await _join(socket, lobby)
        except WebSocketDisconnect:
            return
        if found is None:
            return
        table, seat, name = found
        room = room_of(table)
        old = room.sockets.get(seat)
        if old is not None:  # the seat opened again (a reload, another tab): this one wins
            with contextlib.suppress(RuntimeError, OSError):
                await old.close(code=4000)
        room.sockets[seat] = socket
        room.empty_since = None
        table.connected.add(seat)
        if name is not None:
            try:
                async with room.lock:
                    table.set_name(seat, name)
            except (DecisionRefused, WriteError) as exc:  # the seat is joined all the same
                await room.send(seat, error_message(str(exc)))
        links = table.links(base_url) if seat == table.host else []
        analysis = table.saved.settings.analysis
        welcome = {**welcome_message(seat, table.lang, links), "analysis": analysis}
        if seat == table.host and table.save_path is not None:
            # The host's page links each finished deal to the analysis board (served to
            # this computer only, finished deals only: docs/web.md).
            welcome["save"] = table.save_path.stem
        await room.send(seat, welcome)
        await room.broadcast()
        if table.waiting and (review := room.review_for(seat)):
            await room.send(seat, review)
        room.kick()
        try:
            await serve_seat(socket, room, seat)
        finally:
            if room.leave(seat, socket):
                await room.broadcast()

    async def analysis_page(request: Request) -> Response:
        return FileResponse(STATIC / "analysis.html", headers={"Cache-Control": "no-store"})

    async def analysis_socket(socket: WebSocket) -> None:
        """The analysis board (ts358.web.analysis); saved matches for this computer only."""
        if foreign(socket):
            await socket.close(code=4003)
            return
        await socket.accept()
        local = _loopback(socket) and named_host(socket.headers.get("host"))  # type: ignore[arg-type]
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            lang = socket.query_params.get("lang", page_lang)
            await boards.serve(socket, local, lang if lang in LANGUAGES else page_lang)

    async def sweeping() -> None:
        while True:
            await asyncio.sleep(sweep_seconds)
            try:
                sweep()
            except Exception:  # a bug: logged, and the server goes on
                _log.exception("closing the idle tables failed")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sweeper = asyncio.ensure_future(sweeping())
        try:
            yield
        finally:
            sweeper.cancel()
            for room in rooms.values():
                for task in list(room.tasks):
                    task.cancel()
            lobby.close()

    return Starlette(
        routes=[
            Route("/", index),
            Route("/api/lobby", host_only(lobby_info)),
            Route("/api/texts", page_texts),
            Route("/api/tables", host_only(new_table), methods=["POST"]),
            Route("/api/resume", host_only(resume), methods=["POST"]),
            Route("/api/delete", host_only(delete), methods=["POST"]),
            WebSocketRoute("/ws", seat_socket),
            WebSocketRoute("/bot", bot_socket),
            Route("/analysis", analysis_page),
            WebSocketRoute("/analysis/ws", analysis_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


def dataclasses_defaults(lang: str) -> dict[str, Any]:
    """The start page's defaults: those of :class:`MatchOptions` in ``lang``."""
    options = MatchOptions(lang=lang)
    return {
        "deals": options.deals,
        "level": options.level,
        "rules": options.rules,
        "lang": options.lang,
        "humans": options.humans,
        "pace": options.pace,
    }


async def _join(socket: WebSocket, lobby: Lobby) -> tuple[Table, int, str | None] | None:
    """The table and seat of the token a new connection sends first, and the name it
    gave; None (the connection told why and closed) for anything else."""
    try:
        text = await asyncio.wait_for(socket.receive_text(), JOIN_SECONDS)
        request = parse_request(text)
    except (asyncio.TimeoutError, ProtocolError, KeyError) as exc:
        await socket.send_text(json.dumps(error_message(f"join first: {exc}")))
        await socket.close(code=4002)
        return None
    found = lobby.find(request.token) if isinstance(request, Join) else None
    if found is None:
        why = t("web.gone", detect_language()) if isinstance(request, Join) else "join first"
        await socket.send_text(json.dumps({**error_message(why), "gone": True}))
        await socket.close(code=4004)
        return None
    assert isinstance(request, Join)
    return found[0], found[1], request.name


async def _serve_remote_bot(socket: WebSocket, lobby: Lobby) -> None:
    """Join a remote bot's seat by the token of its first message, then carry the table's
    messages to it and its answers back until either side goes."""
    try:
        data = parse_json(await asyncio.wait_for(socket.receive_text(), JOIN_SECONDS))
        token = data.get("token") if isinstance(data, dict) else None
    except (asyncio.TimeoutError, json.JSONDecodeError, InputError, KeyError) as exc:
        await socket.send_text(json.dumps(error_message(f"join first: {exc}")))
        await socket.close(code=4002)
        return
    bot = lobby.find_remote(token) if isinstance(token, str) else None
    loop = asyncio.get_running_loop()
    outgoing: asyncio.Queue[str | None] = asyncio.Queue()

    def sender(text: str | None) -> None:
        loop.call_soon_threadsafe(outgoing.put_nowait, text)

    if bot is None or not bot.attach(sender):
        await socket.send_text(
            json.dumps({**error_message("no bot's seat for this token"), "gone": True})
        )
        await socket.close(code=4004)
        return

    async def pump() -> None:
        while (text := await outgoing.get()) is not None:
            await socket.send_text(text)
        await socket.close(code=1000)

    pumping = asyncio.ensure_future(pump())
    try:
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            bot.arrived(message.get("text") or message.get("bytes") or b"")
    finally:
        bot.detach()
        pumping.cancel()


async def json_body(request: Request, error: type[Exception]) -> Any:
    """The JSON of a request's body, read within :data:`BODY_SECONDS` and
    :data:`~ts358.web.protocol.MAX_MESSAGE_BYTES`; ``error`` (one line) otherwise."""
    raw = b""

    async def read() -> None:
        nonlocal raw
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_MESSAGE_BYTES:
                raise error(f"a request of more than {MAX_MESSAGE_BYTES} bytes")

    try:
        await asyncio.wait_for(read(), BODY_SECONDS)
    except asyncio.TimeoutError:
        raise error(f"the request's body took more than {BODY_SECONDS:g} s") from None
    try:
        return parse_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, InputError) as exc:
        raise error(f"the request is not JSON: {exc}") from None


async def paced(socket: WebSocket) -> AsyncIterator[str | bytes]:
    """A connection's messages until it goes, a flood read at the pace of :class:`Flood`."""
    flood = Flood()
    while True:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        wait = flood.delay()
        if wait > 0:
            await asyncio.sleep(wait)
        text = message.get("text")
        yield text if text is not None else (message.get("bytes") or b"")


async def serve_seat(socket: WebSocket, room: Room, seat: int) -> None:
    """Read ``seat``'s messages until it goes: each is done or answered with an error; a
    flood is read at the pace of :class:`Flood`."""
    lang = room.table.lang
    async for data in paced(socket):
        try:
            await room.handle(seat, parse_request(data))
        except ProtocolError as exc:
            await room.send(seat, error_message(t("web.bad_message", lang, reason=str(exc))))
        except (DecisionRefused, WriteError) as exc:
            await room.send(seat, error_message(str(exc)))
