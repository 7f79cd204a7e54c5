"""``ts358 play``: a match against two computer players in the terminal, or (``--auto``)
three computer players printed deal by deal.

Everything the command does is a call into the Python API: :func:`play_interactive` plays a
:class:`~ts358.session.saves.SavedMatch` with a :class:`~ts358.session.human.HumanPlayer`, saving after every
deal and on quit or Ctrl-C; :func:`play_auto` plays and prints a computer-only match.

Options are read as text and checked here, so a bad value is one line on stderr (exit 2)
rather than Click's usage block.
"""

from __future__ import annotations

import dataclasses
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import typer
from rich.console import Console
from rich.text import Text

from ts358.session import texts as i18n
from ts358.analysis.review import analyze_deal
from ts358.cards import Card
from ts358.deal import DealResult, IllegalDecision
from ts358.session.human import HintUnavailable, HumanPlayer, LineInput, QuitRequested
from ts358.session.texts import can_encode_symbols, game_name, t
from ts358.match import Match
from ts358.players import LEVELS, SamplingPlayer, make_player
from ts358.players.base import Player
from ts358.record import write_record
from ts358.rules import MATCH_LENGTHS, Rules
from ts358.session.saves import SavedMatch, SaveError, new_id, read_save, write_save
from ts358.session.history import entry_from_match, record_match, saves_dir
from ts358.session.table import CardStyle, render_analysis, render_standings, render_summary, seat_names
from ts358.view import SeatView
from ts358.cli.app import CommandError, app

__all__ = [
    "PlayOptions",
    "make_computer",
    "available_levels",
    "play_interactive",
    "play_auto",
    "strong_hint",
]

DEFAULT_DEALS = 6
DEFAULT_LEVEL = "medium"
DEFAULT_ANALYSIS_SECONDS = 10.0
HUMAN_SEAT = 0
ENGINE_NAMES = ("You", "Left", "Right")

PLAY_HELP = (
    "Play a match of 3-5-8 against two computer players (default 6 deals; the first dealer "
    "is drawn at random from the seed). Type a card as QH, Q♥, 10h or its number in your "
    "hand; the commands hint, last, score, help and quit work at every prompt. Input can be "
    "piped, one answer per line. The match is saved after every deal and on quit or Ctrl-C "
    "(in the user data directory, or $TS358_HOME), and --resume FILE continues it exactly "
    "where it stopped ('--resume last' takes the newest save). Finished matches go into "
    "'ts358 stats'. With --auto, three computer players play and each deal is printed. "
    "--record writes the match record (JSON, docs/match-record.md)."
)


def available_levels() -> tuple[str, ...]:
    """The computer levels: those :func:`make_player` knows, plus ``hard`` when the sampling
    player can be imported (until it is registered there)."""
    levels = list(LEVELS)
    if "hard" not in levels:
        try:
            from ts358.players.sampling import SamplingPlayer  # noqa: F401
        except ImportError:
            pass
        else:
            levels.append("hard")
    return tuple(levels)


def make_computer(level: str, seed: int) -> Player:
    """A computer player of ``level`` seeded with ``seed`` (level-agnostic)."""
    try:
        return make_player(level, seed)
    except ValueError:
        if level != "hard":
            raise
        from ts358.players.sampling import SamplingPlayer

        return SamplingPlayer(seed)


class ComputerSeat:
    """A computer player whose random choices depend only on the match seed, its seat and
    how many decisions the match has seen: a resumed match goes on exactly as the
    uninterrupted one would have."""

    def __init__(self, level: str, seed: int, seat: int) -> None:
        self.player = make_computer(level, seed * 3 + seat)
        self.seed = seed
        self.seat = seat

    def decide(self, view: SeatView, step: int) -> Any:
        rng = getattr(self.player, "rng", None)
        if rng is not None and hasattr(rng, "seed"):
            rng.seed(f"{self.seed}:{self.seat}:{step}")
        return self.player.decide(view)


_STRONG: dict[int, Any] = {}


def strong_hint(view: SeatView) -> dict[Card, float]:
    """The strong (sampling) player's expected deal score of each legal card.

    Raises HintUnavailable when not one sampled layout could be solved within the strong
    player's node budget (early in a deal, on hard layouts)."""
    player = _STRONG.get(0)
    if player is None:
        player = _STRONG[0] = SamplingPlayer(0)
    scores = player.play_scores(view)
    if not scores:
        raise HintUnavailable(t("hint.too_early"))
    return scores


@dataclasses.dataclass
class PlayOptions:
    """Settings of an interactive session.

    Attributes:
        save_path: where the match is saved.
        analysis: analyse each deal double dummy after it.
        analysis_seconds: time budget of one deal's analysis (the end of the deal first).
        record: write the match record here when the match ends.
        hint: the hint provider (default: the strong player, :func:`strong_hint`).
        symbols: suit symbols (else letters).
        stats: add the finished match to the local statistics.
    """

    save_path: Path
    analysis: bool = True
    analysis_seconds: float = DEFAULT_ANALYSIS_SECONDS
    record: Path | None = None
    hint: Callable[[SeatView], dict[Card, float]] | None = strong_hint
    symbols: bool = True
    stats: bool = True


def _save(saved: SavedMatch, path: Path) -> None:
    try:
        write_save(path, saved)
    except OSError as exc:
        raise CommandError(f"can't save the match to {path}: {exc.strerror or exc}") from None


def _line(style: CardStyle, message: str, markup_style: str = "") -> Text:
    return Text(style.text(message), style=markup_style)


def play_interactive(
    saved: SavedMatch,
    options: PlayOptions,
    console: Console,
    err: Console,
    stream: IO[str] | None = None,
) -> int:
    """Play ``saved`` from where it stands with the human at ``saved.human``; returns the
    exit code: 0 at the end of the match or after ``quit`` (saved), 130 after Ctrl-C
    (saved). Messages use the current :mod:`ts358.session.texts` language."""
    match = saved.match
    human_seat = saved.human if saved.human is not None else HUMAN_SEAT
    names = seat_names(human_seat)
    style = CardStyle(options.symbols)
    computers = {
        s: ComputerSeat(saved.level, match.seed or 0, s) for s in range(3) if s != human_seat
    }
    human = HumanPlayer(
        LineInput(console, stream),
        console,
        style,
        names,
        history=lambda: match.results,
        hint=options.hint,
        err_console=err,
    )
    step = len(match.snapshot().decisions)

    def saved_message() -> None:
        err.print(Text(t("match.saved", path=options.save_path)))
        err.print(Text(t("match.resume_hint", path=options.save_path)))

    try:
        while not match.done:
            pending = match.pending()
            assert pending is not None
            finished = len(match.results)
            if pending.seat == human_seat:
                decision = human.decide(pending.view)
                try:
                    match.apply(decision)
                except IllegalDecision as exc:  # the seat checks first; this is a backstop
                    human.error(t("err.illegal", reason=str(exc)))
                    continue
            else:
                match.apply(computers[pending.seat].decide(pending.view, step))
            step += 1
            if len(match.results) > finished:
                _save(saved, options.save_path)
                result = match.results[-1]
                human.finish_deal(result)
                console.print()
                console.print(render_summary(result, match.totals, names))
                if options.analysis:
                    _analysis(result, match, human_seat, names, style, options, console, err)
    except QuitRequested:
        _save(saved, options.save_path)
        saved_message()
        return 0
    except KeyboardInterrupt:
        _save(saved, options.save_path)
        err.print()
        err.print(Text(t("match.interrupted")))
        saved_message()
        return 130
    _finish(saved, options, console, err, names)
    return 0


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

    analysis = analyze_deal(
        result, match.rules.void, (human,), deadline=deadline, progress=progress
    )
    console.print()
    console.print(render_analysis(analysis, names, human, style))


def _finish(
    saved: SavedMatch,
    options: PlayOptions,
    console: Console,
    err: Console,
    names: tuple[str, str, str],
) -> None:
    match = saved.match
    seat = saved.human if saved.human is not None else HUMAN_SEAT
    _save(saved, options.save_path)
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
        _write_record(options.record, match)
        err.print(Text(t("match.record", path=options.record)))


def _write_record(path: Path, match: Match) -> None:
    try:
        write_record(path, match)
    except OSError as exc:
        raise CommandError(f"can't write the record {path}: {exc.strerror or exc}") from None


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
    players = [make_computer(level, (match.seed or 0) * 3 + s) for s in range(3)]
    printer = _Printer(match.names, symbols)
    done = 0
    while not match.done:
        pending = match.pending()
        assert pending is not None
        match.apply(players[pending.seat].decide(pending.view))
        if len(match.results) > done:
            done = len(match.results)
            echo("")
            echo("\n".join(printer.deal(match.results[-1])))
            echo(t("auto.totals", list=printer.seats(match.totals, signed=True)))
    echo("")
    echo("\n".join(printer.standings(match)))
    return match


# ---------------------------------------------------------------------- the command


def _int_option(name: str, text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise CommandError(f"{name} must be a whole number, not {text!r}") from None


def _rules(deals: str, rules: str) -> Rules:
    length = _int_option("--deals", deals) if deals.strip() else DEFAULT_DEALS
    if length not in MATCH_LENGTHS:
        raise CommandError(f"--deals must be 3, 6, 9 or 18 (3k deals), not {length}")
    key = rules.strip().lower() or "house"
    if key == "house":
        return Rules(length=length)
    if key == "kurnik":
        return Rules.kurnik(length=length)
    raise CommandError(f"--rules must be house or kurnik, not {rules!r}")


def _language(lang: str) -> str:
    if not lang.strip():
        return i18n.detect_language()
    key = lang.strip().lower()
    if key not in i18n.LANGUAGES:
        raise CommandError(f"--lang must be one of {', '.join(i18n.LANGUAGES)}, not {lang!r}")
    return key


def _symbols_for(stream: Any, ascii_only: bool) -> bool:
    return not ascii_only and can_encode_symbols(stream)


def _resume_path(text: str) -> Path:
    if text.strip().lower() != "last":
        return Path(text)
    folder = saves_dir()
    saves = (
        sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []
    )
    if not saves:
        raise CommandError(f"--resume last: no saved match in {folder}")
    return saves[-1]


@app.command("play", help=PLAY_HELP)
def play_command(
    auto: bool = typer.Option(False, "--auto", help="Three computer players play the match."),
    deals: str = typer.Option(
        "", "--deals", metavar="N", help="Deals: 3, 6, 9 or 18 (default: 6)."
    ),
    seed: str = typer.Option(
        "",
        "--seed",
        metavar="S",
        help="Seed of the shuffles, the first dealer and the computer players (default: random).",
    ),
    level: str = typer.Option(
        "",
        "--level",
        help="Computer players: easy (random), medium (rule of thumb) or hard (sampling); default: medium.",
    ),
    rules: str = typer.Option("", "--rules", help="house or kurnik (default: house)."),
    lang: str = typer.Option(
        "", "--lang", help="pl, cs or en (default: from the locale, else en)."
    ),
    ascii_only: bool = typer.Option(False, "--ascii", help="Write suits as S H D C, not ♠♥♦♣."),
    resume: str = typer.Option(
        "", "--resume", metavar="FILE", help="Continue a saved match ('last': the newest save)."
    ),
    record: Path | None = typer.Option(
        None, "--record", metavar="FILE", help="Write the match record (JSON) here at the end."
    ),
    no_analysis: bool = typer.Option(
        False, "--no-analysis", help="Skip the double-dummy analysis after each deal."
    ),
    analysis_time: float = typer.Option(
        DEFAULT_ANALYSIS_SECONDS,
        "--analysis-time",
        metavar="SECONDS",
        help="Time budget of each deal's analysis; the end of the deal is analysed first.",
    ),
) -> None:
    language = _language(lang)
    i18n.set_language(language)
    levels = available_levels()
    level_key = level.strip().lower()
    if level_key and level_key not in levels:
        raise CommandError(f"--level must be {' or '.join(levels)}, not {level!r}")
    symbols = _symbols_for(sys.stdout, ascii_only)
    if not can_encode_symbols(sys.stdout):
        try:  # never crash on a character the terminal can't show
            sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass

    if auto:
        if resume.strip():
            raise CommandError(
                "--resume continues a match with you at the table; it can't be combined with --auto"
            )
        match_rules = _rules(deals, rules)
        match_seed = _int_option("--seed", seed) if seed.strip() else secrets.randbelow(2**32)
        match = Match(match_rules, match_seed)
        lvl = level_key or DEFAULT_LEVEL
        typer.echo(
            t(
                "auto.start",
                deals=match_rules.length,
                seed=match_seed,
                rules=rules.strip().lower() or "house",
                level=lvl,
                names=", ".join(match.names),
            )
        )
        play_auto(match, lvl, symbols, typer.echo)
        if record is not None:
            _write_record(record, match)
            typer.echo(t("match.record", path=record), err=True)
        return

    console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    err = Console(file=sys.stderr, highlight=False, soft_wrap=True)
    if resume.strip():
        for name, value in (("--deals", deals), ("--seed", seed), ("--rules", rules)):
            if value.strip():
                raise CommandError(f"{name} can't be combined with --resume: the save fixes it")
        save_path = _resume_path(resume)
        try:
            saved = read_save(save_path)
        except SaveError as exc:
            raise CommandError(str(exc)) from None
        if saved.human is None:
            raise CommandError(f"{save_path}: this save has no human seat")
        if level_key:
            saved.level = level_key
        elif saved.level not in levels:
            raise CommandError(f"{save_path}: level {saved.level!r} is not available here")
        match = saved.match
        if match.done:
            console.print(Text(t("match.finished_already")))
            console.print(
                render_standings(match.totals, match.standings(), seat_names(saved.human))
            )
            return
        console.print(
            Text(t("match.resumed", path=save_path, number=match.number, total=match.rules.length))
        )
    else:
        match_rules = _rules(deals, rules)
        match_seed = _int_option("--seed", seed) if seed.strip() else secrets.randbelow(2**32)
        match = Match(match_rules, match_seed, ENGINE_NAMES)
        saved = SavedMatch(match, new_id(match_seed), HUMAN_SEAT, level_key or DEFAULT_LEVEL)
        save_path = saves_dir() / f"{saved.id}.json"
        names = seat_names(HUMAN_SEAT)
        console.print(
            Text(
                t(
                    "match.start",
                    deals=match_rules.length,
                    rules=t(f"rules.{match_rules.void.label}"),
                    level=t(f"level.{saved.level}"),
                    seed=match_seed,
                ),
                style="bold",
            )
        )
        console.print(Text(t("match.seats", left=names[1], right=names[2])))
        console.print(Text(t("match.first_dealer", name=names[match.first_dealer])))
        _save(saved, save_path)
    options = PlayOptions(
        save_path=save_path,
        analysis=not no_analysis,
        analysis_seconds=max(0.0, analysis_time),
        record=record,
        symbols=symbols,
        hint=lambda view: strong_hint(view),  # looked up at call time (tests replace it)
    )
    code = play_interactive(saved, options, console, err)
    if code:
        raise typer.Exit(code)
