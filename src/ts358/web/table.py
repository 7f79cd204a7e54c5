"""A table in the browser: one match, each seat a person (with a secret token) or a computer
player, saved as it goes like ``ts358 play`` saves it.

:class:`Table` is synchronous and does no I/O but its save and the statistics: the server
(:mod:`ts358.web.app`) calls it under its own lock, runs :meth:`Table.think` and
:meth:`Table.analyse` on worker threads, and sends every seat :meth:`Table.state` after each
change. A program can drive it the same way without a server::

    table = Table(saved, save_path, humans=[0])
    while (pending := table.computer_due()) is not None or table.waiting:
        ...  # table.decide(0, Play(card)), table.go_on(0), table.apply_computer(...)

What a seat can do is exactly what a person at the terminal can: make the decision that is
due from it (checked against its own view, then by the engine), ask for its view and for
advice on its own decision, and go on after a deal. The computer players are the terminal's
(:class:`~ts358.session.play.ComputerSeat`: the same seeds, so a match goes on alike in the
terminal and in the browser), and so are the save's moments: when the table opens, right
after a person's decision, when a person's decision becomes due (with the computer players'
decisions made since) and at the end of each deal.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ts358.analysis.review import DealReview, review_deal
from ts358.bots.remote import RemoteBot
from ts358.bots.seat import BotPlayer
from ts358.cards import CardSet
from ts358.deal import Answer, Applied, DealResult, IllegalDecision, Pending
from ts358.players.base import Player
from ts358.session.history import entry_from_match, record_match
from ts358.session.human import (
    discard_refusal,
    game_refusal,
    give_refusal,
    play_refusal,
    return_refusal,
)
from ts358.session.play import ComputerSeat, fault_text, save
from ts358.session.saves import SavedMatch, SaveLock
from ts358.session.table import CardStyle, seat_names
from ts358.session.texts import t
from ts358.view import SeatView
from ts358.web.messages import TableInfo, deal_scores, seat_state
from ts358.web.protocol import Choose, Decision, Discard, Give, Play, Return, Stop

__all__ = ["DecisionRefused", "Table"]

_STYLE = CardStyle(symbols=True)
_log = logging.getLogger("ts358.web")


class DecisionRefused(ValueError):
    """A seat's request that is not allowed now; the message (in the table's language)
    says why. Nothing changed."""


class Table:
    """A match at a table of people and computer players.

    Args:
        saved: the match and its settings (a new one, or a save resumed); ``saved.human``
            is the seat of whoever opened the table, whose statistics the match counts in.
        save_path: where the match is saved as it goes; None: not saved (tests, benches).
        humans: the seats played by people; the others are computer players of
            ``saved.level``, or what ``opponents`` names for them.
        lock: the save's lock, held while the table is open (released at the end of the
            match or by :meth:`close`).
        stats: add the finished match to the statistics of :mod:`ts358.session.history`.
        opponents: who plays a computer seat, by seat: a level, a bot (``cmd:COMMAND``,
            docs/bots.md) or a player made already (a remote bot's seat); a bot's faults are
            told to the table (:meth:`notices`).
    """

    def __init__(
        self,
        saved: SavedMatch,
        save_path: Path | None,
        humans: Iterable[int],
        *,
        lock: SaveLock | None = None,
        stats: bool = True,
        opponents: Mapping[int, str | Player] | None = None,
    ) -> None:
        self.saved = saved
        self.match = saved.match
        self.save_path = save_path
        self.humans = frozenset(humans)
        if not self.humans or not self.humans <= {0, 1, 2}:
            raise ValueError(f"a table has 1-3 human seats (0-2), not {sorted(self.humans)}")
        self.host = saved.human if saved.human in self.humans else min(self.humans)
        self.lang = saved.settings.lang or "en"
        self.lock = lock
        self.stats = stats
        # 24 random bytes: 32 characters that can't be guessed, one per human seat.
        self.tokens = {seat: secrets.token_urlsafe(24) for seat in sorted(self.humans)}
        seed = self.match.seed or 0
        chosen = opponents or {}
        self.computers = {
            s: ComputerSeat(chosen.get(s, saved.level), seed, s)
            for s in range(3)
            if s not in self.humans
        }
        self.step = len(self.match.snapshot().decisions)
        self.waiting: set[int] = set()  # human seats still to go on after the last deal
        self.connected: set[int] = set()
        self.reviews: dict[int, DealReview] = {}
        self._written = -1
        self.closed = False
        self.keep()

    # ------------------------------------------------------------------ seats

    def seat_of(self, token: str) -> int | None:
        """The human seat whose token is ``token``, or None (compared in constant time)."""
        found = None
        for seat, mine in self.tokens.items():
            if secrets.compare_digest(mine.encode(), token.encode()):
                found = seat
        return found

    def remote_bots(self) -> dict[int, RemoteBot]:
        """The seats played by bots on other computers, by seat."""
        found = {}
        for seat, computer in self.computers.items():
            player = computer.player
            if isinstance(player, BotPlayer) and isinstance(player.command, RemoteBot):
                found[seat] = player.command
        return found

    def remote_bot(self, token: str) -> RemoteBot | None:
        """The remote bot's seat that ``token`` opens, or None (compared in constant time)."""
        found = None
        for bot in self.remote_bots().values():
            if secrets.compare_digest(bot.token.encode(), token.encode()):
                found = bot
        return found

    def bot_links(self, base_url: str) -> list[dict[str, Any]]:
        """What a bot on another computer needs to take its seat: the WebSocket to open and
        the token to join with (docs/bots.md#remote-bots)."""
        names = seat_names(self.host, self.lang)
        socket = base_url.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/bot"
        return [
            {"seat": seat, "name": names[seat], "url": socket, "token": bot.token}
            for seat, bot in self.remote_bots().items()
        ]

    def links(self, base_url: str) -> list[dict[str, Any]]:
        """The links of the human seats other than the host's, each carrying its token (in
        the fragment, which browsers do not send to the server or in a Referer)."""
        names = seat_names(self.host, self.lang)
        return [
            {"seat": seat, "name": names[seat], "url": f"{base_url}/#seat={token}"}
            for seat, token in self.tokens.items()
            if seat != self.host
        ]

    def view(self, seat: int) -> SeatView | None:
        """What ``seat`` knows of the deal in progress (None once the match is over)."""
        deal = self.match.deal
        return deal.view(seat) if deal is not None else None

    def state(self, seat: int) -> dict[str, Any]:
        """The state message of ``seat`` (:func:`ts358.web.messages.seat_state`)."""
        match = self.match
        info = TableInfo(
            names=seat_names(seat, self.lang),
            humans=self.humans,
            connected=frozenset(self.connected),
            length=match.rules.length,
            scores=deal_scores(match.results),
            totals=match.totals,
            waiting=frozenset(self.waiting),
            done=match.done,
            pace=self.pace,
            lang=self.lang,
        )
        return seat_state(seat, self.view(seat), info)

    @property
    def pace(self) -> float:
        """Seconds between the computer players' cards (kept in the save)."""
        return self.saved.settings.pace

    def set_pace(self, seconds: float) -> None:
        """Change the pace; the save is written now (SessionError if it can't be)."""
        self.saved.settings.pace = seconds
        self._written = -1
        self.keep()

    # ------------------------------------------------------------------ decisions

    def computer_due(self) -> Pending | None:
        """The computer player's decision due now, if any (none while people read a deal's
        summary)."""
        if self.waiting:
            return None
        pending = self.match.pending()
        if pending is None or pending.seat not in self.computers:
            return None
        return pending

    def think(self, pending: Pending) -> Answer:
        """The computer player's answer to ``pending`` (slow for a hard player: the server
        calls it on a worker thread; it reads only the player and the view)."""
        return self.computers[pending.seat].decide(pending.view, self.step)

    def apply_computer(self, pending: Pending, answer: Answer) -> DealResult | None:
        """Apply a computer player's answer to ``pending``; the finished deal if it was the
        deal's last decision. DecisionRefused if the table has moved on meanwhile."""
        now = self.match.pending()
        if self.closed or now is None or now.seat != pending.seat or now.kind is not pending.kind:
            raise DecisionRefused("the decision was made already")
        return self._applied(self.match.apply_answer(answer))

    def notices(self, seat: int) -> list[str]:
        """What the table is to be told of computer seat ``seat``'s bot since it was last
        asked: its faults, each one line in the table's language (none for ts358's own
        players)."""
        name = seat_names(self.host, self.lang)[seat]
        return [fault_text(name, f, self.lang) for f in self.computers[seat].new_faults()]

    def _due_view(self, seat: int) -> SeatView:
        """``seat``'s view when a decision is due from it; DecisionRefused otherwise."""
        if self.match.done or self.closed:
            raise DecisionRefused(t("web.finished", self.lang))
        if self.waiting:
            raise DecisionRefused(t("web.between_deals", self.lang))
        view = self.view(seat)
        if view is None or view.kind is None:
            raise DecisionRefused(t("web.not_your_turn", self.lang))
        return view

    def decide(self, seat: int, decision: Decision) -> DealResult | None:
        """Make ``seat``'s decision: checked against its view (DecisionRefused, translated,
        nothing changed), then applied; the finished deal if it was the deal's last."""
        view = self._due_view(seat)
        lang = self.lang
        if decision.kind is not view.kind:
            raise DecisionRefused(
                t(
                    "web.wrong_decision",
                    lang,
                    what=t(f"web.kind.{view.kind}", lang),
                    asked=t(f"web.kind.{decision.kind}", lang),
                )
            )
        answer: Answer
        if isinstance(decision, Choose):
            refusal = game_refusal(view, decision.game, lang)
            answer = decision.game
        elif isinstance(decision, Stop):
            refusal, answer = None, None
        elif isinstance(decision, Give):
            refusal = give_refusal(view, decision.card, _STYLE, lang)
            answer = decision.card
        elif isinstance(decision, Return):
            refusal = return_refusal(view, decision.card, _STYLE, lang)
            answer = decision.card
        elif isinstance(decision, Discard):
            refusal = discard_refusal(view, decision.cards, _STYLE, lang)
            answer = CardSet(decision.cards)
        else:
            assert isinstance(decision, Play)
            refusal = play_refusal(view, decision.card, _STYLE, lang)
            answer = decision.card
        if refusal is not None:
            raise DecisionRefused(refusal)
        try:
            applied = self.match.apply_answer(answer)
        except IllegalDecision as exc:  # the view's checks come first; this is a backstop
            raise DecisionRefused(t("err.illegal", lang, reason=str(exc))) from None
        return self._applied(applied)

    def _applied(self, applied: Applied) -> DealResult | None:
        self.step += 1
        result = applied.result
        if result is not None:
            for seat, computer in self.computers.items():
                computer.player.deal_over(seat, result)
            if not self.match.done:
                self.waiting = set(self.humans)
            self.keep()
            if self.match.done:
                self._finish()
        elif applied.seat in self.humans or self._human_due():
            self.keep()
        return result

    def _human_due(self) -> bool:
        pending = self.match.pending()
        return pending is not None and pending.seat in self.humans

    def go_on(self, seat: int) -> None:
        """``seat`` has read the deal's summary; the next deal starts when every person has."""
        self.waiting.discard(seat)

    def hint_view(self, seat: int) -> SeatView:
        """``seat``'s view for advice on its decision; DecisionRefused if none is due."""
        return self._due_view(seat)

    def analyse(self, result: DealResult) -> DealReview | None:
        """The after-deal double-dummy review, as the terminal makes it: every person's
        cards valued with their alternatives, within the save's analysis time (None when
        the analysis is off). Slow: call it on a worker thread."""
        settings = self.saved.settings
        if not settings.analysis:
            return None
        deadline = time.monotonic() + settings.analysis_seconds
        review = review_deal(result, self.match.rules.void, tuple(self.humans), deadline=deadline)
        self.reviews = {result.number: review}
        return review

    # ------------------------------------------------------------------ the save

    def keep(self) -> None:
        """Write the save unless it holds every decision applied already or the table is
        closed (SessionError, one line, if it can't be written)."""
        if self.save_path is not None and self._written != self.step and not self.closed:
            save(self.saved, self.save_path)
            self._written = self.step

    def _finish(self) -> None:
        if self.stats:
            entry = entry_from_match(self.match, self.saved.id, self.host, self.saved.level)
            try:
                record_match(entry)
            except OSError as exc:
                _log.warning("statistics not updated: %s", exc.strerror or exc)
        self.close()

    def close(self) -> None:
        """Write the save if a change is not in it yet and give it up (its lock), e.g. when
        the server stops; the save stays. Nothing can be decided at the table any more.
        SessionError if the save can't be written (the lock is released all the same)."""
        try:
            if not self.closed:
                self.keep()
        finally:
            self.closed = True
            for computer in self.computers.values():
                computer.player.close()
            if self.lock is not None:
                self.lock.release()
                self.lock = None
