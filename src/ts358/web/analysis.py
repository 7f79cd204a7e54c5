"""The analysis board of ``ts358 serve`` (``/analysis``, docs/web.md): a position opened from
its notation or TOML, a match record or a saved match's deal; every legal card's
double-dummy value and each player's, refined live; stepping through the play, the best
line, editing.

Three layers, the first two with no Starlette in them (the Python API):

* :func:`read_position` and :class:`Board`: one board's state (the line of positions
  being stepped through, the deals of a record, a position being edited), every refusal a
  :class:`BoardError` with the engine's one-line text;
* :func:`search`: the values of one position as :func:`ts358.analysis.solve.solve` proves
  them, in rounds of growing time budgets, each round's bounds (and the solver's progress
  within a round) handed to a callback as they narrow, stopped at once by an event;
* :class:`AnalysisService`: the WebSocket ``/analysis/ws``, one search per connection on
  the service's worker threads (a :class:`~ts358.web.workers.WorkPool` refusing at once
  when full), never on the event loop; a new position stops the old search.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ts358._input import InputError, parse_json, quote
from ts358.analysis.review import play_positions
from ts358.analysis.solve import SolveProgress, Solver, new_solver, solve
from ts358.cards import Card, CardSet, NotationError
from ts358.deal import DealResult
from ts358.position import IllegalPlay, Position, PositionError
from ts358.record import RecordError, replay
from ts358.rules import Contract, Role, VoidRule
from ts358.table.saves import SaveError, read_save
from ts358.table.texts import LANGUAGES, parse_card
from ts358.web.workers import Busy, WorkPool

__all__ = [
    "MAX_INPUT_CHARS",
    "AnalysisService",
    "Board",
    "BoardError",
    "Cancelled",
    "read_position",
    "search",
    "values_message",
]

MAX_INPUT_CHARS = 1 << 20
"""The longest text a board reads (a position, a match record): 1 MB, as files are capped."""

FIRST_ROUND_SECONDS = 0.1
"""The time budget of a search's first round; each next round has twice as much."""

MAX_ROUND_SECONDS = 4.0
"""The longest round: the page gets every value's bounds at least this often."""

PROGRESS_SECONDS = 0.1
"""The least time between two reports of the solver's progress within a round."""

_SAVE_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,99}")
_log = logging.getLogger("ts358.web.analysis")


class BoardError(ValueError):
    """A request the board refuses; its text is one line (the engine's where it has one)."""


class Cancelled(Exception):
    """A search stopped because its position was left (:func:`search`'s ``cancel``)."""


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def read_position(text: str) -> Position:
    """A position from its one-line notation or a position file's TOML (told apart by an
    ``=``); BoardError with :class:`~ts358.position.PositionError`'s one line otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise BoardError("paste a position: its one-line notation or a position file's TOML")
    if len(text) > MAX_INPUT_CHARS:
        raise BoardError(f"a position of more than {MAX_INPUT_CHARS} characters")
    try:
        if "=" in text:
            return Position.from_toml(text)
        return Position.parse(text.strip())
    except (PositionError, NotationError) as exc:
        raise BoardError(_one_line(exc)) from None


# ---------------------------------------------------------------------- values


Bounds = tuple[int, int]


def _score_bounds(role: Role, contract: Contract, lo: int, hi: int) -> Bounds:
    a, b = role.score(contract, lo), role.score(contract, hi)
    return (min(a, b), max(a, b))


def values_message(
    position: Position,
    cards: dict[Card, Bounds],
    players: dict[Role, Bounds],
    *,
    seconds: float = 0.0,
    nodes: int = 0,
) -> dict[str, Any]:
    """The page's ``values`` message: each legal card's and each player's total tricks as
    proven bounds (``lo``, ``hi``), their scores, ``exact`` when they meet, ``best`` for
    the cards no other card is known to beat. The mover's value is that of their best card."""
    contract = position.contract
    moved: dict[Role, Bounds] = dict(players)
    card_rows = []
    if not position.is_over:
        mover = position.to_move
        legal = sorted(position.legal_moves(), key=lambda c: (c.suit, -c.rank))
        full = {c: cards.get(c, (position.taken[mover], position.taken[mover] + 99)) for c in legal}
        full = {
            c: (lo, min(hi, position.taken[mover] + position.tricks_left))
            for c, (lo, hi) in full.items()
        }
        scores = {c: _score_bounds(mover, contract, *b) for c, b in full.items()}
        surely = max(s[0] for s in scores.values())
        for card in legal:
            lo, hi = full[card]
            card_rows.append(
                {
                    "card": str(card),
                    "lo": lo,
                    "hi": hi,
                    "score": list(scores[card]),
                    "exact": lo == hi,
                    "best": scores[card][1] >= surely,
                }
            )
        pick = min if contract is Contract.NO_TRICKS else max
        moved[mover] = (pick(b[0] for b in full.values()), pick(b[1] for b in full.values()))
    player_rows = []
    for role in Role:
        if position.is_over:
            lo = hi = position.taken[role]
        else:
            lo, hi = moved.get(
                role, (position.taken[role], position.taken[role] + position.tricks_left)
            )
        player_rows.append(
            {
                "role": role.label,
                "lo": lo,
                "hi": hi,
                "score": list(_score_bounds(role, contract, lo, hi)),
                "exact": lo == hi,
            }
        )
    exact = all(r["exact"] for r in (*card_rows, *player_rows))
    return {
        "type": "values",
        "notation": str(position),
        "cards": card_rows,
        "players": player_rows,
        "exact": exact,
        "seconds": round(seconds, 3),
        "nodes": nodes,
    }


def _narrow(old: Bounds | None, new: Bounds) -> Bounds:
    return new if old is None else (max(old[0], new[0]), min(old[1], new[1]))


def search(
    position: Position,
    report: Callable[[dict[str, Any]], object],
    *,
    cancel: threading.Event | None = None,
    solver: Solver | None = None,
    threads: int | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """Every legal card's and every player's value of ``position``, by
    :func:`ts358.analysis.solve.solve` in rounds of growing time budgets (the solver's
    table keeps what each round proved): ``report`` gets a :func:`values_message` after
    each round and, within a round, whenever the solver's progress narrows a value (at most
    every :data:`PROGRESS_SECONDS`). Bounds are sound at every report, and only narrow.

    Returns the last message (``exact`` unless ``time_limit`` seconds ran out first).
    Raises Cancelled as soon as ``cancel`` is set (within a few milliseconds of search).
    """
    start = time.perf_counter()
    solver = solver if solver is not None else new_solver()
    cards: dict[Card, Bounds] = {}
    players: dict[Role, Bounds] = {}
    last = [0.0]
    nodes = [0]

    def message() -> dict[str, Any]:
        return values_message(
            position, cards, players, seconds=time.perf_counter() - start, nodes=nodes[0]
        )

    def progress(step: SolveProgress) -> None:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        target = step.target
        if target.startswith("card "):
            card = Card.parse(target[5:])
            cards[card] = _narrow(cards.get(card), step.bounds)
        else:
            role = Role.parse(target)
            players[role] = _narrow(players.get(role), step.bounds)
        now = time.perf_counter()
        if now - last[0] >= PROGRESS_SECONDS:
            last[0] = now
            report(message())

    budget = FIRST_ROUND_SECONDS
    while True:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        left = None if time_limit is None else time_limit - (time.perf_counter() - start)
        if left is not None and left <= 0:
            return message()
        round_limit = budget if left is None else min(budget, left)
        result = solve(
            position, solver=solver, threads=threads, time_limit=round_limit, progress=progress
        )
        nodes[0] += result.nodes
        for move in result.moves:
            cards[move.card] = _narrow(cards.get(move.card), move.bounds)
        for value in result.players:
            players[value.role] = _narrow(players.get(value.role), value.bounds)
        done = message()
        report(done)
        if done["exact"]:
            return done
        budget = min(budget * 2, MAX_ROUND_SECONDS)


# ---------------------------------------------------------------------- the board


@dataclasses.dataclass
class _Draft:
    """A position being edited, which need not be valid yet."""

    contract: Contract
    void: VoidRule
    hands: list[CardSet]
    leader: Role
    trick: list[Card]
    taken: list[int]

    @classmethod
    def of(cls, p: Position) -> _Draft:
        return cls(p.contract, p.void, list(p.hands), p.leader, list(p.trick), list(p.taken))

    def position(self) -> Position:
        return Position(
            self.contract,
            (self.hands[0], self.hands[1], self.hands[2]),
            void=self.void,
            leader=self.leader,
            trick=tuple(self.trick),
            taken=(self.taken[0], self.taken[1], self.taken[2]),
        )


def _card(text: Any, lang: str = "en") -> Card:
    if not isinstance(text, str):
        raise BoardError(f"not a card: {quote(text)}")
    try:
        return parse_card(text, lang)
    except NotationError as exc:
        raise BoardError(_one_line(exc)) from None


def _role(text: Any) -> Role:
    try:
        return Role.parse(str(text))
    except ValueError:
        labels = ", ".join(r.label for r in Role)
        raise BoardError(f"not a player: {quote(text)} (write {labels})") from None


class Board:
    """One analysis board: the line of positions being stepped through (a deal's play, or
    a position and the cards played from it), where it stands on it, the deals of the match
    opened, and a position being edited.

    ``saves`` is the folder of the saved matches :meth:`open_save` may open (None: none);
    ``lang`` the language cards are typed in (:func:`ts358.table.texts.parse_card`: the
    Polish queen D, ten 10), besides the engine's notation. Every method refuses with a
    one-line :class:`BoardError` and leaves the board as it was.
    """

    def __init__(self, saves: Path | None = None, lang: str = "en") -> None:
        self.saves = saves
        self.lang = "en"
        self.set_language(lang)
        self.line: list[Position] = []
        self.index = 0
        self.deals: list[DealResult] = []
        self.void = VoidRule.HOUSE
        self.deal = 0  # the deal shown (1-based), 0 for none
        self.draft: _Draft | None = None  # an edit that is not a position yet
        self.draft_error = ""

    def set_language(self, lang: Any) -> None:
        """Read typed cards in ``lang`` (en, pl or cs) from now on."""
        if lang not in LANGUAGES:
            raise BoardError(f"no language {quote(lang)} (write {', '.join(LANGUAGES)})")
        self.lang = lang

    @property
    def position(self) -> Position | None:
        """The position shown (None before one is opened)."""
        return self.line[self.index] if self.line else None

    def _need(self) -> Position:
        if self.position is None:
            raise BoardError("open a position first")
        return self.position

    # ------------------------------------------------------------------ opening

    def open(self, text: str) -> Position:
        """Open a position from its notation or TOML (:func:`read_position`)."""
        return self.show(read_position(text))

    def show(self, position: Position) -> Position:
        """Show ``position`` alone (no deal), e.g. one made by an edit."""
        self.line, self.index, self.deals, self.deal = [position], 0, [], 0
        self.draft, self.draft_error = None, ""
        return position

    def open_record(self, text: str) -> list[dict[str, Any]]:
        """Open a match record's JSON (replayed, so checked by the engine) at its first
        deal; the deals (:meth:`deal_list`)."""
        if not isinstance(text, str) or len(text) > MAX_INPUT_CHARS:
            raise BoardError(f"a match record is JSON text of at most {MAX_INPUT_CHARS} characters")
        try:
            data = parse_json(text)
        except (json.JSONDecodeError, InputError) as exc:
            raise BoardError(f"not a match record: {_one_line(exc)}") from None
        try:
            match = replay(data)
        except RecordError as exc:
            raise BoardError(_one_line(exc)) from None
        return self._open_deals(match.results, match.rules.void)

    def open_save(self, save_id: str) -> list[dict[str, Any]]:
        """Open the finished deals of the saved match ``save_id`` (its id in the saves
        folder, as the start page lists it) at the first deal."""
        if self.saves is None:
            raise BoardError("this board has no saved matches")
        if not isinstance(save_id, str) or not _SAVE_ID.fullmatch(save_id):
            raise BoardError(f"not the id of a saved match: {quote(save_id)}")
        path = self.saves / f"{save_id}.json"
        if not path.exists():
            raise BoardError(f"no saved match {quote(save_id)}")
        try:
            saved = read_save(path)
        except SaveError as exc:
            raise BoardError(_one_line(str(exc).removeprefix(f"{path}: "))) from None
        if not saved.match.results:
            raise BoardError(f"the saved match {quote(save_id)} has no finished deal yet")
        return self._open_deals(saved.match.results, saved.match.rules.void)

    def _open_deals(self, deals: list[DealResult], void: VoidRule) -> list[dict[str, Any]]:
        if not deals:
            raise BoardError("the match has no finished deal")
        self.deals, self.void = list(deals), void
        self.choose_deal(1)
        return self.deal_list()

    def deal_list(self) -> list[dict[str, Any]]:
        """The deals opened: number, game, the chooser's seat, the scores."""
        return [
            {
                "deal": d.number,
                "game": d.game.label,
                "chooser": d.chooser,
                "scores": list(d.scores),
                "tricks": len(d.tricks),
            }
            for d in self.deals
        ]

    def choose_deal(self, number: Any) -> Position:
        """Show deal ``number`` (1-based) of the match opened, before its first card."""
        if not self.deals:
            raise BoardError("open a match record or a saved match first")
        if (
            not isinstance(number, int)
            or isinstance(number, bool)
            or not 1 <= number <= len(self.deals)
        ):
            raise BoardError(f"no deal {quote(number)} (the deals are 1 to {len(self.deals)})")
        result = self.deals[number - 1]
        if not result.tricks:
            raise BoardError(f"deal {number} has no card play")
        self.line = [p for _, _, p in play_positions(result, self.void)]
        self.index, self.deal = 0, number
        self.draft, self.draft_error = None, ""
        return self.line[0]

    # ------------------------------------------------------------------ stepping

    def play(self, card: Any) -> Position:
        """Play ``card`` for the player to move (the line after it is replaced unless it is
        the card played there)."""
        position = self._need()
        chosen = _card(card, self.lang)
        try:
            after = position.play(chosen)
        except IllegalPlay as exc:
            raise BoardError(_one_line(exc)) from None
        if self.line[self.index + 1 : self.index + 2] != [after]:
            del self.line[self.index + 1 :]
            self.line.append(after)
        self.index += 1
        self.draft, self.draft_error = None, ""
        return after

    def back(self) -> Position:
        """One card back."""
        self._need()
        if self.index == 0:
            raise BoardError("this is the first position of the line")
        self.index -= 1
        self.draft, self.draft_error = None, ""
        return self.line[self.index]

    def forward(self) -> Position:
        """One card forward along the line (the deal's play, or the cards played before
        stepping back)."""
        self._need()
        if self.index + 1 >= len(self.line):
            raise BoardError("this is the last position of the line")
        self.index += 1
        self.draft, self.draft_error = None, ""
        return self.line[self.index]

    def go(self, index: Any) -> Position:
        """Jump to the position at ``index`` of the line."""
        self._need()
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.line):
            raise BoardError(f"no step {quote(index)} (the steps are 0 to {len(self.line) - 1})")
        self.index = index
        self.draft, self.draft_error = None, ""
        return self.line[index]

    # ------------------------------------------------------------------ editing

    def edit(self, request: dict[str, Any]) -> Position | None:
        """Edit the position: ``{"op": "move", "card", "to"}`` moves a card to a player's
        hand (from a hand or the trick), ``{"op": "contract", "contract"}``,
        ``{"op": "leader", "leader"}`` (who leads or led the trick), ``{"op": "trick",
        "cards": [...]}`` (cards from the hands of the leader and the next player, in
        order; the old trick's cards go back to their players), ``{"op": "rules",
        "rules"}``. The new position is shown (a line of its own) if it is one; otherwise
        the board keeps the draft and says why not (:attr:`draft_error`), and None."""
        draft = self.draft or _Draft.of(self._need())
        draft = dataclasses.replace(draft, hands=list(draft.hands), trick=list(draft.trick))
        op = request.get("op")
        if op == "move":
            card, to = _card(request.get("card"), self.lang), _role(request.get("to"))
            if card in draft.trick:
                self._untrick(draft)
            holder = next((r for r in Role if card in draft.hands[r]), None)
            if holder is None:
                raise BoardError(f"{card} is in no hand (it was played)")
            if holder is to:
                raise BoardError(f"{to.label} holds {card} already")
            draft.hands[holder] = draft.hands[holder].without_card(card)
            draft.hands[to] = draft.hands[to].with_card(card)
        elif op == "contract":
            try:
                draft.contract = Contract.parse(str(request.get("contract")))
            except ValueError as exc:
                raise BoardError(_one_line(exc)) from None
        elif op == "rules":
            try:
                draft.void = VoidRule.parse(str(request.get("rules")))
            except ValueError as exc:
                raise BoardError(_one_line(exc)) from None
        elif op == "leader":
            leader = _role(request.get("leader"))
            cards = list(draft.trick)
            self._untrick(draft)
            draft.leader = leader
            self._trick(draft, cards)
        elif op == "trick":
            listed = request.get("cards")
            if not isinstance(listed, list) or len(listed) > 2:
                raise BoardError("a trick in progress holds at most two cards")
            chosen = [_card(c, self.lang) for c in listed]
            self._untrick(draft)
            self._trick(draft, chosen)
        else:
            raise BoardError(f"no edit {quote(op)} (move, contract, rules, leader, trick)")
        try:
            position = draft.position()
        except (PositionError, NotationError) as exc:
            self.draft, self.draft_error = draft, _one_line(exc)
            return None
        return self.show(position)

    @staticmethod
    def _untrick(draft: _Draft) -> None:
        for i, card in enumerate(draft.trick):
            role = draft.leader.next(i)
            draft.hands[role] = draft.hands[role].with_card(card)
        draft.trick = []

    @staticmethod
    def _trick(draft: _Draft, cards: Iterable[Card]) -> None:
        for i, card in enumerate(cards):
            role = draft.leader.next(i)
            if card not in draft.hands[role]:
                raise BoardError(f"{role.label} does not hold {card} to play to the trick")
            draft.hands[role] = draft.hands[role].without_card(card)
            draft.trick.append(card)

    # ------------------------------------------------------------------ the page

    def state(self) -> dict[str, Any]:
        """The page's ``board`` message: the position (or the draft being edited), the
        line's steps, the deals opened."""
        position = self.position
        draft = self.draft
        shown: Any = draft if draft is not None else position
        if shown is None:
            return {"type": "board", "empty": True}
        hands = {r.label: [str(c) for c in shown.hands[r].descending()] for r in Role}
        trick = [
            {"card": str(c), "role": shown.leader.next(i).label} for i, c in enumerate(shown.trick)
        ]
        message: dict[str, Any] = {
            "type": "board",
            "empty": False,
            "contract": shown.contract.label,
            "rules": shown.void.label,
            "leader": shown.leader.label,
            "hands": hands,
            "trick": trick,
            "taken": {r.label: shown.taken[r] for r in Role},
            "step": self.index,
            "steps": len(self.line),
            "deal": self.deal,
            "deals": self.deal_list(),
            "draft": draft is not None,
            "draft_error": self.draft_error,
        }
        if draft is None and position is not None:
            message.update(
                notation=str(position),
                toml=position.to_toml(),
                to_move=None if position.is_over else position.to_move.label,
                legal=[str(c) for c in position.legal_moves().descending()],
                over=position.is_over,
            )
        return message


# ---------------------------------------------------------------------- the WebSocket


def _call_soon(loop: asyncio.AbstractEventLoop, work: Callable[..., object], *args: Any) -> None:
    """``work(*args)`` on ``loop`` from a worker thread; a closed loop (the server or the
    connection gone) stops the search."""
    try:
        loop.call_soon_threadsafe(work, *args)
    except RuntimeError:
        raise Cancelled from None


def best_card(position: Position, solver: Solver, cancel: threading.Event | None) -> Card:
    """The first best card of ``position`` (exact values; stopped by ``cancel``)."""

    def check(_: SolveProgress) -> None:
        if cancel is not None and cancel.is_set():
            raise Cancelled

    result = solve(position, solver=solver, progress=check)
    return result.best_moves[0].card


class AnalysisService:
    """The analysis boards of one server: the worker threads that search (``threads``
    of them, at most ``capacity`` searches waiting beyond them, more refused at once) and
    the saves folder the boards may open saved matches from."""

    def __init__(self, saves: Path | None, threads: int = 2, capacity: int = 2) -> None:
        self.saves = saves
        self.pool = WorkPool("analysis", threads, capacity=capacity)

    async def serve(self, socket: Any, local: bool, lang: str = "en") -> None:
        """One board over ``socket`` (accepted already) until it closes: requests read
        and answered, one search at a time, each new position stopping the last search.
        ``local``: the page is this computer's (saved matches may be opened); ``lang``:
        the language its cards are typed in."""
        board = Board(self.saves if local else None, lang)
        connection = _Connection(self, socket, board)
        try:
            await connection.run()
        finally:
            connection.stop()


class _Connection:
    """One board's connection: its requests, its search, its messages in order."""

    def __init__(self, service: AnalysisService, socket: Any, board: Board) -> None:
        self.service = service
        self.socket = socket
        self.board = board
        self.cancel = threading.Event()
        self.task: asyncio.Task[None] | None = None
        self.solver: Solver | None = None
        # One search at a time on the connection's solver: a new one waits for the old
        # one's thread, which the solver's stop flag ends at once.
        self.solver_lock = threading.Lock()
        self.search_id = 0
        self.loop = asyncio.get_running_loop()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the page (sent in order by :meth:`pump`)."""
        self.outbox.put_nowait(message)

    async def pump(self) -> None:
        while True:
            message = await self.outbox.get()
            await self.socket.send_text(json.dumps(message, ensure_ascii=False))

    def stop(self) -> None:
        """Stop the search under way (its thread stops at its next check)."""
        self.cancel.set()
        if self.task is not None:
            self.task.cancel()

    async def run(self) -> None:
        pump = asyncio.ensure_future(self.pump())
        try:
            self.send(self.board.state())
            while not pump.done():
                message = await self.socket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                try:
                    self.handle(text)
                except BoardError as exc:
                    self.send({"type": "error", "error": _one_line(exc)})
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, RuntimeError, OSError):
                await pump

    def handle(self, text: str) -> None:
        """One request: the board changed and a new search started, or BoardError."""
        try:
            request = parse_json(text)
        except (json.JSONDecodeError, InputError) as exc:
            raise BoardError(f"bad message: not JSON ({_one_line(exc)})") from None
        if not isinstance(request, dict) or not isinstance(request.get("type"), str):
            raise BoardError('bad message: send a JSON object with a "type"')
        kind = request["type"]
        board = self.board
        if kind == "open":
            board.open(request.get("text"))  # type: ignore[arg-type]
        elif kind == "record":
            board.open_record(request.get("text"))  # type: ignore[arg-type]
        elif kind == "save":
            board.open_save(request.get("id"))  # type: ignore[arg-type]
            if "deal" in request:
                board.choose_deal(request["deal"])
        elif kind == "deal":
            board.choose_deal(request.get("deal"))
        elif kind == "play":
            board.play(request.get("card"))
        elif kind == "back":
            board.back()
        elif kind == "forward":
            board.forward()
        elif kind == "go":
            board.go(request.get("step"))
        elif kind == "edit":
            if board.edit(request) is None:
                self.stop_search()
                self.send(board.state())
                return
        elif kind == "best-line":
            board._need()
            self.start(best=True)
            return
        elif kind == "stop":
            self.stop_search()
            return
        elif kind == "lang":
            board.set_language(request.get("lang"))
            return
        else:
            raise BoardError(
                f"bad message: no request {quote(kind)} "
                "(open, record, save, deal, play, back, forward, go, edit, best-line, stop, lang)"
            )
        self.start()

    def stop_search(self) -> None:
        self.cancel.set()
        self.cancel = threading.Event()
        if self.solver is not None:
            self.solver.stop()

    def start(self, best: bool = False) -> None:
        """The board's new state, and a new search of its position (the old one stopped)."""
        self.stop_search()
        self.search_id += 1
        self.send({**self.board.state(), "search": self.search_id})
        position = self.board.position
        if position is not None:
            self.task = asyncio.ensure_future(
                self._search(position, self.search_id, self.cancel, best)
            )

    def _advance(self, sid: int, card: Card, cancel: threading.Event) -> None:
        """A card of the best line, played on the board (on the loop) while it is current."""
        if cancel.is_set() or sid != self.search_id:
            return
        self.board.play(str(card))
        self.send({**self.board.state(), "search": sid})

    async def _search(
        self, position: Position, sid: int, cancel: threading.Event, best: bool
    ) -> None:
        loop = self.loop

        def post(message: dict[str, Any]) -> None:
            if not cancel.is_set():
                _call_soon(loop, self._post, {**message, "search": sid}, cancel)

        def work() -> None:
            with self.solver_lock:
                if cancel.is_set():
                    raise Cancelled
                if self.solver is None:
                    self.solver = new_solver()
                solver = self.solver
                solver.stop(False)
                at = position
                if best:  # the best card, played, until the deal is over
                    while not at.is_over:
                        card = best_card(at, solver, cancel)
                        at = at.play(card)
                        _call_soon(loop, self._advance, sid, card, cancel)
                search(at, post, cancel=cancel, solver=solver)

        try:
            await self.service.pool.run(work)
        except Cancelled:
            return
        except Busy:
            if not cancel.is_set():
                self.send({"type": "error", "error": "the server is busy: try again in a moment"})
        except Exception:  # a bug: logged, said in one line
            _log.exception("the analysis of %s failed", position)
            self.send({"type": "error", "error": "the analysis failed (see the log)"})

    def _post(self, message: dict[str, Any], cancel: threading.Event) -> None:
        if not cancel.is_set():
            self.send(message)
