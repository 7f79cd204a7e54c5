"""A match at the terminal: the human's seat against two computer players, saved as it goes,
or (:func:`play_auto`) three computer players printed deal by deal.

:func:`play_interactive` plays a :class:`~ts358.table.saves.SavedMatch` at a
:class:`~ts358.table.table.Table` with a :class:`~ts358.terminal.human.HumanPlayer`, with
the after-deal review and hints; ``ts358 play`` is a thin layer over it. The save is
written (atomically and synced, :func:`~ts358.table.saves.write_save`) when the session
starts, before each prompt of the human, right after each of their answers (before the
computer players think about theirs) and at the end of each deal, so that a process killed
at any moment loses at most the answer being typed. The computer players' decisions are
written with the next of these:
they are a function of the seed, but a hard player's also of the number of cores, so
keeping them makes the resumed match the one that was played. Quit, the end of input,
Ctrl-C, SIGTERM and SIGHUP end the session with the save written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from ts358.analysis.hints import HintService
from ts358.analysis.review import review_deal
from ts358.analysis.solve import default_threads
from ts358.bots.seat import DEFAULT_SECONDS as DEFAULT_BOT_SECONDS
from ts358.cards import Card
from ts358.deal import Answer, DealResult
from ts358.exchange import plan_exchange
from ts358.match import Match, player_seed
from ts358.players import Advice, make_player
from ts358.rules import Rules
from ts358.table.records import check_record, write_match_record
from ts358.table.saves import DEFAULT_ANALYSIS_SECONDS, SavedMatch
from ts358.table.seats import HUMAN_SEAT
from ts358.table.table import Refused, Table
from ts358.table.texts import Translator
from ts358.terminal.human import HumanPlayer, LineInput, QuitRequested
from ts358.terminal.render import CardStyle, render_review, render_standings, render_summary
from ts358.view import SeatView

__all__ = [
    "DEFAULT_ANALYSIS_SECONDS",
    "PlayOptions",
    "Stopped",
    "play_auto",
    "play_interactive",
]


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived during a session, which then saves and ends like after
    Ctrl-C. A BaseException like KeyboardInterrupt, so that no ``except Exception`` takes
    it, but not a KeyboardInterrupt: Ctrl-C during a hint or a review cancels only that,
    a termination ends the session."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


# The signals that stop a session like Ctrl-C (Windows has no SIGHUP).
_STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


class _StopSignals:
    """While the session runs, the first SIGTERM or SIGHUP raises :class:`Stopped` where
    the session is and the later ones are ignored, so that none cuts the last save short
    (closing a terminal may send SIGHUP and then SIGTERM). Only on the main thread, where
    Python runs signal handlers; a signal ignored when the session starts (``nohup``) stays
    ignored."""

    def __init__(self) -> None:
        self.previous: dict[int, Any] = {}

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        for stop in self.previous:
            signal.signal(stop, signal.SIG_IGN)
        raise Stopped(signum)

    def __enter__(self) -> None:
        if threading.current_thread() is threading.main_thread():
            for signum in _STOP_SIGNALS:
                if signal.getsignal(signum) is not signal.SIG_IGN:
                    self.previous[signum] = signal.signal(signum, self._stop)

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.previous.items():
            # None: a handler not installed from Python, i.e. the default one.
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)


@dataclasses.dataclass
class PlayOptions:
    """Settings of an interactive session.

    Attributes:
        save_path: where the match is saved.
        analysis: analyse each deal double dummy after it.
        analysis_seconds: time budget of one deal's analysis (the end of the deal first).
        record: write the match record here when the match ends.
        hint: the hint provider (default: a :class:`~ts358.analysis.hints.HintService` of
            the session's own; None: no hints).
        symbols: suit symbols (else letters).
        stats: add the finished match to the local statistics.
        opponents: who plays each computer seat, by seat: a level (``hard``) or a bot
            (``cmd:python3 mybot.py``, docs/bots.md); a seat not given plays at the save's
            level. Not saved: a save never runs a program.
        bot_seconds: the bots' time control, seconds for each decision.
    """

    save_path: Path
    analysis: bool = True
    analysis_seconds: float = DEFAULT_ANALYSIS_SECONDS
    record: Path | None = None
    hint: Callable[[SeatView], Advice[Answer]] | None = dataclasses.field(
        default_factory=HintService
    )
    symbols: bool = True
    stats: bool = True
    opponents: dict[int, str] = dataclasses.field(default_factory=dict)
    bot_seconds: float = DEFAULT_BOT_SECONDS


def _last_words(err: Console, lines: list[str]) -> None:
    # After a hangup (SIGHUP, or the end of input of a closed terminal) there is no
    # terminal to show these; the match is saved, and that must not become a crash.
    with contextlib.suppress(OSError):
        for line in lines:
            # Never broken by Rich: the path and the command to resume are copied.
            err.print(Text(line), soft_wrap=True)


def play_interactive(
    saved: SavedMatch,
    options: PlayOptions,
    console: Console,
    err: Console,
    stream: IO[str] | None = None,
) -> int:
    """Play ``saved`` from where it stands with the human at ``saved.human``; returns the
    exit code: 0 at the end of the match or after ``quit`` (saved), 130 after Ctrl-C, 143
    after SIGTERM, 129 after SIGHUP (128 + the signal's number, saved). Messages are in the
    save's language (``saved.settings.lang``, English if none).

    Before the first decision the record is checked (:func:`~ts358.table.records.check_record`)
    and the save written, so that a file that can't be written is a WriteError then and not
    after a deal. The caller should hold the save's :class:`~ts358.table.saves.SaveLock`."""
    if options.record is not None:
        check_record(options.record)
    session = _Session(saved, options, console, err, stream)
    tr = session.tr
    with _StopSignals(), contextlib.closing(session):
        try:
            try:
                session.play()
                return 0
            except QuitRequested:
                return session.end(0, [])
            except KeyboardInterrupt:
                return session.end(130, ["", tr("match.interrupted")])
        # Outside, so that it is caught also while a quit or a Ctrl-C ends the session (the
        # hangup of a terminal is both the end of input and SIGHUP); it is raised only once.
        except Stopped as stop:
            name = signal.Signals(stop.signum).name
            return session.end(128 + stop.signum, ["", tr("match.stopped", signal=name)])


class _Session:
    """The state of :func:`play_interactive`: a table with one person, at the terminal."""

    def __init__(
        self,
        saved: SavedMatch,
        options: PlayOptions,
        console: Console,
        err: Console,
        stream: IO[str] | None,
    ) -> None:
        self.saved = saved
        self.options = options
        self.console = console
        self.err = err
        match = saved.match
        self.seat = saved.human if saved.human is not None else HUMAN_SEAT
        self.tr = Translator(saved.settings.lang or "en")
        self.names = self.tr.seat_names(self.seat)
        self.style = CardStyle(options.symbols, self.tr)
        self.table = Table(
            saved,
            options.save_path,
            [self.seat],
            stats=options.stats,
            opponents=options.opponents,
            bot_seconds=options.bot_seconds,
        )
        self.input = LineInput(console, stream)
        self.human = HumanPlayer(
            self.input,
            console,
            self.style,
            self.names,
            history=lambda: match.results,
            hint=options.hint,
            err_console=err,
        )

    def play(self) -> None:
        """The match to its end, then the standings, statistics and record."""
        match, table, tr = self.saved.match, self.table, self.tr
        while not match.done:
            pending = table.computer_due()
            if pending is not None:
                result = table.apply_computer(pending, table.think(pending))
                for fault in table.new_faults(pending.seat):
                    self.human.error(tr.fault(self.names[pending.seat], fault))
            else:
                view = table.due_view(self.seat)
                table.keep()
                try:
                    result = table.decide(self.seat, self.human.decide(view))
                except Refused as exc:  # the seat checks first; this is a backstop
                    self.human.error(tr("err.illegal", reason=str(exc)))
                    continue
            if result is None:
                continue
            self.human.finish_deal(result)
            self.console.print()
            self.console.print(render_summary(result, match.totals, self.names, tr, match.rules))
            if self.options.analysis:
                self._analysis(result)
            # Before the next deal prints its game, exchange, talon and lead: on a terminal
            # only (piped answers have no line for it). The save written at the end of the
            # deal is the one a quit here leaves.
            if not match.done and self.input.terminal:
                self.human.pause(
                    tr("prompt.next_deal", number=len(match.results) + 1, total=match.rules.length)
                )
            table.go_on(self.seat)
        self._finish()

    def close(self) -> None:
        """The computer players are done (a bot's process is reaped)."""
        for computer in self.table.computers.values():
            computer.close()

    def end(self, code: int, lines: list[str]) -> int:
        """Save the match, say ``lines`` and where the save is on stderr, return ``code``."""
        self.table.keep()
        path = self.options.save_path
        lines += [self.tr("match.saved", path=path), self.tr("match.resume_hint", path=path)]
        _last_words(self.err, lines)
        return code

    def _analysis(self, result: DealResult) -> None:
        err, tr = self.err, self.tr
        err.print(Text(tr("analysis.running"), style="dim"))

        def progress(done: int, total: int) -> None:
            if err.is_terminal:
                err.print(f"  {done}/{total}", end="\r", highlight=False)

        deadline = time.monotonic() + self.options.analysis_seconds
        try:
            analysis = review_deal(
                result,
                self.saved.match.rules,
                (self.seat,),
                deadline=deadline,
                progress=progress,
            )
        except KeyboardInterrupt:  # skips the review, not the match
            err.print()
            err.print(Text(tr("analysis.cancelled"), style="dim"))
            return
        self.console.print()
        self.console.print(render_review(analysis, self.names, self.seat, self.style))

    def _finish(self) -> None:
        match, seat, tr, console = self.saved.match, self.seat, self.tr, self.console
        places = match.standings()
        console.print()
        console.print(render_standings(match.totals, places, self.names, tr))
        if match.winner is not None:
            taken = match.results[-1].taken[match.winner]
            console.print(Text(tr("match.twelve", name=self.names[match.winner], count=taken)))
        tied = sum(1 for p in places if p == 1) > 1
        if places[seat] == 1:
            console.print(Text(tr("match.shared") if tied else tr("match.won"), style="bold green"))
        else:
            console.print(Text(tr("match.lost", place=places[seat])))
        result = tr("match.result", result=match.totals[seat] * 10)
        console.print(Text(self.style.text(result)))
        if self.table.stats_error is not None:
            self.err.print(f"ts358: warning: statistics not updated: {self.table.stats_error}")
        if self.options.record is not None:
            write_match_record(self.options.record, match, self.table.faults())
            self.err.print(Text(tr("match.record", path=self.options.record)), soft_wrap=True)


# ---------------------------------------------------------------------- --auto


class _Printer:
    def __init__(self, names: tuple[str, str, str], symbols: bool, tr: Translator) -> None:
        self.names = names
        self.tr = tr
        self.symbols = symbols
        self.width = max(len(n) for n in names)

    def card(self, card: Card) -> str:
        return self.tr.card(card, self.symbols)

    def cards(self, cards: Any) -> str:
        return " ".join(self.card(c) for c in cards)

    def seats(self, values: tuple[int, ...], signed: bool = False) -> str:
        fmt = "{:+d}" if signed else "{:d}"
        return ", ".join(f"{self.names[s]} {fmt.format(v)}" for s, v in enumerate(values))

    def deal(self, d: DealResult, previous: tuple[int, int, int] | None, rules: Rules) -> list[str]:
        """The lines of the finished deal ``d``; ``previous``, the scores of the deal before
        it (None for the first), fix the turns of its exchange, so that a turn with no card
        given is told too."""
        names, t = self.names, self.tr
        lines = [
            t(
                "auto.deal",
                number=d.number,
                dealer=names[rules.dealing_role.seat(d.dealer)],
                chooser=names[d.chooser],
                third=names[d.third],
                game=t.game(d.game),
            )
        ]
        for turn in plan_exchange(previous, d.dealer, d.game, rules):
            pair = (turn.giver, turn.receiver)
            steps = [step for step in d.exchanges if (step.giver, step.receiver) == pair]
            for step in steps:
                lines.append(
                    t(
                        "auto.exchange",
                        giver=names[step.giver],
                        given=self.card(step.given),
                        receiver=names[step.receiver],
                        returned=self.card(step.returned),
                    )
                )
            if not steps:
                lines.append(
                    t("auto.exchange_none", giver=names[turn.giver], receiver=names[turn.receiver])
                )
        lines.append(t("auto.talon", talon=self.cards(d.talon), discard=self.cards(d.discard)))
        for i, trick in enumerate(d.tricks, 1):
            lines.append(
                f"  {i:2d}. {names[trick.leader]:<{self.width}}  {self.cards(trick.cards):<12}"
                f"  {t('auto.trick_won', winner=names[trick.winner])}"
            )
        lines.append(t("auto.tricks", list=self.seats(d.taken)))
        lines.append(t("auto.scores", list=self.seats(d.scores, signed=True)))
        return lines

    def standings(self, match: Match) -> list[str]:
        places = match.standings()
        lines = [self.tr("auto.final")]
        for seat in sorted(range(3), key=lambda s: (places[s], s)):
            name = self.names[seat]
            lines.append(f"  {places[seat]}. {name:<{self.width}}  {match.totals[seat]:+d}")
        return lines


def play_auto(
    match: Match,
    level: str,
    symbols: bool,
    echo: Callable[[str], None],
    lang: str = "en",
) -> Match:
    """Play ``match`` to the end with three computer players of ``level``, passing each
    printed line (in ``lang``) to ``echo``; returns the finished match."""
    tr = Translator(lang)
    threads = default_threads()
    seed = match.seed or 0
    players = [make_player(level, player_seed(seed, s), threads=threads) for s in range(3)]
    printer = _Printer(match.names, symbols, tr)
    done = 0
    while not match.done:
        pending = match.pending()
        assert pending is not None
        match.apply_answer(players[pending.seat].decide(pending.view))
        if len(match.results) > done:
            done = len(match.results)
            echo("")
            previous = match.results[-2].scores if done > 1 else None
            echo("\n".join(printer.deal(match.results[-1], previous, match.rules)))
            echo(tr("auto.totals", list=printer.seats(match.totals, signed=True)))
    echo("")
    echo("\n".join(printer.standings(match)))
    return match
