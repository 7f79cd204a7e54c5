"""A match at the terminal: the human's seat against two computer players, saved as it goes,
or (:func:`play_auto`) three computer players printed deal by deal.

:func:`play_interactive` plays a :class:`~ts358.session.saves.SavedMatch` with a
:class:`~ts358.session.human.HumanPlayer`, with the after-deal review and hints; ``ts358
play`` is a thin layer over it. The save is written (atomically and synced,
:func:`~ts358.session.saves.write_save`) when the session starts, before each prompt of the
human, right after each of their answers (before the computer players think about theirs)
and at the end of each deal, so that a process killed at any moment loses at most the
answer being typed. The computer players' decisions are written with the next of these:
they are a function of the seed, but a hard player's also of the number of cores, so
keeping them makes the resumed match the one that was played. Quit, the end of input,
Ctrl-C, SIGTERM and SIGHUP end the session with the save written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from ts358.analysis.hints import HintService
from ts358.analysis.review import review_deal
from ts358.analysis.solve import default_threads
from ts358.bots.seat import DEFAULT_SECONDS as DEFAULT_BOT_SECONDS
from ts358.bots.seat import BotPlayer, Fault
from ts358.bots.spec import make_seat
from ts358.cards import Card
from ts358.deal import Answer, DealResult, IllegalDecision
from ts358.match import Match, player_seed
from ts358.players import Advice, Player, make_player
from ts358.record import write_record
from ts358.session.history import entry_from_match, record_match
from ts358.session.human import HumanPlayer, LineInput, QuitRequested
from ts358.session.saves import DEFAULT_ANALYSIS_SECONDS, SavedMatch, write_save
from ts358.session.table import (
    CardStyle,
    render_review,
    render_standings,
    render_summary,
    seat_names,
)
from ts358.session.texts import game_name, t
from ts358.view import SeatView

__all__ = [
    "DEFAULT_ANALYSIS_SECONDS",
    "ENGINE_NAMES",
    "HUMAN_SEAT",
    "ComputerSeat",
    "PlayOptions",
    "SessionError",
    "Stopped",
    "check_record",
    "play_auto",
    "play_interactive",
    "save",
    "write_match_record",
]

HUMAN_SEAT = 0
ENGINE_NAMES = ("You", "Left", "Right")


class SessionError(RuntimeError):
    """A save or record that can't be written; the message says which file and why."""


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


class ComputerSeat:
    """A computer player whose random choices depend only on its seed (the match seed's and
    its seat's, :func:`~ts358.match.player_seed`) and how many decisions the match has seen:
    a resumed match goes on exactly as the uninterrupted one would have. Its generator is
    reseeded from its own seed, never the match's, which the generator's state would give
    away. A hard player thinks on every usable core (its decisions depend on their number
    too)."""

    def __init__(
        self,
        level: str | Player,
        seed: int,
        seat: int,
        bot_seconds: float = DEFAULT_BOT_SECONDS,
    ) -> None:
        self.seed = player_seed(seed, seat)
        self.seat = seat
        self.player = (
            level
            if isinstance(level, Player)
            else make_seat(level, self.seed, threads=default_threads(), seconds=bot_seconds)
        )
        self._told = 0  # the bot's faults said so far

    def new_faults(self) -> list[Fault]:
        """A bot's faults since this was last asked (none for ts358's own players)."""
        faults = self.player.faults if isinstance(self.player, BotPlayer) else []
        fresh, self._told = faults[self._told :], len(faults)
        return fresh

    def faults(self) -> list[dict[str, Any]]:
        """Every fault of the seat's bot, as the match record keeps them."""
        if not isinstance(self.player, BotPlayer):
            return []
        return [{"seat": self.seat, **f.to_json()} for f in self.player.faults]

    def decide(self, view: SeatView, step: int) -> Answer:
        self.player.reseed(f"{self.seed}:{step}")
        return self.player.decide(view)


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


def save(saved: SavedMatch, path: Path) -> None:
    """Write ``saved`` to ``path``; SessionError (one line) if it can't be written."""
    try:
        write_save(path, saved)
    except OSError as exc:
        raise SessionError(f"can't save the match to {path}: {exc.strerror or exc}") from None


def _line(style: CardStyle, message: str, markup_style: str = "") -> Text:
    return Text(style.text(message), style=markup_style)


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
    after SIGTERM, 129 after SIGHUP (128 + the signal's number, saved). Messages use the
    current :mod:`ts358.session.texts` language.

    Before the first decision the record is checked (:func:`check_record`) and the save
    written, so that a file that can't be written is a SessionError then and not after a
    deal. The caller should hold the save's :class:`~ts358.session.saves.SaveLock`."""
    session = _Session(saved, options, console, err, stream)
    if options.record is not None:
        check_record(options.record)
    with _StopSignals(), contextlib.closing(session):
        try:
            try:
                session.play()
                return 0
            except QuitRequested:
                return session.end(0, [])
            except KeyboardInterrupt:
                return session.end(130, ["", t("match.interrupted")])
        # Outside, so that it is caught also while a quit or a Ctrl-C ends the session (the
        # hangup of a terminal is both the end of input and SIGHUP); it is raised only once.
        except Stopped as stop:
            name = signal.Signals(stop.signum).name
            return session.end(128 + stop.signum, ["", t("match.stopped", signal=name)])


class _Session:
    """The state of :func:`play_interactive`."""

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
        self.names = seat_names(self.seat)
        self.style = CardStyle(options.symbols)
        self.computers = {
            s: ComputerSeat(
                options.opponents.get(s, saved.level), match.seed or 0, s, options.bot_seconds
            )
            for s in range(3)
            if s != self.seat
        }
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
        self.step = len(match.snapshot().decisions)
        self.written = -1

    def keep(self) -> None:
        """Write the save unless it holds every decision applied already."""
        if self.written != self.step:
            save(self.saved, self.options.save_path)
            self.written = self.step

    def play(self) -> None:
        """The match to its end, then the standings, statistics and record."""
        match = self.saved.match
        self.keep()
        while not match.done:
            pending = match.pending()
            assert pending is not None
            finished = len(match.results)
            if pending.seat == self.seat:
                self.keep()
                decision = self.human.decide(pending.view)
                try:
                    match.apply_answer(decision)
                except IllegalDecision as exc:  # the seat checks first; this is a backstop
                    self.human.error(t("err.illegal", reason=str(exc)))
                    continue
                self.step += 1
                self.keep()
            else:
                computer = self.computers[pending.seat]
                match.apply_answer(computer.decide(pending.view, self.step))
                self.step += 1
                for fault in computer.new_faults():
                    self.human.error(fault_text(self.names[computer.seat], fault))
            if len(match.results) > finished:
                self.keep()
                result = match.results[-1]
                for seat, computer in self.computers.items():
                    computer.player.deal_over(seat, result)
                self.human.finish_deal(result)
                self.console.print()
                self.console.print(render_summary(result, match.totals, self.names))
                if self.options.analysis:
                    _analysis(
                        result,
                        match,
                        self.seat,
                        self.names,
                        self.style,
                        self.options,
                        self.console,
                        self.err,
                    )
                # Before the next deal prints its game, exchange, talon and lead: on a
                # terminal only (piped answers have no line for it). The save written at
                # the end of the deal is the one a quit here leaves.
                if not match.done and self.input.terminal:
                    self.human.pause(
                        t(
                            "prompt.next_deal",
                            number=len(match.results) + 1,
                            total=match.rules.length,
                        )
                    )
        faults = [f for c in self.computers.values() for f in c.faults()]
        _finish(self.saved, self.options, self.console, self.err, self.names, faults)

    def close(self) -> None:
        """The computer players are done (a bot's process is reaped)."""
        for computer in self.computers.values():
            computer.player.close()

    def end(self, code: int, lines: list[str]) -> int:
        """Save the match, say ``lines`` and where the save is on stderr, return ``code``."""
        self.keep()
        path = self.options.save_path
        lines += [t("match.saved", path=path), t("match.resume_hint", path=path)]
        _last_words(self.err, lines)
        return code


def fault_text(name: str, fault: Fault, lang: str | None = None) -> str:
    """A bot's fault as the people at the table are told it (in ``lang``, else the current
    language)."""
    key = "bot.handed_over" if fault.handed_over else "bot.fault"
    kind = t(f"bot.kind.{fault.kind}", lang)
    return t(key, lang, name=name, kind=kind, detail=fault.detail)


def _analysis(
    result: DealResult,
    match: Match,
    human: int,
    names: tuple[str, str, str],
    style: CardStyle,
    options: PlayOptions,
    console: Console,
    err: Console,
) -> None:
    err.print(Text(t("analysis.running"), style="dim"))
    deadline = time.monotonic() + options.analysis_seconds

    def progress(done: int, total: int) -> None:
        if err.is_terminal:
            err.print(f"  {done}/{total}", end="\r", highlight=False)

    try:
        analysis = review_deal(
            result, match.rules.void, (human,), deadline=deadline, progress=progress
        )
    except KeyboardInterrupt:  # skips the review, not the match
        err.print()
        err.print(Text(t("analysis.cancelled"), style="dim"))
        return
    console.print()
    console.print(render_review(analysis, names, human, style))


def _finish(
    saved: SavedMatch,
    options: PlayOptions,
    console: Console,
    err: Console,
    names: tuple[str, str, str],
    faults: list[dict[str, Any]],
) -> None:
    match = saved.match
    seat = saved.human if saved.human is not None else HUMAN_SEAT
    places = match.standings()
    console.print()
    console.print(render_standings(match.totals, places, names))
    tied = sum(1 for p in places if p == 1) > 1
    if places[seat] == 1:
        console.print(Text(t("match.shared") if tied else t("match.won"), style="bold green"))
    else:
        console.print(Text(t("match.lost", place=places[seat])))
    console.print(
        _line(CardStyle(options.symbols), t("match.result", result=match.totals[seat] * 10))
    )
    if options.stats:
        try:
            record_match(entry_from_match(match, saved.id, seat, saved.level))
        except OSError as exc:
            err.print(f"ts358: warning: statistics not updated: {exc.strerror or exc}")
    if options.record is not None:
        write_match_record(options.record, match, faults)
        err.print(Text(t("match.record", path=options.record)), soft_wrap=True)


@contextlib.contextmanager
def _record_errors(path: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise SessionError(f"can't write the record {path}: {exc.strerror or exc}") from None


def check_record(path: Path) -> None:
    """SessionError (one line) if the record can't be written at ``path``: checked before
    the match, not after it. The file is opened for writing as :func:`write_match_record`
    will open it, without changing it (a file created for the check is removed)."""
    existed = os.path.lexists(path)
    with _record_errors(path):
        with open(path, "a", encoding="utf-8"):
            pass
        if not existed:
            path.unlink()


def write_match_record(
    path: Path, match: Match, faults: list[dict[str, Any]] | None = None
) -> None:
    """Write the record of a finished match (with the faults of its bots); SessionError
    (one line) if it can't be written."""
    with _record_errors(path):
        write_record(path, match, faults or ())


# ---------------------------------------------------------------------- --auto


class _Printer:
    def __init__(self, names: tuple[str, str, str], symbols: bool) -> None:
        self.names = names
        self.symbols = symbols
        self.width = max(len(n) for n in names)

    def card(self, card: Card) -> str:
        return card.symbol() if self.symbols else str(card)

    def cards(self, cards: Any) -> str:
        return " ".join(self.card(c) for c in cards)

    def seats(self, values: tuple[int, ...], signed: bool = False) -> str:
        fmt = "{:+d}" if signed else "{:d}"
        return ", ".join(f"{self.names[s]} {fmt.format(v)}" for s, v in enumerate(values))

    def deal(self, d: DealResult) -> list[str]:
        names = self.names
        lines = [
            t(
                "auto.deal",
                number=d.number,
                dealer=names[d.dealer],
                chooser=names[d.chooser],
                third=names[d.third],
                game=game_name(d.game),
            )
        ]
        for step in d.exchanges:
            lines.append(
                t(
                    "auto.exchange",
                    giver=names[step.giver],
                    given=self.card(step.given),
                    receiver=names[step.receiver],
                    returned=self.card(step.returned),
                )
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
        lines = [t("auto.final")]
        for seat in sorted(range(3), key=lambda s: (places[s], s)):
            name = self.names[seat]
            lines.append(f"  {places[seat]}. {name:<{self.width}}  {match.totals[seat]:+d}")
        return lines


def play_auto(match: Match, level: str, symbols: bool, echo: Callable[[str], None]) -> Match:
    """Play ``match`` to the end with three computer players of ``level``, passing each
    printed line to ``echo``; returns the finished match."""
    threads = default_threads()
    seed = match.seed or 0
    players = [make_player(level, player_seed(seed, s), threads=threads) for s in range(3)]
    printer = _Printer(match.names, symbols)
    done = 0
    while not match.done:
        pending = match.pending()
        assert pending is not None
        match.apply_answer(players[pending.seat].decide(pending.view))
        if len(match.results) > done:
            done = len(match.results)
            echo("")
            echo("\n".join(printer.deal(match.results[-1])))
            echo(t("auto.totals", list=printer.seats(match.totals, signed=True)))
    echo("")
    echo("\n".join(printer.standings(match)))
    return match
