"""A table in the browser: the application layer's :class:`~ts358.table.table.Table` with a
secret token for each person's seat, the links that carry them, each seat's state message
and the refusals in the table's language.

The server (:mod:`ts358.web.app`) calls it under its own lock, runs :meth:`Table.think` and
:meth:`Table.analyse` on worker threads, and sends every seat :meth:`Table.state` after each
change. What a seat can do is exactly what a person at the terminal can: make the decision
that is due from it, ask for its view and for advice on its own decision, and go on after a
deal.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ts358.bots.remote import RemoteBot
from ts358.bots.seat import BotPlayer
from ts358.deal import Answer, DealResult, Pending
from ts358.match import clean_name
from ts358.players.base import Player
from ts358.refusal import Refusal
from ts358.table import table as core
from ts358.table.saves import SavedMatch, SaveLock
from ts358.table.seats import ENGINE_NAMES
from ts358.table.texts import Translator
from ts358.view import SeatView
from ts358.web.messages import TableInfo, deal_scores, seat_state, spectator_state
from ts358.web.protocol import Choose, Decision, Discard, Give, Play, Return, Stop

__all__ = ["DecisionRefused", "Table", "default_names"]

_log = logging.getLogger("ts358.web")
_TABLE_REASONS = {
    core.TableReason.FINISHED: "web.finished",
    core.TableReason.BETWEEN_DEALS: "web.between_deals",
    core.TableReason.NOT_YOUR_TURN: "web.not_your_turn",
}


def default_names(
    tr: Translator, host: int, humans: Iterable[int], host_name: str | None = None
) -> tuple[str, str, str]:
    """Seat names before the people give theirs: the host's ``host_name``, each other
    person "Player N", and each computer player the name it has on the host's left or
    right (Ben and Tom in English), the same in every browser."""
    people = set(humans)
    seen = tr.seat_names(host)
    names = [(seen[s] if s not in people else tr("web.player", number=s + 1)) for s in range(3)]
    if host_name:
        names[host] = host_name
    return (names[0], names[1], names[2])


class DecisionRefused(ValueError):
    """A seat's request that is not allowed now; the message (in the table's language)
    says why. Nothing changed."""


class Table(core.Table):
    """A match at a table of people and computer players, each person with a token.

    Args:
        saved: the match and its settings (a new one, or a save resumed); ``saved.human``
            is the seat of whoever opened the table, whose statistics the match counts in.
        save_path: where the match is saved as it goes; None: not saved (tests, benches).
        humans: the seats played by people; the others are computer players of
            ``saved.level``, or what ``opponents`` names for them.
        lock: the save's lock, held while the table is open (released at the end of the
            match or by :meth:`close`).
        stats: add the finished match to the statistics of :mod:`ts358.table.history`.
        opponents: who plays a computer seat, by seat: a level, a bot (``cmd:COMMAND``,
            docs/bots.md) or a player made already (a remote bot's seat); a bot's faults are
            told to the table (:meth:`notices`).
        keeper: where the save goes instead of ``save_path`` (:class:`ts358.table.table.Table`).
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
        keeper: Callable[[SavedMatch], None] | None = None,
    ) -> None:
        super().__init__(
            saved, save_path, humans, lock=lock, stats=stats, opponents=opponents, keeper=keeper
        )
        self.lang = saved.settings.lang or "en"
        self.tr = Translator(self.lang)
        if self.match.names == ENGINE_NAMES:  # a match started at the terminal, or before names
            self.match.names = default_names(self.tr, self.host, self.humans)
        # 24 random bytes: 32 characters that can't be guessed, one per human seat.
        self.tokens = {seat: secrets.token_urlsafe(24) for seat in sorted(self.humans)}
        self.connected: set[int] = set()

    # ------------------------------------------------------------------ seats

    def seat_of(self, token: str) -> int | None:
        """The human seat whose token is ``token``, or None (compared in constant time)."""
        found = None
        for seat, mine in self.tokens.items():
            if secrets.compare_digest(mine.encode(), token.encode()):
                found = seat
        return found

    @property
    def names(self) -> tuple[str, str, str]:
        """Each seat's name, the same in every browser (the match's names, in the save)."""
        return self.match.names

    def set_name(self, seat: int, name: str) -> None:
        """Name person ``seat`` (what they typed, trimmed); DecisionRefused (one line) for a
        name that is not 1-40 printable characters. The save is written now."""
        if seat not in self.humans:
            raise DecisionRefused("only a person's seat has a name to set")
        try:
            name = clean_name(name)
        except ValueError as exc:
            raise DecisionRefused(str(exc)) from None
        if name != self.match.names[seat]:
            names = list(self.match.names)
            names[seat] = name
            self.match.names = (names[0], names[1], names[2])
            self._written = -1
            self.keep()

    def remote_bots(self) -> dict[int, RemoteBot]:
        """The seats played by bots on other computers, by seat."""
        found = {}
        for seat, computer in self.computers.items():
            player = computer.made
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
        names = self.names
        socket = base_url.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/bot"
        return [
            {"seat": seat, "name": names[seat], "url": socket, "token": bot.token}
            for seat, bot in self.remote_bots().items()
        ]

    def links(self, base_url: str) -> list[dict[str, Any]]:
        """The links of the human seats other than the host's, each carrying its token (in
        the fragment, which browsers do not send to the server or in a Referer)."""
        names = self.names
        return [
            {"seat": seat, "name": names[seat], "url": f"{base_url}/#seat={token}"}
            for seat, token in self.tokens.items()
            if seat != self.host
        ]

    def state(self, seat: int) -> dict[str, Any]:
        """The state message of ``seat`` (:func:`ts358.web.messages.seat_state`)."""
        match = self.match
        info = TableInfo(
            names=self.names,
            humans=self.humans,
            connected=frozenset(self.connected),
            length=match.rules.length,
            scores=deal_scores(match.results),
            totals=match.totals,
            waiting=frozenset(self.waiting),
            done=match.done,
            pace=self.pace,
            lang=self.lang,
            rules=match.rules,
            winner=match.winner,
        )
        return seat_state(seat, self.view(seat), info)

    def spectator_state(self) -> dict[str, Any]:
        """The state message of someone watching the table: no hidden card
        (:func:`ts358.web.messages.spectator_state`)."""
        return spectator_state([self.state(seat) for seat in range(3)], self.lang)

    @property
    def pace(self) -> float:
        """Seconds between the computer players' cards (kept in the save)."""
        return self.saved.settings.pace

    def set_pace(self, seconds: float) -> None:
        """Change the pace; the save is written now (WriteError if it can't be)."""
        self.saved.settings.pace = seconds
        self._written = -1
        self.keep()

    # ------------------------------------------------------------------ decisions

    def _refused(self, refused: core.Refused) -> DecisionRefused:
        reason = refused.reason
        if isinstance(reason, Refusal):
            return DecisionRefused(self.tr.refusal(reason))
        if reason is core.TableReason.MADE_ALREADY:
            return DecisionRefused("the decision was made already")
        return DecisionRefused(self.tr(_TABLE_REASONS[reason]))

    def apply_computer(self, pending: Pending, answer: Answer) -> DealResult | None:
        """Apply a computer player's answer to ``pending``; the finished deal if it was the
        deal's last decision. DecisionRefused if the table has moved on meanwhile."""
        try:
            return super().apply_computer(pending, answer)
        except core.Refused as exc:
            raise self._refused(exc) from None

    def notices(self, seat: int) -> list[str]:
        """What the table is to be told of computer seat ``seat``'s bot since it was last
        asked: its faults, each one line in the table's language (none for ts358's own
        players)."""
        return [self.tr.fault(self.names[seat], f) for f in self.new_faults(seat)]

    def decide_request(self, seat: int, decision: Decision) -> DealResult | None:
        """Make ``seat``'s decision: checked against its view (DecisionRefused, translated,
        nothing changed), then applied; the finished deal if it was the deal's last."""
        view = self.hint_view(seat)
        if decision.kind is not view.kind:
            raise DecisionRefused(
                self.tr(
                    "web.wrong_decision",
                    what=self.tr(f"web.kind.{view.kind}"),
                    asked=self.tr(f"web.kind.{decision.kind}"),
                )
            )
        answer: Any
        if isinstance(decision, Choose):
            answer = decision.game
        elif isinstance(decision, Stop):
            answer = None
        elif isinstance(decision, Discard):
            answer = list(decision.cards)
        else:
            assert isinstance(decision, (Give, Return, Play))
            answer = decision.card
        try:
            return super().decide(seat, answer)
        except core.Refused as exc:
            raise self._refused(exc) from None

    def hint_view(self, seat: int) -> SeatView:
        """``seat``'s view for advice on its decision; DecisionRefused if none is due."""
        try:
            return self.due_view(seat)
        except core.Refused as exc:
            raise self._refused(exc) from None

    def _finish(self) -> None:
        super()._finish()
        if self.stats_error is not None:
            _log.warning("statistics not updated: %s", self.stats_error)
