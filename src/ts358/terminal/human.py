"""The interactive seat: a :class:`~ts358.players.base.Player` whose decisions are typed.

Input comes through one small abstraction, :class:`LineInput`: a line per answer, from a
terminal (with line editing) or from a pipe (the same commands, one per line; what is read
is echoed so a transcript reads naturally). End of input means quit.

At every prompt the player may type a decision or a command: ``hint``, ``last``,
``talon``, ``score``, ``help``, ``quit``. A typo or a card the rules don't allow prints the
reason and asks again; nothing reaches the engine until it is legal. Cards are accepted in
any notation of :meth:`ts358.cards.Card.parse` (``QH``, ``Q♥``, ``10h``), in the letters
of the table's language (Polish ``D♥``, ``W♦``: :meth:`Translator.parse_card
<ts358.table.texts.Translator.parse_card>`) or by their number in the hand as displayed;
when one card alone may be played, an empty line plays it.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable, Sequence
from typing import IO, Protocol, TypeVar

from rich.console import Console
from rich.text import Text

from ts358.cards import Card, CardSet, NotationError, Rank, Suit
from ts358.deal import Answer, DealResult
from ts358.exchange import plan_exchange
from ts358.players.advice import Advice
from ts358.players.base import Player
from ts358.refusal import verify
from ts358.rules import Contract, Talon
from ts358.table.texts import parse_game
from ts358.terminal.render import (
    CardStyle,
    render_advice,
    render_finished_trick,
    render_games,
    render_scores,
    render_table,
    talon_key,
)
from ts358.view import DecisionKind, SeatView, Trick

_A = TypeVar("_A")  # what a prompt reads

__all__ = ["HumanPlayer", "InputSource", "LineInput", "QuitRequested"]

COMMANDS = ("hint", "last", "talon", "score", "help", "quit")
_STOP_WORDS = {"stop", "s", "konec", "koniec", "end", "0", "-"}
_QUIT_WORDS = {"quit", "q", "exit", "koniec gry", "konec hry"}
_HELP_WORDS = {"help", "?", "h", "pomoc", "napoveda", "nápověda"}
# The hint in the words of the texts (pl "podpowiedź", cs "rada"), distinct from help's.
_HINT_WORDS = {"hint", "podpowiedz", "podpowiedź", "rada"}


class QuitRequested(Exception):
    """The player typed ``quit`` (or input ended): save and stop."""


class InputError(ValueError):
    """An answer that can't be used; the message (already translated) says why."""


class InputSource(Protocol):
    def ask(self, prompt: str) -> str | None:
        """Show ``prompt`` and return one line without its newline, or None at end of input."""
        ...


_SIGNAL_POLL = 0.1
"""Seconds between two looks at the signals while a terminal's prompt waits for a line."""


def _wait_for_line(stream: IO[str]) -> None:
    """Wait until the terminal ``stream`` has a line to read, in selects of at most
    ``_SIGNAL_POLL`` seconds, each followed by Python's check of its signals.

    ``input()`` waits for the line in a read in C. A signal interrupts that read and Python
    raises its exception (Ctrl-C's KeyboardInterrupt), unless it arrived after Python last
    looked at its signals and before the read began: then nothing interrupts the read, and
    Ctrl-C just after the prompt appeared would do nothing until Enter (the first ``^C``
    echoed, the session waiting). Here such a signal is handled at the end of the select it
    came before, at most ``_SIGNAL_POLL`` seconds late; once a line is there, ``input()``
    does not wait. POSIX only (Windows' select takes sockets only)."""
    if os.name != "posix":
        return
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    while not select.select([fd], [], [], _SIGNAL_POLL)[0]:
        pass


class LineInput:
    """Lines from a stream: ``input()`` with line editing on a terminal, plain ``readline``
    otherwise (then the line read is echoed after the prompt)."""

    def __init__(
        self, console: Console, stream: IO[str] | None = None, echo: bool | None = None
    ) -> None:
        self.console = console
        self.stream = stream
        self._echo = echo

    def _stream(self) -> IO[str]:
        return self.stream if self.stream is not None else sys.stdin

    @property
    def terminal(self) -> bool:
        """Whether the lines are typed at a terminal (not piped in)."""
        return bool(getattr(self._stream(), "isatty", lambda: False)())

    def ask(self, prompt: str) -> str | None:
        stream = self._stream()
        if self.terminal and stream is sys.stdin:
            # Console.input, with the wait for the line in between (_wait_for_line says why).
            self.console.print(Text(prompt + " > ", style="bold"), end="")
            _wait_for_line(stream)
            try:
                return input()
            except EOFError:
                return None
        self.console.print(Text(prompt + " > ", style="bold"), end="")
        line = stream.readline()
        if not line:
            self.console.print()
            return None
        line = line.rstrip("\r\n")
        if self._echo is None or self._echo:
            self.console.print(line, markup=False, highlight=False)
        return line


class HumanPlayer(Player):
    """The seat of the person at the keyboard.

    Args:
        io: where answers come from.
        console: where the table and messages go.
        style: how cards are written.
        names: display names by seat.
        history: the finished deals of the match so far (for ``score``).
        hint: the advice at any decision (for ``hint``), e.g.
            :class:`ts358.analysis.hints.HintService`.
    """

    name = "human"

    def __init__(
        self,
        io: InputSource,
        console: Console,
        style: CardStyle,
        names: Sequence[str],
        history: Callable[[], Sequence[DealResult]] = lambda: (),
        hint: Callable[[SeatView], Advice[Answer]] | None = None,
        err_console: Console | None = None,
    ) -> None:
        self.io = io
        self.console = console
        self.err_console = err_console or console
        self.style = style
        self.tr = style.tr
        self.names = tuple(names)
        self.history = history
        self.hint = hint
        self._deal = 0
        self._seen_game = False
        self._seen_exchanges = 0  # exchange events told (_exchange_events)
        self._seen_talon = False
        self._seen_tricks = 0
        self._last_view: SeatView | None = None

    # ------------------------------------------------------------------ output

    def say(self, message: str, style: str = "") -> None:
        self.console.print(Text(self.style.text(message), style=style))

    def error(self, message: str) -> None:
        self.say(message, "yellow")

    def _catch_up(self, view: SeatView) -> None:
        """Print what happened since this seat's last decision."""
        if view.deal_number != self._deal:
            self._deal = view.deal_number
            self._seen_game = self._seen_talon = False
            self._seen_exchanges = self._seen_tricks = 0
            self.console.print()
        names = self.names
        # The game and the exchange in the order they happened (the exchange first under
        # Exchange.BEFORE_CHOICE).
        if view.rules.exchanges_before(None):
            self._tell_exchange(view)
            self._tell_game(view)
        else:
            self._tell_game(view)
            self._tell_exchange(view)
        if view.talon_taken and not self._seen_talon:
            self._seen_talon = True
            shown = view.rules.talon is Talon.SHOWN
            if view.talon is None:  # taken unseen by this seat
                self.say(self.tr("ev.talon_taken", name=names[view.chooser]))
            else:
                cards = " ".join(self.style.plain(c) for c in view.talon.descending())
                if view.chooser != view.seat:
                    self.say(self.tr("ev.talon", cards=cards, name=names[view.chooser]))
                else:
                    self.say(
                        self.tr("ev.talon_you" if shown else "ev.talon_taken_you", cards=cards)
                    )
        self._show_tricks(view.tricks, view.seat)

    def _tell_game(self, view: SeatView) -> None:
        if view.game is not None and not self._seen_game:
            self._seen_game = True
            if view.chooser == view.seat:
                self.say(self.tr("ev.you_chose", game=self.tr.game(view.game)))
            else:
                name = self.names[view.chooser]
                self.say(self.tr("ev.chose", name=name, game=self.tr.game(view.game)))

    def _tell_exchange(self, view: SeatView) -> None:
        events = self._exchange_events(view)
        for event in events[self._seen_exchanges :]:
            self.say(event)
        self._seen_exchanges = len(events)

    def _exchange_events(self, view: SeatView) -> list[str]:
        """What this seat knows of the deal's exchange so far, in the order it was played:
        turn by turn (:func:`~ts358.exchange.plan_exchange`, the order the rules fix), each
        card given and returned in its own turns, the count of the other two players' turn,
        and a turn that ended with no card given (a giver who stopped at once, or had
        nothing to give). A turn is told to its end only once it is over; the list only
        grows as the exchange goes on, so the events not yet told are its tail."""
        first = view.rules.exchanges_before(None)  # before the choice (Sergeant Major)
        if view.game is None and not first:
            return []
        plan = plan_exchange(view.previous_scores, view.dealer, view.game, view.rules)
        # The turn in progress; all are over once the game is chosen (an exchange before
        # the choice) or the talon taken.
        current = len(plan)
        if not (view.game is not None if first else view.talon_taken):
            pair: tuple[int | None, int | None] | None = None
            if view.kind is DecisionKind.GIVE:
                pair = (view.seat, view.give_to)
            elif view.kind is DecisionKind.RETURN:
                pair = (view.give_to, view.seat)
            current = next((i for i, t in enumerate(plan) if (t.giver, t.receiver) == pair), 0)
        names, tr, s = self.names, self.tr, self.style.plain
        events: list[str] = []
        for i, turn in enumerate(plan[: current + 1]):
            over = i < current
            giver, receiver = turn.giver, turn.receiver
            if view.seat not in (giver, receiver):
                if over:  # the other two: the count is all this seat learns
                    count = view.others_exchanged
                    key = "ev.others_exchanged" if count else "ev.others_none"
                    events.append(tr(key, count=count, a=names[giver], b=names[receiver]))
                continue
            steps = [x for x in view.exchanges if (x.giver, x.receiver) == (giver, receiver)]
            for step in steps:
                if giver == view.seat:
                    events.append(
                        tr(
                            "ev.you_gave",
                            given=s(step.given),
                            name=names[receiver],
                            returned=s(step.returned),
                        )
                    )
                else:
                    events.append(
                        tr(
                            "ev.gave_you",
                            name=names[giver],
                            given=s(step.given),
                            returned=s(step.returned),
                        )
                    )
            if over and not steps:
                if giver == view.seat:
                    events.append(tr("ev.you_gave_none", name=names[receiver]))
                else:
                    events.append(tr("ev.gave_you_none", name=names[giver]))
        return events

    def _show_tricks(self, tricks: Sequence[Trick], seat: int) -> None:
        for number in range(self._seen_tricks + 1, len(tricks) + 1):
            self.console.print(
                render_finished_trick(number, tricks[number - 1], self.names, self.style, seat)
            )
        self._seen_tricks = max(self._seen_tricks, len(tricks))

    def finish_deal(self, result: DealResult) -> None:
        """Show the tricks played after this seat's last decision of a finished deal."""
        if result.number == self._deal and self._last_view is not None:
            self._show_tricks(result.tricks, self._last_view.seat)

    # ------------------------------------------------------------------ the loop

    def decide(self, view: SeatView) -> Answer:
        self._catch_up(view)
        self._last_view = view
        self.console.print()
        self.console.print(render_table(view, self.names, self.style))
        if view.kind is DecisionKind.CHOOSE:
            self.console.print(render_games(view, self.tr))
        return super().decide(view)

    def pause(self, prompt: str) -> None:
        """Wait for Enter (between deals, so that the summary and the analysis are read
        before the next deal scrolls them away); the commands work as at any prompt, and
        anything else is refused in one line and asked again, so that a typo does not
        scroll the analysis away."""

        def parse(text: str) -> None:
            if text:
                raise InputError(self.tr("err.next_deal", text=text))

        self._ask(None, prompt, parse, blank=True)

    def _ask(
        self,
        view: SeatView | None,
        prompt: str,
        parse: Callable[[str], _A],
        empty: _A | None = None,
        blank: bool = False,
    ) -> _A:
        """Ask until ``parse`` takes an answer, doing the commands typed meanwhile; ``view``
        is None between deals. An empty line is ``empty``, if given, or an answer to
        ``parse`` if ``blank``; else it is asked again."""
        while True:
            line = self.io.ask(self.style.text(prompt))
            if line is None:
                raise QuitRequested("end of input")
            text = line.strip()
            if not text and empty is not None:
                return empty
            if not text and not blank:
                continue
            word = text.lower()
            if word in _QUIT_WORDS:
                raise QuitRequested(word)
            if word in _HELP_WORDS:
                self.say(self.tr("help.title"), "bold")
                self.say(self.tr("help.text", cards=self._examples()))
                continue
            if word in _HINT_WORDS:
                self._hint(view)
                continue
            if word == "last":
                self._last(view)
                continue
            if word == "talon":
                self._talon(view)
                continue
            if word == "score":
                self.console.print(render_scores(self.history(), self.names, self.tr))
                continue
            try:
                return parse(text)
            except InputError as exc:
                self.error(str(exc))

    def _hint(self, view: SeatView | None) -> None:
        if view is None:
            self.error(self.tr("hint.unavailable", reason=self.tr("hint.between_deals")))
            return
        if self.hint is None:
            self.error(self.tr("hint.unavailable", reason="-"))
            return
        self.err_console.print(Text(self.tr("hint.thinking"), style="dim"))
        try:
            advice = self.hint(view)
        except KeyboardInterrupt:
            self.error(self.tr("hint.cancelled"))
            return
        self.console.print(render_advice(advice, self.style))

    def _last(self, view: SeatView | None) -> None:
        # Between deals: the last trick of the deal just finished.
        tricks = view.tricks if view is not None else self.history()[-1].tricks
        if not tricks:
            self.say(self.tr("last.none"))
            return
        number = len(tricks)
        seen = view or self._last_view
        seat = seen.seat if seen is not None else -1
        self.console.print(
            render_finished_trick(number, tricks[-1], self.names, self.style, seat, "last.trick")
        )

    def _talon(self, view: SeatView | None) -> None:
        # Between deals: the deal just finished, as the human's last view of it showed it.
        view = view or self._last_view
        if view is None or view.talon is None:
            if view is not None and view.talon_taken:
                self.say(self.tr("talon.unseen", name=self.names[view.chooser]))
            else:
                self.say(self.tr("talon.none"))
            return
        cards = " ".join(map(self.style.plain, view.talon.descending()))
        self.say(self.tr(talon_key(view), cards=cards))
        if view.discard is not None:
            discard = " ".join(map(self.style.plain, view.discard.descending()))
            self.say(self.tr("ev.your_discard", cards=discard))

    # ------------------------------------------------------------------ parsing

    def _examples(self) -> str:
        """Card notations to show as examples, in the language's letters: ``QH, Q♥, 10h``
        (``QH, 10h`` in letters; Polish ``DH, D♥, 10h``)."""
        queen = Card(Suit.HEARTS, Rank.QUEEN)
        shown = [self.tr.card(queen, False)]
        if self.style.symbols:
            shown.append(self.tr.card(queen, True))
        return ", ".join([*shown, "10h"])

    def _refuse(self, view: SeatView, answer: Answer | list[Card]) -> None:
        """InputError saying why, in the player's words, if the rules don't allow ``answer``
        (the engine's reasons, :func:`ts358.refusal.verify`)."""
        refusal = verify(view, answer)
        if refusal is not None:
            raise InputError(self.tr.refusal(refusal, self.style.symbols))

    def _card(self, text: str, hand: CardSet) -> Card:
        """A card of ``hand`` by notation or by its number in the displayed hand."""
        token = text.strip()
        if token.isdigit():
            order = hand.descending()
            number = int(token)
            if not 1 <= number <= len(order):
                raise InputError(self.tr("err.number", number=number, last=len(order)))
            return order[number - 1]
        try:
            card = self.tr.parse_card(token)
        except NotationError:
            raise InputError(self.tr("err.not_card", text=token, cards=self._examples())) from None
        if card not in hand:
            raise InputError(self.tr("err.not_in_hand", card=self.style.plain(card)))
        return card

    def choose_game(self, view: SeatView) -> Contract:
        available = view.available[view.seat]

        def parse(text: str) -> Contract:
            if text.isdigit() and 1 <= int(text) <= 6:
                game = Contract(int(text) - 1)
            else:
                try:
                    game = parse_game(text)
                except NotationError:
                    raise InputError(
                        self.tr("err.not_game", text=text, games=self.tr.games(available))
                    ) from None
            self._refuse(view, game)
            return game

        return self._ask(view, self.tr("prompt.choose"), parse)

    def give(self, view: SeatView) -> Card | None:
        def parse(text: str) -> Card | None:
            if text.lower() in _STOP_WORDS:
                return None
            card = self._card(text, view.hand)
            self._refuse(view, card)
            return card

        prompt = self.tr("prompt.give", name=self.names[view.give_to or 0], left=view.gives_left)
        return self._ask(view, prompt, parse)

    def choose_return(self, view: SeatView) -> Card:
        def parse(text: str) -> Card:
            if text.lower() in _STOP_WORDS:
                raise InputError(self.tr("err.stop_only_give"))
            return self._card(text, view.options)

        card = self.style.plain(view.received) if view.received is not None else "?"
        return self._ask(view, self.tr("prompt.return", card=card), parse)

    def discard(self, view: SeatView) -> CardSet:
        def parse(text: str) -> CardSet:
            tokens = text.replace(",", " ").split()
            cards = [self._card(tok, view.options) for tok in tokens]
            self._refuse(view, cards)
            return CardSet(cards)

        example = " ".join(
            self.style.plain(c) for c in sorted(view.options, key=lambda c: (c.rank, c.suit))[:4]
        )
        return self._ask(view, self.tr("prompt.discard", example=example), parse)

    def play(self, view: SeatView) -> Card:
        def parse(text: str) -> Card:
            card = self._card(text, view.hand)
            self._refuse(view, card)
            return card

        if len(view.options) == 1:
            (only,) = view.options
            return self._ask(
                view, self.tr("prompt.play_only", card=self.style.plain(only)), parse, only
            )
        example = self.style.plain(max(view.options, key=lambda c: c.rank))
        return self._ask(view, self.tr("prompt.play", example=example), parse)
